// SPDX-License-Identifier: MIT
#include "ops/soakledger.h"

#include "contract/providerregistry.h"

#include <QJsonArray>
#include <QTextStream>

#include <algorithm>
#include <cmath>
#include <set>

namespace bullpen::ops {

using namespace std::chrono;

namespace {

double toMs(microseconds us)
{
    return static_cast<double>(us.count()) / 1000.0;
}

} // namespace

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const std::size_t i =
        std::min(v.size() - 1, static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size()))) - (p > 0 ? 1 : 0));
    return v[i];
}

SoakLedger::SoakLedger(milliseconds budget)
    : m_budget(budget)
    , m_checks {
        { 1, QStringLiteral("each provider receives at most one HTTP request per stage attempt"), 0, {} },
        { 2, QStringLiteral("no attempt outlives its deadline by more than 5 ms (p99)"), 0, {} },
        { 3, QStringLiteral("no result is accepted after its deadline"), 0, {} },
        { 4,
          QStringLiteral(
              "the fallback request is sent only after the primary's cancel handlers have run (or the primary was skipped, never called)"),
          0,
          {} },
        { 5, QStringLiteral("the stage never exceeds its total budget by more than 5 ms"), 0, {} },
        { 6, QStringLiteral("every generation reaches exactly one final state, written once"), 0, {} },
        { 7, QStringLiteral("every started attempt has exactly one *_attempt_completed record"), 0, {} },
        { 8,
          QStringLiteral("storyboard_fallback_triggered or storyboard_primary_skipped exists if and only if a fallback attempt ran"),
          0,
          {} },
        { 9, QStringLiteral("no raw user id or API key appears in the store, logs or exports"), 0, {} },
        { 10, QStringLiteral("no generation stays running once its engine is gone (ABANDONED at the next open, written once)"), 0, {} },
        { 11,
          QStringLiteral(
              "several engines on one store: each engine's event stream carries every engine's generations, and 1-10 hold for their union"),
          0,
          {} },
        { 12, QStringLiteral("every attempt whose budget started reached its provider (counted by the simulator)"), 0, {} },
        { 0, QStringLiteral("the engine answered every request it was sent (429 with Retry-After excepted)"), 0, {} },
    }
{
}

void SoakLedger::violate(int number, const QString &what)
{
    Check &c = *std::find_if(m_checks.begin(), m_checks.end(), [number](const Check &k) { return k.number == number; });
    if (c.violations++ == 0)
        c.worst = what;
}

void SoakLedger::finished(const GenerationResult &g, const QString &scenario, const QString &rawUserId)
{
    const StageResult &r = g.storyboard;
    if (!m_finishedIds.insert(g.generationId).second)
        violate(6, g.generationId + QStringLiteral(" finished twice"));
    const QList<Event> events = m_eventsOf[g.generationId];
    m_eventsOf.erase(g.generationId);
    m_outcomes[scenario][toId(g.state)
                         + (g.failure ? QLatin1Char('/') + toId(g.failedStage) + QLatin1Char('/') + enumName(g.failure->kind)
                                      : (g.degraded ? QStringLiteral("/degraded") : QString()))]++;
    if (r.fallback.applied)
        ++m_fallbacks;
    const QList<AttemptRecord> attempts = g.attempts();

    // 6: exactly one generation_finished event
    const auto typeCount = [&](auto match) {
        return std::count_if(events.cbegin(), events.cend(), match);
    };
    const auto isType = [](const QString &type) {
        return [type](const Event &e) {
            return e.type() == type;
        };
    };
    const auto finishedEvents = typeCount(isType(QStringLiteral("generation_finished")));
    if (finishedEvents != 1)
        violate(6, g.generationId + QStringLiteral(": generation_finished events: %1").arg(finishedEvents));
    // 7: every started attempt of every stage has exactly one completion
    const auto startedCount = typeCount([](const Event &e) { return std::holds_alternative<AttemptStarted>(e.body); });
    const auto completedCount = typeCount([](const Event &e) { return std::holds_alternative<AttemptCompleted>(e.body); });
    if (startedCount != completedCount || attempts.size() != completedCount)
        violate(7,
                g.generationId
                    + QStringLiteral(": attempts started %1, completed %2, recorded %3")
                          .arg(startedCount)
                          .arg(completedCount)
                          .arg(attempts.size()));
    // 8: fallback_triggered (or, for a skipped primary, primary_skipped) iff a fallback attempt ran
    const bool fallbackRan =
        std::any_of(attempts.cbegin(), attempts.cend(), [](const AttemptRecord &a) { return a.role == Role::Fallback; });
    const auto skipped = typeCount(isType(QStringLiteral("storyboard_primary_skipped")));
    if ((typeCount(isType(QStringLiteral("storyboard_fallback_triggered"))) + skipped == 1) != fallbackRan)
        violate(8, g.generationId);
    // 5: the storyboard stage's budget
    const double over = toMs(r.elapsed) - static_cast<double>(m_budget.count());
    m_budgetOverruns.push_back(std::max(0.0, over));
    if (over > 5.0)
        violate(5, QStringLiteral("%1: %2 ms over").arg(g.generationId).arg(over, 0, 'f', 2));
    for (const AttemptRecord &a : attempts) {
        m_latency[{ toId(a.stage) + QLatin1Char('/') + toId(a.provider), toId(a.role) }].push_back(toMs(a.duration));
        ++m_attemptsPer[a.provider];
        if (a.requestsSent > 1)
            violate(1, QStringLiteral("%1: %2 sent %3 requests").arg(g.generationId, toId(a.provider)).arg(a.requestsSent));
        if (a.requestsSent == 0) { // failed before its request left: never the provider's failure (docs/contract.md §4.5)
            ++m_unsent;
            violate(12,
                    QStringLiteral("%1: %2 %3 attempt never left Bullpen (%4)")
                        .arg(g.generationId, toId(a.stage), toId(a.provider), a.failure ? a.failure->detail : QString()));
            if (m_unsentExample.isEmpty())
                m_unsentExample =
                    QStringLiteral("%1 %2: %3").arg(toId(a.stage), toId(a.provider), a.failure ? a.failure->detail : QString());
        }
        const double past = toMs(a.startedAt + a.duration - a.deadline);
        if (a.abortedBy == AbortReason::Deadline)
            m_deadlineOverruns.push_back(std::max(0.0, past));
        // Accepted is judged where the engine judges it: by when the answer's last byte arrived, not by
        // when the record was made after parsing it (an engine before answer_complete_at_ms: the record's end).
        const double lateBy = toMs(a.answerCompleteAt.value_or(a.startedAt + a.duration) - a.deadline);
        if (a.success && lateBy >= 0)
            violate(3, QStringLiteral("%1: %2 accepted %3 ms after its deadline").arg(g.generationId, toId(a.provider)).arg(lateBy));
    }
    for (const AttemptRecord &a : r.attempts) {
        if (a.role != Role::Fallback)
            continue;
        if (skipped == 1) { // docs/contract.md §13: a skipped primary is never called
            if (std::any_of(r.attempts.cbegin(), r.attempts.cend(), [](const AttemptRecord &x) { return x.role == Role::Primary; }))
                violate(4, g.generationId + QStringLiteral(": primary skipped and called"));
            continue;
        }
        const AttemptRecord &p = r.attempts.first();
        const bool handlersFirst = !p.cancelledAt || *p.cancelledAt <= a.startedAt;
        // and by the event log: the primary's completion precedes the fallback's start
        qint64 primaryDone = -1, fallbackStart = -1;
        for (const Event &e : events) {
            if (const auto *c = std::get_if<AttemptCompleted>(&e.body); c && c->stage == Stage::Storyboard && c->role == Role::Primary)
                primaryDone = static_cast<qint64>(e.sequence);
            if (const auto *s = std::get_if<AttemptStarted>(&e.body); s && s->stage == Stage::Storyboard && s->role == Role::Fallback)
                fallbackStart = static_cast<qint64>(e.sequence);
        }
        if (!handlersFirst || primaryDone < 0 || fallbackStart < primaryDone)
            violate(4, g.generationId);
    }
    if (!rawUserId.isEmpty())
        m_rawUserIds.insert(rawUserId);
}

void SoakLedger::compareRequests(const std::map<Provider, int> &requestsPer)
{
    // Every provider either side names: the simulator's counts and the ledger's attempts.
    std::set<Provider> named;
    for (const auto &[p, n] : requestsPer)
        named.insert(p);
    for (const auto &[p, n] : m_attemptsPer)
        named.insert(p);
    for (Provider p : named) {
        const auto seen = requestsPer.count(p) ? requestsPer.at(p) : 0;
        const auto made = m_attemptsPer.count(p) ? m_attemptsPer.at(p) : 0;
        if (seen > made)
            violate(1, QStringLiteral("%1: simulator saw %2 requests for %3 attempts").arg(toId(p)).arg(seen).arg(made));
        if (seen < made)
            violate(12, QStringLiteral("%1: simulator saw %2 requests for %3 attempts").arg(toId(p)).arg(seen).arg(made));
    }
}

void SoakLedger::checkDeadlineOverruns()
{
    const double p99 = percentile(m_deadlineOverruns, 99);
    if (p99 > 5.0)
        violate(2, QStringLiteral("p99 %1 ms past the deadline").arg(p99, 0, 'f', 2));
}

qint64 SoakLedger::attemptsTotal() const
{
    qint64 n = 0;
    for (const auto &entry : m_attemptsPer)
        n += entry.second;
    return n;
}

bool SoakLedger::allPass() const
{
    return std::all_of(m_checks.cbegin(), m_checks.cend(),
                       [this](const Check &c) { return c.violations == 0 || m_advisory.count(c.number); });
}

QJsonObject SoakLedger::summary(int total, double seconds, const QString &recordsKey, const QJsonObject &records) const
{
    QJsonObject summary;
    summary.insert(QStringLiteral("generations"), total);
    summary.insert(QStringLiteral("seconds"), seconds);
    summary.insert(QStringLiteral("throughput_per_s"), total / seconds);
    summary.insert(QStringLiteral("fallback_rate"), static_cast<double>(m_fallbacks) / total);
    QJsonObject lat;
    for (const auto &[key, values] : m_latency)
        lat.insert(key.first + QLatin1Char('/') + key.second,
                   QJsonObject { { QStringLiteral("n"), static_cast<int>(values.size()) },
                                 { QStringLiteral("p50_ms"), percentile(values, 50) },
                                 { QStringLiteral("p90_ms"), percentile(values, 90) },
                                 { QStringLiteral("p99_ms"), percentile(values, 99) } });
    summary.insert(QStringLiteral("latency"), lat);
    summary.insert(QStringLiteral("deadline_overrun_p99_ms"), percentile(m_deadlineOverruns, 99));
    summary.insert(QStringLiteral("deadline_aborts"), static_cast<int>(m_deadlineOverruns.size()));
    summary.insert(QStringLiteral("attempts_without_request"), m_unsent);
    if (!m_unsentExample.isEmpty())
        summary.insert(QStringLiteral("attempt_without_request_example"), m_unsentExample);
    summary.insert(QStringLiteral("deadline_overrun_max_ms"),
                   m_deadlineOverruns.empty() ? 0.0 : *std::max_element(m_deadlineOverruns.begin(), m_deadlineOverruns.end()));
    summary.insert(QStringLiteral("budget_overrun_max_ms"),
                   m_budgetOverruns.empty() ? 0.0 : *std::max_element(m_budgetOverruns.begin(), m_budgetOverruns.end()));
    QJsonObject perScenario;
    for (const auto &[name, counts] : m_outcomes) {
        QJsonObject o;
        for (const auto &[k, n] : counts)
            o.insert(k, n);
        perScenario.insert(name, o);
    }
    summary.insert(QStringLiteral("outcomes"), perScenario);
    if (!recordsKey.isEmpty())
        summary.insert(recordsKey, records);
    QJsonArray invariants;
    QJsonArray service;
    for (const Check &c : m_checks) {
        const QJsonObject o { { QStringLiteral("number"), c.number },
                              { QStringLiteral("pass"), c.violations == 0 },
                              { QStringLiteral("advisory"), m_advisory.count(c.number) != 0 },
                              { QStringLiteral("text"), c.text },
                              { QStringLiteral("violations"), static_cast<double>(c.violations) },
                              { QStringLiteral("example"), c.worst } };
        if (c.number == 11 && !m_severalEngines)
            continue;
        if (c.number != 0)
            invariants.append(o);
        else if (m_serviceChecked)
            service.append(o);
    }
    summary.insert(QStringLiteral("invariants"), invariants);
    if (m_serviceChecked)
        summary.insert(QStringLiteral("service_checks"), service);
    return summary;
}

void SoakLedger::print(QTextStream &out, const QJsonObject &summary) const
{
    const int total = summary.value(QLatin1StringView("generations")).toInt();
    const double seconds = summary.value(QLatin1StringView("seconds")).toDouble();
    out << QStringLiteral("%1 generations in %2 s: %3 per second; fallback rate %4 %\n")
               .arg(total)
               .arg(seconds, 0, 'f', 1)
               .arg(total / seconds, 0, 'f', 1)
               .arg(100.0 * m_fallbacks / total, 0, 'f', 1);
    out << "latency (ms)          n      p50      p90      p99\n";
    for (const auto &[key, values] : m_latency)
        out << QStringLiteral("  %1 %2 %3 %4 %5\n")
                   .arg(key.first + QLatin1Char('/') + key.second, -17)
                   .arg(values.size(), 6)
                   .arg(percentile(values, 50), 8, 'f', 1)
                   .arg(percentile(values, 90), 8, 'f', 1)
                   .arg(percentile(values, 99), 8, 'f', 1);
    out << "outcomes by scenario:\n";
    for (const auto &[name, counts] : m_outcomes) {
        QStringList parts;
        for (const auto &[k, n] : counts)
            parts << QStringLiteral("%1 %2").arg(k).arg(n);
        out << "  " << qSetFieldWidth(28) << Qt::left << name << qSetFieldWidth(0) << parts.join(QStringLiteral(", ")) << "\n";
    }
    if (m_unsent)
        out << QStringLiteral("%1 attempt(s) failed before their request left (not resent, docs/contract.md §4.4), e.g. %2\n")
                   .arg(m_unsent)
                   .arg(m_unsentExample);
    // Of fewer than 100 aborts, the p99 is the largest (percentile() rounds its rank up).
    const int aborts = summary.value(QLatin1StringView("deadline_aborts")).toInt();
    out << QStringLiteral("deadline overrun p99 %1 ms of %2 attempts aborted at their deadline%3 (max %4 ms); budget overrun max %5 ms\n")
               .arg(summary.value(QLatin1StringView("deadline_overrun_p99_ms")).toDouble(), 0, 'f', 2)
               .arg(aborts)
               .arg(aborts > 0 && aborts < 100 ? QStringLiteral(", which is the largest at fewer than 100") : QString())
               .arg(summary.value(QLatin1StringView("deadline_overrun_max_ms")).toDouble(), 0, 'f', 2)
               .arg(summary.value(QLatin1StringView("budget_overrun_max_ms")).toDouble(), 0, 'f', 2);
    for (const Check &c : m_checks) {
        if ((c.number == 0 && !m_serviceChecked) || (c.number == 11 && !m_severalEngines))
            continue;
        const bool advisory = m_advisory.count(c.number) != 0;
        out << (c.violations == 0 ? "PASS "
                    : advisory    ? "WARN "
                                  : "FAIL ")
            << (c.number == 0 ? QStringLiteral("service") : QStringLiteral("invariant %1").arg(c.number)) << ": " << c.text
            << (c.violations ? QStringLiteral(" — %1 violation(s), e.g. %2").arg(c.violations).arg(c.worst) : QString())
            << (advisory && c.violations ? QStringLiteral(" (advisory in this run: not in the exit code)") : QString()) << "\n";
    }
}

} // namespace bullpen::ops
