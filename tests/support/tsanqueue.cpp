// SPDX-License-Identifier: MIT
// ThreadSanitizer and Qt's event queue: linked into every suite of the `tsan` preset
// (BULLPEN_TSAN_QT_QUEUE, on there; tests/README.md, "ThreadSanitizer", has what it was measured to do).
//
// Debian's Qt is not built with ThreadSanitizer: a queued call or signal is handed from one thread to
// another through a QMutex inside libQt6Core, where ThreadSanitizer sees no lock, so every value handed
// over that way (a queued lambda's captures, a signal's arguments, a reply's bytes from Qt's network
// thread) would be reported as a race. This file tells ThreadSanitizer what Qt guarantees, where a
// hand-over leaves code it can hook and where it enters code it can hook, keyed per receiving thread:
//   - a post releases the receiver's thread: invokeMethod, singleShot and postEvent (these symbols,
//     defined here, take the place of Qt's for the executable, and for Qt's own library where it calls
//     them through the PLT, as a queued signal's post does), and every wake-up of a thread's GLib main
//     context (g_main_context_wakeup, which Qt calls after a post);
//   - every event delivered (QInternal's EventNotifyCallback, on the receiving thread, before the
//     receiver runs) acquires its thread and its GLib context;
//   - a functor handed to invokeMethod releases its thread and itself when it returns, which a caller
//     blocked on it (Qt::BlockingQueuedConnection) and whichever thread drops it last acquire;
//   - QThreadPool::start(std::function) releases a key its task acquires before it runs;
//   - a thread's end releases it, and QThread::wait acquires it.
// The stage shows this orders no real race away: a race seeded between those threads
// (core/engine/tsanseed.h) must still be reported (scripts/tsan.sh).
#include <QCoreApplication>
#include <QMetaObject>
#include <QThread>
#include <QThreadPool>
#include <QThreadStorage>
#include <QTimer>

#include <dlfcn.h>
#include <sanitizer/tsan_interface.h>

namespace {

template<typename Fn> Fn real(const char *mangled)
{
    void *symbol = dlsym(RTLD_NEXT, mangled);
    if (!symbol)
        qFatal("tsanqueue: %s not found in Qt; the hand-over model needs updating for this Qt version", mangled);
    return reinterpret_cast<Fn>(symbol);
}

// A thread's queue, as the poster names it (the receiver's QThread) and as Qt's wake-up names it (the
// thread's GLib main context).
void *glibDefault()
{
    static const auto main = real<void *(*)()>("g_main_context_default");
    return main();
}

void *glibQueue()
{
    static const auto own = real<void *(*)()>("g_main_context_get_thread_default");
    void *context = own();
    return context ? context : glibDefault();
}

// Released by a thread's end (QThread::wait below).
class ThreadEnd
{
public:
    explicit ThreadEnd(QThread *thread)
        : m_thread(thread)
    {
    }
    ~ThreadEnd() { __tsan_release(m_thread); }

private:
    QThread *m_thread;
};

bool delivered(void **)
{
    static QThreadStorage<ThreadEnd *> ends;
    if (!ends.hasLocalData())
        ends.setLocalData(new ThreadEnd(QThread::currentThread()));
    __tsan_acquire(QThread::currentThread());
    __tsan_acquire(glibQueue());
    return false; // the event is delivered as usual
}

[[maybe_unused]] const bool installed = QInternal::registerCallback(QInternal::EventNotifyCallback, delivered);

// A functor handed to invokeMethod, as ThreadSanitizer must see it: run on the receiver's thread after
// what the caller wrote, and, when it returns, released to a caller blocked on it
// (Qt::BlockingQueuedConnection, a semaphore inside Qt).
class Released final : public QtPrivate::QSlotObjectBase
{
public:
    explicit Released(QtPrivate::QSlotObjectBase *inner)
        : QSlotObjectBase(&impl)
        , m_inner(inner)
    {
    }

private:
    static void impl(int which, QSlotObjectBase *self, QObject *receiver, void **args, bool *ret)
    {
        __tsan_acquire(QThread::currentThread()); // what the caller wrote into `self` before posting it
        auto *that = static_cast<Released *>(self);
        if (which == Destroy) {
            // The last of the event and a caller blocked on it drops the functor, on either thread:
            // after the call, whichever thread ran it.
            __tsan_acquire(that);
            that->m_inner->destroyIfLastRef();
            delete that;
        } else if (which == Call) {
            that->m_inner->call(receiver, args);
            __tsan_release(QThread::currentThread());
            __tsan_release(that);
        } else if (ret) {
            *ret = false;
        }
    }

    QtPrivate::QSlotObjectBase *m_inner;
};

} // namespace

extern "C" void g_main_context_wakeup(void *context)
{
    __tsan_release(context ? context : glibDefault());
    static const auto wake = real<void (*)(void *)>("g_main_context_wakeup");
    wake(context);
}

bool QMetaObject::invokeMethodImpl(QObject *object, QtPrivate::QSlotObjectBase *slot, Qt::ConnectionType type, void *ret)
{
    static const auto invoke = real<bool (*)(QObject *, QtPrivate::QSlotObjectBase *, Qt::ConnectionType, void *)>(
        "_ZN11QMetaObject16invokeMethodImplEP7QObjectPN9QtPrivate15QSlotObjectBaseEN2Qt14ConnectionTypeEPv");
    auto *released = new Released(slot);
    QThread *receiver = object ? object->thread() : nullptr;
    if (receiver)
        __tsan_release(receiver);
    const bool invoked = invoke(object, released, type, ret);
    if (receiver && type == Qt::BlockingQueuedConnection)
        __tsan_acquire(receiver); // what the functor wrote
    return invoked;
}

void QTimer::singleShotImpl(int msec, Qt::TimerType timerType, const QObject *receiver, QtPrivate::QSlotObjectBase *slot)
{
    if (receiver)
        __tsan_release(receiver->thread());
    static const auto shot = real<void (*)(int, Qt::TimerType, const QObject *, QtPrivate::QSlotObjectBase *)>(
        "_ZN6QTimer14singleShotImplEiN2Qt9TimerTypeEPK7QObjectPN9QtPrivate15QSlotObjectBaseE");
    shot(msec, timerType, receiver, slot);
}

// QThreadPool::start(std::function): the pool's queue is a QMutex inside libQt6Core, so what the caller
// wrote before start() and the task reads when it runs on a pool thread look unordered. Every start()
// releases one key that every task acquires before it reads anything of its own (one key for every
// pool: it orders a start before every task run after it, more than Qt promises, never less). The task
// is a QRunnable of ours: Qt reads its vtable and calls run(), whose first act is the acquire.
namespace {

const char poolKey = 0;

class PoolTask final : public QRunnable
{
public:
    explicit PoolTask(std::function<void()> run)
        : m_run(std::move(run))
    {
    }
    void run() override
    {
        __tsan_acquire(const_cast<char *>(&poolKey));
        m_run();
    }

private:
    std::function<void()> m_run;
};

} // namespace

void QThreadPool::start(std::function<void()> functionToRun, int priority)
{
    auto *task = new PoolTask(std::move(functionToRun));
    __tsan_release(const_cast<char *>(&poolKey));
    start(task, priority);
}

// QThread::wait: the thread's end reaches the waiter through a QWaitCondition inside libQt6Core. Each
// thread that has had an event delivered keeps a QThreadStorage entry whose deleter runs at the thread's
// end, after its deferred deletes and before Qt wakes the waiters: it releases the thread, and a wait
// that saw the thread end acquires it.
bool QThread::wait(QDeadlineTimer deadline)
{
    static const auto wait = real<bool (*)(QThread *, QDeadlineTimer)>("_ZN7QThread4waitE14QDeadlineTimer");
    const bool ended = wait(this, deadline);
    if (ended)
        __tsan_acquire(this);
    return ended;
}

void QCoreApplication::postEvent(QObject *receiver, QEvent *event, int priority)
{
    if (receiver)
        __tsan_release(receiver->thread());
    static const auto post = real<void (*)(QObject *, QEvent *, int)>("_ZN16QCoreApplication9postEventEP7QObjectP6QEventi");
    post(receiver, event, priority);
}
