// SPDX-License-Identifier: MIT
#pragma once

#include "contract/recordtext.h"
#include "engineendpoint.h"
#include "pipeline/engineclient.h"
#include "providers/sseparser.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QPointer>
#include <QSet>
#include <QTimer>

class QNetworkAccessManager;
class QNetworkReply;

namespace bullpen {

// A running bullpen-engine as an EngineClient (docs/contract.md §12, docs/api.md): start and cancel over HTTP, every
// event of every generation from its event stream (GET /v1/events), and the final result of each
// generation started through this client (GET /v1/generations/{id}). One QNetworkAccessManager on the
// caller's thread; every request has a timeout.
//
// The stream is resumed after a dropped connection from the last event id received, with a jittered
// backoff (0.25 s doubling to 10 s). When the engine cannot continue from that id (it restarted, or the
// gap is older than what it keeps), this client asks the engine for the result of each generation it
// is still waiting for, so that none is left without its final state: an engine that restarted reports
// what it found (ABANDONED for work its previous run left running; docs/contract.md §11.10).
class RemoteEngine final : public EngineClient
{
    Q_OBJECT
public:
    enum class State { Connecting, Connected, Reconnecting, Refused };
    Q_ENUM(State)

    explicit RemoteEngine(EngineEndpoint endpoint, QObject *parent = nullptr);
    ~RemoteEngine() override;

    // Opens the event stream and reads the engine's configuration (configReceived).
    void connectToEngine();

    QString start(const GenerationRequest &request) override;
    // A request body as the API takes it (docs/api.md); what it leaves out is the engine's own
    // setting. A generation_id is added when it has none. Returns that id.
    QString startBody(QJsonObject body);
    bool cancel(const QString &generationId) override;
    int activeCount() const override { return static_cast<int>(m_pending.size()); }
    // "48 waiting for a result: 0 posting, 3 being asked for" (a stalled client says what it waits on).
    QString pendingSummary() const;

    State state() const { return m_state; }
    // For the status bar: "connected to http://… (instance a:8700, 0.1.0)", "reconnecting since 10:42:07 (…)".
    QString describeState() const;
    const EngineEndpoint &endpoint() const { return m_endpoint; }
    QJsonObject config() const { return m_config; }
    // Also fetch each result's comic (GET /v1/images/{sha256}) into the result before it is delivered,
    // for a console that shows it (the engine's file path means nothing on this machine).
    void setFetchImages(bool on) { m_fetchImages = on; }
    // One more request on this client's connection to the engine (path under the base, a query, JSON
    // body); the caller reads and deletes the reply. A query goes in `query`, never in `path` (a `?`
    // in a path is sent as %3F: the engine answers 404).
    QNetworkReply *get(const QString &path, const QUrlQuery &query = {});
    QNetworkReply *post(const QString &path, const QJsonObject &body);
    QNetworkReply *deleteResource(const QString &path);

Q_SIGNALS:
    void stateChanged(bullpen::RemoteEngine::State state);
    void configReceived(const QJsonObject &config);
    // A notice on the engine's event stream: a breaker of that engine changed, or it learnt of a drain
    // (breaker_opened, breaker_half_open, breaker_closed, provider_drained, provider_restored).
    void noticeReceived(const QString &type, const QJsonObject &notice);
    // The engine refused to start a generation (startBody) with a 4xx other than 429: the token's role,
    // a bad request, a body too large. The generation then finishes failed, as not started; a front end
    // says what the engine said (its status and message) instead of a fault of its own.
    void startRefused(const QString &generationId, int status, const QString &message);

private:
    void openStream();
    void onStreamData();
    void onStreamEnded();
    void scheduleReconnect(const QString &why);
    void setState(State state, const QString &detail);
    void fetchResult(const QString &id, int attempt = 0);
    void reconcile();
    void failUnreached(const QString &id, const QString &why);
    // A generation the engine did not run (refused, not reached, no record): failed with `kind`, its
    // next step `step` naming the engine (never a provider).
    void fail(const QString &id, FailureKind kind, const QString &detail, std::optional<std::chrono::milliseconds> retryAfter = {},
              RecordText step = RecordText::StepEngineRefused);
    void fetchConfig();

    EngineEndpoint m_endpoint;
    QNetworkAccessManager *m_network;
    QPointer<QNetworkReply> m_stream;
    SseParser m_parser;
    QByteArray m_lastEventId;
    QSet<QString> m_pending; // started here, no result delivered yet
    QSet<QString> m_fetching; // results being asked for
    QHash<QString, qint64> m_lastHeard; // pending generation → when its last event came (m_monotonic ms)
    QElapsedTimer m_monotonic; // silence is measured on it, never on the wall clock
    QTimer m_silence; // askSilent, every few seconds
    void askSilent();
    QSet<QString> m_posting; // started, the engine's answer to the POST not yet in
    QSet<QString> m_askAfterPost;
    State m_state = State::Connecting;
    QDateTime m_stateSince;
    QString m_stateDetail;
    QJsonObject m_config;
    QTimer m_reconnect;
    int m_backoffStep = 0;
    bool m_closing = false;
    bool m_fetchImages = false;
    void deliver(GenerationResult result);
};

} // namespace bullpen
