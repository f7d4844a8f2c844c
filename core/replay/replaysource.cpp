// SPDX-License-Identifier: MIT
#include "replaysource.h"

#include "pipeline/generationresult.h"

#include <QCoreApplication>

namespace bullpen {

namespace {
// Text a console shows translated (core/translations); the CLI, with no translator, prints it as written.
QString T(const char *source)
{
    return QCoreApplication::translate("bullpen::ReplayScenario", source);
}
} // namespace

ReplayRun replayedRun(const GenerationResult &result)
{
    ReplayRun run;
    run.state = toId(result.state);
    run.fallbackApplied = result.storyboard.fallback.applied;
    run.fallbackReason = result.storyboard.fallback.reason;
    run.elapsedMs = std::chrono::duration<double, std::milli>(result.elapsed).count();
    for (const AttemptRecord &a : result.attempts())
        run.attempts << RecordedAttempt::fromRecord(a);
    return run;
}

ReplayRun ReplaySource::run() const
{
    ReplayRun r;
    r.state = row.state;
    r.fallbackApplied = row.fallbackApplied;
    r.fallbackReason = row.fallbackReason;
    r.elapsedMs = row.elapsedMs;
    r.attempts = attempts;
    return r;
}

ReplayScenario ReplaySource::scenario() const
{
    ReplayScenario s = ReplayScenario::from(row.id, attempts);
    if (policyRebuilt)
        s.approximations.prepend(QStringLiteral("policy: rebuilt from the generation's row (its events are no longer stored); a timeout is "
                                                "known only where our deadline ended an attempt"));
    return s;
}

std::optional<ReplaySource> ReplaySource::read(HistoryReader &history, const QString &id, QString *why)
{
    QString error;
    const std::optional<GenerationRow> row = history.generation(id, &error);
    if (!row) {
        *why =
            error.isEmpty() ? T(QT_TRANSLATE_NOOP("bullpen::ReplayScenario", "no generation %1 in the history")).arg(id.left(64)) : error;
        return std::nullopt;
    }
    if (row->state == u"running") {
        *why =
            T(QT_TRANSLATE_NOOP("bullpen::ReplayScenario", "generation %1 is still running; replay it once it has ended")).arg(id.left(64));
        return std::nullopt;
    }
    ReplaySource s;
    s.row = *row;
    const QList<QJsonObject> attemptRows = history.attempts(id, &error);
    const QList<QJsonObject> events = history.events(id, &error);
    if (!error.isEmpty()) {
        *why = error;
        return std::nullopt;
    }
    // The attempt's whole record where its event is still stored (time to first byte, stream events),
    // else what its row keeps.
    const std::map<quint64, AttemptRecord> records = RecordedAttempt::fromEvents(events);
    for (const QJsonObject &a : attemptRows) {
        const auto record = records.find(static_cast<quint64>(a.value(QLatin1StringView("attempt_id")).toDouble()));
        if (record != records.end())
            s.attempts << RecordedAttempt::fromRecord(record->second);
        else if (const std::optional<RecordedAttempt> r = RecordedAttempt::fromRow(a))
            s.attempts << *r;
    }
    s.policy = RecordedPolicy::fromEvents(events);
    if (!s.policy) // its events are gone (retention, or an older store): what the row and attempts say
        s.policy = RecordedPolicy::fromRow(*row, s.attempts, &s.policyRebuilt);
    for (const RecordedAttempt &a : std::as_const(s.attempts)) {
        // A 2xx text answer shows whether it was asked for as a stream; an error's body never does, and
        // an image is never streamed.
        if (s.policy && a.stage != Stage::Image && a.firstByteMs && a.httpStatus && *a.httpStatus >= 200 && *a.httpStatus < 300)
            s.policy->streamed[a.provider] = a.streamEvents.has_value();
    }
    return s;
}

} // namespace bullpen
