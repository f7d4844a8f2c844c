// SPDX-License-Identifier: MIT
#pragma once

#include "contract/storyboard.h"
#include "failure/failure.h"
#include "generationresult.h"

#include <QJsonObject>
#include <QObject>

#include <chrono>
#include <map>
#include <optional>

namespace bullpen {

class EngineClient;
class Store;
struct ComparisonRow;

// One side of a comparison: one provider run alone (no fallback) on the story, under its own timeout.
struct ComparisonSide
{
    Provider provider = Provider::Gemini;
    std::chrono::milliseconds timeout { 60'000 };
    QString generationId;
    bool done = false;
    FinalState state = FinalState::Failed;
    QString model;
    QString publicCode; // empty on success
    QString kind;
    QString detail;
    QString nextStep;
    QString validation; // "valid", or the docs/contract.md §2.1 rule the output broke
    double storyboardMs = 0; // the storyboard stage
    double totalMs = 0; // the whole generation, image included
    TokenUsage tokens;
    QList<std::pair<QString, double>> cost; // docs/contract.md §16: every attempt's, per currency
    int costUnknown = 0; // attempts whose cost nobody reported
    std::optional<Storyboard> storyboard; // only kept in the store when content storage is on
    QStringList captions;
    QString imagePath;

    void takeResult(const GenerationResult &result);
    QJsonObject toJson(bool withContent) const;
    static ComparisonSide fromJson(const QJsonObject &json);
};

// docs/contract.md §9.6: the same story on the primary and on the fallback provider, both at once, explicitly.
struct Comparison
{
    QString id;
    qint64 createdAtMs = 0;
    QString userMask;
    ComparisonSide primary;
    ComparisonSide fallback;
    bool contentStored = false; // false: reopened comparisons show metadata only (docs/contract.md §5.1)

    bool finished() const { return primary.done && fallback.done; }
    ComparisonRow toRow(bool withContent) const;
    static std::optional<Comparison> fromRow(const ComparisonRow &row);
};

struct ComparisonRequest
{
    QString story;
    QString userId;
    Provider primary = Provider::Gemini;
    Provider fallback = Provider::Qwen;
    std::chrono::milliseconds primaryTimeout { 60'000 };
    std::chrono::milliseconds fallbackTimeout { 60'000 };
    // The built-in simulator's scenario for both sides; `primary` plays its primary role, `fallback` its fallback role.
    QString scenario;
};

// Starts both sides through the engine (each a real generation, recorded like any other, with policy
// "compare" and no fallback), collects their results and stores the comparison once both have ended.
// A remote engine's runner (RemoteComparisonRunner) asks the engine to run and keep it instead.
class ComparisonRunner : public QObject
{
    Q_OBJECT
public:
    explicit ComparisonRunner(EngineClient &engine, QObject *parent = nullptr);

    void setStore(Store *store, bool storeContent);
    virtual QString start(const ComparisonRequest &request);
    virtual void cancel(const QString &comparisonId);
    virtual bool isRunning(const QString &comparisonId) const { return m_running.count(comparisonId) != 0; }

Q_SIGNALS:
    void updated(const bullpen::Comparison &comparison); // a side has ended
    void finished(const bullpen::Comparison &comparison);

private:
    void onGenerationFinished(const GenerationResult &result);

    EngineClient &m_engine;
    Store *m_store = nullptr;
    bool m_storeContent = false;
    std::map<QString, Comparison> m_running;
};

} // namespace bullpen

Q_DECLARE_METATYPE(bullpen::Comparison)
