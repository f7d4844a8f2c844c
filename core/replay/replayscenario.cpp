// SPDX-License-Identifier: MIT
#include "replayscenario.h"

#include "config/providerentries.h"
#include "engine/event.h"
#include "engine/stagepolicy.h"
#include "engine/stageresult.h"
#include "history/historyreader.h"
#include "wire/storyboardpolicyjson.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <map>

namespace bullpen {

namespace {
// Text a console shows translated (core/translations); the CLI, with no translator, prints it as written.
QString T(const char *source)
{
    return QCoreApplication::translate("bullpen::ReplayScenario", source);
}
} // namespace

using namespace std::chrono;

namespace {

QJsonObject behaviour(const char *action, double latencyMs = -1)
{
    QJsonObject o { { QStringLiteral("do"), QLatin1StringView(action) } };
    if (latencyMs >= 0)
        o.insert(QStringLiteral("latency_ms"), std::llround(latencyMs));
    return o;
}

QJsonObject error(const char *name, const RecordedAttempt &a)
{
    QJsonObject o = behaviour("error", a.durationMs);
    o.insert(QStringLiteral("error"), QLatin1StringView(name));
    if (a.httpStatus)
        o.insert(QStringLiteral("status"), *a.httpStatus);
    return o;
}

// The simulator's behaviour for one recorded attempt; `why` says what it cannot reproduce exactly.
// A stream as it came: its head after the recorded time to first byte, its events spread until the
// attempt's end (and, for a cut or a stall, only as many events as were received).
QJsonObject streamed(const char *action, const RecordedAttempt &a)
{
    QJsonObject o = behaviour(action, *a.firstByteMs);
    o.insert(QStringLiteral("total_ms"), std::max(std::llround(a.durationMs), std::llround(*a.firstByteMs)));
    if (QLatin1StringView(action) != QLatin1StringView("ok"))
        o.insert(QStringLiteral("after_events"), *a.streamEvents);
    return o;
}

QJsonObject behaviourFor(const RecordedAttempt &a, QString *why)
{
    const bool stream = a.firstByteMs && a.streamEvents;
    if (a.success)
        return stream ? streamed("ok", a) : behaviour("ok", a.durationMs);
    const QString &k = a.kind;
    const int status = a.httpStatus.value_or(0);
    if (k == u"TIMEOUT") {
        if (stream && a.abortedBy == u"deadline" && *a.streamEvents > 0) { // a stream that stalled
            QJsonObject o = streamed("hang", a);
            o.remove(QStringLiteral("total_ms")); // its events went before the stall, not spread to the deadline
            return o;
        }
        if (a.abortedBy != u"deadline")
            *why = T(QT_TRANSLATE_NOOP("bullpen::ReplayScenario", "a provider-side timeout (%1) is played as a hang until our deadline"))
                       .arg(status);
        return behaviour("hang");
    }
    const bool inStream = status >= 200 && status < 300; // an error event inside a 200 stream
    if (inStream && (k == u"TRANSIENT_SERVER" || k == u"RATE_LIMITED" || k == u"QUOTA_EXHAUSTED" || k == u"AUTH_CONFIG")) {
        if (k != u"TRANSIENT_SERVER")
            *why =
                T(QT_TRANSLATE_NOOP("bullpen::ReplayScenario", "an error inside the stream is played as the simulator's overload event"));
        return behaviour("stream_error", a.durationMs);
    }
    if (k == u"RATE_LIMITED")
        return error("rate_limited", a);
    if (k == u"QUOTA_EXHAUSTED")
        return error("quota", a);
    if (k == u"AUTH_CONFIG")
        return error("auth", a);
    if (k == u"REQUEST_REJECTED")
        return error(status == 404 ? "not_found" : "bad_request", a);
    if (k == u"TRANSIENT_SERVER")
        return error(status == 503 || status == 529 ? "overloaded" : status == 504 ? "timeout" : "server_error", a);
    if (k == u"OUTPUT_TRUNCATED")
        return behaviour("truncated", a.durationMs);
    if (k == u"REFUSED")
        return behaviour("refused", a.durationMs);
    if (k == u"OUTPUT_INVALID") {
        const bool notJson = a.detail.contains(QLatin1StringView("JSON"), Qt::CaseInsensitive)
            || a.detail.contains(QLatin1StringView("malformed"), Qt::CaseInsensitive);
        *why = T(QT_TRANSLATE_NOOP("bullpen::ReplayScenario", "played as %1 output (the record keeps the kind, not the bytes)"))
                   .arg(notJson ? u"malformed" : u"contract-breaking");
        return behaviour(notJson ? "malformed" : "invalid_storyboard", a.durationMs);
    }
    if (k == u"NETWORK") {
        if (stream)
            return streamed("stream_cut", a); // cut after as many events as were received
        if (a.firstByteMs) { // an answer's head came, then its body was cut: the head and part of a body, cut at the same time
            QJsonObject o = behaviour("stream_cut", *a.firstByteMs);
            o.insert(QStringLiteral("total_ms"), std::max(std::llround(a.durationMs), std::llround(*a.firstByteMs)));
            return o;
        }
        const bool cut = a.detail.contains(QLatin1StringView("stream"), Qt::CaseInsensitive);
        *why = cut
            ? T(QT_TRANSLATE_NOOP("bullpen::ReplayScenario",
                                  "the stream is cut after the simulator's own first events (events received are not recorded)"))
            : T(QT_TRANSLATE_NOOP("bullpen::ReplayScenario", "played as a connection reset after %1 ms")).arg(std::llround(a.durationMs));
        return behaviour(cut ? "stream_cut" : "reset", a.durationMs);
    }
    if (k == u"TLS") {
        *why = T(QT_TRANSLATE_NOOP("bullpen::ReplayScenario",
                                   "a TLS failure cannot be played by the plain-HTTP simulator; played as a connection reset"));
        return behaviour("reset", a.durationMs);
    }
    if (k == u"UNKNOWN" && status >= 300) {
        // An answer nobody recognised (a status outside the table, a body of no provider's shape): the
        // recorded status and what the record kept of the body, sent as they are, so that the engine
        // judges them as it did (never a provider's error the simulator would dress it in).
        QJsonObject o = error("server_error", a);
        const QString kept = a.detail.trimmed();
        o.insert(QStringLiteral("body"), kept.isEmpty() ? QStringLiteral("(no body recorded)") : kept);
        return o;
    }
    *why = T(QT_TRANSLATE_NOOP("bullpen::ReplayScenario", "%1 is not a provider behaviour the simulator plays; played as a server error"))
               .arg(k);
    return error("server_error", a);
}

} // namespace

QString RecordedAttempt::label() const
{
    // In the reader's language (a console in Korean): the role, the stage and "ok" are words; the
    // provider and a failure's kind are ids.
    static const char *const roles[] = { QT_TRANSLATE_NOOP("bullpen::ReplayScenario", "primary"),
                                         QT_TRANSLATE_NOOP("bullpen::ReplayScenario", "fallback") };
    static const char *const stages[] = { QT_TRANSLATE_NOOP("bullpen::ReplayScenario", "storyboard"),
                                          QT_TRANSLATE_NOOP("bullpen::ReplayScenario", "image"),
                                          QT_TRANSLATE_NOOP("bullpen::ReplayScenario", "captions") };
    const QString what = QStringLiteral("%1 %2 %3")
                             .arg(toId(provider), T(roles[role == Role::Primary ? 0 : 1]),
                                  success ? T(QT_TRANSLATE_NOOP("bullpen::ReplayScenario", "ok")) : kind);
    return stage == Stage::Storyboard ? what : T(stages[static_cast<int>(stage)]) + QStringLiteral(": ") + what;
}

RecordedAttempt RecordedAttempt::fromRecord(const AttemptRecord &record)
{
    RecordedAttempt a;
    a.stage = record.stage;
    a.provider = record.provider;
    a.role = record.role;
    a.success = record.success;
    a.kind = record.failure ? enumName(record.failure->kind) : QString();
    a.httpStatus = record.httpStatus;
    a.durationMs = std::chrono::duration<double, std::milli>(record.duration).count();
    a.requestsSent = record.requestsSent;
    a.abortedBy = record.abortedBy == AbortReason::None ? QString() : toId(record.abortedBy);
    a.detail = record.failure ? record.failure->detail : QString();
    if (record.firstByteAt)
        a.firstByteMs = std::chrono::duration<double, std::milli>(*record.firstByteAt - record.startedAt).count();
    a.streamEvents = record.streamEvents;
    return a;
}

std::optional<RecordedAttempt> RecordedAttempt::fromRow(const QJsonObject &row)
{
    const auto stage = stageFromId(row.value(QLatin1StringView("stage")).toString());
    const auto provider = providerFromStored(row.value(QLatin1StringView("provider")).toString());
    const auto role = roleFromId(row.value(QLatin1StringView("role")).toString());
    if (!stage || !provider || !role)
        return std::nullopt;
    RecordedAttempt a;
    a.stage = *stage;
    a.provider = *provider;
    a.role = *role;
    a.success = row.value(QLatin1StringView("success")).toInt() != 0;
    a.kind = row.value(QLatin1StringView("kind")).toString();
    if (const QJsonValue s = row.value(QLatin1StringView("http_status")); s.isDouble())
        a.httpStatus = s.toInt();
    a.durationMs = row.value(QLatin1StringView("duration_ms")).toDouble();
    a.requestsSent = row.value(QLatin1StringView("requests_sent")).toInt();
    a.abortedBy = row.value(QLatin1StringView("aborted_by")).toString().toLower();
    a.detail = row.value(QLatin1StringView("detail")).toString();
    if (const QJsonValue v = row.value(QLatin1StringView("first_byte_at_ms")); v.isDouble())
        a.firstByteMs = v.toDouble();
    if (const QJsonValue v = row.value(QLatin1StringView("stream_events")); v.isDouble())
        a.streamEvents = v.toInt();
    return a;
}

QJsonObject RecordedAttempt::toJson() const
{
    QJsonObject o { { QStringLiteral("stage"), toId(stage) },
                    { QStringLiteral("provider"), toId(provider) },
                    { QStringLiteral("role"), toId(role) },
                    { QStringLiteral("success"), success ? 1 : 0 },
                    { QStringLiteral("kind"), kind },
                    { QStringLiteral("http_status"), httpStatus ? QJsonValue(*httpStatus) : QJsonValue() },
                    { QStringLiteral("duration_ms"), durationMs },
                    { QStringLiteral("requests_sent"), requestsSent },
                    { QStringLiteral("aborted_by"), abortedBy },
                    { QStringLiteral("detail"), detail } };
    if (firstByteMs)
        o.insert(QStringLiteral("first_byte_at_ms"), *firstByteMs);
    if (streamEvents)
        o.insert(QStringLiteral("stream_events"), *streamEvents);
    return o;
}

namespace {
// One stored event (HistoryReader::events: the event's JSON, or a row whose `body` holds it).
std::optional<Event> storedEvent(const QJsonObject &json)
{
    const QJsonObject body = json.contains(QLatin1StringView("body")) && json.value(QLatin1StringView("body")).isString()
        ? QJsonDocument::fromJson(json.value(QLatin1StringView("body")).toString().toUtf8()).object()
        : json;
    return Event::fromJson(body);
}
} // namespace

std::map<quint64, AttemptRecord> RecordedAttempt::fromEvents(const QList<QJsonObject> &events)
{
    std::map<quint64, AttemptRecord> out;
    for (const QJsonObject &json : events) {
        const std::optional<Event> e = storedEvent(json);
        if (const auto *a = e ? std::get_if<AttemptCompleted>(&e->body) : nullptr)
            out[a->attemptId] = *a;
    }
    return out;
}

std::optional<RecordedPolicy> RecordedPolicy::fromEvents(const QList<QJsonObject> &events)
{
    std::optional<RecordedPolicy> out;
    for (const QJsonObject &json : events) {
        const std::optional<Event> e = storedEvent(json);
        if (!e)
            continue;
        if (const auto *s = std::get_if<GenerationStarted>(&e->body)) {
            out = RecordedPolicy {};
            out->preset = s->preset;
            out->primary = s->primary;
            out->fallback = s->fallback;
            out->budget = s->budget;
        } else if (const auto *a = std::get_if<AttemptStarted>(&e->body); a && out) {
            if (a->stage == Stage::Captions)
                out->captions = true;
            else if (a->stage == Stage::Storyboard)
                (a->role == Role::Primary ? out->primaryTimeout : out->fallbackTimeout) = a->timeout;
        }
    }
    return out;
}

std::optional<RecordedPolicy> RecordedPolicy::fromRow(const GenerationRow &row, const QList<RecordedAttempt> &attempts, bool *rebuilt)
{
    const std::optional<Provider> primary = providerFromStored(row.primaryProvider);
    if (!primary)
        return std::nullopt;
    RecordedPolicy p;
    if (const QString preset = row.policy.section(QLatin1Char(' '), 0, 0); StagePolicy::presetNames().contains(preset))
        p.preset = preset;
    p.primary = *primary;
    p.fallback = row.fallbackProvider.isEmpty() ? std::nullopt : providerFromStored(row.fallbackProvider);
    for (const RecordedAttempt &a : attempts) {
        if (a.stage == Stage::Captions)
            p.captions = true;
        if (a.stage == Stage::Storyboard && a.kind == u"TIMEOUT" && a.abortedBy == u"deadline")
            (a.role == Role::Primary ? p.primaryTimeout : p.fallbackTimeout) = milliseconds(std::llround(a.durationMs / 100.0) * 100);
    }
    *rebuilt = true;
    return p;
}

QJsonObject RecordedPolicy::settingsJson(const ProviderTable &table) const
{
    const auto known = [](std::chrono::milliseconds d) {
        return d.count() > 0 ? std::optional(d) : std::nullopt;
    };
    QJsonObject root =
        StoryboardPolicyJson::toSettingsJson({ preset, primary, fallback, known(primaryTimeout), known(fallbackTimeout), known(budget) });
    // The providers the engine adds, so that a replay's settings name the same ones; and each
    // provider streamed, or not, as recorded.
    QList<Provider> providers = table.all();
    // A provider the generation used that this process does not list (added by the settings of the
    // engine that ran it; known here from the store alone) is added too, or the policy would name an
    // unknown provider. The replay runs on the simulator, so its endpoint and model are placeholders.
    QList<Provider> used { primary };
    if (fallback)
        used << *fallback;
    for (const auto &[p, s] : streamed)
        used << p;
    for (const Provider p : used) {
        if (!providers.contains(p))
            providers << p;
    }
    QJsonArray added;
    for (const Provider p : std::as_const(providers)) {
        ProviderSpec spec = table.spec(p);
        const auto recorded = streamed.find(p);
        if (spec.builtIn && recorded == streamed.end())
            continue;
        if (!spec.builtIn && !spec.baseUrl.isValid())
            spec.baseUrl = QUrl(QStringLiteral("http://127.0.0.1/v1"));
        if (!spec.builtIn && spec.model.isEmpty())
            spec.model = spec.id;
        QJsonObject entry = spec.builtIn ? QJsonObject { { QStringLiteral("id"), spec.id } } : ProviderEntries::toJson(spec);
        if (recorded != streamed.end())
            entry.insert(QStringLiteral("stream"), recorded->second);
        added.append(entry);
    }
    root.insert(QStringLiteral("pipeline"), QJsonObject { { QStringLiteral("captions"), captions } });
    root.insert(QStringLiteral("providers"), added);
    return root;
}

ReplayScenario ReplayScenario::from(const QString &generationId, const QList<RecordedAttempt> &attempts)
{
    ReplayScenario out;
    std::map<QString, QJsonArray> scripts; // scenario key → its sequence
    for (qsizetype i = 0; i < attempts.size(); ++i) {
        const RecordedAttempt &a = attempts.at(i);
        if (a.requestsSent == 0) {
            out.approximations << T(QT_TRANSLATE_NOOP("bullpen::ReplayScenario",
                                                      "attempt %1 (%2): never reached the provider (%3); nothing to play"))
                                      .arg(i + 1)
                                      .arg(a.label(), a.kind.isEmpty() ? QStringLiteral("skipped") : a.kind);
            continue;
        }
        if (a.kind == u"CANCELLED" || a.kind == u"NOT_SENT" || a.kind == u"INTERNAL") {
            out.approximations << T(QT_TRANSLATE_NOOP("bullpen::ReplayScenario",
                                                      "attempt %1 (%2): ended by Bullpen, not by the provider; played as a hang"))
                                      .arg(i + 1)
                                      .arg(a.label());
            out.approximate << i;
            scripts[a.stage == Stage::Storyboard ? toId(a.provider) : toId(a.stage)].append(behaviour("hang"));
            ++out.attempts;
            continue;
        }
        QString why;
        const QJsonObject b = behaviourFor(a, &why);
        if (why.isEmpty() && a.success && a.stage == Stage::Image)
            why = T(QT_TRANSLATE_NOOP("bullpen::ReplayScenario", "the simulator draws its own comic, in its own time"));
        if (!why.isEmpty()) {
            out.approximations << T(QT_TRANSLATE_NOOP("bullpen::ReplayScenario", "attempt %1 (%2): %3")).arg(i + 1).arg(a.label(), why);
            out.approximate << i;
        }
        // Storyboard requests follow their provider's key; captions and image requests their stage's.
        scripts[a.stage == Stage::Storyboard ? toId(a.provider) : toId(a.stage)].append(b);
        ++out.attempts;
    }
    QJsonObject providers;
    for (const auto &[key, sequence] : scripts)
        providers.insert(key, sequence);
    out.scenario = QJsonObject { { QStringLiteral("name"), QStringLiteral("replay-%1").arg(generationId.left(12)) },
                                 { QStringLiteral("description"),
                                   QStringLiteral("Replay of generation %1: each provider behaves as it did for that generation's "
                                                  "attempts (docs/contract.md §14).")
                                       .arg(generationId) },
                                 { QStringLiteral("seed"), 1 },
                                 { QStringLiteral("providers"), providers } };
    return out;
}

QJsonObject ReplayScenario::toJson() const
{
    return QJsonObject { { QStringLiteral("scenario"), scenario },
                         { QStringLiteral("attempts"), attempts },
                         { QStringLiteral("approximations"), QJsonArray::fromStringList(approximations) } };
}

} // namespace bullpen
