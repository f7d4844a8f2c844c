// SPDX-License-Identifier: MIT
#include "clock.h"

#include <QObject>
#include <QPointer>
#include <QSocketNotifier>
#include <QThreadStorage>
#include <QTimer>

#include <cerrno>
#include <cstring>
#include <map>
#include <optional>
#include <sys/timerfd.h>
#include <unistd.h>

namespace bullpen {

using namespace std::chrono;

namespace {

// One per thread that arms timers: the thread's timers in two ordered maps and one timer set for the
// earliest of them. The timer is a Linux timerfd on CLOCK_MONOTONIC (the clock std::chrono::steady_clock
// reads) with an absolute expiry: it wakes the event loop within microseconds of the time, where a
// QTimer counts whole milliseconds twice (our rounding up, then the poll timeout's) and so fires ~1 ms
// late on average. Without a timerfd, a Qt::PreciseTimer does the job.
class TimerQueue final : public QObject
{
public:
    using Key = std::pair<Clock::time_point, quint64>;
    static constexpr auto kWorkSlice = 1ms; // then the event loop gets a turn

    TimerQueue()
    {
        m_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
        if (m_fd >= 0) {
            m_notifier = new QSocketNotifier(m_fd, QSocketNotifier::Read, this);
            QObject::connect(m_notifier, &QSocketNotifier::activated, this, [this] {
                quint64 expirations = 0;
                if (::read(m_fd, &expirations, sizeof expirations) < 0 && errno != EAGAIN)
                    qWarning("bullpen: reading the deadline timer failed: %s", strerror(errno));
                m_fdArmedFor.reset();
                sweep();
            });
        } else {
            m_timer.setSingleShot(true);
            m_timer.setTimerType(Qt::PreciseTimer);
            QObject::connect(&m_timer, &QTimer::timeout, this, [this] {
                m_fdArmedFor.reset();
                sweep();
            });
        }
    }

    ~TimerQueue() override
    {
        delete m_notifier;
        if (m_fd >= 0)
            ::close(m_fd);
    }

    static TimerQueue &forThisThread()
    {
        static QThreadStorage<TimerQueue *> queues; // deleted with the thread
        if (!queues.hasLocalData())
            queues.setLocalData(new TimerQueue);
        return *queues.localData();
    }

    Key add(Clock::time_point at, std::function<void()> callback, TimerUrgency urgency)
    {
        const Key key { at, m_next++ };
        entries(urgency).emplace(key, std::move(callback));
        if (!m_sweeping)
            rearm();
        return key;
    }

    void remove(const Key &key, TimerUrgency urgency)
    {
        entries(urgency).erase(key);
        if (!m_sweeping && m_deadlines.empty() && m_work.empty())
            disarm();
    }

private:
    std::map<Key, std::function<void()>> &entries(TimerUrgency urgency) { return urgency == TimerUrgency::Deadline ? m_deadlines : m_work; }

    static bool due(const std::map<Key, std::function<void()>> &map, Clock::time_point now)
    {
        return !map.empty() && map.begin()->first.first <= now;
    }

    // A callback may run a nested event loop (a modal dialog on an engine that runs on the GUI thread):
    // the timers keep firing inside it, in a sweep of its own, and the outer sweep is still one when
    // the inner ends.
    void sweep()
    {
        const bool outer = !m_sweeping;
        m_sweeping = true;
        const auto sliceEnd = steady_clock::now() + kWorkSlice;
        for (;;) {
            auto now = steady_clock::now();
            // Every due deadline first: each is an abort, a few microseconds.
            while (due(m_deadlines, now)) {
                auto node = m_deadlines.extract(m_deadlines.begin());
                node.mapped()(); // may add or remove timers
                now = steady_clock::now();
            }
            if (!due(m_work, now) || now >= sliceEnd)
                break;
            auto node = m_work.extract(m_work.begin());
            node.mapped()();
        }
        m_sweeping = !outer;
        rearm();
    }

    void rearm()
    {
        std::optional<Clock::time_point> next;
        if (!m_deadlines.empty())
            next = m_deadlines.begin()->first.first;
        if (!m_work.empty() && (!next || m_work.begin()->first.first < *next))
            next = m_work.begin()->first.first;
        if (!next) {
            disarm();
            return;
        }
        if (*next <= steady_clock::now()) {
            // Already due (a run's first step is armed for now): a sweep posted to this thread's event
            // loop, where setting the timerfd to a time past would fire inside the system call (tens of
            // microseconds under a hypervisor). A timerfd still set for a later timer stays so.
            if (!m_posted) {
                m_posted = true;
                QMetaObject::invokeMethod(
                    this,
                    [this] {
                        m_posted = false;
                        sweep();
                    },
                    Qt::QueuedConnection);
            }
            return;
        }
        if (m_fdArmedFor == *next)
            return;
        m_fdArmedFor = *next;
        if (m_fd >= 0) {
            const auto ns = duration_cast<nanoseconds>(next->time_since_epoch()).count(); // absolute CLOCK_MONOTONIC
            itimerspec spec {};
            spec.it_value.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
            spec.it_value.tv_nsec = static_cast<long>(ns % 1'000'000'000);
            if (timerfd_settime(m_fd, TFD_TIMER_ABSTIME, &spec, nullptr) != 0)
                qWarning("bullpen: setting the deadline timer failed: %s", strerror(errno));
            return;
        }
        // Round up: firing a fraction of a millisecond late is fine, firing early is not.
        auto interval = ceil<milliseconds>(*next - steady_clock::now());
        m_timer.start(std::max(interval, 0ms));
    }

    void disarm()
    {
        if (!m_fdArmedFor)
            return;
        m_fdArmedFor.reset();
        if (m_fd >= 0) {
            const itimerspec off {};
            timerfd_settime(m_fd, 0, &off, nullptr);
        } else {
            m_timer.stop();
        }
    }

    std::map<Key, std::function<void()>> m_deadlines;
    std::map<Key, std::function<void()>> m_work;
    int m_fd = -1;
    QSocketNotifier *m_notifier = nullptr;
    QTimer m_timer; // only without a timerfd
    std::optional<Clock::time_point> m_fdArmedFor; // the timerfd's (or QTimer's) expiry while set
    quint64 m_next = 0;
    bool m_sweeping = false;
    bool m_posted = false; // a sweep is posted to this thread's event loop, for timers already due
};

class QueuedTimer final : public Timer
{
public:
    QueuedTimer(TimerQueue &queue, TimerQueue::Key key, TimerUrgency urgency)
        : m_queue(&queue)
        , m_key(key)
        , m_urgency(urgency)
    {
    }
    ~QueuedTimer() override
    {
        if (m_queue) // gone only if its thread ended first
            m_queue->remove(m_key, m_urgency);
    }

private:
    QPointer<TimerQueue> m_queue;
    TimerQueue::Key m_key;
    TimerUrgency m_urgency;
};

} // namespace

Clock::time_point SteadyClock::now() const
{
    return steady_clock::now();
}

std::unique_ptr<Timer> SteadyClock::schedule(time_point at, std::function<void()> callback, TimerUrgency urgency)
{
    TimerQueue &queue = TimerQueue::forThisThread();
    const TimerQueue::Key key = queue.add(at, std::move(callback), urgency);
    return std::make_unique<QueuedTimer>(queue, key, urgency);
}

SteadyClock &SteadyClock::instance()
{
    static SteadyClock clock;
    return clock;
}

} // namespace bullpen
