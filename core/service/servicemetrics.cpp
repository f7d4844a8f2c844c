// SPDX-License-Identifier: MIT
#include "servicemetrics.h"

#include "contract/providerregistry.h"
#include "history/providerhealth.h"

#include <QJsonArray>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace bullpen {

namespace {

constexpr qint64 kRecentMs = 15 * 60 * 1000;
constexpr std::size_t kMaxRecent = 100000;

QByteArray label(const char *name, const QString &value)
{
    // Label values are ids and enum names: no quotes or backslashes to escape, but be safe.
    QString v = value;
    v.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
        .replace(QLatin1Char('"'), QStringLiteral("\\\""))
        .replace(QLatin1Char('\n'), QStringLiteral("\\n"));
    return QByteArray(name) + "=\"" + v.toUtf8() + '"';
}

QByteArray number(double v)
{
    return std::isfinite(v) ? QByteArray::number(v, 'g', 12) : QByteArray("NaN");
}

// A metric's HELP and TYPE lines.
void head(QByteArray &out, const char *name, const char *type, const char *help)
{
    out += QByteArray("# HELP ") + name + ' ' + help + "\n# TYPE " + name + ' ' + type + '\n';
}

} // namespace

qint64 ServiceMetrics::steadyNowMs(const Clock &clock)
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(clock.now().time_since_epoch()).count();
}

void ServiceMetrics::record(const Event &event, qint64 wallMs, qint64 steadyMs)
{
    // A probe's events (docs/contract.md §13) count as probes only, never in users' figures.
    if (const auto *g = std::get_if<GenerationStarted>(&event.body); g && g->probe) {
        m_probing.insert(event.generationId);
        return;
    }
    if (m_probing.contains(event.generationId)) {
        if (const auto *a = std::get_if<AttemptCompleted>(&event.body)) {
            ProbeSeen &seen = m_probes[{ a->stage, a->provider, a->role }];
            ++seen.runs[a->success ? 0 : 1];
            seen.ok = a->success;
            seen.atMs = wallMs;
            seen.seconds = static_cast<double>(a->duration.count()) / 1e6;
        } else if (std::holds_alternative<GenerationFinished>(event.body)) {
            m_probing.remove(event.generationId);
        }
        return;
    }
    if (std::holds_alternative<GenerationStarted>(event.body)) {
        ++m_started;
    } else if (const auto *a = std::get_if<AttemptCompleted>(&event.body)) {
        const QString result = a->success ? QStringLiteral("success") : a->failure ? enumName(a->failure->kind) : QStringLiteral("UNKNOWN");
        ++m_attempts[{ a->stage, a->provider, a->role, result }];
        if (a->cost)
            m_spend[{ a->provider, a->stage, a->role, a->currency }] += *a->cost;
        Histogram &h = m_durations[{ a->stage, a->provider, a->role }];
        const double seconds = static_cast<double>(a->duration.count()) / 1e6;
        for (std::size_t i = 0; i < kBucketsSeconds.size(); ++i) {
            if (seconds <= kBucketsSeconds[i])
                ++h.buckets[i];
        }
        ++h.count;
        h.sum += seconds;
        m_recent.push_back(
            Recent { steadyMs, a->provider, a->role, a->success, a->kind(), false, static_cast<double>(a->duration.count()) / 1000.0 });
    } else if (const auto *f = std::get_if<FallbackTriggered>(&event.body)) {
        ++m_fallbacks[{ f->stage, f->from, f->to, f->kind }];
        // The primary attempt that was just handed to the fallback is the newest failed one of that provider.
        for (auto it = m_recent.rbegin(); it != m_recent.rend(); ++it) {
            if (it->provider == f->from && it->role == Role::Primary && !it->success) {
                it->handedToFallback = true;
                break;
            }
        }
    } else if (const auto *k = std::get_if<PrimarySkipped>(&event.body)) {
        ++m_skips[{ k->stage, k->provider, k->to, k->state }];
    } else if (std::holds_alternative<LateResultDiscarded>(event.body)) {
        ++m_late;
    } else if (const auto *g = std::get_if<GenerationFinished>(&event.body)) {
        ++m_finished[toId(g->state)];
    }
    prune(steadyMs);
}

void ServiceMetrics::writeProbes(QByteArray &out) const
{
    const auto labels = [](const auto &key) -> QByteArray {
        const auto &[stage, provider, role] = key;
        return label("provider", toId(provider)) + ',' + label("role", toId(role)) + ',' + label("stage", toId(stage));
    };
    out += "# HELP bullpen_probes_total Probes this engine sent (synthetic generations), by provider, role, stage and result.\n"
           "# TYPE bullpen_probes_total counter\n";
    for (const auto &[key, seen] : m_probes) {
        out += "bullpen_probes_total{" + labels(key) + ",result=\"ok\"} " + QByteArray::number(seen.runs[0]) + '\n';
        out += "bullpen_probes_total{" + labels(key) + ",result=\"failed\"} " + QByteArray::number(seen.runs[1]) + '\n';
    }
    out += "# HELP bullpen_probe_success Whether the latest probe of each provider, role and stage succeeded (1) or failed (0).\n"
           "# TYPE bullpen_probe_success gauge\n";
    for (const auto &[key, seen] : m_probes)
        out += "bullpen_probe_success{" + labels(key) + "} " + (seen.ok ? "1" : "0") + '\n';
    out += "# HELP bullpen_probe_last_timestamp_seconds When the latest probe of each provider, role and stage ended (Unix time).\n"
           "# TYPE bullpen_probe_last_timestamp_seconds gauge\n";
    for (const auto &[key, seen] : m_probes)
        out += "bullpen_probe_last_timestamp_seconds{" + labels(key) + "} "
            + QByteArray::number(static_cast<double>(seen.atMs) / 1000.0, 'f', 3) + '\n';
    out += "# HELP bullpen_probe_duration_seconds How long the latest probe of each provider, role and stage took.\n"
           "# TYPE bullpen_probe_duration_seconds gauge\n";
    for (const auto &[key, seen] : m_probes)
        out += "bullpen_probe_duration_seconds{" + labels(key) + "} " + QByteArray::number(seen.seconds, 'g', 6) + '\n';
}

void ServiceMetrics::prune(qint64 nowSteadyMs) const
{
    // The last 15 minutes, and never more than kMaxRecent attempts (at a thousand attempts a second the
    // health strip then covers the last 100 s, and says so through its attempt counts).
    while (!m_recent.empty() && (m_recent.front().atMs < nowSteadyMs - kRecentMs || m_recent.size() > kMaxRecent))
        m_recent.pop_front();
}

namespace {
// The store's writer and its retention.
void writeStore(QByteArray &out, const ServiceMetrics::Gauges &g)
{
    head(out, "bullpen_store_write_failures_total", "counter", "Records the store could not write (the generations themselves went on).");
    out += "bullpen_store_write_failures_total " + QByteArray::number(g.storeWriteFailures) + '\n';
    head(out, "bullpen_store_writes_queued_total", "counter", "Records handed to the store's writer.");
    out += "bullpen_store_writes_queued_total " + QByteArray::number(g.storeWritesQueued) + '\n';
    head(out, "bullpen_store_write_backlog", "gauge", "Records handed to the store's writer and not yet written (or failed).");
    out += "bullpen_store_write_backlog " + QByteArray::number(g.storeWriteBacklog) + '\n';
    head(out, "bullpen_store_reachable", "gauge",
         "1 while the store's writer is connected; 0 while its connection is being re-made (records are held).");
    out += QByteArray("bullpen_store_reachable ") + (g.storeReachable ? "1" : "0") + '\n';
    head(out, "bullpen_store_purged_rows_total", "counter", "Rows this engine's retention removed, by what they were.");
    const std::pair<const char *, qint64> purged[] = {
        { "generations", g.retention.purged.generations }, { "attempts", g.retention.purged.attempts },
        { "events", g.retention.purged.events },           { "comparisons", g.retention.purged.comparisons },
        { "images", g.retention.purged.images },           { "aggregate_rows", g.retention.purged.aggregateRows },
        { "audit_rows", g.retention.purged.auditRows }
    };
    for (const auto &[what, n] : purged)
        out += "bullpen_store_purged_rows_total{" + label("what", QString::fromLatin1(what)) + "} " + QByteArray::number(n) + '\n';
    head(out, "bullpen_store_purged_files_total", "counter",
         "Comic files (SQLite stores keep them beside the database) retention removed.");
    out += "bullpen_store_purged_files_total " + QByteArray::number(g.retention.purged.imageFiles) + '\n';
    head(out, "bullpen_store_purge_step_max_seconds", "gauge", "The longest one purge step held the store (writes queue behind a step).");
    out += "bullpen_store_purge_step_max_seconds " + number(g.retention.longestStepMs / 1000.0) + '\n';
    head(out, "bullpen_store_purge_last_done_timestamp_seconds", "gauge",
         "When a purge pass last found nothing more to remove (0: not yet).");
    out += "bullpen_store_purge_last_done_timestamp_seconds " + number(double(g.retention.lastPassDoneMs) / 1000.0) + '\n';
}
} // namespace

QByteArray ServiceMetrics::prometheus(const Gauges &g) const
{
    QByteArray out;
    out.reserve(8192);
    head(out, "bullpen_build_info", "gauge", "Always 1; its label says which Bullpen this engine is.");
    out += "bullpen_build_info{" + label("version", g.version) + "} 1\n";
    head(out, "bullpen_generations_started_total", "counter", "Generations started on this engine.");
    out += "bullpen_generations_started_total " + QByteArray::number(m_started) + '\n';
    head(out, "bullpen_generations_finished_total", "counter", "Generations ended, by final state.");
    for (const FinalState state : enumValues<FinalState>()) {
        const auto n = m_finished.find(toId(state)); // every state from 0, so that rate() sees the first one
        out += "bullpen_generations_finished_total{" + label("state", toId(state)) + "} "
            + QByteArray::number(n == m_finished.end() ? 0 : n->second) + '\n';
    }
    head(out, "bullpen_generations_in_flight", "gauge", "Generations running now.");
    out += "bullpen_generations_in_flight " + QByteArray::number(g.generationsInFlight) + '\n';
    head(out, "bullpen_attempts_total", "counter", "Provider attempts, by stage, provider, role and result (success or failure kind).");
    for (const auto &[key, n] : m_attempts) {
        const auto &[stage, provider, role, result] = key;
        out += "bullpen_attempts_total{" + label("stage", toId(stage)) + ',' + label("provider", toId(provider)) + ','
            + label("role", toId(role)) + ',' + label("result", result) + "} " + QByteArray::number(n) + '\n';
    }
    head(out, "bullpen_spend_total", "counter",
         "What this engine's attempts cost (tokens reported x price; docs/configuration.md, Prices), by provider, stage, role and "
         "currency. Attempts whose cost is unknown add nothing.");
    for (const auto &[key, cost] : m_spend) {
        const auto &[provider, stage, role, currency] = key;
        out += "bullpen_spend_total{" + label("provider", toId(provider)) + ',' + label("stage", toId(stage)) + ','
            + label("role", toId(role)) + ',' + label("currency", currency) + "} " + number(cost) + '\n';
    }
    head(out, "bullpen_fallbacks_total", "counter", "Fallback attempts triggered, by stage, from, to and the primary's failure kind.");
    for (const auto &[key, n] : m_fallbacks) {
        const auto &[stage, from, to, kind] = key;
        out += "bullpen_fallbacks_total{" + label("stage", toId(stage)) + ',' + label("from", toId(from)) + ',' + label("to", toId(to))
            + ',' + label("kind", enumName(kind)) + "} " + QByteArray::number(n) + '\n';
    }
    head(out, "bullpen_primary_skipped_total", "counter",
         "Stages sent straight to their fallback because the primary's breaker was open or the primary drained, by stage, from, to and "
         "state.");
    for (const auto &[key, n] : m_skips) {
        const auto &[stage, from, to, state] = key;
        out += "bullpen_primary_skipped_total{" + label("stage", toId(stage)) + ',' + label("from", toId(from)) + ','
            + label("to", toId(to)) + ',' + label("state", state) + "} " + QByteArray::number(n) + '\n';
    }
    head(out, "bullpen_breaker_state", "gauge", "Each breaker that has seen an attempt: 0 closed, 1 half-open, 2 open.");
    for (const BreakerView &b : g.breakers)
        out += "bullpen_breaker_state{" + label("provider", toId(b.key.provider)) + ',' + label("role", toId(b.key.role)) + ','
            + label("stage", toId(b.key.stage)) + "} "
            + QByteArray::number(b.state == BreakerState::Closed         ? 0
                                     : b.state == BreakerState::HalfOpen ? 1
                                                                         : 2)
            + '\n';
    head(out, "bullpen_breaker_opened_total", "counter", "Times each breaker opened since the engine started.");
    for (const BreakerView &b : g.breakers)
        out += "bullpen_breaker_opened_total{" + label("provider", toId(b.key.provider)) + ',' + label("role", toId(b.key.role)) + ','
            + label("stage", toId(b.key.stage)) + "} " + QByteArray::number(b.opened) + '\n';
    head(out, "bullpen_provider_drains", "gauge", "Drains in force, by provider, role and stage (\"any\": every one).");
    std::map<std::tuple<QString, QString, QString>, int> drains;
    for (const Drain &d : g.drains)
        ++drains[{ toId(d.provider), d.role ? toId(*d.role) : QStringLiteral("any"), d.stage ? toId(*d.stage) : QStringLiteral("any") }];
    for (const auto &[key, n] : drains)
        out += "bullpen_provider_drains{" + label("provider", std::get<0>(key)) + ',' + label("role", std::get<1>(key)) + ','
            + label("stage", std::get<2>(key)) + "} " + QByteArray::number(n) + '\n';
    writeProbes(out);
    head(out, "bullpen_attempt_duration_seconds", "histogram", "Attempt durations (to the last byte or the deadline).");
    for (const auto &[key, h] : m_durations) {
        const auto &[stage, provider, role] = key;
        const QByteArray labels = label("stage", toId(stage)) + ',' + label("provider", toId(provider)) + ',' + label("role", toId(role));
        for (std::size_t i = 0; i < kBucketsSeconds.size(); ++i)
            out += "bullpen_attempt_duration_seconds_bucket{" + labels + ',' + label("le", QString::number(kBucketsSeconds[i])) + "} "
                + QByteArray::number(h.buckets[i]) + '\n';
        out += "bullpen_attempt_duration_seconds_bucket{" + labels + ",le=\"+Inf\"} " + QByteArray::number(h.count) + '\n';
        out += "bullpen_attempt_duration_seconds_sum{" + labels + "} " + number(h.sum) + '\n';
        out += "bullpen_attempt_duration_seconds_count{" + labels + "} " + QByteArray::number(h.count) + '\n';
    }
    head(out, "bullpen_late_results_discarded_total", "counter", "Answers that arrived after their deadline and were thrown away.");
    out += "bullpen_late_results_discarded_total " + QByteArray::number(m_late) + '\n';
    writeStore(out, g);
    head(out, "bullpen_audit_write_failures_total", "counter",
         "Audit rows (who started, cancelled or compared what) the store could not write.");
    out += "bullpen_audit_write_failures_total " + QByteArray::number(g.auditWriteFailures) + '\n';
    head(out, "bullpen_sse_subscribers", "gauge", "Clients following GET /v1/events.");
    out += "bullpen_sse_subscribers " + QByteArray::number(g.sseSubscribers) + '\n';
    head(out, "bullpen_sse_overflows_total", "counter", "Event subscribers closed for reading too slowly.");
    out += "bullpen_sse_overflows_total " + QByteArray::number(g.sseOverflows) + '\n';
    head(out, "bullpen_sse_backfilled_events_total", "counter",
         "Events read back from the store for subscribers resuming from an older cursor.");
    out += "bullpen_sse_backfilled_events_total " + QByteArray::number(g.sseBackfilled) + '\n';
    head(out, "bullpen_connections_open", "gauge", "Client connections open to the API.");
    out += "bullpen_connections_open " + QByteArray::number(g.connectionsOpen) + '\n';
    head(out, "bullpen_connections_ended_total", "counter",
         "Client connections the engine ended by its limits: timed out mid-request or idle, closed to make room, refused.");
    for (const auto &[reason, n] : g.connectionsEnded)
        out += "bullpen_connections_ended_total{" + label("reason", QString::fromLatin1(reason)) + "} " + QByteArray::number(n) + '\n';
    head(out, "bullpen_api_responses_total", "counter", "API answers, by HTTP status.");
    for (const auto &[status, n] : m_requests)
        out += "bullpen_api_responses_total{" + label("status", QString::number(status)) + "} " + QByteArray::number(n) + '\n';
    head(out, "bullpen_draining", "gauge", "1 while the engine drains before it exits.");
    out += QByteArray("bullpen_draining ") + (g.draining ? "1" : "0") + '\n';
    if (!g.simulatorRequests.empty()) {
        head(out, "bullpen_simulator_requests_total", "counter",
             "Requests the built-in simulator received, by provider (only on the simulator).");
        for (const auto &[provider, n] : g.simulatorRequests)
            out += "bullpen_simulator_requests_total{" + label("provider", toId(provider)) + "} " + QByteArray::number(n) + '\n';
    }
    return out;
}

QList<ProviderWindow> ServiceMetrics::providers(const QList<Provider> &providers, qint64 nowSteadyMs, qint64 windowMs) const
{
    prune(nowSteadyMs);
    QList<ProviderWindow> out;
    for (Provider p : providers) {
        qint64 attempts = 0, failures = 0, primaryFailures = 0, handedToFallback = 0;
        std::map<FailureKind, int> kinds;
        std::vector<double> durations;
        for (const Recent &r : m_recent) {
            if (r.provider != p || r.atMs < nowSteadyMs - windowMs)
                continue;
            ++attempts;
            durations.push_back(r.durationMs);
            if (!r.success) {
                ++failures;
                if (r.kind)
                    ++kinds[*r.kind];
                if (r.role == Role::Primary) {
                    ++primaryFailures;
                    handedToFallback += r.handedToFallback ? 1 : 0;
                }
            }
        }
        if (attempts == 0)
            continue;
        const auto top = std::max_element(kinds.begin(), kinds.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
        ProviderWindow w;
        w.provider = toId(p);
        w.attempts = attempts;
        w.errorPercent = 100.0 * static_cast<double>(failures) / static_cast<double>(attempts);
        if (top != kinds.end())
            w.topKind = enumName(top->first);
        if (primaryFailures != 0)
            w.reliefPercent = 100.0 * static_cast<double>(handedToFallback) / static_cast<double>(primaryFailures);
        w.p50Ms = interpolatedPercentile(durations, 0.5);
        w.p90Ms = interpolatedPercentile(durations, 0.9);
        out << w;
    }
    return out;
}

} // namespace bullpen
