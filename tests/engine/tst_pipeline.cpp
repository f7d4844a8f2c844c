// SPDX-License-Identifier: MIT
// docs/contract.md §2 on a ManualClock: captions are nice to have (defaults, degraded); the image stage retries on
// its own with backoff honouring Retry-After, and its failure is final without re-running the storyboard.
#include "engine/manualclock.h"
#include "pipeline/generationpipeline.h"
#include "scriptedgenerator.h"

#include <QSignalSpy>
#include <QTest>

Q_DECLARE_METATYPE(bullpen::test::Step)

using namespace bullpen;
using namespace bullpen::test;
using namespace std::chrono_literals;

namespace {

ProviderResponse captionsOk()
{
    ProviderResponse r;
    r.httpStatus = 200;
    r.finishReason = QStringLiteral("STOP");
    r.text = QStringLiteral("{\"captions\":[\"One.\",\"Two.\",\"Three.\",\"Four.\"]}");
    return r;
}

ProviderResponse imageOk()
{
    ProviderResponse r;
    r.httpStatus = 200;
    r.finishReason = QStringLiteral("STOP");
    r.binary = QByteArray("\x89PNG\r\n\x1a\n", 8) + QByteArray(64, 'x');
    r.binaryMime = QStringLiteral("image/png");
    return r;
}

ProviderResponse rateLimited(int retryAfterSeconds)
{
    ProviderResponse r;
    r.httpStatus = 429;
    r.errorBody = "{\"error\":{\"code\":429,\"message\":\"Resource exhausted\",\"status\":\"RESOURCE_EXHAUSTED\"}}";
    r.retryAfterHeader = std::chrono::milliseconds(retryAfterSeconds * 1000);
    return r;
}

// A result that crosses the wire (a remote engine's GET /v1/generations/{id}) reads back whole: the same
// JSON again, each attempt under its own stage.
void checkWireRoundTrip(const GenerationResult &r)
{
    QString why;
    const std::optional<GenerationResult> back = GenerationResult::fromJson(r.toJson(), &why);
    QVERIFY2(back, qPrintable(why));
    QCOMPARE(back->toJson(), r.toJson());
    QCOMPARE(back->storyboard.attempts.size(), r.storyboard.attempts.size());
    QCOMPARE(back->captions.has_value(), r.captions.has_value());
    if (r.captions)
        QCOMPARE(back->captions->attempts.size(), r.captions->attempts.size());
    QCOMPARE(back->image.has_value(), r.image.has_value());
    if (r.image)
        QCOMPARE(back->image->attempts.size(), r.image->attempts.size());
    // The generation's failure travels as kind, code and detail (capacity and Retry-After are in the
    // attempt records, where they were observed).
    QCOMPARE(back->failure.has_value(), r.failure.has_value());
    if (r.failure) {
        QCOMPARE(back->failure->kind, r.failure->kind);
        QCOMPARE(back->failure->detail, r.failure->detail);
        QCOMPARE(back->failedStage, r.failedStage);
    }
}

} // namespace

class tst_Pipeline : public QObject
{
    Q_OBJECT

    struct Harness
    {
        ManualClock clock;
        QStringList calls;
        ScriptedGenerator story { clock, Provider::Gemini, QStringLiteral("gemini-2.5-flash"), &calls };
        ScriptedGenerator captionsGen { clock, Provider::Gemini, QStringLiteral("gemini-2.5-flash"), &calls };
        ScriptedGenerator imageGen { clock, Provider::Gemini, QStringLiteral("gemini-2.5-flash-image"), &calls };
        StageService storyboard { clock }, captions { clock }, image { clock };
        GenerationPipeline pipeline { clock, storyboard, captions, image };
        QSignalSpy done { &pipeline, &GenerationPipeline::finished };
        QList<Event> events;
        Harness()
        {
            storyboard.addGenerator(&story);
            captions.addGenerator(&captionsGen);
            image.addGenerator(&imageGen);
            QObject::connect(&pipeline, &GenerationPipeline::eventRecorded, &pipeline, [this](const Event &e) { events << e; });
            PipelineOptions o;
            o.storyboard = StagePolicy::relief(Provider::Gemini, std::nullopt);
            pipeline.setOptions(o);
        }
        GenerationResult run()
        {
            GenerationRequest req;
            req.story = QStringLiteral("A story.");
            pipeline.start(req);
            clock.advance(30min);
            return done.isEmpty() ? GenerationResult {} : done.last().first().value<GenerationResult>();
        }
        QStringList types() const
        {
            QStringList t;
            for (const Event &e : events)
                t << e.type();
            return t;
        }
    };

private Q_SLOTS:
    // docs/contract.md §6: "identical" is judged by the request's own settings, not the ones the engine started with.
    void cacheKeyFollowsTheRequestsOwnSettings()
    {
        Harness h;
        ScriptedGenerator qwen { h.clock, Provider::Qwen, QStringLiteral("qwen-plus"), &h.calls };
        h.storyboard.addGenerator(&qwen);
        const StagePolicy alone = StagePolicy::relief(Provider::Gemini, std::nullopt);
        const StagePolicy withFallback = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
        StagePolicy slower = alone;
        slower.primaryTimeout = 90s; // a deadline does not shape the answer
        const QString base = h.pipeline.settingsDigest(alone, {});
        QCOMPARE(h.pipeline.settingsDigest(slower, {}), base);
        QVERIFY(h.pipeline.settingsDigest(withFallback, {}) != base);
        QVERIFY(h.pipeline.settingsDigest(withFallback, {}).contains(QStringLiteral("qwen-plus"))); // the fallback's model
        QVERIFY(h.pipeline.settingsDigest(StagePolicy::capacity(Provider::Gemini, Provider::Qwen), {})
                != h.pipeline.settingsDigest(withFallback, {}));
        QVERIFY(h.pipeline.settingsDigest(alone, ScenarioChoice { QStringLiteral("primary-hang"), Provider::Gemini, {} }) != base);

        // A request with its own policy gets that policy's key.
        GenerationRequest req;
        req.story = QStringLiteral("A story.");
        req.storyboardPolicy = withFallback;
        h.pipeline.start(req);
        h.clock.advance(30min);
        QCOMPARE(h.done.size(), 1);
        const auto result = h.done.first().first().value<GenerationResult>();
        QCOMPARE(result.cacheKey, GenerationPipeline::cacheKey(req.story, h.pipeline.settingsDigest(withFallback, {})));
        QVERIFY(result.cacheKey != GenerationPipeline::cacheKey(req.story, base));
    }

    void wholeGenerationInOneEventStream()
    {
        Harness h;
        h.story.script({ Step::ok(1s) });
        h.captionsGen.script({ Step::respond(500ms, captionsOk()) });
        h.imageGen.script({ Step::respond(3s, imageOk()) });
        const GenerationResult r = h.run();
        QCOMPARE(r.state, FinalState::Succeeded);
        QCOMPARE(r.captionLines,
                 (QStringList { QStringLiteral("One."), QStringLiteral("Two."), QStringLiteral("Three."), QStringLiteral("Four.") }));
        QVERIFY(!r.degraded);
        QVERIFY(r.image && r.image->image.startsWith("\x89PNG"));
        QCOMPARE(h.types(),
                 (QStringList { QStringLiteral("generation_started"), QStringLiteral("storyboard_attempt_started"),
                                QStringLiteral("storyboard_attempt_completed"), QStringLiteral("captions_attempt_started"),
                                QStringLiteral("captions_attempt_completed"), QStringLiteral("image_attempt_started"),
                                QStringLiteral("image_attempt_completed"), QStringLiteral("generation_finished") }));
        for (qsizetype i = 0; i < h.events.size(); ++i)
            QCOMPARE(h.events.at(i).sequence, quint64(i));
        QCOMPARE(std::chrono::duration_cast<std::chrono::milliseconds>(h.events.last().at).count(), 4500);
        checkWireRoundTrip(r);
    }

    void captionsFailure_defaultsAndDegraded_data()
    {
        QTest::addColumn<Step>("step");
        QTest::addRow("server error") << Step::failWith(FailureKind::TRANSIENT_SERVER, 1s);
        QTest::addRow("hangs past its 25 s deadline") << Step::hang();
        QTest::addRow("invalid captions") << Step::respond(1s, [] {
            ProviderResponse r = captionsOk();
            r.text = QStringLiteral("{\"captions\":[\"only one\"]}");
            return r;
        }());
    }
    void captionsFailure_defaultsAndDegraded()
    {
        QFETCH(Step, step);
        Harness h;
        h.story.script({ Step::ok(1s) });
        h.captionsGen.script({ step });
        h.imageGen.script({ Step::respond(1s, imageOk()) });
        const GenerationResult r = h.run();
        QCOMPARE(r.state, FinalState::Succeeded);
        QVERIFY(r.degraded);
        QVERIFY(r.captionsDefaulted);
        QCOMPARE(r.captionLines.size(), 4);
        QCOMPARE(r.captionLines.first(), QStringLiteral("Panel 1: A quiet street at dawn"));
        QVERIFY(r.captions->attempts.first().duration <= std::chrono::microseconds(25s));
        checkWireRoundTrip(r);
    }

    void imageRetriesHonourRetryAfter()
    {
        Harness h;
        h.story.script({ Step::ok(1s) });
        h.captionsGen.script({ Step::respond(1s, captionsOk()) });
        h.imageGen.script({ Step::respond(1s, rateLimited(5)), Step::respond(1s, rateLimited(0)), Step::respond(1s, imageOk()) });
        const GenerationResult r = h.run();
        QCOMPARE(r.state, FinalState::Succeeded);
        QCOMPARE(h.imageGen.calls(), 3);
        QCOMPARE(h.story.calls(), 1);
        QList<qint64> pauses;
        for (const Event &e : std::as_const(h.events)) {
            if (const auto *retry = std::get_if<RetryScheduled>(&e.body)) {
                QCOMPARE(retry->stage, Stage::Image);
                pauses << retry->pause.count();
            }
        }
        QCOMPARE(pauses.size(), 2);
        QCOMPARE(pauses.at(0), 5000); // Retry-After wins over the 1 s backoff
        QVERIFY(pauses.at(1) >= 1500 && pauses.at(1) <= 2500); // 2 s ± 25 % jitter
    }

    void imageFailureIsFinal()
    {
        Harness h;
        h.story.script({ Step::ok(1s) });
        h.captionsGen.script({ Step::respond(1s, captionsOk()) });
        h.imageGen.script({ Step::failWith(FailureKind::TRANSIENT_SERVER, 1s), Step::failWith(FailureKind::TRANSIENT_SERVER, 1s),
                            Step::failWith(FailureKind::TRANSIENT_SERVER, 1s), Step::respond(1s, imageOk()) });
        const GenerationResult r = h.run();
        QCOMPARE(r.state, FinalState::Failed);
        QCOMPARE(r.failedStage, Stage::Image);
        QCOMPARE(h.imageGen.calls(), 3); // 1 + 2 inner retries, then final
        QCOMPARE(h.story.calls(), 1); // never the storyboard again
        QVERIFY(r.nextStep);
        QCOMPARE(r.nextStep->action, NextStep::Action::Retry);
        QCOMPARE(h.types().count(QStringLiteral("generation_finished")), 1);
        checkWireRoundTrip(r);
    }

    void authOnImageIsNotRetried()
    {
        Harness h;
        h.story.script({ Step::ok(1s) });
        h.captionsGen.script({ Step::respond(1s, captionsOk()) });
        h.imageGen.script({ Step::failWith(FailureKind::AUTH_CONFIG, 1s), Step::respond(1s, imageOk()) });
        const GenerationResult r = h.run();
        QCOMPARE(r.failure->kind, FailureKind::AUTH_CONFIG);
        QCOMPARE(h.imageGen.calls(), 1);
        QCOMPARE(r.nextStep->action, NextStep::Action::FixSettings);
        QVERIFY(r.nextStep->message.contains(QStringLiteral("GEMINI_API_KEY")));
    }

    void cancelDuringImage()
    {
        Harness h;
        h.story.script({ Step::ok(1s) });
        h.captionsGen.script({ Step::respond(1s, captionsOk()) });
        h.imageGen.script({ Step::hang() });
        GenerationRequest req;
        req.story = QStringLiteral("x");
        const QString id = h.pipeline.start(req);
        h.clock.advance(5s);
        QVERIFY(h.pipeline.cancel(id));
        h.clock.advance(10min);
        const GenerationResult r = h.done.last().first().value<GenerationResult>();
        QCOMPARE(r.state, FinalState::Cancelled);
        QCOMPARE(r.failedStage, Stage::Image);
        QCOMPARE(h.imageGen.cancelHandlerRuns(), 1);
    }
};

QTEST_GUILESS_MAIN(tst_Pipeline)
#include "tst_pipeline.moc"
