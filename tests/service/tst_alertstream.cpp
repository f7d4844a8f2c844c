// SPDX-License-Identifier: MIT
// The event stream end to end, in one process: an engine's service listening on loopback and a real
// HTTP client reading its /v1/events. Alert events (docs/api.md, "Alerts"), judged on a fake clock (the
// rule's `for` and hold pass without waiting): alert_pending, alert_firing and alert_resolved. And the
// generations the engine threads run: each one's events on the stream in sequence, from
// generation_started to generation_finished (one of the suites of the tsan stage, scripts/tsan.sh).
#include "engine/breakerboard.h"
#include "engine/manualclock.h"
#include "pipeline/generationrequest.h"
#include "providers/sseparser.h"
#include "runtime/enginesetup.h"
#include "runtime/localengine.h"
#include "service/engineservice.h"
#include "store/apitokens.h"
#include "store/store.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;
using namespace std::chrono_literals;

class tst_AlertStream : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pendingFiringResolvedOnTheStream()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SetupOptions so;
        so.settingsFile = dir.filePath(QStringLiteral("settings.toml")); // none: the defaults
        so.keyFile = dir.filePath(QStringLiteral("keys.env"));
        so.dataDir = dir.path();
        so.forceSimulator = true;
        so.environment = QProcessEnvironment();
        EngineSetup setup;
        QVERIFY2(setup.init(so), qPrintable(setup.errors().isEmpty() ? QString() : setup.errors().first().toString()));
        ManualClock clock;
        setup.setAlertClock(clock);
        QString why;
        const std::unique_ptr<ApiTokens> tokens = ApiTokens::open(setup.store()->storeLocation(), &why);
        QVERIFY2(tokens, qPrintable(why));
        const std::optional<QString> token = tokens->add(QStringLiteral("watcher"), ApiRole::Viewer, &why);
        QVERIFY2(token, qPrintable(why));
        ServiceOptions options;
        options.port = 0;
        options.instance = QStringLiteral("alert-test");
        EngineService service(setup, *tokens, options);
        QVERIFY2(service.listen(&why), qPrintable(why));

        // A viewer's event stream, as any client reads it.
        QNetworkAccessManager network;
        QUrl url = service.url();
        url.setPath(QStringLiteral("/v1/events"));
        QNetworkRequest request(url);
        request.setRawHeader("Authorization", "Bearer " + token->toLatin1());
        std::unique_ptr<QNetworkReply> stream(network.get(request));
        SseParser parser;
        QStringList seen; // "type rule labels instance" of each alert notice
        connect(stream.get(), &QNetworkReply::readyRead, this, [&] {
            for (const SseEvent &e : parser.feed(stream->readAll())) {
                if (!e.event.startsWith("alert_"))
                    continue;
                const QJsonObject o = QJsonDocument::fromJson(e.data).object();
                seen << QStringLiteral("%1 %2 %3 %4")
                            .arg(QString::fromLatin1(e.event), o.value(QLatin1StringView("rule")).toString(),
                                 o.value(QLatin1StringView("labels")).toString(), o.value(QLatin1StringView("instance")).toString());
            }
        });
        QTRY_COMPARE(stream->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);

        // gemini's storyboard primary fails five times: its breaker opens; the outage lasts 90 s, then
        // an operator closes it.
        BreakerBoard &board = setup.engine().breakers();
        const BreakerKey key { Provider::Gemini, Role::Primary, Stage::Storyboard };
        for (int i = 0; i < 5; ++i)
            board.record(key, BreakerCount::Blamed, false, clock.now(), FailureKind::TIMEOUT);
        setup.evaluateAlerts(); // both breaker rules pending
        clock.advance(61s);
        setup.evaluateAlerts(); // BullpenProviderFailingNow's `for` (1 min) has passed: firing
        clock.advance(29s);
        board.reset(key, QStringLiteral("ops"), QStringLiteral("fixed"), clock.now());
        setup.evaluateAlerts();
        clock.advance(121s); // the rule's 2-minute hold, then resolved; the pending warning is dropped
        setup.evaluateAlerts();

        const QString series = QStringLiteral("BullpenProviderFailingNow gemini/primary/storyboard alert-test");
        const QStringList expected { QStringLiteral("alert_pending ") + series,
                                     QStringLiteral("alert_pending BullpenBreakerOpen gemini/primary/storyboard alert-test"),
                                     QStringLiteral("alert_firing ") + series, QStringLiteral("alert_resolved ") + series };
        QTRY_COMPARE(seen.size(), expected.size());
        QCOMPARE(seen, expected);
        const QJsonObject answer = setup.alertsJson(options.instance);
        QCOMPARE(answer.value(QLatin1StringView("history")).toArray().size(), 1);
    }

    // Generations run on the engine threads (two here); their events are handed to the service's thread
    // and written to a viewer's stream, each generation's in sequence, none lost.
    void generationEventsReachTheStreamInSequence()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SetupOptions so;
        so.settingsFile = dir.filePath(QStringLiteral("settings.toml")); // none: the defaults
        so.keyFile = dir.filePath(QStringLiteral("keys.env"));
        so.dataDir = dir.path();
        so.forceSimulator = true;
        so.environment = QProcessEnvironment();
        so.engineThreads = 2;
        EngineSetup setup;
        QVERIFY2(setup.init(so), qPrintable(setup.errors().isEmpty() ? QString() : setup.errors().first().toString()));
        QCOMPARE(setup.engine().threadCount(), 2);
        QString why;
        const std::unique_ptr<ApiTokens> tokens = ApiTokens::open(setup.store()->storeLocation(), &why);
        QVERIFY2(tokens, qPrintable(why));
        const std::optional<QString> token = tokens->add(QStringLiteral("watcher"), ApiRole::Viewer, &why);
        QVERIFY2(token, qPrintable(why));
        ServiceOptions options;
        options.port = 0;
        EngineService service(setup, *tokens, options);
        QVERIFY2(service.listen(&why), qPrintable(why));

        QNetworkAccessManager network;
        QUrl url = service.url();
        url.setPath(QStringLiteral("/v1/events"));
        QNetworkRequest request(url);
        request.setRawHeader("Authorization", "Bearer " + token->toLatin1());
        std::unique_ptr<QNetworkReply> stream(network.get(request));
        SseParser parser;
        std::map<QString, QStringList> types; // each generation's event types, in stream order
        std::map<QString, QList<qint64>> sequences;
        int finished = 0;
        connect(stream.get(), &QNetworkReply::readyRead, this, [&] {
            for (const SseEvent &e : parser.feed(stream->readAll())) {
                const QJsonObject o = QJsonDocument::fromJson(e.data).object();
                const QString id = o.value(QLatin1StringView("generation_id")).toString();
                if (id.isEmpty())
                    continue;
                types[id] << QString::fromLatin1(e.event);
                sequences[id] << o.value(QLatin1StringView("seq")).toInteger(-1);
                finished += e.event == "generation_finished";
            }
        });
        QTRY_COMPARE(stream->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);

        const int count = 6;
        for (int i = 0; i < count; ++i) {
            GenerationRequest g;
            g.story = QStringLiteral("A heron opens a bakery by the river. Day %1.").arg(i);
            g.fresh = true;
            setup.engine().start(g);
        }
        QTRY_COMPARE_WITH_TIMEOUT(finished, count, 30'000);
        QCOMPARE(int(types.size()), count);
        for (const auto &[id, list] : types) {
            QVERIFY2(list.size() >= 4, qPrintable(id));
            QCOMPARE(list.constFirst(), QStringLiteral("generation_started"));
            QCOMPARE(list.constLast(), QStringLiteral("generation_finished"));
            const QList<qint64> &seq = sequences.at(id);
            for (qsizetype i = 0; i < seq.size(); ++i)
                QCOMPARE(seq.at(i), qint64(i));
        }
    }
};

QTEST_GUILESS_MAIN(tst_AlertStream)
#include "tst_alertstream.moc"
