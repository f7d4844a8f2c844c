// SPDX-License-Identifier: MIT
#pragma once

#include "engineendpoint.h"
#include "history/historyreader.h"

#include <QElapsedTimer>
#include <QThread>

#include <future>
#include <mutex>

class QNetworkAccessManager;

namespace bullpen {

// The history of a running bullpen-engine (GET /v1/history…, /v1/stats/…, /v1/comparisons…), read
// through the same interface as the local store, so that every console view works attached exactly as
// embedded. Calls block, as HistoryReader's do (a console makes them from its reader thread); the
// requests themselves run on a network thread of this object's own, so a blocked caller never spins a
// nested event loop. Each request has the endpoint's timeout; a failure is said in *error.
class RemoteHistory final : public HistoryReader
{
public:
    explicit RemoteHistory(EngineEndpoint endpoint);
    ~RemoteHistory() override;

    QString location() const override;
    QList<GenerationRow> generations(const HistoryFilter &filter, int limit, QString *error = nullptr) override;
    std::optional<GenerationRow> generation(const QString &id, QString *error = nullptr) override;
    qint64 count(const HistoryFilter &filter, QString *error = nullptr) override;
    std::optional<qint64> oldestGenerationMs(QString *error = nullptr) override;
    QList<std::pair<QString, qint64>> countBy(HistoryGroup group, const HistoryFilter &filter, QString *error = nullptr) override;
    std::optional<Spend> spend(qint64 fromMs, qint64 toMs, QString *error = nullptr) override;
    std::optional<TuneReport> tune(Stage stage, qint64 fromMs, qint64 toMs, const QList<TuneCandidate> &candidates,
                                   const TuneCandidate &today, QString *error = nullptr) override;
    QList<RateBucket> fallbackRate(qint64 fromMs, qint64 toMs, qint64 bucketMs, QString *error = nullptr,
                                   const HistoryFilter &scope = {}) override;
    QList<QJsonObject> events(const QString &generationId, QString *error = nullptr) override;
    QList<QJsonObject> attempts(const QString &generationId, QString *error = nullptr) override;
    QList<LatencySample> latencySamples(Provider provider, Role role, qint64 fromMs, qint64 toMs, QString *error = nullptr,
                                        std::optional<Stage> stage = std::nullopt) override;
    QList<FallbackWait> fallbackWaits(Stage stage, qint64 fromMs, qint64 toMs, QString *error = nullptr) override;
    QList<DurationCell> latencyHistogram(Provider provider, Role role, Stage stage, qint64 fromMs, qint64 toMs, qint64 bucketMs,
                                         QString *error = nullptr) override;
    QList<ProviderHealth> providerHealth(qint64 fromMs, qint64 toMs, QString *error = nullptr) override;
    QList<FallbackWaitCell> fallbackWaitHistogram(Stage stage, qint64 fromMs, qint64 toMs, qint64 bucketMs,
                                                  QString *error = nullptr) override;
    QList<ComparisonRow> comparisons(int limit, std::optional<qint64> beforeMs = std::nullopt, const QString &beforeId = {},
                                     QString *error = nullptr) override;
    std::optional<ComparisonRow> comparison(const QString &id, QString *error = nullptr) override;
    void releaseThreadConnection() override { }

    struct Answer
    {
        int status = 0; // 0: no HTTP answer (refused, timed out)
        QByteArray body;
        QString error; // empty on a 2xx answer
    };
    // One GET, blocking the caller until it is answered or times out.
    Answer get(const QString &path, const QUrlQuery &query = {});
    // The same for a JSON object: nullopt with the reason in *error (a 404 is an empty object when
    // `notFoundIsEmpty`).
    std::optional<QJsonObject> getObject(const QString &path, const QUrlQuery &query, QString *error, bool notFoundIsEmpty = false);

private:
    // GET /v1/history/{id}: the row, attempts and events in one answer. A detail pane asks for the row,
    // then the events, then perhaps the attempts of the same generation: one request serves all three
    // (an answer is reused for one second).
    std::optional<QJsonObject> detail(const QString &id, QString *error);

    std::mutex m_detailLock;
    QString m_detailId;
    QJsonObject m_detail;
    QElapsedTimer m_detailAge;

    EngineEndpoint m_endpoint;
    QThread m_thread;
    QNetworkAccessManager *m_network = nullptr; // lives on m_thread
};

} // namespace bullpen
