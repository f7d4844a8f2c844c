// SPDX-License-Identifier: MIT
#pragma once

#include "engine/event.h"
#include "pipeline/generationresult.h"

#include <QJsonObject>
#include <QString>

#include <chrono>
#include <map>
#include <set>
#include <vector>

class QTextStream;

namespace bullpen::ops {

// What `bullpen-cli soak` checks and reports, whichever engine ran the generations (embedded, or a
// bullpen-engine over HTTP): the invariants of docs/contract.md section 11, judged from each
// generation's events and result as they arrive and from the records the run reads back afterwards,
// latency percentiles per stage, provider and role, and outcomes per scenario.
class SoakLedger
{
public:
    // `budget`: the storyboard stage's total budget every generation ran under.
    explicit SoakLedger(std::chrono::milliseconds budget);

    // Numbered checks are the contract's invariants; number 0 is a service check of `soak --engine`
    // (the engine answered every request, a 429 with Retry-After excepted).
    void violate(int number, const QString &what);

    void event(const Event &event) { m_eventsOf[event.generationId] << event; }
    bool hasEvents(const QString &generationId) const { return m_eventsOf.count(generationId) != 0; }
    void forget(const QString &generationId) { m_eventsOf.erase(generationId); }
    // A generation's final result; `scenario` is what it ran under, `rawUserId` the user id it was started with.
    void finished(const GenerationResult &result, const QString &scenario, const QString &rawUserId);
    // Requests each provider received, counted on the provider's side, against the attempts the results
    // recorded (invariants 1 and 12).
    void compareRequests(const std::map<Provider, int> &requestsPer);
    // Invariant 2, once every generation has ended.
    void checkDeadlineOverruns();

    qint64 attemptsTotal() const;
    const std::set<QString> &rawUserIds() const { return m_rawUserIds; }

    // The summary `--json` prints; `records` is the store's (embedded) or the engine's (attached) part.
    QJsonObject summary(int total, double seconds, const QString &recordsKey, const QJsonObject &records) const;
    // The same for people.
    void print(QTextStream &out, const QJsonObject &summary) const;
    bool allPass() const;

    // With the service check (number 0) in the report: only `soak --engine` has it.
    void setServiceChecked(bool on) { m_serviceChecked = on; }
    // With invariant 11 in the report: `soak --engine A,B,…` over several engines sharing a store.
    void setSeveralEngines(bool on) { m_severalEngines = on; }
    // Invariants reported (WARN) but left out of allPass(): `soak --advisory 2,5`, for a run whose timing
    // says nothing (a debug build on an overloaded machine). Every other invariant is judged as ever.
    void setAdvisory(const std::set<int> &numbers) { m_advisory = numbers; }

private:
    struct Check
    {
        int number;
        QString text;
        qint64 violations = 0;
        QString worst;
    };

    std::chrono::milliseconds m_budget;
    std::set<int> m_advisory;
    bool m_severalEngines = false;
    std::vector<Check> m_checks;
    std::map<QString, QList<Event>> m_eventsOf; // per generation, until it ends
    std::set<QString> m_finishedIds;
    std::set<QString> m_rawUserIds;
    std::map<QString, std::map<QString, int>> m_outcomes; // scenario → state/kind → count
    std::map<std::pair<QString, QString>, std::vector<double>> m_latency; // (stage/provider, role) → ms
    std::map<Provider, int> m_attemptsPer;
    std::vector<double> m_deadlineOverruns; // ms past the deadline, for attempts ended by it
    std::vector<double> m_budgetOverruns;
    int m_fallbacks = 0;
    int m_unsent = 0;
    QString m_unsentExample;
    bool m_serviceChecked = false;
};

double percentile(std::vector<double> values, double p);

} // namespace bullpen::ops
