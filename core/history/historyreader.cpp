// SPDX-License-Identifier: MIT
#include "historyreader.h"

#include <QDateTime>

#include <algorithm>

namespace bullpen {

using namespace std::chrono;

std::optional<Spend> HistoryReader::spend(qint64, qint64, QString *error)
{
    if (error)
        *error = QStringLiteral("this history cannot say what attempts cost; ask an engine of this version (GET /v1/stats/spend)");
    return std::nullopt;
}

std::optional<QList<Spend>> HistoryReader::spendSlices(qint64 fromMs, qint64 toMs, int slices, QString *error)
{
    QList<Spend> out;
    const qint64 step = Spend::sliceMs(fromMs, toMs, slices);
    for (qint64 at = fromMs; at < toMs; at += step) {
        std::optional<Spend> s = spend(at, std::min(toMs, at + step), error);
        if (!s)
            return std::nullopt;
        out << *s;
    }
    return out;
}

bool HistoryReader::forEachAttempt(Stage, qint64, qint64, const std::function<void(const TraceAttempt &)> &, QString *error)
{
    if (error)
        *error = QStringLiteral("this history cannot hand over its attempts one by one; tune on the engine (GET /v1/stats/tune)");
    return false;
}

std::optional<TuneReport> HistoryReader::tune(Stage stage, qint64 fromMs, qint64 toMs, const QList<TuneCandidate> &candidates,
                                              const TuneCandidate &today, QString *error)
{
    Tuner tuner(stage);
    if (!forEachAttempt(
            stage, fromMs, toMs, [&tuner](const TraceAttempt &a) { tuner.add(a); }, error))
        return std::nullopt;
    TuneReport report = tuner.predict(candidates, today);
    report.fromMs = fromMs;
    report.toMs = toMs;
    return report;
}

HistoryReader::Timeline HistoryReader::timeline(const GenerationRow &row, QString *error)
{
    Timeline t;
    for (const QJsonObject &o : events(row.id, error)) {
        if (auto e = Event::fromJson(o))
            t.events << *e;
    }
    if (t.events.isEmpty()) {
        t.events = eventsFromAttempts(row, attempts(row.id, error));
        t.rebuilt = true;
    }
    return t;
}

QList<Event> HistoryReader::eventsFromAttempts(const GenerationRow &row, const QList<QJsonObject> &attempts)
{
    QList<Event> out;
    quint64 seq = 0;
    auto add = [&](microseconds at, EventBody body) {
        Event e;
        e.generationId = row.id;
        e.sequence = seq++;
        e.at = at;
        e.wallTime = QDateTime::fromMSecsSinceEpoch(row.createdAtMs + duration_cast<milliseconds>(at).count(), Qt::UTC);
        e.body = std::move(body);
        out << e;
    };
    GenerationStarted g;
    g.preset = row.policy;
    g.primary = storedProviderOrUnknown(row.primaryProvider);
    g.fallback = providerFromStored(row.fallbackProvider);
    g.user = row.userMask;
    add(microseconds(0), g);
    bool primaryFailed = false; // (not an optional: GCC -O2 cannot see it is set before use)
    Provider lastPrimaryFailed = Provider::Gemini;
    FailureKind lastKind = FailureKind::UNKNOWN;
    for (const QJsonObject &a : attempts) {
        const double durationMs = a.value(QLatin1StringView("duration_ms")).toDouble();
        const double endMs = double(a.value(QLatin1StringView("at_ms")).toInteger() - row.createdAtMs);
        const auto start = microseconds(qint64(std::max(0.0, endMs - durationMs) * 1000));
        const auto end = microseconds(qint64(std::max(0.0, endMs) * 1000));
        const Provider provider = storedProviderOrUnknown(a.value(QLatin1StringView("provider")).toString());
        const Role role = roleFromId(a.value(QLatin1StringView("role")).toString()).value_or(Role::Primary);
        const Stage stage = stageFromId(a.value(QLatin1StringView("stage")).toString()).value_or(Stage::Storyboard);
        const quint64 id = quint64(a.value(QLatin1StringView("attempt_id")).toInteger());
        if (role == Role::Fallback && primaryFailed) {
            FallbackTriggered f;
            f.stage = stage;
            f.from = lastPrimaryFailed;
            f.to = provider;
            f.kind = lastKind;
            f.reason = row.fallbackReason;
            add(start, f);
        }
        AttemptStarted s;
        s.stage = stage;
        s.attemptId = id;
        s.provider = provider;
        s.model = a.value(QLatin1StringView("model")).toString();
        s.role = role;
        s.round = a.value(QLatin1StringView("round")).toInt(1);
        add(start, s);
        AttemptCompleted c;
        c.stage = stage;
        c.attemptId = id;
        c.provider = provider;
        c.model = s.model;
        c.role = role;
        c.round = s.round;
        c.success = a.value(QLatin1StringView("success")).toInteger() != 0;
        c.duration = microseconds(qint64(durationMs * 1000));
        if (const auto kind = enumFromName<FailureKind>(a.value(QLatin1StringView("kind")).toString()))
            c.failure = Failure { *kind, a.value(QLatin1StringView("detail")).toString(), false, {} };
        if (const QJsonValue status = a.value(QLatin1StringView("http_status")); status.isDouble())
            c.httpStatus = status.toInt();
        c.fallbackEligible = a.value(QLatin1StringView("fallback_eligible")).toInteger() != 0;
        c.requestsSent = a.value(QLatin1StringView("requests_sent")).toInt();
        c.abortedBy = abortReasonFromId(a.value(QLatin1StringView("aborted_by")).toString()).value_or(AbortReason::None);
        c.tokens.input = a.value(QLatin1StringView("tokens_in")).toInteger(-1);
        c.tokens.output = a.value(QLatin1StringView("tokens_out")).toInteger(-1);
        add(end, c);
        if (!c.success && role == Role::Primary) {
            primaryFailed = true;
            lastPrimaryFailed = provider;
            lastKind = c.kind().value_or(FailureKind::UNKNOWN);
        } else if (role == Role::Fallback) {
            primaryFailed = false;
        }
    }
    if (row.state != u"running") {
        GenerationFinished fin;
        fin.state = finalStateFromId(row.state).value_or(FinalState::Failed);
        if (!row.kind.isEmpty()) {
            fin.kind = enumFromName<FailureKind>(row.kind);
            if (fin.kind)
                fin.publicCode = publicCodeFor(*fin.kind);
            fin.stage = stageFromId(row.stage);
        }
        fin.detail = row.detail;
        fin.fallbackApplied = row.fallbackApplied;
        add(microseconds(qint64(row.elapsedMs * 1000)), fin);
    }
    // Stored times are whole milliseconds: put the events back in time order (finish last), renumbered.
    std::stable_sort(out.begin(), out.end(), [](const Event &a, const Event &b) {
        const bool aEnd = std::holds_alternative<GenerationFinished>(a.body);
        const bool bEnd = std::holds_alternative<GenerationFinished>(b.body);
        return aEnd != bEnd ? bEnd : a.at < b.at;
    });
    for (int i = 0; i < out.size(); ++i)
        out[i].sequence = quint64(i);
    return out;
}

} // namespace bullpen
