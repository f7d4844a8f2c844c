// SPDX-License-Identifier: MIT
#pragma once

#include <QMap>
#include <QString>

#include <memory>
#include <mutex>

class QThread;

namespace bullpen::test {

// A small HTTP CONNECT proxy on 127.0.0.1, on its own thread, for the proxy tests: it opens a tunnel
// per CONNECT and relays bytes both ways, refuses anything else (405), and counts, per target
// ("host:port"): tunnels opened, tunnels closed, and the HTTP requests that went through them (request
// lines seen in the client's bytes: the tunnels carry plain http to the loopback simulator).
class ConnectProxy final
{
public:
    struct Target
    {
        int tunnels = 0;
        int closed = 0;
        int requests = 0;
    };

    ConnectProxy();
    ~ConnectProxy();
    bool start(QString *error);
    quint16 port() const { return m_port; }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_port); }

    QMap<QString, Target> targets() const;
    Target target(const QString &hostPort) const { return targets().value(hostPort); }
    int refused() const; // requests that were not CONNECT

    class Worker;

private:
    friend class Worker;
    std::unique_ptr<QThread> m_thread;
    Worker *m_worker = nullptr;
    quint16 m_port = 0;
    mutable std::mutex m_mutex;
    QMap<QString, Target> m_targets;
    int m_refused = 0;
};

} // namespace bullpen::test
