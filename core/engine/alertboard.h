// SPDX-License-Identifier: MIT
#pragma once

#include "alertrules.h"
#include "clock.h"

#include <QDateTime>
#include <QJsonObject>

#include <deque>
#include <map>
#include <optional>
#include <vector>

namespace bullpen {

// One alert: a rule's series, pending (active for less than its `for`), firing, or resolved.
struct Alert
{
    QString rule;
    QString severity;
    QString labels;
    QString state; // pending, firing, resolved
    double value = 0;
    QDateTime activeAt; // when its condition began to hold
    QDateTime firedAt; // firing and resolved: when it fired
    QDateTime resolvedAt; // resolved
    QDateTime silencedUntil; // while an operator's silence of its rule lasts (no notification; still listed)
    QJsonObject toJson() const;
};

// An operator's acknowledgement of a rule (docs/api.md, "Alerts"): its alerts stay listed and keep
// their state, but say they are silenced and raise no notification until `until`. It ends on its own
// at `ends` (the steady clock), or when an operator ends it.
struct Silence
{
    QString id; // its row in the store (SilenceRecords), the same on every engine
    QString rule;
    QString by;
    QString reason;
    QDateTime since;
    QDateTime until; // shown
    Clock::time_point ends; // judged
    QJsonObject toJson() const;
};

// The engine's own evaluation of the shipped rules (docs/api.md, GET /v1/alerts), Prometheus's way:
// a series that holds becomes pending, fires once it has held for the rule's `for`, and is resolved
// when it stops holding (a pending one that stops is dropped, as Prometheus drops it). Durations are
// on the steady clock; wall time is only what is shown. The newest resolved alerts are kept.
class AlertBoard final
{
public:
    static constexpr int kHistory = 200;

    // The alerts that changed state at this evaluation, in rule order.
    std::vector<Alert> evaluate(const AlertFacts &facts, Clock::time_point now, const QDateTime &wallNow);
    std::vector<Alert> active() const; // pending and firing, in rule order
    const std::deque<Alert> &history() const { return m_history; } // resolved, newest first
    // GET /v1/alerts' answer: {"instance", "alerts", "history", "rules", "silences"}; `now` judges
    // which silences still last.
    QJsonObject toJson(const QString &instance, Clock::time_point now) const;

    // Silences: one per rule (a new one replaces it). kSilenceLengths are the lengths an operator picks
    // from; makeSilence() refuses a rule not in alertRules() or a length not among them, saying why in
    // *error, and makes one with a new id, not yet in force; addSilence() puts it in force here.
    static constexpr std::chrono::minutes kSilenceLengths[] = { std::chrono::minutes(15), std::chrono::hours(1), std::chrono::hours(4) };
    static std::optional<Silence> makeSilence(const QString &rule, const QString &by, const QString &reason, std::chrono::seconds length,
                                              Clock::time_point now, const QDateTime &wallNow, QString *error);
    void addSilence(const Silence &silence);
    // makeSilence() and addSilence() at once (an engine without a store).
    std::optional<Silence> silence(const QString &rule, const QString &by, const QString &reason, std::chrono::seconds length,
                                   Clock::time_point now, const QDateTime &wallNow, QString *error);
    // The silences kept in the store (SilenceRecords::load: every engine's) become this board's; one it
    // no longer lists is over. Its end is judged on the steady clock: a silence this board already holds
    // keeps its `ends`; one it sees for the first time (made through another engine, or before this one
    // started) ends after the wall-clock time it has left, read once at `wallNow` and never more than its
    // whole length. A later step of the wall clock then neither ends a silence early nor keeps it past
    // its time (the wall clocks of the engines are assumed roughly in step, as the shown `until` is).
    void adoptSilences(std::vector<Silence> stored, Clock::time_point now, const QDateTime &wallNow);
    // The silences that have run out at `now`, taken off the board (so the store can be told).
    std::vector<Silence> takeEnded(Clock::time_point now);
    // The silence of `rule` that an operator ended, none when there was none.
    std::optional<Silence> endSilence(const QString &rule, Clock::time_point now);
    std::vector<Silence> silences(Clock::time_point now) const; // those still lasting, in rule order
    static bool knownRule(const QString &rule);
    static QString silenceLengthsText(); // "900, 3600, 14400": the lengths in seconds, for messages

private:
    struct Tracked
    {
        Alert alert;
        Clock::time_point since;
        Clock::time_point lastSeen;
    };
    QDateTime silencedUntil(const QString &rule, Clock::time_point now) const;
    std::map<std::pair<QString, QString>, Tracked> m_active; // (rule, labels)
    std::deque<Alert> m_history;
    std::map<QString, Silence> m_silences; // by rule
};

} // namespace bullpen
