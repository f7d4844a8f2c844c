// SPDX-License-Identifier: MIT
#pragma once

#include <QMutex>
#include <QObject>
#include <QThread>
#include <QUrl>

#include <map>
#include <memory>
#include <optional>

namespace bullpen {

class ProxyRoutes;

// Bounds on what one provider response may send before its body (docs/hostile-providers.md).
struct GuardLimits
{
    qsizetype maxHeadBytes = 64 * 1024; // status line and header lines of one response
    int maxInterimResponses = 8; // 1xx heads before the final one
    qint64 maxBufferedBytes = 256 * 1024; // read-ahead per connection while the engine is behind
    // Body bytes passed to Qt per response: a little over the adapters' 8 MiB cap, so that they see
    // "too large" and say so, while Qt (which may read a fast body in a loop without looking at its
    // read-buffer limit) never holds more than this.
    qint64 maxBodyBytes = 8 * 1024 * 1024 + 64 * 1024;
};

// Names the guard writes on its own answers; a copy sent by a provider is removed before Qt sees it.
inline constexpr char kGuardHeader[] = "X-Bullpen-Guard"; // the guard's verdict code
inline constexpr char kGuardReachedHeader[] = "X-Bullpen-Guard-Reached"; // "1" when the request reached the provider
inline constexpr int kListenBacklog = 4096; // pending connections to the relay (the kernel clamps to somaxconn)

// Why the guard exists. Qt 6.4 reads a plain-HTTP response head one byte per read(2) straight from
// the kernel (its HTTP sockets are unbuffered) and loops for as long as a byte is there: a provider
// that sends endless "100 Continue" heads, header lines or one endless line faster than ~1 MB/s keeps
// QNetworkAccessManager's thread in that loop for ever. Nothing queued to that thread runs again: not
// the deadline's abort (the connection stays open), not the fallback request (never sent), not the
// thread's quit (the process hangs 5 s at exit); an endless line also grows without bound in Qt.
//
// So for http:// endpoints the adapters talk to this relay on 127.0.0.1 instead, on a thread of its
// own that reads in bounded chunks and returns to its event loop after each one. Per connection it
// forwards Bullpen's requests exchange by exchange (Host rewritten; keep-alive on both legs while every
// message's end is known, a provider connection idle over 2 s not reused), and holds each response
// head until it is complete: interim 1xx heads are dropped and counted, a head over the limit, too
// many interim heads or bytes that are not HTTP end the connection to the provider at once and give
// Qt a short 502 of the guard's own (X-Bullpen-Guard: <code>), which the classifier reads. The body
// passes through with back-pressure. When Qt closes its side (deadline, cancel), the provider's
// connection is closed in the same turn of the guard's loop.
//
// https:// endpoints go to the provider directly: there Qt reads decrypted bytes from a buffer that is
// refilled once per turn of its loop, so a flood cannot keep that thread from its queue.
class EgressGuard final : public QObject
{
    Q_OBJECT
public:
    explicit EgressGuard(GuardLimits limits = {}, QObject *parent = nullptr);
    ~EgressGuard() override;

    // The loopback base URL that relays to `upstream` (an http:// URL; path and query kept), or
    // nothing with *error set when no listener could be opened.
    std::optional<QUrl> route(const QUrl &upstream, QString *error = nullptr);
    // The proxy routes its relays follow, and in which they are direct origins (its engine's; none,
    // so direct, until set). Set before the first route().
    void setProxyRoutes(std::shared_ptr<ProxyRoutes> routes) { m_routes = std::move(routes); }

    // Counters for tests and soak (all connections, since start).
    struct Stats
    {
        int connections = 0;
        int violations = 0;
        int closedByEngine = 0; // Qt closed its side first; the provider's connection was then closed
    };
    Stats stats() const;

private:
    friend class GuardRelay;
    friend class GuardedConnection;
    void count(void (*bump)(Stats &));

    GuardLimits m_limits;
    std::shared_ptr<ProxyRoutes> m_routes;
    QThread m_thread;
    std::map<QString, quint16> m_ports; // "host:port" → local port
    QObject *m_home = nullptr; // lives on m_thread; parent of every listener
    mutable QMutex m_mutex;
    Stats m_stats;
};

} // namespace bullpen
