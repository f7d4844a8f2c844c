// SPDX-License-Identifier: MIT
// bench_store: fills a store with one million attempts over 7 days and times the queries the
// dashboards need. Prints a table of medians over repeated runs, and judges the dashboards' reads
// (kUsage below). Not part of the test run:
//   build/dev/tests/bench/bench_store [attempts] [data dir]
// With BULLPEN_DATABASE_URL set, the store is that (empty) PostgreSQL database instead.
#include "analytics/latencystats.h"
#include "benchstats.h"
#include "devsupport/historyfiller.h"
#include "store/store.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QProcessEnvironment>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>
#include <functional>
#include <vector>

using namespace bullpen;
using bench::medianMs;

namespace {

// The dashboards' reads (docs/store.md, hourly aggregates): whole hours from the aggregates, the
// partial hours at the edges from the rows. Each figure is the view's whole read and statistics.
struct DashboardReads
{
    double latencyMs = 0;
    double failuresMs = 0;
    double failedOnlyMs = 0;
    double waitsMs = 0;
};

DashboardReads readDashboards(Store &store, qint64 now, const std::function<void(const QString &, double)> &row, QTextStream &out)
{
    const qint64 week = 7LL * 24 * 3600 * 1000;
    const qint64 hour = 3'600'000;
    const qint64 hourFrom = (now - week) / hour * hour;
    HistoryFilter failed;
    failed.states = { HistoryState::Failed };
    failed.fromMs = now - week;
    double p99 = 0, extra90 = 0;
    DashboardReads r;
    r.latencyMs = medianMs([&] {
        LatencyStats stats(hourFrom, now, hour);
        stats.addCells(store.latencyHistogram(Provider::Gemini, Role::Primary, Stage::Storyboard, hourFrom, now, hour));
        QList<FallbackWaitCell> cells = store.fallbackWaitHistogram(Stage::Storyboard, hourFrom, now, hour);
        cells.removeIf([](const FallbackWaitCell &c) { return c.primaryProvider != u"gemini"; });
        stats.setFallbackWaitCells(cells);
        p99 = stats.percentile(99);
        for (std::size_t i = 0; i < stats.buckets().size(); ++i)
            p99 = std::max(p99, stats.buckets()[i].percentile(99));
        extra90 = stats.extraWaitPercentile(90);
    });
    row(QStringLiteral("latency view 7 d / 1 h: read + statistics"), r.latencyMs);
    r.failuresMs = medianMs([&] {
        HistoryFilter f;
        f.fromMs = now - week; // not on an hour: the first partial hour is read from the rows
        store.countBy(HistoryGroup::PublicCode, f);
        store.countBy(HistoryGroup::Kind, f);
        store.fallbackRate(hourFrom, now + 1, hour);
    });
    row(QStringLiteral("failures view: counts by code + kind + fallback rate"), r.failuresMs);
    r.failedOnlyMs = medianMs([&] {
        store.countBy(HistoryGroup::PublicCode, failed);
        store.countBy(HistoryGroup::Kind, failed);
        store.fallbackRate(hourFrom, now + 1, hour);
    });
    row(QStringLiteral("failures view, failed only: counts + fallback rate"), r.failedOnlyMs);
    r.waitsMs = medianMs([&] {
        LatencyStats stats(hourFrom, now, hour);
        stats.setFallbackWaitCells(store.fallbackWaitHistogram(Stage::Storyboard, hourFrom, now, hour));
        extra90 = stats.extraWaitPercentile(90);
    });
    row(QStringLiteral("fallback waits (extra wait) 7 d / 1 h, histogram"), r.waitsMs);
    out << QStringLiteral("  (gemini primary storyboard p99 up to %1 ms; extra wait p90 %2 ms; percentiles within %3 %)\n")
               .arg(p99, 0, 'f', 0)
               .arg(extra90, 0, 'f', 0)
               .arg(100 * DurationHistogram::relativeError(), 0, 'f', 2);
    return r;
}

// What the latency view and the fallback-wait histogram read from the aggregates: their non-empty
// cells (hour x duration bin, and provider pairs), which grow with the traffic until every bin of every
// hour is filled. The growth figures below are to be read beside these.
QString cellsRead(Store &store)
{
    const qint64 latency = store.scalar(
        QStringLiteral("SELECT COUNT(*) FROM agg_attempts WHERE provider = 'gemini' AND role = 'primary' AND stage = 'storyboard'"));
    const qint64 waits = store.scalar(QStringLiteral("SELECT COUNT(*) FROM agg_relief WHERE stage = 'storyboard'"));
    return QStringLiteral("  cells read: latency view %L1, fallback waits %L2\n").arg(latency).arg(waits);
}

// The same week with a tenth of the traffic, in a store of its own (SQLite), read the same way.
std::optional<DashboardReads> tenthOfTheTraffic(qint64 attempts, qint64 now, qint64 readAt, QTextStream &out)
{
    QTemporaryDir temp;
    QString error;
    const std::optional<StoreLocation> location = StoreLocation::resolve(temp.path(), QProcessEnvironment(), &error);
    const qint64 week = 7LL * 24 * 3600 * 1000;
    HistoryFillResult filled;
    const auto store =
        location ? HistoryFiller::filledStore(*location, { attempts / 10, now - week, now, 42, {} }, &filled, &error) : nullptr;
    if (!store) {
        out << "bench_store: the store with a tenth of the traffic: " << error << "\n";
        return std::nullopt;
    }
    if (!filled.checkpointed) {
        // Read from its WAL, the tenth would read slower and the growth look smaller than it is.
        out << "bench_store: the store with a tenth of the traffic could not be checkpointed after its fill; run again\n";
        return std::nullopt;
    }
    out << QStringLiteral("the same week with %1 attempts (a tenth):\n").arg(attempts / 10) << cellsRead(*store);
    const qint64 newest = std::max(store->scalar(QStringLiteral("SELECT MAX(at_ms) FROM attempts")),
                                   store->scalar(QStringLiteral("SELECT MAX(created_at_ms) FROM generations")));
    if (newest >= readAt) // its tail longer than the full week's: read it as the view would, after it
        out << QStringLiteral("  its newest row is %1 s after the full week's reads end; its reads end after it\n")
                   .arg(double(newest - readAt) / 1000.0, 0, 'f', 1);
    return readDashboards(
        *store, std::max(readAt, newest + 1),
        [&out](const QString &name, double ms) { out << QStringLiteral("  %1 %2\n").arg(name, -52).arg(ms, 9, 'f', 2); }, out);
}

// Targets. The dashboards read hourly aggregates "so their cost does not grow with traffic"
// (docs/contract.md section 12): ten times the attempts over the same week may cost at most twice as
// much (the aggregates gain rows only where a cell was empty). The views' own budgets are those
// docs/store.md states for one million attempts.
constexpr double kGrowthAtTenTimesTheTraffic = 2.0;
constexpr double kLatencyViewMs = 150;
constexpr double kFailuresViewMs = 50;
constexpr double kFallbackWaitsMs = 100;

constexpr char kUsage[] = R"(bench_store: a store with N attempts over 7 days (default 1,000,000); times the queries the
dashboards need and judges the dashboards' reads: latency view <= 150 ms, failures view <= 50 ms, fallback
waits <= 100 ms, and (SQLite) each read at N attempts <= 2x the same read at N/10. Each figure is printed
with its target on one line; exits 1 when a target is missed. BENCH_TIGHTEN=F tightens every target F times.
  bench_store [attempts] [data dir]      BULLPEN_DATABASE_URL=... for an empty PostgreSQL database instead
Given a data dir, the filled week stays there with its attempts and end in bench-history.txt, for
`bench_tune N --history DIR` (the gate fills the week once for both).
)";

} // namespace

int main(int argc, char *argv[])
{
    if (bench::helpRequested(argc, argv, kUsage))
        return 0;
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    const qint64 attempts = argc > 1 ? QString::fromLatin1(argv[1]).toLongLong() : 1'000'000;
    QTemporaryDir temp;
    const QString dir = argc > 2 ? QString::fromLocal8Bit(argv[2]) : temp.path();
    QString error;
    const std::optional<StoreLocation> location = StoreLocation::resolve(dir, QProcessEnvironment::systemEnvironment(), &error);
    if (!location) {
        out << "bench_store: " << error << "\n";
        return 1;
    }

    // Fill: the synthetic week the console's benchmark and screenshots use (HistoryFiller).
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 week = 7LL * 24 * 3600 * 1000;
    HistoryFillResult filled;
    const std::unique_ptr<Store> store = HistoryFiller::filledStore(*location, { attempts, now - week, now, 42, {} }, &filled, &error);
    if (!store) {
        out << "bench_store: " << error << "\n";
        return 1;
    }
    if (!filled.checkpointed) {
        out << "bench_store: the filled store could not be checkpointed (its pages would be read from the WAL); run again\n";
        return 1;
    }
    const qint64 generations = filled.generations;
    const double fillS = static_cast<double>(filled.elapsedMs) / 1000.0;
    if (argc > 2 && !location->isPostgres() && !bench::writeHistoryNote(dir, attempts, now, &error))
        out << "bench_store: " << error << " (bench_tune will write its own week)\n";
    if (location->isPostgres()) {
        // A bulk load leaves PostgreSQL without statistics until autovacuum's next pass: take them now,
        // as a server that has run for a while would have them.
        {
            QSqlDatabase db = location->connect(QStringLiteral("bench-analyze"), StoreLocation::Access::ReadWrite, &error);
            QSqlQuery q(db);
            if (!q.exec(QStringLiteral("ANALYZE")))
                out << "bench_store: ANALYZE failed: " << q.lastError().text() << "\n";
        }
        StoreLocation::disconnect(QStringLiteral("bench-analyze"));
    }
    out << "backend: "
        << (location->isPostgres() ? QStringLiteral("PostgreSQL (") + location->display() + QLatin1Char(')') : QStringLiteral("SQLite"))
        << "\n";

    out << QStringLiteral("store with %1 attempts, %2 generations over 7 days (filled in %3 s)\n")
               .arg(attempts)
               .arg(generations)
               .arg(fillS, 0, 'f', 1);
    out << "query                                                  median ms\n";
    auto row = [&](const QString &name, double ms) {
        out << QStringLiteral("  %1 %2\n").arg(name, -52).arg(ms, 9, 'f', 2);
    };
    HistoryFilter failed;
    failed.states = { HistoryState::Failed };
    failed.fromMs = now - week;
    row(QStringLiteral("failures, newest page of 100 (7 days)"), medianMs([&] { store->generations(failed, 100); }));
    HistoryFilter code = failed;
    code.publicCode = PublicCode::AI_PROVIDER_TIMEOUT;
    row(QStringLiteral("failures filtered by public code, page of 100"), medianMs([&] { store->generations(code, 100); }));
    HistoryFilter kindProvider = failed;
    kindProvider.kind = FailureKind::RATE_LIMITED;
    kindProvider.provider = Provider::Qwen;
    row(QStringLiteral("failures by kind + provider, page of 100"), medianMs([&] { store->generations(kindProvider, 100); }));
    HistoryFilter deep = failed;
    row(QStringLiteral("failures, page 500 deep (keyset)"), medianMs([&] {
            HistoryFilter f = deep;
            const QList<GenerationRow> last = store->generations(f, 1);
            f.beforeMs = last.isEmpty() ? now : last.first().createdAtMs - 3LL * 24 * 3600 * 1000;
            f.beforeId = QStringLiteral("~");
            store->generations(f, 100);
        }));
    row(QStringLiteral("count failures by public code (7 days)"), medianMs([&] { store->countBy(HistoryGroup::PublicCode, failed); }, 5));
    row(QStringLiteral("fallback rate, 1 h buckets off the hour (rows)"),
        medianMs([&] { store->fallbackRate(now - week, now, 3600 * 1000); }, 5));
    row(QStringLiteral("latency samples gemini/primary, 1 day"),
        medianMs([&] { store->latencySamples(Provider::Gemini, Role::Primary, now - week / 7, now); }, 5));
    row(QStringLiteral("latency samples gemini/primary, 7 days"),
        medianMs([&] { store->latencySamples(Provider::Gemini, Role::Primary, now - week, now); }, 3));
    row(QStringLiteral("fallback waits (extra wait), 7 days (rows)"),
        medianMs([&] { store->fallbackWaits(Stage::Storyboard, now - week, now); }, 3));

    // What the dashboards read since schema 8 (docs/store.md).
    out << "dashboards (hourly aggregates + edge rows)              median ms\n";
    // The views take their "now" when they refresh, after the week was written; so do these reads, on
    // both stores. The filler dates a generation's last attempts up to about two minutes after the
    // week's end, which a store cannot hold (no row is later than the clock): the reads end after them,
    // as a view's would. The tenth's week has the same end and tail.
    const qint64 newest = std::max(store->scalar(QStringLiteral("SELECT MAX(at_ms) FROM attempts")),
                                   store->scalar(QStringLiteral("SELECT MAX(created_at_ms) FROM generations")));
    const qint64 readAt = std::max(QDateTime::currentMSecsSinceEpoch(), newest + 1);
    out << QStringLiteral("  the reads end %1 s after the week's end, %2 s after its newest row\n")
               .arg(double(readAt - now) / 1000.0, 0, 'f', 1)
               .arg(double(readAt - newest) / 1000.0, 0, 'f', 1);
    const DashboardReads full = readDashboards(*store, readAt, row, out);
    const qint64 aggregateRows = store->scalar(QStringLiteral("SELECT COUNT(*) FROM agg_generations"))
        + store->scalar(QStringLiteral("SELECT COUNT(*) FROM agg_attempts"))
        + store->scalar(QStringLiteral("SELECT COUNT(*) FROM agg_relief"));
    out << QStringLiteral("  aggregate rows: %L1 for %L2 attempts\n").arg(aggregateRows).arg(attempts) << cellsRead(*store);

    out.flush(); // the table above before the verdicts
    bench::Judge judge(QStringLiteral("bench_store"));
    const QString at = QStringLiteral("%L1 attempts over 7 days").arg(attempts);
    judge.atMost("latency_view_ms_median", full.latencyMs, kLatencyViewMs, "ms", at + QStringLiteral(", read + statistics"));
    judge.atMost("failures_view_ms_median", full.failuresMs, kFailuresViewMs, "ms", at);
    judge.atMost("fallback_waits_ms_median", full.waitsMs, kFallbackWaitsMs, "ms", at);
    if (!location->isPostgres()) {
        const std::optional<DashboardReads> tenth = tenthOfTheTraffic(attempts, now, readAt, out);
        if (!tenth)
            return 3;
        out.flush();
        const QString growth = QStringLiteral("the read at %L1 attempts over the same read at %L2").arg(attempts).arg(attempts / 10);
        judge.atMost("latency_view_growth_10x", full.latencyMs / tenth->latencyMs, kGrowthAtTenTimesTheTraffic, "x", growth);
        judge.atMost("failures_view_growth_10x", full.failuresMs / tenth->failuresMs, kGrowthAtTenTimesTheTraffic, "x", growth);
        judge.atMost("fallback_waits_growth_10x", full.waitsMs / tenth->waitsMs, kGrowthAtTenTimesTheTraffic, "x", growth);
    }
    return judge.exitCode();
}
