// SPDX-License-Identifier: MIT
// The event stream end to end, in one process: an engine's service listening on loopback and a real
// HTTP client reading its /v1/events. Alert events (docs/api.md, "Alerts"), judged on a fake clock (the
// rule's `for` and hold pass without waiting): alert_pending, alert_firing and alert_resolved. And the
// generations the engine threads run: each one's events on the stream in sequence, from
// generation_started to generation_finished (one of the suites of the tsan stage, scripts/tsan.sh).
// And the service's own windows (/v1/stats/providers) on the engine's clock (EngineContext::clock).
#include "engine/breakerboard.h"
#include "engine/manualclock.h"
#include "pipeline/generationrequest.h"
#include "providers/sseparser.h"
#include "runtime/enginesetup.h"
#include "runtime/localengine.h"
#include "service/engineservice.h"
#include "store/apitokens.h"
#include "store/store.h"
#include "wire/apiroutes.h"
#include "wire/statsjson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;
using namespace std::chrono_literals;

namespace {

// An engine of the defaults on its built-in simulator, its store and settings in `dir`.
SetupOptions engineIn(const QTemporaryDir &dir)
{
    SetupOptions so;
    so.settingsFile = dir.filePath(QStringLiteral("settings.toml")); // none: the defaults
    so.keyFile = dir.filePath(QStringLiteral("keys.env"));
    so.dataDir = dir.path();
    so.forceSimulator = true;
    so.environment = QProcessEnvironment();
    return so;
}

// The engine's service listening on loopback, and a viewer's token for it. The service goes first.
struct Served
{
    std::unique_ptr<ApiTokens> tokens;
    QString token;
    std::unique_ptr<EngineService> service;
};

std::optional<Served> serve(EngineSetup &setup, const ServiceOptions &options, QString *why)
{
    Served s;
    s.tokens = ApiTokens::open(setup.store()->storeLocation(), why);
    const std::optional<QString> token = s.tokens ? s.tokens->add(QStringLiteral("watcher"), ApiRole::Viewer, why) : std::nullopt;
    if (!token)
        return std::nullopt;
    s.token = *token;
    s.service = std::make_unique<EngineService>(setup, *s.tokens, options);
    if (!s.service->listen(why))
        return std::nullopt;
    return s;
}

} // namespace

class tst_AlertStream : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pendingFiringResolvedOnTheStream()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SetupOptions so = engineIn(dir);
        EngineSetup setup;
        QVERIFY2(setup.init(so), qPrintable(setup.errors().isEmpty() ? QString() : setup.errors().first().toString()));
        ManualClock clock;
        setup.setAlertClock(clock);
        QString why;
        ServiceOptions options;
        options.port = 0;
        options.instance = QStringLiteral("alert-test");
        const std::optional<Served> served = serve(setup, options, &why);
        QVERIFY2(served, qPrintable(why));

        // A viewer's event stream, as any client reads it.
        QNetworkAccessManager network;
        QUrl url = served->service->url();
        url.setPath(QStringLiteral("/v1/events"));
        QNetworkRequest request(url);
        request.setRawHeader("Authorization", "Bearer " + served->token.toLatin1());
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

    // The last 5 and 15 minutes of /v1/stats/providers are the engine's minutes: a generation run on a
    // manual clock is in both windows, and 16 minutes of that clock later in neither (the answer's
    // one-second cache ages on the same clock). On the process's steady clock it would still be there.
    void providerWindowsRunOnTheEnginesClock()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ManualClock clock;
        SetupOptions so = engineIn(dir);
        so.engineThreads = 0; // the manual clock's timers fire on this thread, in advance()
        so.clock = &clock;
        EngineSetup setup;
        QVERIFY2(setup.init(so), qPrintable(setup.errors().isEmpty() ? QString() : setup.errors().first().toString()));
        QString why;
        ServiceOptions options;
        options.port = 0;
        options.instance = QStringLiteral("clock-test");
        const std::optional<Served> served = serve(setup, options, &why);
        QVERIFY2(served, qPrintable(why));

        bool finished = false;
        QObject scope;
        QObject::connect(&setup.engine(), &EngineClient::finished, &scope, [&finished] { finished = true; });
        GenerationRequest g;
        g.story = QStringLiteral("A cat finds a lost umbrella and returns it to its owner on a rainy day.");
        g.fresh = true;
        setup.engine().start(g);
        QVERIFY(QTest::qWaitFor(
            [&] {
                clock.advance(0s); // what is due on the engine's clock runs
                return finished;
            },
            10'000));

        QNetworkAccessManager network;
        const auto windows = [&]() -> std::optional<ProviderWindows> {
            QUrl url = served->service->url();
            url.setPath(ApiRoutes::path(ApiRoute::StatsProviders));
            QNetworkRequest request(url);
            request.setRawHeader("Authorization", "Bearer " + served->token.toLatin1());
            std::unique_ptr<QNetworkReply> reply(network.get(request));
            if (!QTest::qWaitFor([&] { return reply->isFinished(); }, 10'000) || reply->error() != QNetworkReply::NoError)
                return std::nullopt;
            auto read = StatsJson::providerWindowsFromJson(QJsonDocument::fromJson(reply->readAll()).object());
            if (!std::holds_alternative<ProviderWindows>(read))
                return std::nullopt;
            return std::get<ProviderWindows>(std::move(read));
        };
        const auto attemptsOf = [](const QList<ProviderWindow> &window, const QString &provider) {
            for (const ProviderWindow &w : window)
                if (w.provider == provider)
                    return w.attempts;
            return qint64(0);
        };
        std::optional<ProviderWindows> now = windows();
        QVERIFY(now);
        QVERIFY2(attemptsOf(now->last5m, QStringLiteral("gemini")) >= 1, "the generation's attempts are not in the last 5 minutes");
        QVERIFY(attemptsOf(now->last15m, QStringLiteral("gemini")) >= 1);

        clock.advance(16min);
        std::optional<ProviderWindows> later = windows();
        QVERIFY(later);
        QCOMPARE(attemptsOf(later->last5m, QStringLiteral("gemini")), qint64(0));
        QVERIFY2(attemptsOf(later->last15m, QStringLiteral("gemini")) == 0, "the windows did not move with the engine's clock");
    }

    // Generations run on the engine threads (two here); their events are handed to the service's thread
    // and written to a viewer's stream, each generation's in sequence, none lost.
    void generationEventsReachTheStreamInSequence()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SetupOptions so = engineIn(dir);
        so.engineThreads = 2;
        EngineSetup setup;
        QVERIFY2(setup.init(so), qPrintable(setup.errors().isEmpty() ? QString() : setup.errors().first().toString()));
        QCOMPARE(setup.engine().threadCount(), 2);
        QString why;
        ServiceOptions options;
        options.port = 0;
        const std::optional<Served> served = serve(setup, options, &why);
        QVERIFY2(served, qPrintable(why));

        QNetworkAccessManager network;
        QUrl url = served->service->url();
        url.setPath(QStringLiteral("/v1/events"));
        QNetworkRequest request(url);
        request.setRawHeader("Authorization", "Bearer " + served->token.toLatin1());
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
