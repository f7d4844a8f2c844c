// SPDX-License-Identifier: MIT
// bench_store: fills a store with one million attempts over 7 days and times the queries the
// dashboards need. Prints a table of medians over repeated runs. Not part of the test run:
//   build/dev/tests/bench/bench_store [attempts] [data dir]
#include "store/store.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>
#include <functional>
#include <vector>

using namespace bullpen;

namespace {

double medianMs(const std::function<void()> &f, int runs = 7)
{
    std::vector<double> t;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer timer;
        timer.start();
        f();
        t.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    const int attempts = argc > 1 ? QString::fromLatin1(argv[1]).toInt() : 1'000'000;
    QTemporaryDir temp;
    const QString dir = argc > 2 ? QString::fromLocal8Bit(argv[2]) : temp.path();
    QString error;
    auto store = Store::open(dir, &error);
    if (!store) {
        out << "bench_store: " << error << "\n";
        return 1;
    }

    // Fill: ~1.6 attempts per generation (60 % relieved), spread over 7 days.
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 week = 7LL * 24 * 3600 * 1000;
    QElapsedTimer fillTimer;
    fillTimer.start();
    int generations = 0;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("fill"));
        db.setDatabaseName(store->databasePath());
        db.open();
        QSqlQuery pragma(db);
        pragma.exec(QStringLiteral("PRAGMA synchronous=OFF"));
        QSqlQuery g(db), a(db);
        g.prepare(QStringLiteral("INSERT INTO generations (id, created_at_ms, finished_at_ms, user_key, user_mask, policy, primary_provider, "
                                 "state, public_code, kind, stage, fallback_applied, final_provider, elapsed_ms) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
        a.prepare(QStringLiteral("INSERT INTO attempts (generation_id, attempt_id, at_ms, stage, provider, model, role, round, success, kind, "
                                 "public_code, http_status, duration_ms, fallback_eligible, requests_sent) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
        QRandomGenerator rng(42);
        db.transaction();
        qint64 attemptId = 0;
        static const char *kinds[] = {"TRANSIENT_SERVER", "RATE_LIMITED", "TIMEOUT", "OUTPUT_INVALID", "AUTH_CONFIG"};
        static const char *codes[] = {"AI_PROVIDER_ERROR", "AI_PROVIDER_RATE_LIMITED", "AI_PROVIDER_TIMEOUT", "AI_PROVIDER_INVALID_OUTPUT",
                                      "AI_PROVIDER_CONFIG"};
        while (attemptId < attempts) {
            const QString id = QStringLiteral("gen_%1").arg(generations++, 32, 16, QLatin1Char('0'));
            const qint64 at = now - week + static_cast<qint64>(rng.bounded(week));
            const bool primaryFails = rng.bounded(100) < 60;
            const bool reliefFails = primaryFails && rng.bounded(100) < 20;
            const int k = static_cast<int>(rng.bounded(5));
            const QString state = reliefFails || (primaryFails && k == 4) ? QStringLiteral("failed") : QStringLiteral("succeeded");
            auto addAttempt = [&](const char *provider, const char *role, bool ok, int kindIndex) {
                a.addBindValue(id);
                a.addBindValue(++attemptId);
                a.addBindValue(at);
                a.addBindValue(QStringLiteral("storyboard"));
                a.addBindValue(QLatin1StringView(provider));
                a.addBindValue(QStringLiteral("m"));
                a.addBindValue(QLatin1StringView(role));
                a.addBindValue(1);
                a.addBindValue(ok ? 1 : 0);
                a.addBindValue(ok ? QVariant() : QVariant(QLatin1StringView(kinds[kindIndex])));
                a.addBindValue(ok ? QVariant() : QVariant(QLatin1StringView(codes[kindIndex])));
                a.addBindValue(ok ? 200 : 503);
                a.addBindValue(200.0 + rng.bounded(5000));
                a.addBindValue(1);
                a.addBindValue(1);
                a.exec();
            };
            addAttempt("gemini", "primary", !primaryFails, k);
            const bool relieved = primaryFails && k != 4;
            if (relieved)
                addAttempt("qwen", "fallback", !reliefFails, static_cast<int>(rng.bounded(4)));
            g.addBindValue(id);
            g.addBindValue(at);
            g.addBindValue(at + 3000);
            g.addBindValue(QStringLiteral("key%1").arg(generations % 5000));
            g.addBindValue(QStringLiteral("us****%1").arg(generations % 100));
            g.addBindValue(QStringLiteral("relief"));
            g.addBindValue(QStringLiteral("gemini"));
            g.addBindValue(state);
            g.addBindValue(state == u"failed" ? QVariant(QLatin1StringView(codes[k])) : QVariant());
            g.addBindValue(state == u"failed" ? QVariant(QLatin1StringView(kinds[k])) : QVariant());
            g.addBindValue(state == u"failed" ? QVariant(QStringLiteral("storyboard")) : QVariant());
            g.addBindValue(relieved && !reliefFails ? 1 : 0);
            g.addBindValue(relieved ? QStringLiteral("qwen") : QStringLiteral("gemini"));
            g.addBindValue(1000.0 + rng.bounded(4000));
            g.exec();
        }
        db.commit();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("fill"));
    const double fillS = static_cast<double>(fillTimer.elapsed()) / 1000.0;

    out << QStringLiteral("store with %1 attempts, %2 generations over 7 days (filled in %3 s)\n").arg(attempts).arg(generations).arg(fillS, 0, 'f', 1);
    out << "query                                                  median ms\n";
    auto row = [&](const QString &name, double ms) { out << QStringLiteral("  %1 %2\n").arg(name, -52).arg(ms, 9, 'f', 2); };
    HistoryFilter failed;
    failed.states = {QStringLiteral("failed")};
    failed.fromMs = now - week;
    row(QStringLiteral("failures, newest page of 100 (7 days)"), medianMs([&] { store->generations(failed, 100); }));
    HistoryFilter code = failed;
    code.publicCode = QStringLiteral("AI_PROVIDER_TIMEOUT");
    row(QStringLiteral("failures filtered by public code, page of 100"), medianMs([&] { store->generations(code, 100); }));
    HistoryFilter kindProvider = failed;
    kindProvider.kind = QStringLiteral("RATE_LIMITED");
    kindProvider.provider = QStringLiteral("qwen");
    row(QStringLiteral("failures by kind + provider, page of 100"), medianMs([&] { store->generations(kindProvider, 100); }));
    HistoryFilter deep = failed;
    row(QStringLiteral("failures, page 500 deep (keyset)"), medianMs([&] {
            HistoryFilter f = deep;
            const QList<GenerationRow> last = store->generations(f, 1);
            f.beforeMs = last.isEmpty() ? now : last.first().createdAtMs - 3LL * 24 * 3600 * 1000;
            f.beforeId = QStringLiteral("~");
            store->generations(f, 100);
        }));
    row(QStringLiteral("count failures by public code (7 days)"), medianMs([&] { store->countBy(QStringLiteral("public_code"), failed); }, 5));
    row(QStringLiteral("fallback rate, 1 h buckets (7 days)"), medianMs([&] { store->fallbackRate(now - week, now, 3600 * 1000); }, 5));
    row(QStringLiteral("latency samples gemini/primary, 1 day"),
        medianMs([&] { store->latencySamples(QStringLiteral("gemini"), QStringLiteral("primary"), now - week / 7, now); }, 5));
    row(QStringLiteral("latency samples gemini/primary, 7 days"),
        medianMs([&] { store->latencySamples(QStringLiteral("gemini"), QStringLiteral("primary"), now - week, now); }, 3));
    return 0;
}
