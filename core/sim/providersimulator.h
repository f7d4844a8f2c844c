// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"
#include "contract/providertable.h"
#include "contract/storyboard.h"
#include "scenario.h"
#include "simwire.h"

#include <QAbstractHttpServer>
#include <QHash>
#include <QHostAddress>
#include <QJsonObject>
#include <QMutex>
#include <QPointer>
#include <QRandomGenerator64>
#include <QSslConfiguration>
#include <QTcpSocket>
#include <QTimer>
#include <QUrl>

#include <functional>
#include <map>
#include <memory>
#include <optional>

class QThreadPool;

namespace bullpen {

class CappedTcpServer;

// The provider simulator (docs/contract.md §8): a real HTTP/1.1 server on 127.0.0.1 speaking the Gemini, OpenAI,
// DashScope-compatible and Anthropic formats, scripted per provider and per request by a Scenario.
// Responses are written by hand on the socket, so that it can drip, cut a stream, or close a
// connection without a byte; every delayed write first checks that the client is still there.
//
// It may serve from a thread of its own (EngineSetup runs the embedded one so, off the engine's threads):
// setRequiredKey, setScenario, setRoles, scenario, counters, countersJson and resetCounters are safe from
// any thread;
// start() and everything else belong to the thread the simulator lives in.
class ProviderSimulator final : public QAbstractHttpServer
{
    Q_OBJECT
public:
    static constexpr qint64 kMaxRequestBytes = 1024 * 1024 + 16 * 1024; // 1 MiB body plus its head

    // With a key, every request must carry it (the provider's own key header, or x-sim-key for
    // /_sim/*); others get 401. Without one, any key is accepted (a simulator for tests and SDKs).
    void setRequiredKey(const QByteArray &key)
    {
        const QMutexLocker lock(&m_lock);
        m_key = key;
    }

    struct Counters
    {
        int requests = 0; // requests received (docs/contract.md §11.1 counts these)
        int answered = 0; // responses finished
        int closedByClient = 0; // connections the client closed while we still owed an answer
        // When the last request arrived, on the system's monotonic clock (CLOCK_MONOTONIC, the same in
        // every process on the machine): lets a benchmark in another process time its requests' arrival.
        qint64 lastRequestMonotonicNs = 0;
        QStringList lastHeaders; // the last request's header names, lower case (what a provider would see)
        QString lastQuery; // and its query
        QJsonObject toJson() const;
    };

    explicit ProviderSimulator(QObject *parent = nullptr);
    ~ProviderSimulator() override;

    // Lowers the calling thread's CPU priority (nice +10, engine/backgroundthread.h). The embedded simulator's thread and its
    // painters run so: on a machine with few cores, the provider's side of an exchange must not take
    // CPU time the engine's deadlines need (a real provider is another machine).
    static void yieldToOtherThreads();

    // port 0: pick a free one. Returns false and says why in *error. With `tls` (loadServerTls), it
    // serves HTTPS, as real providers do: a proxy then sees one tunnel per connection Qt keeps open.
    bool start(quint16 port = 0, QString *error = nullptr, const std::optional<QSslConfiguration> &tls = std::nullopt);
    quint16 port() const { return m_port; }
    // The base URL an adapter for `provider` should use.
    QUrl baseUrl(Provider provider) const;

    // The providers it plays, each at its simulatorPath() in its own dialect: the built-ins until an
    // engine gives its own table (EngineSetup, with the providers its settings add).
    void setProviders(const ProviderTable &providers);
    std::shared_ptr<const ProviderTable> providers() const;

    void setScenario(const Scenario &scenario);
    Scenario scenario() const;
    // Which providers play the "primary" and "fallback" roles of a scenario.
    void setRoles(Provider primary, std::optional<Provider> fallback);

    // Scenarios' phases (SimPhase) are timed from the first request under each scenario, on this
    // clock (ms, monotonic; a steady clock unless a test sets its own). resetCounters() restarts them.
    void setClock(std::function<qint64()> msNow);

    Counters counters(Provider provider) const;
    QJsonObject countersJson() const;
    void resetCounters();

Q_SIGNALS:
    void requestReceived(bullpen::Provider provider, int index);
    void clientClosed(bullpen::Provider provider);

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override;
    // The provider whose simulated endpoint `path` is (every provider it plays, at its simulator path).
    std::optional<Provider> route(const QString &path, QString *model) const;
    void missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) override;

private:
    struct Exchange;
    enum class Kind { Storyboard, Captions, Image };
    // What one request asked for: a built-in scenario and who plays primary and fallback in it.
    struct RequestScript
    {
        const Scenario *scenario = nullptr; // null: m_scenario
        std::optional<Provider> primary; // unset: m_primary / m_fallback
        std::optional<Provider> fallback;
    };
    SimBehaviour pick(Provider provider, int index, Kind kind, const RequestScript &asked);
    bool handleControl(const QHttpServerRequest &request, QTcpSocket *socket);
    bool readScript(const QHttpServerRequest &request, QTcpSocket *socket, RequestScript *asked);
    int count(Provider provider, const QHttpServerRequest &request);
    const Scenario *namedScenario(const QString &name);
    void respond(Provider provider, Kind kind, const SimBehaviour &behaviour, const QString &story, const QString &model, bool stream,
                 QPointer<QTcpSocket> socket);
    // One request's answer as respond() and its helpers write it.
    struct Reply
    {
        Provider provider;
        WireDialect dialect; // the provider's, in this simulator's table
        QString model;
        bool stream = false;
        QPointer<QTcpSocket> socket;
        TokenUsage usage;
    };
    void drawImage(const Reply &reply, const Storyboard &board, SimBehaviour::Action action);
    void writeText(const Reply &reply, const SimBehaviour &b, const QString &text, SimWire::Ending ending);
    void writeMalformed(const Reply &reply, const SimBehaviour &b, const QString &text);
    void writeError(const Reply &reply, const SimBehaviour &b, const QString &name, int status, int retryAfter);
    void watch(Provider provider, QTcpSocket *socket);
    void onSocketGone();
    void pollOwed();
    void finished(Provider provider, QTcpSocket *socket);
    // With a provider, the reply carries that provider's request id header.
    void writeJson(QTcpSocket *socket, int status, const QByteArray &body, const QList<QPair<QByteArray, QByteArray>> &headers = {},
                   std::optional<Provider> provider = std::nullopt, const QByteArray &contentType = "application/json");
    // How a written stream ends: its end marker, a cut before it (the connection closes), or never (held open).
    enum class StreamEnd { Finish, Cut, Hold };
    void writeDrippedJson(Provider provider, QPointer<QTcpSocket> socket, const QByteArray &body, int intervalMs);
    void writeCutOrStall(Provider provider, QPointer<QTcpSocket> socket, const SimBehaviour &b, const QList<QByteArray> &events);
    void writeCutBody(Provider provider, QPointer<QTcpSocket> socket, const SimBehaviour &b, const QByteArray &body);
    void writeChunkedStream(Provider provider, QPointer<QTcpSocket> socket, QList<QByteArray> events, int intervalMs, StreamEnd end);

    // The dialect `provider` speaks here (the table's).
    WireDialect speaks(Provider provider) const { return providers()->dialect(provider); }
    bool carriesCredentials(const QHttpServerRequest &request, Provider provider) const;
    QByteArray requestIdLine(Provider provider) const;

    mutable QMutex m_providersLock; // guards m_providers alone: it is read while m_lock is held
    std::shared_ptr<const ProviderTable> m_providers;
    mutable QMutex m_lock; // guards the scenario, roles, counters and random streams (any thread reads them)
    Scenario m_scenario;
    std::map<QString, Scenario> m_named; // built-in scenarios requests asked for by name, loaded once
    Provider m_primary = Provider::Gemini;
    std::optional<Provider> m_fallback = Provider::Qwen;
    std::map<Provider, Counters> m_counters;
    // Sockets still waiting for an answer. QAbstractHttpServer may drop every signal connection of a
    // socket whose peer closed, so closes are also found by polling the socket state.
    std::map<QTcpSocket *, std::pair<QPointer<QTcpSocket>, Provider>> m_owed;
    QTimer *m_pollTimer = nullptr;
    std::map<Provider, QRandomGenerator64> m_random;
    std::function<qint64()> m_clock;
    std::map<QString, qint64> m_phaseOrigin; // scenario name → its first request, on m_clock
    quint16 m_port = 0;
    bool m_https = false;
    bool carriesKey(const QHttpServerRequest &request) const;
    QByteArray m_key;
    CappedTcpServer *m_server = nullptr; // a child
    QThreadPool *m_painters = nullptr; // draws comics off the simulator's loop
};

} // namespace bullpen
