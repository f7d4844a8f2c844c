// SPDX-License-Identifier: MIT
// The soak drivers (ops/soakrun.h) without a command line: an embedded run on the simulator over
// loopback that passes and leaves every generation in its store, and the refusals a run starts with
// (an unknown scenario, an engine that does not answer). The invariants themselves: tst_soakledger.
#include "engine/stagepolicy.h"
#include "ops/soakrun.h"
#include "store/store.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;
using namespace bullpen::ops;
using namespace std::chrono;

namespace {

SoakOptions options(const QStringList &scenarios, int total)
{
    SoakOptions o;
    o.total = total;
    o.inFlight = 3;
    o.scenarios = scenarios;
    o.scenariosGiven = true;
    o.json = true;
    o.policy = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
    o.policy.primaryTimeout = seconds(2);
    o.policy.fallbackTimeout = seconds(2);
    return o;
}

} // namespace

class tst_SoakRun : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Two scenarios side by side, one of them failing over: every invariant holds, every generation is
    // in the store the run was given.
    void embeddedRunPassesAndRecordsEveryGeneration()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString data = dir.filePath(QStringLiteral("soak"));
        const int total = 8;
        QCOMPARE(runLocal(options({ QStringLiteral("healthy"), QStringLiteral("primary-overloaded") }, total), { true, data, false }), 0);
        QString error;
        std::unique_ptr<Store> store = Store::openReadOnly(data, &error);
        QVERIFY2(store, qPrintable(error));
        QCOMPARE(store->count({}), total);
    }

    void refusesAnUnknownScenario() { QCOMPARE(runLocal(options({ QStringLiteral("no-such-scenario") }, 2), { false, {}, false }), 2); }

    // Nothing listens on the port: the run says so and starts nothing (exit 2, as `soak --engine`).
    void refusesAnEngineThatDoesNotAnswer()
    {
        EngineEndpoint nowhere;
        QString why;
        QVERIFY2(EngineEndpoint::parseUrl(QStringLiteral("http://127.0.0.1:9"), &nowhere.base, &why), qPrintable(why));
        nowhere.token = "not-a-token";
        QCOMPARE(runRemote({ nowhere }, options({ QStringLiteral("healthy") }, 2), seconds(15)), 2);
    }
};

QTEST_MAIN(tst_SoakRun)
#include "tst_soakrun.moc"
