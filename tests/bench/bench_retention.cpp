// SPDX-License-Identifier: MIT
// bench_retention: a store run for DAYS simulated days at RATE generations a second with a retention of
// RETAIN days (core/store/retention.h). Each simulated day is filled (HistoryFiller, with events), then
// purged as an engine's writer would at the end of that day, while a probe thread on its own connection
// writes one event per transaction and times each write. Prints rows and store size per day, and how
// long the purge held the store: its longest step, and the longest and p99 probe write during purges.
// Not part of the test run:
//   build/release/tests/bench/bench_retention [days=60] [rate=0.1] [retain=30] [data dir]
// With BULLPEN_DATABASE_URL set, the store is that (empty) PostgreSQL database instead. A simulated day
// lasts seconds, far less than autovacuum needs to catch up with a day of deletes (at real speed it
// runs every minute): so on PostgreSQL each day ends with a plain VACUUM of the purged tables, standing
// in for that day's autovacuum runs (BENCH_NO_VACUUM=1 leaves it to autovacuum alone).
#include "benchstats.h"
#include "devsupport/historyfiller.h"
#include "store/retention.h"
#include "store/store.h"
#include "store/walcheckpointer.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

using namespace bullpen;

namespace {

constexpr qint64 kDay = 86'400'000;

// Writes one event per transaction on its own connection while `probing` is set; keeps every latency.
class Probe
{
public:
    explicit Probe(const StoreLocation &location)
        : m_location(location)
    {
        m_thread = std::thread([this] { run(); });
    }
    ~Probe()
    {
        m_stop = true;
        m_thread.join();
    }
    void setProbing(bool on) { m_probing = on; }
    bench::Sample take()
    {
        std::lock_guard lock(m_mutex);
        return bench::Sample { std::exchange(m_latencies, {}) };
    }
    QString error() const
    {
        std::lock_guard lock(m_mutex);
        return m_error;
    }

private:
    void run()
    {
        QString why;
        {
            QSqlDatabase db = m_location.connect(QStringLiteral("probe"), StoreLocation::Access::ReadWrite, &why);
            // As an engine's store writer does (storewriter.cpp), unless BENCH_COMMIT_CHECKPOINTS=1: then
            // the probe's commits checkpoint the WAL themselves, as SQLite does by default.
            WalCheckpointer checkpointer(m_location);
            if (qEnvironmentVariableIsEmpty("BENCH_COMMIT_CHECKPOINTS"))
                checkpointer.takeOver(db);
            QSqlQuery q(db);
            q.prepare(
                QStringLiteral("INSERT INTO events (generation_id, seq, type, at_ms, body) VALUES ('gen_probe', ?, 'Probe', ?, '{}')"));
            qint64 seq = 0;
            while (!m_stop && why.isEmpty()) {
                if (!m_probing) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(5));
                    continue;
                }
                QElapsedTimer t;
                t.start();
                db.transaction();
                q.addBindValue(++seq);
                q.addBindValue(QDateTime::currentMSecsSinceEpoch());
                if (!q.exec() || !db.commit()) {
                    why = q.lastError().text() + db.lastError().text();
                    db.rollback();
                }
                {
                    std::lock_guard lock(m_mutex);
                    m_latencies.push_back(double(t.nsecsElapsed()) / 1e6);
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(2)); // a busy engine's writer, not a saturating one
            }
            q = QSqlQuery();
            db.close(); // before its checkpointer goes
        }
        StoreLocation::disconnect(QStringLiteral("probe"));
        std::lock_guard lock(m_mutex);
        m_error = why;
    }

    StoreLocation m_location;
    std::thread m_thread;
    std::atomic<bool> m_stop { false };
    std::atomic<bool> m_probing { false };
    mutable std::mutex m_mutex;
    std::vector<double> m_latencies;
    QString m_error;
};

// docs/store.md: a purge works in short steps so that it never holds the writers back long.
constexpr double kPurgeBlocksAWriteMs = 50;

constexpr char kUsage[] = R"(bench_retention: a store run for DAYS simulated days at RATE generations a second with a retention of
RETAIN days, purged each day while a probe thread writes and times each write. Target: a purge never
blocks a write more than 50 ms (the longest probe write during purges); printed with its figure on one
line; exits 1 when missed. BENCH_TIGHTEN=F tightens the target F times.
  bench_retention [days=60] [rate=0.1] [retain=30] [data dir]   BULLPEN_DATABASE_URL=... for PostgreSQL
)";

} // namespace

int main(int argc, char *argv[])
{
    if (bench::helpRequested(argc, argv, kUsage))
        return 0;
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    const int days = argc > 1 ? QString::fromLatin1(argv[1]).toInt() : 60;
    const double rate = argc > 2 ? QString::fromLatin1(argv[2]).toDouble() : 0.1;
    const int retain = argc > 3 ? QString::fromLatin1(argv[3]).toInt() : 30;
    QTemporaryDir temp;
    const QString dir = argc > 4 ? QString::fromLocal8Bit(argv[4]) : temp.path();
    QString error;
    const std::optional<StoreLocation> location = StoreLocation::resolve(dir, QProcessEnvironment::systemEnvironment(), &error);
    auto store = location ? Store::open(*location, &error) : nullptr;
    if (!store) {
        out << "bench_retention: " << error << "\n";
        return 1;
    }
    const bool postgres = location->isPostgres();
    QSqlDatabase db = location->connect(QStringLiteral("bench-purge"), StoreLocation::Access::ReadWrite, &error);
    if (!error.isEmpty()) {
        out << "bench_retention: " << error << "\n";
        return 1;
    }
    auto scalar = [&](const QString &sql) {
        QSqlQuery q(db);
        return q.exec(sql) && q.next() ? q.value(0).toLongLong() : -1;
    };
    auto walBytes = [&] {
        return postgres ? 0 : QFileInfo(location->sqlitePath() + QStringLiteral("-wal")).size();
    };
    auto storeBytes = [&] {
        if (postgres)
            return scalar(QStringLiteral("SELECT pg_database_size(current_database())"));
        return QFileInfo(location->sqlitePath()).size() + walBytes();
    };

    const qint64 start = QDateTime::currentMSecsSinceEpoch() - qint64(days) * kDay;
    // Attempts per day: HistoryFiller makes about 2.2 attempts per generation.
    const qint64 attemptsPerDay = std::max<qint64>(1, std::llround(rate * 86'400 * 2.2));
    RetentionPolicy policy;
    policy.generations = std::chrono::milliseconds(qint64(retain) * kDay);
    policy.aggregates = std::chrono::milliseconds(qint64(std::max(retain, 400)) * kDay);
    out << QStringLiteral("backend: %1; %2 simulated days at %3 generations/s, retention %4 d, 6 events per generation\n")
               .arg(postgres ? QStringLiteral("PostgreSQL") : QStringLiteral("SQLite"))
               .arg(days)
               .arg(rate)
               .arg(retain);
    out << "  day  generations      events  store MiB  (WAL MiB)  purged gens  steps  longest step ms  probe writes  probe max ms  probe "
           "p99 ms\n";
    Probe probe(*location);
    bench::Sample allProbes;
    double longestStep = 0;
    double longestCheckpoint = 0;
    double longestVacuum = 0;
    qint64 peakBytes = 0;
    qint64 bytesAtRetention = 0;
    for (int day = 0; day < days; ++day) {
        HistoryFillOptions fill;
        fill.attempts = attemptsPerDay;
        fill.fromMs = start + day * kDay;
        fill.toMs = fill.fromMs + kDay;
        fill.seed = static_cast<quint32>(day + 1);
        fill.eventsPerGeneration = 6;
        fill.aggregates = false; // the dashboards' aggregates are not what is measured here
        const HistoryFillResult filled = HistoryFiller::fill(*location, fill);
        if (!filled.error.isEmpty()) {
            out << "bench_retention: " << filled.error << "\n";
            return 1;
        }
        // A day of traffic is written in one transaction here; a real day's writers would have
        // checkpointed it as they went. Checkpointed now, so that the probe's first write does not
        // pay for copying the whole day into the file.
        if (!postgres) {
            QSqlQuery checkpoint(db);
            checkpoint.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
            while (checkpoint.next()) { }
        }
        // The end of the simulated day: an engine's pass.
        probe.setProbing(true);
        Purger purger(db, policy, fill.toMs, QString());
        if (!purger.runToEnd(&error)) {
            out << "bench_retention: " << error << "\n";
            return 1;
        }
        probe.setProbing(false);
        const bench::Sample probes = probe.take();
        if (postgres && qEnvironmentVariableIsEmpty("BENCH_NO_VACUUM")) {
            QElapsedTimer vacuum;
            vacuum.start();
            QSqlQuery q(db);
            if (!q.exec(QStringLiteral("VACUUM generations, attempts, events, comparisons, images"))) {
                out << "bench_retention: VACUUM failed: " << q.lastError().text() << "\n";
                return 1;
            }
            longestVacuum = std::max(longestVacuum, double(vacuum.nsecsElapsed()) / 1e6);
        }
        longestStep = std::max(longestStep, purger.longestStepMs());
        longestCheckpoint = std::max(longestCheckpoint, purger.longestCheckpointMs());
        allProbes.values.insert(allProbes.values.end(), probes.values.begin(), probes.values.end());
        const qint64 bytes = storeBytes();
        peakBytes = std::max(peakBytes, bytes);
        if (day + 1 == retain)
            bytesAtRetention = bytes;
        if ((day + 1) % 5 == 0 || day == 0 || day + 1 == days || probes.max() > 50)
            out << QStringLiteral("  %1  %2  %3  %4  %5  %6  %7  %8  %9  %10  %11\n")
                       .arg(day + 1, 3)
                       .arg(scalar(QStringLiteral("SELECT COUNT(*) FROM generations")), 11)
                       .arg(scalar(QStringLiteral("SELECT COUNT(*) FROM events")), 10)
                       .arg(double(bytes) / 1048576.0, 9, 'f', 1)
                       .arg(double(walBytes()) / 1048576.0, 9, 'f', 1)
                       .arg(purger.counts().generations, 11)
                       .arg(purger.steps(), 5)
                       .arg(purger.longestStepMs(), 15, 'f', 1)
                       .arg(probes.values.size(), 12)
                       .arg(probes.max(), 12, 'f', 1)
                       .arg(probes.at(99), 12, 'f', 1);
        out.flush();
    }
    if (!probe.error().isEmpty())
        out << "probe failed: " << probe.error() << "\n";
    out << QStringLiteral(
               "longest purge step %1 ms (its checkpoints, without the write lock: up to %6 ms); probe writes during purges: %2, "
               "max %3 ms, p99 %4 ms, median %5 ms\n")
               .arg(longestStep, 0, 'f', 1)
               .arg(allProbes.values.size())
               .arg(allProbes.max(), 0, 'f', 1)
               .arg(allProbes.at(99), 0, 'f', 1)
               .arg(allProbes.at(50), 0, 'f', 2)
               .arg(longestCheckpoint, 0, 'f', 1);
    if (postgres)
        out << QStringLiteral("longest daily VACUUM %1 ms%2\n")
                   .arg(longestVacuum, 0, 'f', 1)
                   .arg(qEnvironmentVariableIsEmpty("BENCH_NO_VACUUM") ? QString() : QStringLiteral(" (none: BENCH_NO_VACUUM)"));
    if (bytesAtRetention > 0)
        out << QStringLiteral("store size at day %1: %2 MiB; at day %3: %4 MiB (peak %5 MiB)\n")
                   .arg(retain)
                   .arg(double(bytesAtRetention) / 1048576.0, 0, 'f', 1)
                   .arg(days)
                   .arg(double(storeBytes()) / 1048576.0, 0, 'f', 1)
                   .arg(double(peakBytes) / 1048576.0, 0, 'f', 1);
    db = {};
    StoreLocation::disconnect(QStringLiteral("bench-purge"));
    bench::Judge judge(QStringLiteral("bench_retention"));
    judge.atMost("probe_write_ms_max_during_purges", allProbes.max(), kPurgeBlocksAWriteMs, "ms",
                 QStringLiteral("the longest write a purge held back (a probe on its own connection)"));
    judge.report("probe_write_ms_p99_during_purges", allProbes.at(99), "ms");
    judge.report("longest_purge_step_ms", longestStep, "ms");
    return judge.exitCode();
}
