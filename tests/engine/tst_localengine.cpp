// SPDX-License-Identifier: MIT
// docs/contract.md §12.3: the engine on engine threads, never on the caller's; events and results come back to the
// caller's thread in order; cancel reaches the thread a generation lives on.
#include "runtime/enginesetup.h"
#include "runtime/enginethreads.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <map>

using namespace bullpen;

class tst_LocalEngine : public QObject
{
    Q_OBJECT

    static std::unique_ptr<EngineSetup> engineOn(const QTemporaryDir &dir, const QString &scenario, int threads)
    {
        SetupOptions o;
        o.forceSimulator = true;
        o.scenario = scenario;
        o.dataDir = dir.path();
        o.settingsFile = dir.filePath(QStringLiteral("none.json"));
        o.keyFile = dir.filePath(QStringLiteral("none.env"));
        o.environment = QProcessEnvironment();
        o.engineThreads = threads;
        auto setup = std::make_unique<EngineSetup>();
        if (!setup->init(o))
            qWarning() << setup->errors().constFirst().toString();
        return setup;
    }

    static int requestsReceived(const EngineSetup &setup)
    {
        int n = 0;
        for (Provider p : { Provider::Gemini, Provider::Qwen, Provider::OpenAI, Provider::Anthropic })
            n += setup.simulator()->counters(p).requests;
        return n;
    }

private Q_SLOTS:
    void threadsFromEnvironment()
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("BULLPEN_ENGINE_THREADS"), QStringLiteral("3"));
        QCOMPARE(LocalEngine::threadsFromEnvironment(env), 3);
        const int cores = std::max(1, QThread::idealThreadCount());
        for (const QString &bad : { QStringLiteral("0"), QStringLiteral("65"), QStringLiteral("two") }) {
            env.insert(QStringLiteral("BULLPEN_ENGINE_THREADS"), bad);
            QCOMPARE(LocalEngine::threadsFromEnvironment(env), cores);
        }
        QCOMPARE(LocalEngine::threadsFromEnvironment(QProcessEnvironment()), cores);
    }

    // The caller's thread is stuck (a long paint, a modal loop gone wrong): the engine goes on, because
    // it does not run there. With the engine on the caller's thread nothing would be sent at all.
    void engineWorksWhileTheCallerIsBlocked()
    {
        QTemporaryDir dir;
        auto setup = engineOn(dir, QStringLiteral("healthy"), 2);
        QVERIFY(setup->errors().isEmpty());
        QCOMPARE(setup->engine().threadCount(), 2);
        const int count = 8;
        for (int i = 0; i < count; ++i) {
            GenerationRequest g;
            g.story = QStringLiteral("A lighthouse keeper finds a letter in a bottle. Number %1.").arg(i);
            g.fresh = true;
            setup->engine().start(g);
        }
        // Blocked: no event loop turns here until every generation's three stages reached the provider.
        QDeadlineTimer limit(20'000);
        while (requestsReceived(*setup) < count * 3 && !limit.hasExpired())
            QThread::yieldCurrentThread();
        QCOMPARE(requestsReceived(*setup), count * 3);
        QSignalSpy finished(&setup->engine(), &EngineClient::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), count, 20'000);
        QCOMPARE(setup->engine().activeCount(), 0);
    }

    // Every event of a generation reaches the caller's thread in sequence, generation_started first and
    // generation_finished last, before its result; the work is shared between the threads.
    void eventsArriveInOrderOnTheCallersThread()
    {
        QTemporaryDir dir;
        auto setup = engineOn(dir, QStringLiteral("primary-overloaded"), 2);
        QVERIFY(setup->errors().isEmpty());
        LocalEngine &engine = setup->engine();
        std::map<QString, QList<Event>> events;
        std::map<QString, GenerationResult> results;
        bool wrongThread = false, eventAfterResult = false;
        connect(&engine, &EngineClient::eventRecorded, this, [&](const Event &e) {
            wrongThread = wrongThread || QThread::currentThread() != thread();
            eventAfterResult = eventAfterResult || results.count(e.generationId) != 0;
            events[e.generationId] << e;
        });
        connect(&engine, &EngineClient::finished, this, [&](const GenerationResult &r) {
            wrongThread = wrongThread || QThread::currentThread() != thread();
            results.emplace(r.generationId, r);
        });
        const int count = 24;
        int busiestSecond = 0;
        for (int i = 0; i < count; ++i) {
            GenerationRequest g;
            g.story = QStringLiteral("A fox learns to sail. Part %1.").arg(i);
            g.fresh = true;
            engine.start(g);
            busiestSecond = std::max(busiestSecond, engine.activePerThread().at(1));
        }
        QCOMPARE(engine.activePerThread(), (std::vector<int> { count / 2, count / 2 })); // the fewest running first
        QTRY_COMPARE_WITH_TIMEOUT(int(results.size()), count, 30'000);
        QVERIFY(!wrongThread);
        QVERIFY(!eventAfterResult);
        for (const auto &[id, list] : events) {
            QVERIFY(list.size() >= 4);
            QVERIFY(std::holds_alternative<GenerationStarted>(list.constFirst().body));
            QVERIFY(std::holds_alternative<GenerationFinished>(list.constLast().body));
            for (qsizetype i = 0; i < list.size(); ++i)
                QCOMPARE(list.at(i).sequence, quint64(i));
        }
        QCOMPARE(engine.activePerThread(), (std::vector<int> { 0, 0 }));
        QVERIFY(busiestSecond > 0);
        // Recorded from both threads into the one store.
        QVERIFY(setup->store()->flush());
        QCOMPARE(setup->store()->count(HistoryFilter {}), qint64(count));
    }

    // The comic is written off the engine thread, content-addressed and owner-only; a folder that cannot
    // take it fails the generation with what to do.
    void comicIsStoredOrTheFailureSaysWhy()
    {
        QTemporaryDir dir;
        auto setup = engineOn(dir, QStringLiteral("healthy"), 2);
        QVERIFY(setup->errors().isEmpty());
        QSignalSpy finished(&setup->engine(), &EngineClient::finished);
        GenerationRequest g;
        g.story = QStringLiteral("A kite escapes into the clouds. A girl follows it. She finds a sky garden. She flies home.");
        g.fresh = true;
        setup->engine().start(g);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20'000);
        const auto ok = finished.takeFirst().first().value<GenerationResult>();
        QCOMPARE(ok.state, FinalState::Succeeded);
        QFile comic(ok.imagePath);
        QVERIFY2(comic.open(QIODevice::ReadOnly), qPrintable(ok.imagePath));
        QCOMPARE(QString::fromLatin1(QCryptographicHash::hash(comic.readAll(), QCryptographicHash::Sha256).toHex()), ok.imageSha256);
        QVERIFY(ok.imagePath.contains(ok.imageSha256));
        QCOMPARE(comic.permissions()
                     & (QFileDevice::ReadGroup | QFileDevice::ReadOther | QFileDevice::WriteGroup | QFileDevice::WriteOther),
                 QFileDevice::Permissions());
        comic.close();

        // The images folder is a file now: nothing can be written under it (root ignores permissions).
        const QString images = QFileInfo(QFileInfo(ok.imagePath).path()).path();
        QVERIFY(QDir(images).removeRecursively());
        QFile blocker(images);
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        g.story = QStringLiteral("A different story: a snail races a train. The snail wins. Nobody believes it. The train sulks.");
        setup->engine().start(g);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20'000);
        const auto failed = finished.takeFirst().first().value<GenerationResult>();
        QCOMPARE(failed.state, FinalState::Failed);
        QCOMPARE(failed.failure->kind, FailureKind::INTERNAL);
        QVERIFY2(failed.failure->detail.contains(QStringLiteral("cannot write the image")), qPrintable(failed.failure->detail));
        QVERIFY(failed.failure->detail.contains(QStringLiteral("free space or fix")));
    }

    void cancelReachesTheThread()
    {
        QTemporaryDir dir;
        auto setup = engineOn(dir, QStringLiteral("primary-hang"), 2);
        QVERIFY(setup->errors().isEmpty());
        LocalEngine &engine = setup->engine();
        QSignalSpy finished(&engine, &EngineClient::finished);
        QStringList ids;
        for (int i = 0; i < 4; ++i) {
            GenerationRequest g;
            g.story = QStringLiteral("A bell that rings by itself. %1").arg(i);
            g.fresh = true;
            ids << engine.start(g);
        }
        QTRY_COMPARE_WITH_TIMEOUT(requestsReceived(*setup), 4, 10'000); // all four hanging at the provider
        for (const QString &id : std::as_const(ids))
            QVERIFY(engine.cancel(id));
        QVERIFY(!engine.cancel(QStringLiteral("gen_unknown")));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 4, 10'000);
        for (const QList<QVariant> &args : std::as_const(finished))
            QCOMPARE(args.at(0).value<GenerationResult>().state, FinalState::Cancelled);
        QVERIFY(!engine.cancel(ids.constFirst())); // ended: no longer running here
    }

    // Engines in one process may share their threads (the soak runs one engine per scenario on one set):
    // each generation starts on the thread with the fewest running over all of them; one engine that
    // ends while its generations run leaves the threads to the others, whose generations go on, and
    // hands nothing more back (under ASan a delivery to the ended engine is a use after free).
    void enginesSharingThreadsEndOneAtATime()
    {
        QTemporaryDir dir;
        auto setup = engineOn(dir, QStringLiteral("healthy"), 0);
        QVERIFY(setup->errors().isEmpty());
        auto threads = std::make_shared<EngineThreads>(2);
        const auto engineOnThreads = [&] {
            return std::make_unique<LocalEngine>(setup->settings(), setup->pipelineOptions(), nullptr, nullptr, threads);
        };
        const auto request = [](int i) {
            GenerationRequest g;
            g.story = QStringLiteral("Two engines, one set of threads. Story %1.").arg(i);
            g.fresh = true;
            return g;
        };
        auto first = engineOnThreads();
        auto second = engineOnThreads();
        QCOMPARE(first->threadCount(), 2);
        QCOMPARE(threads.use_count(), 3);
        QSignalSpy secondFinished(second.get(), &EngineClient::finished);
        // No event loop turns between these calls: nothing ends, and the counts are exact.
        for (int i = 0; i < 3; ++i)
            first->start(request(i));
        QCOMPARE(first->activePerThread(), (std::vector<int> { 2, 1 }));
        QCOMPARE(std::pair(threads->running(0), threads->running(1)), std::pair(2, 1));
        // Each start goes to the thread with the fewest running over both engines, as one engine's would.
        second->start(request(3));
        QCOMPARE(second->activePerThread(), (std::vector<int> { 0, 1 }));
        second->start(request(4)); // 2 and 2: the engine's own fewest breaks the tie
        QCOMPARE(second->activePerThread(), (std::vector<int> { 1, 1 }));
        QCOMPARE(std::pair(threads->running(0), threads->running(1)), std::pair(3, 2));
        first.reset(); // its three still running: cancelled on the threads, nothing handed back
        QCOMPARE(threads.use_count(), 2);
        QCOMPARE(std::pair(threads->running(0), threads->running(1)), std::pair(1, 1));
        QVERIFY(threads->at(0)->isRunning() && threads->at(1)->isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(secondFinished.size(), 2, 20'000);
        for (const QList<QVariant> &args : std::as_const(secondFinished))
            QCOMPARE(args.at(0).value<GenerationResult>().state, FinalState::Succeeded);
        QCOMPARE(std::pair(threads->running(0), threads->running(1)), std::pair(0, 0));

        auto third = engineOnThreads(); // after one ended, a new one on the same threads works as the first did
        QSignalSpy thirdFinished(third.get(), &EngineClient::finished);
        third->start(request(5));
        QTRY_COMPARE_WITH_TIMEOUT(thirdFinished.size(), 1, 20'000);
        QCOMPARE(thirdFinished.at(0).at(0).value<GenerationResult>().state, FinalState::Succeeded);
        second.reset();
        third.reset();
        QCOMPARE(threads.use_count(), 1);
        QVERIFY(threads->at(0)->isRunning()); // until the last holder lets go
    }
};

QTEST_GUILESS_MAIN(tst_LocalEngine)
#include "tst_localengine.moc"
