// SPDX-License-Identifier: MIT
#include "comparison.h"

#include "contract/displaymask.h"
#include "contract/storyboardvalidator.h"
#include "cost/generationcost.h"
#include "engine/stagepolicy.h"
#include "generationpipeline.h"
#include "pipeline/engineclient.h"
#include "store/store.h"

#include <QDateTime>
#include <QJsonArray>
#include <QUuid>

namespace bullpen {

using namespace std::chrono;

void ComparisonSide::takeResult(const GenerationResult &r)
{
    done = true;
    state = r.state;
    const StageResult &sb = r.storyboard;
    model = sb.fallback.finalModelId;
    if (model.isEmpty() && !sb.attempts.isEmpty())
        model = sb.attempts.constLast().model;
    if (r.failure) {
        publicCode = enumName(r.failure->publicCode());
        kind = enumName(r.failure->kind);
        detail = r.failure->detail;
    }
    nextStep = r.nextStep ? r.nextStep->message : QString();
    if (sb.storyboard)
        validation = QStringLiteral("valid");
    else if (sb.failure && (sb.failure->kind == FailureKind::OUTPUT_INVALID || sb.failure->kind == FailureKind::OUTPUT_TRUNCATED))
        validation = sb.failure->detail;
    else
        validation = QStringLiteral("no storyboard to check");
    storyboardMs = double(sb.elapsed.count()) / 1000.0;
    const GenerationCost c = GenerationCost::of(r.attempts());
    cost = c.total;
    costUnknown = c.unknown;
    totalMs = double(r.elapsed.count()) / 1000.0;
    tokens = sb.tokens;
    storyboard = sb.storyboard;
    captions = r.captionLines;
    imagePath = r.imagePath;
}

QJsonObject ComparisonSide::toJson(bool withContent) const
{
    QJsonObject o {
        { QStringLiteral("provider"), toId(provider) },
        { QStringLiteral("timeout_ms"), qint64(timeout.count()) },
        { QStringLiteral("generation_id"), generationId },
        { QStringLiteral("done"), done },
        { QStringLiteral("state"), toId(state) },
        { QStringLiteral("model"), model },
        { QStringLiteral("public_code"), publicCode },
        { QStringLiteral("kind"), kind },
        { QStringLiteral("detail"), detail },
        { QStringLiteral("next_step"), nextStep },
        { QStringLiteral("validation"), validation },
        { QStringLiteral("storyboard_ms"), storyboardMs },
        { QStringLiteral("total_ms"), totalMs },
        { QStringLiteral("tokens_in"), tokens.input },
        { QStringLiteral("tokens_out"), tokens.output },
        { QStringLiteral("image_path"), imagePath },
        { QStringLiteral("cost_unknown_attempts"), costUnknown },
    };
    QJsonArray costs;
    for (const auto &[currency, amount] : cost)
        costs.append(QJsonObject { { QStringLiteral("currency"), currency }, { QStringLiteral("cost"), amount } });
    o.insert(QStringLiteral("cost"), costs);
    if (withContent) {
        if (storyboard)
            o.insert(QStringLiteral("storyboard"), storyboard->toJson());
        o.insert(QStringLiteral("captions"), QJsonArray::fromStringList(captions));
    }
    return o;
}

ComparisonSide ComparisonSide::fromJson(const QJsonObject &o)
{
    ComparisonSide s;
    s.provider = storedProviderOrUnknown(o.value(QLatin1StringView("provider")).toString());
    s.timeout = milliseconds(o.value(QLatin1StringView("timeout_ms")).toInteger());
    s.generationId = o.value(QLatin1StringView("generation_id")).toString();
    s.done = o.value(QLatin1StringView("done")).toBool();
    s.state = finalStateFromId(o.value(QLatin1StringView("state")).toString()).value_or(FinalState::Failed);
    s.model = o.value(QLatin1StringView("model")).toString();
    s.publicCode = o.value(QLatin1StringView("public_code")).toString();
    s.kind = o.value(QLatin1StringView("kind")).toString();
    s.detail = o.value(QLatin1StringView("detail")).toString();
    s.nextStep = o.value(QLatin1StringView("next_step")).toString();
    s.validation = o.value(QLatin1StringView("validation")).toString();
    s.storyboardMs = o.value(QLatin1StringView("storyboard_ms")).toDouble();
    s.totalMs = o.value(QLatin1StringView("total_ms")).toDouble();
    s.tokens.input = o.value(QLatin1StringView("tokens_in")).toInteger(-1);
    s.tokens.output = o.value(QLatin1StringView("tokens_out")).toInteger(-1);
    s.imagePath = o.value(QLatin1StringView("image_path")).toString();
    for (const QJsonValue v : o.value(QLatin1StringView("cost")).toArray())
        s.cost.append(
            { v.toObject().value(QLatin1StringView("currency")).toString(), v.toObject().value(QLatin1StringView("cost")).toDouble() });
    s.costUnknown = o.value(QLatin1StringView("cost_unknown_attempts")).toInt();
    if (o.value(QLatin1StringView("storyboard")).isObject()) {
        const StoryboardCheck check = StoryboardValidator::validate(o.value(QLatin1StringView("storyboard")).toObject());
        s.storyboard = check.storyboard;
    }
    for (const QJsonValue v : o.value(QLatin1StringView("captions")).toArray())
        s.captions << v.toString();
    return s;
}

ComparisonRow Comparison::toRow(bool withContent) const
{
    ComparisonRow row;
    row.id = id;
    row.createdAtMs = createdAtMs;
    row.primaryProvider = toId(primary.provider);
    row.fallbackProvider = toId(fallback.provider);
    row.body = QJsonObject {
        { QStringLiteral("id"), id },
        { QStringLiteral("created_at_ms"), createdAtMs },
        { QStringLiteral("user"), userMask },
        { QStringLiteral("content_stored"), withContent },
        { QStringLiteral("primary"), primary.toJson(withContent) },
        { QStringLiteral("fallback"), fallback.toJson(withContent) },
    };
    return row;
}

std::optional<Comparison> Comparison::fromRow(const ComparisonRow &row)
{
    const QJsonObject &b = row.body;
    if (!b.value(QLatin1StringView("primary")).isObject() || !b.value(QLatin1StringView("fallback")).isObject())
        return std::nullopt;
    Comparison c;
    c.id = row.id;
    c.createdAtMs = row.createdAtMs;
    c.userMask = b.value(QLatin1StringView("user")).toString();
    c.contentStored = b.value(QLatin1StringView("content_stored")).toBool();
    c.primary = ComparisonSide::fromJson(b.value(QLatin1StringView("primary")).toObject());
    c.fallback = ComparisonSide::fromJson(b.value(QLatin1StringView("fallback")).toObject());
    return c;
}

ComparisonRunner::ComparisonRunner(EngineClient &engine, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
{
    connect(&m_engine, &EngineClient::finished, this, &ComparisonRunner::onGenerationFinished);
}

void ComparisonRunner::setStore(Store *store, bool storeContent)
{
    m_store = store;
    m_storeContent = storeContent;
}

QString ComparisonRunner::start(const ComparisonRequest &request)
{
    Comparison c;
    c.id = QStringLiteral("cmp_") + QUuid::createUuid().toString(QUuid::Id128);
    c.createdAtMs = QDateTime::currentMSecsSinceEpoch();
    c.userMask = request.userId.isEmpty() ? QString() : DisplayMask::user(request.userId);
    c.primary.provider = request.primary;
    c.primary.timeout = request.primaryTimeout;
    c.fallback.provider = request.fallback;
    c.fallback.timeout = request.fallbackTimeout;
    auto startSide = [&](ComparisonSide &side) {
        StagePolicy p = StagePolicy::relief(side.provider, std::nullopt);
        p.preset = QStringLiteral("compare");
        p.primaryTimeout = side.timeout;
        GenerationRequest g;
        g.story = request.story;
        g.userId = request.userId;
        g.fresh = true;
        g.storyboardPolicy = p;
        if (!request.scenario.isEmpty())
            g.scenario = ScenarioChoice { request.scenario, request.primary, request.fallback };
        g.generationId = StageService::newGenerationId();
        side.generationId = g.generationId;
        return g;
    };
    const GenerationRequest left = startSide(c.primary);
    const GenerationRequest right = startSide(c.fallback);
    const QString id = c.id;
    m_running.emplace(id, c);
    // Both at once: neither waits for the other.
    m_engine.start(left);
    m_engine.start(right);
    return id;
}

void ComparisonRunner::cancel(const QString &comparisonId)
{
    const auto it = m_running.find(comparisonId);
    if (it == m_running.end())
        return;
    const QString a = it->second.primary.generationId;
    const QString b = it->second.fallback.generationId;
    m_engine.cancel(a);
    m_engine.cancel(b);
}

void ComparisonRunner::onGenerationFinished(const GenerationResult &result)
{
    for (auto it = m_running.begin(); it != m_running.end(); ++it) {
        Comparison &c = it->second;
        ComparisonSide *side = c.primary.generationId == result.generationId ? &c.primary
            : c.fallback.generationId == result.generationId                 ? &c.fallback
                                                                             : nullptr;
        if (!side)
            continue;
        side->takeResult(result);
        const Comparison snapshot = c;
        Q_EMIT updated(snapshot);
        if (snapshot.finished()) {
            m_running.erase(it);
            if (m_store)
                m_store->recordComparison(snapshot.toRow(m_storeContent), snapshot.primary.generationId, snapshot.fallback.generationId);
            Q_EMIT finished(snapshot);
        }
        return;
    }
}

} // namespace bullpen
