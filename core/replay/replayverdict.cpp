// SPDX-License-Identifier: MIT
#include "replayverdict.h"

#include "contract/durationtext.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace bullpen {

namespace {
// Text a console shows translated (core/translations); the CLI, with no translator, prints it as written.
QString T(const char *source)
{
    return QCoreApplication::translate("bullpen::ReplayVerdict", source);
}
} // namespace

namespace {

QString seconds(double ms)
{
    return durationText(ms);
}

// A generation's final state in the reader's language ("failed" → "실패"); an unknown id as it is.
QString stateWord(const QString &id)
{
    static const char *const states[][2] = {
        { "succeeded", QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "succeeded") },
        { "failed", QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "failed") },
        { "cancelled", QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "cancelled") },
        { "abandoned", QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "abandoned") },
    };
    for (const auto &s : states)
        if (id == QLatin1StringView(s[0]))
            return T(s[1]);
    return id;
}

QString outcome(const ReplayRun &r)
{
    if (r.fallbackApplied)
        return T(QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "%1 by the fallback (%2) at %3"))
            .arg(stateWord(r.state), r.fallbackReason, seconds(r.elapsedMs));
    return T(QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "%1 at %2")).arg(stateWord(r.state), seconds(r.elapsedMs));
}

// "applied (gemini_timeout)", "tried and failed (gemini_timeout)", "none".
QString decision(const ReplayRun &r)
{
    if (r.fallbackReason.isEmpty())
        return QStringLiteral("none");
    return (r.fallbackApplied ? T(QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "applied (%1)"))
                              : T(QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "tried and failed (%1)")))
        .arg(r.fallbackReason);
}

// One attempt's times and, for a stream that was cut or stalled, how far it got: each within the
// tolerance where both sides know it (records before 2026-12 keep no time to first byte or events).
QStringList timingDifferences(qsizetype i, const RecordedAttempt &a, const RecordedAttempt &b)
{
    QStringList out;
    const double tolerance = std::max(ReplayVerdict::kToleranceFloorMs, ReplayVerdict::kTolerance * a.durationMs);
    if (std::abs(a.durationMs - b.durationMs) > tolerance)
        out << T(QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "attempt %1 (%2): %3 ms recorded, %4 ms replayed (tolerance %5 ms)"))
                   .arg(i + 1)
                   .arg(a.label())
                   .arg(std::llround(a.durationMs))
                   .arg(std::llround(b.durationMs))
                   .arg(std::llround(tolerance));
    if (a.firstByteMs && b.firstByteMs) {
        const double firstTolerance = std::max(ReplayVerdict::kToleranceFloorMs, ReplayVerdict::kTolerance * *a.firstByteMs);
        if (std::abs(*a.firstByteMs - *b.firstByteMs) > firstTolerance)
            out << T(QT_TRANSLATE_NOOP("bullpen::ReplayVerdict",
                                       "attempt %1 (%2): first byte at %3 ms recorded, %4 ms replayed (tolerance %5 ms)"))
                       .arg(i + 1)
                       .arg(a.label())
                       .arg(std::llround(*a.firstByteMs))
                       .arg(std::llround(*b.firstByteMs))
                       .arg(std::llround(firstTolerance));
    } else if (a.firstByteMs.has_value() != b.firstByteMs.has_value() && a.streamEvents && b.streamEvents) {
        out << T(QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "attempt %1 (%2): an answer began on one side only"))
                   .arg(i + 1)
                   .arg(a.label());
    }
    // How far a stream got is the failure only where it was cut (NETWORK) or stalled (TIMEOUT): the
    // scenario plays those up to the recorded event. A stream that ended normally (a success, or an
    // answer judged afterwards: truncated, refused, invalid) is played by the simulator's own chunking,
    // so its count of events says nothing about the provider's behaviour.
    const bool endedEarly = a.kind == u"NETWORK" || a.kind == u"TIMEOUT";
    if (!a.success && endedEarly && a.streamEvents && b.streamEvents && *a.streamEvents != *b.streamEvents)
        out << T(QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "attempt %1 (%2): the stream ended after %3 events recorded, %4 replayed"))
                   .arg(i + 1)
                   .arg(a.label())
                   .arg(*a.streamEvents)
                   .arg(*b.streamEvents);
    return out;
}

} // namespace

ReplayVerdict ReplayVerdict::judge(const ReplayRun &recorded, const ReplayRun &replayed, bool sameSettings,
                                   const QList<qsizetype> &approximate)
{
    ReplayVerdict v;
    if (recorded.state != replayed.state)
        v.differences
            << T(QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "outcome: recorded %1, replayed %2")).arg(recorded.state, replayed.state);
    if (recorded.fallbackApplied != replayed.fallbackApplied || recorded.fallbackReason != replayed.fallbackReason)
        v.differences << T(QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "fallback decision: recorded %1, replayed %2"))
                             .arg(decision(recorded), decision(replayed));
    const qsizetype n = std::max(recorded.attempts.size(), replayed.attempts.size());
    for (qsizetype i = 0; i < n; ++i) {
        if (i >= recorded.attempts.size()) {
            v.differences << T(QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "attempt %1: only in the replay (%2)"))
                                 .arg(i + 1)
                                 .arg(replayed.attempts.at(i).label());
            continue;
        }
        if (i >= replayed.attempts.size()) {
            v.differences << T(QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "attempt %1: only recorded (%2)"))
                                 .arg(i + 1)
                                 .arg(recorded.attempts.at(i).label());
            continue;
        }
        const RecordedAttempt &a = recorded.attempts.at(i);
        const RecordedAttempt &b = replayed.attempts.at(i);
        if (a.stage != b.stage || a.label() != b.label()) {
            v.differences << T(QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "attempt %1: recorded %2, replayed %3"))
                                 .arg(i + 1)
                                 .arg(a.label(), b.label());
            continue;
        }
        if (!approximate.contains(i))
            v.differences << timingDifferences(i, a, b);
    }
    v.reproduced = v.differences.isEmpty();
    if (v.reproduced)
        v.summary = T(QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "reproduced: %1, %2 attempt(s) alike"))
                        .arg(outcome(recorded))
                        .arg(recorded.attempts.size());
    else if (sameSettings)
        v.summary = T(QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "differs: %1")).arg(v.differences.constFirst());
    else // "what if": the difference the edited settings made
        v.summary = T(QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "with these settings: %1 instead of %2"))
                        .arg(outcome(replayed), outcome(recorded));
    return v;
}

QJsonObject ReplayRun::toJson() const
{
    QJsonArray list;
    for (const RecordedAttempt &a : attempts)
        list.append(a.toJson());
    return QJsonObject { { QStringLiteral("state"), state },
                         { QStringLiteral("fallback_applied"), fallbackApplied },
                         { QStringLiteral("fallback_reason"), fallbackReason.isEmpty() ? QJsonValue() : QJsonValue(fallbackReason) },
                         { QStringLiteral("elapsed_ms"), elapsedMs },
                         { QStringLiteral("attempts"), list } };
}

ReplayRun ReplayRun::fromJson(const QJsonObject &json)
{
    ReplayRun r;
    r.state = json.value(QLatin1StringView("state")).toString();
    r.fallbackApplied = json.value(QLatin1StringView("fallback_applied")).toBool();
    r.fallbackReason = json.value(QLatin1StringView("fallback_reason")).toString();
    r.elapsedMs = json.value(QLatin1StringView("elapsed_ms")).toDouble();
    for (const QJsonValue &v : json.value(QLatin1StringView("attempts")).toArray()) {
        if (const std::optional<RecordedAttempt> a = RecordedAttempt::fromRow(v.toObject()))
            r.attempts << *a;
    }
    return r;
}

QJsonObject ReplayVerdict::toJson() const
{
    return QJsonObject { { QStringLiteral("reproduced"), reproduced },
                         { QStringLiteral("summary"), summary },
                         { QStringLiteral("differences"), QJsonArray::fromStringList(differences) } };
}

QString replayTimelines(const ReplayRun &recorded, const ReplayRun &replayed, int width)
{
    const double scale = std::max({ recorded.elapsedMs, replayed.elapsedMs, 1.0 });
    QString out;
    for (const auto &[title, run] :
         { std::pair { QStringLiteral("recorded"), &recorded }, std::pair { QStringLiteral("replayed"), &replayed } }) {
        out += QStringLiteral("%1: %2\n").arg(title, outcome(*run));
        double at = 0;
        for (const RecordedAttempt &a : run->attempts) {
            const int from = static_cast<int>(std::lround(at / scale * width));
            const int len = std::max(1, static_cast<int>(std::lround(a.durationMs / scale * width)));
            out += QStringLiteral("  %1 |%2%3\n")
                       .arg(a.label().leftJustified(34, QLatin1Char(' '), true), QString(from, QLatin1Char(' ')),
                            QString(len, a.success ? QLatin1Char('=') : QLatin1Char('x')) + QStringLiteral(" ") + seconds(a.durationMs));
            at += a.durationMs;
        }
    }
    out += T(QT_TRANSLATE_NOOP("bullpen::ReplayVerdict", "  scale: %1 across %2 columns\n")).arg(seconds(scale)).arg(width);
    return out;
}

} // namespace bullpen
