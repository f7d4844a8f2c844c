// SPDX-License-Identifier: MIT
#include "simulatorthread.h"

namespace bullpen {

SimulatorThread::SimulatorThread()
    : m_thread(std::make_unique<QThread>())
    , m_simulator(std::make_unique<ProviderSimulator>())
{
    m_thread->setObjectName(QStringLiteral("bullpen-simulator"));
    m_simulator->moveToThread(m_thread.get());
    m_thread->start();
}

SimulatorThread::~SimulatorThread()
{
    // Its sockets and timers belong to its thread: destroy it there, then end the thread.
    ProviderSimulator *sim = m_simulator.release();
    QMetaObject::invokeMethod(
        sim, [sim] { delete sim; }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

bool SimulatorThread::start(quint16 port, QString *error, const std::optional<QSslConfiguration> &tls)
{
    bool started = false;
    ProviderSimulator *sim = m_simulator.get();
    QMetaObject::invokeMethod(
        sim,
        [sim, port, &started, error, &tls] {
            ProviderSimulator::yieldToOtherThreads();
            started = sim->start(port, error, tls);
        },
        Qt::BlockingQueuedConnection);
    return started;
}

} // namespace bullpen
