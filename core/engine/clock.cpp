// SPDX-License-Identifier: MIT
#include "clock.h"

#include <QTimer>

namespace bullpen {

namespace {

class PreciseTimer final : public Timer
{
public:
    PreciseTimer(std::chrono::milliseconds interval, std::function<void()> callback)
        : m_timer(new QTimer)
    {
        m_timer->setSingleShot(true);
        m_timer->setTimerType(Qt::PreciseTimer);
        m_timer->setInterval(interval);
        QObject::connect(m_timer, &QTimer::timeout, m_timer, std::move(callback));
        m_timer->start();
    }

    ~PreciseTimer() override
    {
        // The owner may drop the timer from inside its own timeout: never delete it synchronously there.
        m_timer->stop();
        m_timer->disconnect();
        m_timer->deleteLater();
    }

private:
    QTimer *m_timer;
};

} // namespace

Clock::time_point SteadyClock::now() const { return std::chrono::steady_clock::now(); }

std::unique_ptr<Timer> SteadyClock::arm(time_point at, std::function<void()> callback)
{
    // Round up: firing a fraction of a millisecond late is fine, firing early is not.
    auto interval = std::chrono::ceil<std::chrono::milliseconds>(at - now());
    if (interval < std::chrono::milliseconds::zero())
        interval = std::chrono::milliseconds::zero();
    return std::make_unique<PreciseTimer>(interval, std::move(callback));
}

SteadyClock &SteadyClock::instance()
{
    static SteadyClock clock;
    return clock;
}

} // namespace bullpen
