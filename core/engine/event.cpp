// SPDX-License-Identifier: MIT
#include "event.h"

#include "contract/displaymask.h"
#include "contract/isotime.h"
#include "contract/jsonfields.h"
#include "contract/jsonstring.h"
#include "contract/policyfields.h"
#include "engine/stagepolicy.h"

#include <QCborValue>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>

#include <algorithm>
#include <cmath>
#include <vector>

namespace bullpen {

using namespace std::chrono;

namespace {

// JSON keys are snake_case, as in docs/contract.md §5.
double toMs(microseconds us)
{
    return toJsonMs(us);
}
microseconds fromMs(double ms)
{
    return fromJsonMs(ms);
}

template<typename Object> void putTokens(Object &o, const TokenUsage &t)
{
    o.insert(QStringLiteral("tokens_in"), t.input >= 0 ? QJsonValue(t.input) : QJsonValue());
    o.insert(QStringLiteral("tokens_out"), t.output >= 0 ? QJsonValue(t.output) : QJsonValue());
}

template<typename T, typename F> QJsonValue orNull(const std::optional<T> &v, F f)
{
    return v ? QJsonValue(f(*v)) : QJsonValue();
}

struct TypeName
{
    QString operator()(const GenerationStarted &) const { return QStringLiteral("generation_started"); }
    QString operator()(const StageQueued &e) const { return toId(e.stage) + QStringLiteral("_queued"); }
    QString operator()(const StageAdmitted &e) const { return toId(e.stage) + QStringLiteral("_admitted"); }
    QString operator()(const AttemptStarted &e) const { return toId(e.stage) + QStringLiteral("_attempt_started"); }
    QString operator()(const AttemptCompleted &e) const { return toId(e.stage) + QStringLiteral("_attempt_completed"); }
    QString operator()(const FallbackTriggered &e) const { return toId(e.stage) + QStringLiteral("_fallback_triggered"); }
    QString operator()(const RetryScheduled &e) const { return toId(e.stage) + QStringLiteral("_retry_scheduled"); }
    QString operator()(const PrimarySkipped &e) const { return toId(e.stage) + QStringLiteral("_primary_skipped"); }
    QString operator()(const LateResultDiscarded &) const { return QStringLiteral("late_result_discarded"); }
    QString operator()(const GenerationFinished &) const { return QStringLiteral("generation_finished"); }
};

// A one-level JSON object written straight to compact UTF-8: the same bytes as
// QJsonDocument(object).toJson(Compact) (keys in order, the same numbers and escapes), without building
// the QJsonObject, whose every insert moves its CBOR storage. Events are written once each, on the
// store's writer or the service's event stream, at a rate of ~15 per generation.
class FlatObject
{
public:
    void insert(const QString &key, const QJsonValue &value) // as QJsonObject::insert: undefined removes
    {
        const auto same = std::find_if(m_fields.begin(), m_fields.end(), [&key](const auto &field) { return field.first == key; });
        if (value.isUndefined()) {
            if (same != m_fields.end())
                m_fields.erase(same);
        } else if (same != m_fields.end()) {
            same->second = value;
        } else {
            m_fields.emplace_back(key, value);
        }
    }

    QByteArray bytes()
    {
        std::sort(m_fields.begin(), m_fields.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
        QByteArray out;
        out.reserve(512);
        out += '{';
        bool first = true;
        for (const auto &[key, value] : m_fields) {
            if (!first)
                out += ',';
            first = false;
            appendString(out, key);
            out += ':';
            appendValue(out, value);
        }
        out += '}';
        return out;
    }

private:
    static void appendString(QByteArray &out, const QString &text)
    {
        out += '"';
        appendJsonStringContents(out, text);
        out += '"';
    }

    static void appendValue(QByteArray &out, const QJsonValue &value)
    {
        switch (value.type()) {
        case QJsonValue::Null:
        case QJsonValue::Undefined: // never stored (insert removes the key)
            out += "null";
            return;
        case QJsonValue::Bool:
            out += value.toBool() ? "true" : "false";
            return;
        case QJsonValue::String:
            appendString(out, value.toString());
            return;
        case QJsonValue::Double: {
            const QCborValue number = QCborValue::fromJsonValue(value);
            if (number.isInteger()) {
                out += QByteArray::number(number.toInteger());
            } else {
                const double d = number.toDouble();
                out += std::isfinite(d) ? QByteArray::number(d, 'g', QLocale::FloatingPointShortest) : QByteArray("null");
            }
            return;
        }
        case QJsonValue::Array:
            out += QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact);
            return;
        case QJsonValue::Object:
            out += QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact);
            return;
        }
    }

    std::vector<std::pair<QString, QJsonValue>> m_fields;
};

// An event's fields, written into a QJsonObject (toJson) or straight to compact bytes (FlatObject).
template<typename Object> struct Writer
{
    Object &o;

    void operator()(const GenerationStarted &e) const
    {
        o.insert(QStringLiteral("preset"), e.preset);
        o.insert(QStringLiteral("primary"), toId(e.primary));
        o.insert(QStringLiteral("fallback"), orNull(e.fallback, [](Provider p) { return toId(p); }));
        o.insert(QLatin1StringView(policyfields::kBudgetMs), static_cast<double>(e.budget.count())); // the policy's own name
        if (!e.user.isEmpty())
            o.insert(QStringLiteral("user"), e.user);
        if (!e.instance.isEmpty())
            o.insert(QStringLiteral("instance"), e.instance);
        if (e.probe) {
            o.insert(QStringLiteral("synthetic"), true);
            o.insert(QStringLiteral("probe"), e.probe->toString());
        } else if (!e.replayOf.isEmpty()) {
            o.insert(QStringLiteral("synthetic"), true);
            o.insert(QStringLiteral("replay_of"), e.replayOf);
        }
    }
    void operator()(const StageQueued &e) const
    {
        o.insert(QStringLiteral("stage"), toId(e.stage));
        o.insert(QStringLiteral("provider"), toId(e.provider));
        o.insert(QStringLiteral("ahead"), e.ahead);
        o.insert(QStringLiteral("in_flight"), e.inFlight);
        o.insert(QStringLiteral("limit"), e.limit);
    }
    void operator()(const StageAdmitted &e) const
    {
        o.insert(QStringLiteral("stage"), toId(e.stage));
        o.insert(QStringLiteral("provider"), toId(e.provider));
        o.insert(QStringLiteral("waited_ms"), toMs(e.waited));
    }
    void operator()(const AttemptStarted &e) const
    {
        o.insert(QStringLiteral("stage"), toId(e.stage));
        o.insert(QStringLiteral("attempt_id"), static_cast<double>(e.attemptId));
        o.insert(QStringLiteral("provider"), toId(e.provider));
        o.insert(QStringLiteral("model"), e.model);
        o.insert(QStringLiteral("role"), toId(e.role));
        o.insert(QStringLiteral("round"), e.round);
        o.insert(QStringLiteral("timeout_ms"), static_cast<double>(e.timeout.count()));
        o.insert(QStringLiteral("deadline_ms"), toMs(e.deadline));
        o.insert(QStringLiteral("remaining_budget_ms"), static_cast<double>(e.remainingBudget.count()));
    }
    void operator()(const AttemptCompleted &e) const
    {
        const QJsonObject record = e.toJson();
        for (auto it = record.begin(); it != record.end(); ++it)
            o.insert(it.key(), it.value());
        o.insert(QStringLiteral("fallback_eligible"), e.fallbackEligible);
    }
    void operator()(const FallbackTriggered &e) const
    {
        o.insert(QStringLiteral("stage"), toId(e.stage));
        o.insert(QStringLiteral("from"), toId(e.from));
        o.insert(QStringLiteral("to"), toId(e.to));
        o.insert(QStringLiteral("kind"), enumName(e.kind));
        o.insert(QStringLiteral("remaining_budget_ms"), static_cast<double>(e.remainingBudget.count()));
        o.insert(QStringLiteral("reason"), e.reason);
    }
    void operator()(const PrimarySkipped &e) const
    {
        o.insert(QStringLiteral("stage"), toId(e.stage));
        o.insert(QStringLiteral("provider"), toId(e.provider));
        o.insert(QStringLiteral("to"), toId(e.to));
        o.insert(QStringLiteral("state"), e.state);
        o.insert(QStringLiteral("since"), e.since.isValid() ? isoUtcWithMs(e.since.toMSecsSinceEpoch()) : QString());
        o.insert(QStringLiteral("why"), e.why);
        o.insert(QStringLiteral("reason"), e.reason);
        o.insert(QStringLiteral("remaining_budget_ms"), static_cast<double>(e.remainingBudget.count()));
    }
    void operator()(const RetryScheduled &e) const
    {
        o.insert(QStringLiteral("stage"), toId(e.stage));
        o.insert(QStringLiteral("provider"), toId(e.provider));
        o.insert(QStringLiteral("role"), toId(e.role));
        o.insert(QStringLiteral("next_round"), e.nextRound);
        o.insert(QStringLiteral("kind"), enumName(e.kind));
        o.insert(QStringLiteral("pause_ms"), static_cast<double>(e.pause.count()));
    }
    void operator()(const LateResultDiscarded &e) const
    {
        o.insert(QStringLiteral("stage"), toId(e.stage));
        o.insert(QStringLiteral("attempt_id"), static_cast<double>(e.attemptId));
        o.insert(QStringLiteral("provider"), toId(e.provider));
        o.insert(QStringLiteral("role"), toId(e.role));
        o.insert(QStringLiteral("late_by_ms"), toMs(e.lateBy));
        o.insert(QStringLiteral("would_have_succeeded"), e.wouldHaveSucceeded);
        putTokens(o, e.tokens);
    }
    void operator()(const GenerationFinished &e) const
    {
        o.insert(QStringLiteral("state"), toId(e.state));
        o.insert(QStringLiteral("public_code"), orNull(e.publicCode, [](PublicCode c) { return enumName(c); }));
        o.insert(QStringLiteral("kind"), orNull(e.kind, [](FailureKind k) { return enumName(k); }));
        o.insert(QStringLiteral("stage"), orNull(e.stage, [](Stage s) { return toId(s); }));
        o.insert(QStringLiteral("detail"), e.detail);
        o.insert(QStringLiteral("fallback_applied"), e.fallbackApplied);
    }
};

std::optional<EventBody> readBody(const QString &type, JsonFields &r)
{
    const auto stageOf = [&](const QString &suffix) -> std::optional<Stage> {
        if (!type.endsWith(suffix))
            return std::nullopt;
        return stageFromId(QStringView(type).chopped(suffix.size()));
    };
    if (type == u"generation_started") {
        GenerationStarted e;
        e.preset = r.string("preset");
        e.primary = r.id<Provider>("primary", providerFromStored);
        e.fallback = r.optId("fallback", providerFromStored);
        e.budget = milliseconds(r.integer<qint64>(policyfields::kBudgetMs));
        e.user = r.optString("user");
        e.instance = r.optString("instance");
        e.replayOf = r.optString("replay_of");
        if (r.optBoolean("synthetic") && e.replayOf.isEmpty()) {
            e.probe = ProbeTarget::fromString(r.optString("probe"));
            if (!e.probe)
                r.fail("probe", "provider/role/stage of a synthetic generation (or replay_of, the generation a replay plays)");
        }
        return e;
    }
    if (auto stage = stageOf(QStringLiteral("_queued"))) {
        StageQueued e;
        e.stage = *stage;
        e.provider = r.id<Provider>("provider", providerFromStored);
        e.ahead = r.integer<int>("ahead");
        e.inFlight = r.integer<int>("in_flight");
        e.limit = r.integer<int>("limit");
        return e;
    }
    if (auto stage = stageOf(QStringLiteral("_admitted"))) {
        StageAdmitted e;
        e.stage = *stage;
        e.provider = r.id<Provider>("provider", providerFromStored);
        e.waited = fromMs(r.number("waited_ms"));
        return e;
    }
    if (auto stage = stageOf(QStringLiteral("_attempt_started"))) {
        AttemptStarted e;
        e.stage = *stage;
        e.attemptId = r.integer<quint64>("attempt_id");
        e.provider = r.id<Provider>("provider", providerFromStored);
        e.model = r.string("model");
        e.role = r.id<Role>("role", roleFromId);
        e.round = r.integer<int>("round");
        e.timeout = milliseconds(r.integer<qint64>("timeout_ms"));
        e.deadline = fromMs(r.number("deadline_ms"));
        e.remainingBudget = milliseconds(r.integer<qint64>("remaining_budget_ms"));
        return e;
    }
    if (auto stage = stageOf(QStringLiteral("_attempt_completed"))) {
        AttemptCompleted e;
        static_cast<AttemptRecord &>(e) = AttemptRecord::read(r);
        e.stage = *stage;
        e.fallbackEligible = r.boolean("fallback_eligible");
        return e;
    }
    if (auto stage = stageOf(QStringLiteral("_fallback_triggered"))) {
        FallbackTriggered e;
        e.stage = *stage;
        e.from = r.id<Provider>("from", providerFromStored);
        e.to = r.id<Provider>("to", providerFromStored);
        e.kind = r.id<FailureKind>("kind", [](QStringView s) { return enumFromName<FailureKind>(s); });
        e.remainingBudget = milliseconds(r.integer<qint64>("remaining_budget_ms"));
        e.reason = r.string("reason");
        return e;
    }
    if (auto stage = stageOf(QStringLiteral("_primary_skipped"))) {
        PrimarySkipped e;
        e.stage = *stage;
        e.provider = r.id<Provider>("provider", providerFromStored);
        e.to = r.id<Provider>("to", providerFromStored);
        e.state = r.string("state");
        e.since = QDateTime::fromString(r.optString("since"), Qt::ISODateWithMs);
        e.why = r.string("why");
        e.reason = r.string("reason");
        e.remainingBudget = milliseconds(r.integer<qint64>("remaining_budget_ms"));
        return e;
    }
    if (auto stage = stageOf(QStringLiteral("_retry_scheduled"))) {
        RetryScheduled e;
        e.stage = *stage;
        e.provider = r.id<Provider>("provider", providerFromStored);
        e.role = r.id<Role>("role", roleFromId);
        e.nextRound = r.integer<int>("next_round");
        e.kind = r.id<FailureKind>("kind", [](QStringView s) { return enumFromName<FailureKind>(s); });
        e.pause = milliseconds(r.integer<qint64>("pause_ms"));
        return e;
    }
    if (type == u"late_result_discarded") {
        LateResultDiscarded e;
        e.stage = r.id<Stage>("stage", stageFromId);
        e.attemptId = r.integer<quint64>("attempt_id");
        e.provider = r.id<Provider>("provider", providerFromStored);
        e.role = r.id<Role>("role", roleFromId);
        e.lateBy = fromMs(r.number("late_by_ms"));
        e.wouldHaveSucceeded = r.boolean("would_have_succeeded");
        e.tokens = r.tokens();
        return e;
    }
    if (type == u"generation_finished") {
        GenerationFinished e;
        e.state = r.id<FinalState>("state", finalStateFromId);
        e.publicCode = r.optEnum<PublicCode>("public_code");
        e.kind = r.optEnum<FailureKind>("kind");
        e.stage = r.optId("stage", stageFromId);
        e.detail = r.optString("detail");
        e.fallbackApplied = r.boolean("fallback_applied");
        return e;
    }
    return std::nullopt;
}

} // namespace

GenerationStarted GenerationStarted::of(const StagePolicy &policy, const QString &rawUserId)
{
    return GenerationStarted { policy.preset,
                               policy.primary,
                               policy.fallback,
                               policy.effectiveBudget(),
                               rawUserId.isEmpty() ? QString() : DisplayMask::user(rawUserId),
                               {},
                               std::nullopt,
                               {} };
}

QString Event::type() const
{
    return std::visit(TypeName {}, body);
}

template<typename Object> void Event::writeFields(Object &o) const
{
    o.insert(QStringLiteral("type"), type());
    o.insert(QStringLiteral("generation_id"), generationId);
    o.insert(QStringLiteral("seq"), static_cast<double>(sequence));
    o.insert(QStringLiteral("t_ms"), toMs(at));
    o.insert(QStringLiteral("wall_time"), wallTime.isValid() ? isoUtcWithMs(wallTime.toMSecsSinceEpoch()) : QString());
    std::visit(Writer<Object> { o }, body);
}

QByteArray Event::compactJson() const
{
    const auto write = [this] {
        FlatObject o;
        writeFields(o);
        return o.bytes();
    };
    if (!jsonCache)
        return write();
    std::call_once(jsonCache->once, [this, &write] { jsonCache->bytes = write(); });
    return jsonCache->bytes;
}

void Event::shareJson()
{
    jsonCache = std::make_shared<JsonCache>();
}

QJsonObject Event::toJson() const
{
    QJsonObject o;
    writeFields(o);
    return o;
}

std::optional<Event> Event::fromJson(const QJsonObject &object, QString *error)
{
    JsonFields r(object);
    Event e;
    const QString type = r.string("type");
    e.generationId = r.string("generation_id");
    e.sequence = r.integer<quint64>("seq");
    e.at = fromMs(r.number("t_ms"));
    e.wallTime = QDateTime::fromString(r.optString("wall_time"), Qt::ISODateWithMs);
    std::optional<EventBody> body;
    if (r.error().isEmpty()) {
        body = readBody(type, r);
        if (!body && r.error().isEmpty())
            r.fail("type", "a known event type");
    }
    if (!r.error().isEmpty()) {
        if (error)
            *error = r.error();
        return std::nullopt;
    }
    e.body = std::move(*body);
    return e;
}

} // namespace bullpen
