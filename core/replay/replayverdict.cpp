// SPDX-License-Identifier: MIT
#include "replayverdict.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace bullpen {

namespace {

QString seconds(double ms)
{
    return QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'f', 1);
}

QString outcome(const ReplayRun &r)
{
    QString s = r.state;
    if (r.fallbackApplied)
        s += QStringLiteral(" by the fallback (%1)").arg(r.fallbackReason);
    return s + QStringLiteral(" at ") + seconds(r.elapsedMs);
}

} // namespace

ReplayVerdict ReplayVerdict::judge(const ReplayRun &recorded, const ReplayRun &replayed, bool sameSettings,
                                   const QList<qsizetype> &approximate)
{
    ReplayVerdict v;
    if (recorded.state != replayed.state)
        v.differences << QStringLiteral("outcome: recorded %1, replayed %2").arg(recorded.state, replayed.state);
    if (recorded.fallbackApplied != replayed.fallbackApplied || recorded.fallbackReason != replayed.fallbackReason)
        v.differences << QStringLiteral("fallback decision: recorded %1, replayed %2")
                             .arg(recorded.fallbackApplied ? recorded.fallbackReason : QStringLiteral("none"),
                                  replayed.fallbackApplied ? replayed.fallbackReason : QStringLiteral("none"));
    const qsizetype n = std::max(recorded.attempts.size(), replayed.attempts.size());
    for (qsizetype i = 0; i < n; ++i) {
        if (i >= recorded.attempts.size()) {
            v.differences << QStringLiteral("attempt %1: only in the replay (%2)").arg(i + 1).arg(replayed.attempts.at(i).label());
            continue;
        }
        if (i >= replayed.attempts.size()) {
            v.differences << QStringLiteral("attempt %1: only recorded (%2)").arg(i + 1).arg(recorded.attempts.at(i).label());
            continue;
        }
        const RecordedAttempt &a = recorded.attempts.at(i);
        const RecordedAttempt &b = replayed.attempts.at(i);
        if (a.stage != b.stage || a.label() != b.label()) {
            v.differences << QStringLiteral("attempt %1: recorded %2, replayed %3").arg(i + 1).arg(a.label(), b.label());
            continue;
        }
        const double tolerance = std::max(kToleranceFloorMs, kTolerance * a.durationMs);
        if (!approximate.contains(i) && std::abs(a.durationMs - b.durationMs) > tolerance)
            v.differences << QStringLiteral("attempt %1 (%2): %3 ms recorded, %4 ms replayed (tolerance %5 ms)")
                                 .arg(i + 1)
                                 .arg(a.label())
                                 .arg(std::llround(a.durationMs))
                                 .arg(std::llround(b.durationMs))
                                 .arg(std::llround(tolerance));
    }
    v.reproduced = v.differences.isEmpty();
    if (v.reproduced)
        v.summary = QStringLiteral("reproduced: %1, %2 attempt(s) alike").arg(outcome(recorded)).arg(recorded.attempts.size());
    else if (sameSettings)
        v.summary = QStringLiteral("differs: %1").arg(v.differences.constFirst());
    else // "what if": the difference the edited settings made
        v.summary = QStringLiteral("with these settings: %1 instead of %2").arg(outcome(replayed), outcome(recorded));
    return v;
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
    out += QStringLiteral("  scale: %1 across %2 columns\n").arg(seconds(scale)).arg(width);
    return out;
}

} // namespace bullpen
