// SPDX-License-Identifier: MIT
#pragma once

#include "providersimulator.h"

#include <QThread>

#include <memory>

namespace bullpen {

// A ProviderSimulator serving from a thread of its own at lowered CPU priority, so that the provider's
// side of every exchange never competes with an engine's deadlines for the engine's event loop (a real
// provider is another machine). Its thread-safe calls (scenario, roles, counters) work from anywhere.
class SimulatorThread final
{
public:
    SimulatorThread();
    ~SimulatorThread(); // the simulator is destroyed on its thread, then the thread ends
    SimulatorThread(const SimulatorThread &) = delete;
    SimulatorThread &operator=(const SimulatorThread &) = delete;

    // port 0: any free one; with `tls`, HTTPS. False with the reason in *error.
    bool start(quint16 port, QString *error, const std::optional<QSslConfiguration> &tls = std::nullopt);
    ProviderSimulator &simulator() const { return *m_simulator; }

private:
    std::unique_ptr<QThread> m_thread;
    std::unique_ptr<ProviderSimulator> m_simulator;
};

} // namespace bullpen
