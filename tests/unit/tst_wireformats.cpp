// SPDX-License-Identifier: MIT
// The four wire formats without a network: what the simulator writes, each adapter reads back exactly
// (bodies and streams, fed whole and byte by byte); and hostile bodies never crash a parser and never
// pass as a success.
#include "contract/sha256.h"
#include "contract/storyboardparser.h"
#include "failure/failureclassifier.h"
#include "providers/base64.h"
#include "providers/bodytemplate.h"
#include "providers/sseparser.h"
#include "providers/wireformat.h"
#include "sim/simwire.h"
#include "sim/storyboardsynth.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

using namespace bullpen;

Q_DECLARE_METATYPE(bullpen::SimWire::Ending)

namespace {

const QString kStory = QStringLiteral("하루가 학교에 간다. 고양이가 따라온다. \"열쇠를 잊었어,\" 고양이가 말한다. 둘은 함께 집에 간다.");

QString storyboardText()
{
    return QString::fromUtf8(QJsonDocument(StoryboardSynth::fromStory(kStory).toJson()).toJson(QJsonDocument::Compact));
}

ProviderResponse decodeStream(Provider p, const QList<QByteArray> &events, int sliceSize, bool *terminated)
{
    const auto format = WireFormat::create(p);
    auto decoder = format->streamDecoder();
    SseParser parser;
    ProviderResponse r;
    r.httpStatus = 200;
    QByteArray all;
    for (const QByteArray &e : events)
        all += e;
    for (qsizetype i = 0; i < all.size(); i += sliceSize) {
        const QList<SseEvent> parsed = parser.feed(QByteArrayView(all).sliced(i, std::min<qsizetype>(sliceSize, all.size() - i)));
        for (const SseEvent &e : parsed)
            decoder->onEvent(e, r);
    }
    *terminated = decoder->terminated();
    if (!*terminated)
        r.bodyTruncated = true;
    return r;
}

void providers()
{
    QTest::addColumn<Provider>("provider");
    for (Provider p : { Provider::Gemini, Provider::OpenAI, Provider::Qwen, Provider::Anthropic })
        QTest::newRow(qPrintable(toId(p))) << p;
}

} // namespace

class tst_WireFormats : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void bodyRoundTrip_data() { providers(); }
    void bodyRoundTrip()
    {
        QFETCH(Provider, provider);
        const QString text = storyboardText();
        const QByteArray body = SimWire::body(provider, QStringLiteral("m"), text, SimWire::Ending::Stop, TokenUsage { 11, 22 });
        ProviderResponse r;
        r.httpStatus = 200;
        WireFormat::create(provider)->parseBody(body, r);
        QVERIFY2(r.malformedBody.isEmpty(), qPrintable(r.malformedBody));
        QCOMPARE(r.text, text); // thought / thinking parts skipped
        QCOMPARE(r.usage.input, 11);
        QCOMPARE(r.usage.output, 22);
        QVERIFY(!FailureClassifier::classify(provider, r));
        QVERIFY(StoryboardParser::parse(r.text).ok());
    }

    // A comic crosses as base64 inside the JSON: the bytes the simulator sends are the bytes the engine
    // keeps, and text that is not strict base64 is a malformed body, never an image.
    void imageBodyRoundTrip()
    {
        QRandomGenerator rng(20261202);
        for (const qsizetype size : { qsizetype(1), qsizetype(2), qsizetype(3), qsizetype(70'001) }) {
            QByteArray image(size, Qt::Uninitialized);
            for (char &c : image)
                c = char(rng.bounded(256));
            const QByteArray body = SimWire::imageBody(QStringLiteral("gemini-2.5-flash-image"), image.toBase64(),
                                                       QStringLiteral("image/png"), TokenUsage { 5, 1290 });
            ProviderResponse r;
            r.httpStatus = 200;
            WireFormat::create(Provider::Gemini)->parseBody(body, r);
            QVERIFY2(r.malformedBody.isEmpty(), qPrintable(r.malformedBody));
            QCOMPARE(r.binary, image);
            QCOMPARE(r.binaryMime, QStringLiteral("image/png"));
            QCOMPARE(r.usage.output, 1290);
        }
        QByteArray bad =
            SimWire::imageBody(QStringLiteral("m"), QByteArray("AAAA").toBase64(), QStringLiteral("image/png"), TokenUsage { 5, 6 });
        bad.replace(QByteArray("AAAA").toBase64(), "QUF=QQ==");
        ProviderResponse r;
        r.httpStatus = 200;
        WireFormat::create(Provider::Gemini)->parseBody(bad, r);
        QCOMPARE(r.malformedBody, QStringLiteral("inlineData is not valid base64"));
        QVERIFY(r.binary.isEmpty());
    }

    // A comic's content address: the SHA-256 Qt computes, whichever implementation the build uses.
    void comicDigestIsSha256()
    {
        QCOMPARE(sha256Hex(QByteArray()), QByteArray("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        QRandomGenerator rng(3);
        for (const qsizetype size :
             { qsizetype(1), qsizetype(55), qsizetype(56), qsizetype(64), qsizetype(65'813), qsizetype(1'000'003) }) {
            QByteArray data(size, Qt::Uninitialized);
            for (char &c : data)
                c = char(rng.bounded(256));
            QCOMPARE(sha256Hex(data), QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex());
        }
    }

    // decodeBase64Strict answers exactly as Qt's strict decoding does (same bytes, same refusals), on
    // every short text over an alphabet with the characters that matter, and on real encodings.
    void base64DecodesAsQtDoes()
    {
        const auto qt = [](const QString &text) -> std::optional<QByteArray> {
            const auto r = QByteArray::fromBase64Encoding(text.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
            return r ? std::optional<QByteArray>(r.decoded) : std::nullopt;
        };
        const auto check = [&](const QString &text) {
            const std::optional<QByteArray> ours = decodeBase64Strict(text);
            const std::optional<QByteArray> theirs = qt(text);
            if (ours.has_value() != theirs.has_value() || (ours && *ours != *theirs))
                QFAIL(qPrintable(QStringLiteral("\"%1\": ours %2, Qt %3")
                                     .arg(text, ours ? QString::fromLatin1(ours->toHex()) : QStringLiteral("refused"),
                                          theirs ? QString::fromLatin1(theirs->toHex()) : QStringLiteral("refused"))));
        };
        // Every text of up to 5 characters over A / + = space - and a non-Latin-1 letter.
        const QString alphabet = QStringLiteral("AQ/+= -\u00e9\uac00");
        int checked = 0;
        for (int length = 0; length <= 5; ++length) {
            qint64 combinations = 1;
            for (int i = 0; i < length; ++i)
                combinations *= alphabet.size();
            for (qint64 n = 0; n < combinations; ++n) {
                QString text;
                for (qint64 k = n, i = 0; i < length; ++i, k /= alphabet.size())
                    text += alphabet.at(int(k % alphabet.size()));
                check(text);
                ++checked;
            }
        }
        QRandomGenerator rng(42);
        for (int round = 0; round < 2000; ++round) {
            QByteArray bytes(rng.bounded(200), Qt::Uninitialized);
            for (char &c : bytes)
                c = char(rng.bounded(256));
            QString text = QString::fromLatin1(bytes.toBase64(round % 2 ? QByteArray::OmitTrailingEquals : QByteArray::Base64Encoding));
            if (round % 3 == 0 && !text.isEmpty()) // one character changed, anywhere
                text[rng.bounded(int(text.size()))] = alphabet.at(rng.bounded(int(alphabet.size())));
            check(text);
            ++checked;
        }
        QCOMPARE(checked, 66'430 + 2000); // 9^0 + … + 9^5 short texts, and the encodings
    }

    void streamRoundTrip_data()
    {
        QTest::addColumn<Provider>("provider");
        QTest::addColumn<int>("slice");
        for (Provider p : { Provider::Gemini, Provider::OpenAI, Provider::Qwen, Provider::Anthropic })
            for (int slice : { 1, 7, 100000 })
                QTest::addRow("%s, %d-byte reads", qPrintable(toId(p)), slice) << p << slice;
    }
    void streamRoundTrip()
    {
        QFETCH(Provider, provider);
        QFETCH(int, slice);
        const QString text = storyboardText();
        bool terminated = false;
        const ProviderResponse r =
            decodeStream(provider, SimWire::stream(provider, QStringLiteral("m"), text, SimWire::Ending::Stop, TokenUsage { 5, 9 }, 5),
                         slice, &terminated);
        QVERIFY(terminated);
        QCOMPARE(r.text, text);
        QCOMPARE(r.usage.output, 9);
        QVERIFY2(!FailureClassifier::classify(provider, r), qPrintable(r.malformedBody));
    }

    void endings_data()
    {
        QTest::addColumn<Provider>("provider");
        QTest::addColumn<SimWire::Ending>("ending");
        QTest::addColumn<FailureKind>("kind");
        for (Provider p : { Provider::Gemini, Provider::OpenAI, Provider::Qwen, Provider::Anthropic }) {
            QTest::addRow("%s max tokens", qPrintable(toId(p))) << p << SimWire::Ending::MaxTokens << FailureKind::OUTPUT_TRUNCATED;
            QTest::addRow("%s refused", qPrintable(toId(p))) << p << SimWire::Ending::Refused << FailureKind::REFUSED;
        }
    }
    void endings()
    {
        QFETCH(Provider, provider);
        QFETCH(SimWire::Ending, ending);
        QFETCH(FailureKind, kind);
        const QString text = storyboardText().left(40);
        ProviderResponse body;
        body.httpStatus = 200;
        WireFormat::create(provider)->parseBody(SimWire::body(provider, QStringLiteral("m"), text, ending, {}), body);
        QCOMPARE(FailureClassifier::classify(provider, body)->kind, kind);
        bool terminated = false;
        const ProviderResponse streamed =
            decodeStream(provider, SimWire::stream(provider, QStringLiteral("m"), text, ending, {}), 3, &terminated);
        QVERIFY(terminated);
        QCOMPARE(FailureClassifier::classify(provider, streamed)->kind, kind);
    }

    void streamCutBeforeEndMarker_data() { providers(); }
    void streamCutBeforeEndMarker()
    {
        QFETCH(Provider, provider);
        QList<QByteArray> events = SimWire::stream(provider, QStringLiteral("m"), storyboardText(), SimWire::Ending::Stop, {}, 6);
        events.removeLast(); // the end marker (or the chunk carrying finishReason) never comes
        if (provider == Provider::OpenAI || provider == Provider::Qwen)
            events.removeLast(), events.removeLast(); // usage chunk and finish chunk too
        bool terminated = true;
        const ProviderResponse r = decodeStream(provider, events, 13, &terminated);
        QVERIFY(!terminated);
        QCOMPARE(FailureClassifier::classify(provider, r)->kind, FailureKind::NETWORK);
    }

    void errorEventInsideStream_data() { providers(); }
    void errorEventInsideStream()
    {
        QFETCH(Provider, provider);
        QList<QByteArray> events = SimWire::stream(provider, QStringLiteral("m"), storyboardText(), SimWire::Ending::Stop, {}, 6).mid(0, 2);
        events << SimWire::streamErrorEvent(provider);
        bool terminated = false;
        const ProviderResponse r = decodeStream(provider, events, 5, &terminated);
        QVERIFY(r.errorInStream);
        const auto f = FailureClassifier::classify(provider, r);
        QCOMPARE(f->kind, FailureKind::TRANSIENT_SERVER);
        QVERIFY(f->capacity);
    }

    void malformedEventInsideStream_data() { providers(); }
    void malformedEventInsideStream()
    {
        // The provider's own event with broken JSON (Anthropic: a named content_block_delta) is never a success.
        QFETCH(Provider, provider);
        QList<QByteArray> events = SimWire::stream(provider, QStringLiteral("m"), storyboardText(), SimWire::Ending::Stop, {}, 4);
        events.insert(provider == Provider::Anthropic ? 2 : 1, SimWire::malformedStreamEvent(provider));
        bool terminated = false;
        const ProviderResponse r = decodeStream(provider, events, 7, &terminated);
        const auto f = FailureClassifier::classify(provider, r);
        QVERIFY(f.has_value());
        QCOMPARE(f->kind, FailureKind::OUTPUT_INVALID);
    }

    void anthropicSkipsUnnamedAndUnknownEvents()
    {
        // As the official SDK does: an event without a name, or with a name it does not know, is skipped
        // unread, even with broken JSON; the message around it is whole and succeeds.
        QList<QByteArray> events =
            SimWire::stream(Provider::Anthropic, QStringLiteral("m"), storyboardText(), SimWire::Ending::Stop, { 100, 200 }, 4);
        events.insert(2, QByteArray("data: {\"candidates\": [ {\"content\": oops\n\n"));
        events.insert(3, QByteArray("event: future_event_type\ndata: {not json either\n\n"));
        bool terminated = false;
        const ProviderResponse r = decodeStream(Provider::Anthropic, events, 9, &terminated);
        QVERIFY(terminated);
        QVERIFY2(!FailureClassifier::classify(Provider::Anthropic, r).has_value(), qPrintable(r.text.left(200)));
        QCOMPARE(r.text, storyboardText());
        QCOMPARE(r.usage.output, 200);
    }

    void sseFramingIsEachProvidersOwn_data() { providers(); }
    void sseFramingIsEachProvidersOwn()
    {
        // Gemini separates events with CRLF CRLF; OpenAI, DashScope and Anthropic with LF LF.
        QFETCH(Provider, provider);
        const QList<QByteArray> events = SimWire::stream(provider, QStringLiteral("m"), storyboardText(), SimWire::Ending::Stop, {}, 4);
        for (const QByteArray &e : events) {
            if (provider == Provider::Gemini) {
                QVERIFY(e.endsWith("\r\n\r\n"));
            } else {
                QVERIFY(e.endsWith("\n\n"));
                QVERIFY2(!e.contains('\r'), e.constData());
            }
        }
        QVERIFY(SimWire::streamErrorEvent(provider).endsWith(provider == Provider::Gemini ? "\r\n\r\n" : "\n\n"));
    }

    void openAiUsageChunkOnlyWhenAskedFor()
    {
        for (Provider p : { Provider::OpenAI, Provider::Qwen }) {
            const QList<QByteArray> with =
                SimWire::stream(p, QStringLiteral("m"), QStringLiteral("text"), SimWire::Ending::Stop, { 1, 2 }, 2, true);
            const QList<QByteArray> without =
                SimWire::stream(p, QStringLiteral("m"), QStringLiteral("text"), SimWire::Ending::Stop, { 1, 2 }, 2, false);
            QCOMPARE(without.size(), with.size() - 1);
            QVERIFY(with.at(with.size() - 2).contains("\"choices\":[]"));
            QVERIFY(with.at(with.size() - 2).contains("\"usage\""));
            for (const QByteArray &e : without)
                QVERIFY(!e.contains("\"usage\""));
            for (qsizetype i = 0; i + 1 < with.size(); ++i)
                QVERIFY2(with.at(i).contains("\"created\""), with.at(i).constData());
        }
    }

    void geminiErrorBodySaysTheStatusSent()
    {
        const SimWire::ErrorReply noKey = SimWire::error(Provider::Gemini, QStringLiteral("unauthenticated"));
        QCOMPARE(noKey.status, 403);
        QVERIFY(noKey.body.contains("\"code\":403"));
        QVERIFY(noKey.body.contains("PERMISSION_DENIED"));
        const SimWire::ErrorReply overridden = SimWire::error(Provider::Gemini, QStringLiteral("overloaded"), 500);
        QCOMPARE(overridden.status, 500);
        QVERIFY(overridden.body.contains("\"code\":500"));
        QVERIFY(overridden.body.contains("\"status\":\"INTERNAL\""));
        // A status Gemini never sends ({"do":"error","status":418}) is a proxy's plain answer, never a
        // Gemini body claiming FAILED_PRECONDITION; the engine then calls it UNKNOWN, as it would the real one.
        const SimWire::ErrorReply teapot = SimWire::error(Provider::Gemini, QStringLiteral("server_error"), 418);
        QCOMPARE(teapot.status, 418);
        QCOMPARE(teapot.body, QByteArray("418 I'm a teapot\n"));
        QVERIFY(teapot.contentType.startsWith("text/plain"));
        const auto teapotKind = FailureClassifier::classify(Provider::Gemini, [&] {
            ProviderResponse r;
            r.httpStatus = teapot.status;
            r.errorBody = teapot.body;
            return r;
        }());
        QVERIFY(teapotKind);
        QCOMPARE(teapotKind->kind, FailureKind::UNKNOWN);
        // Rate limits: Gemini puts the delay in RetryInfo, never in a header; OpenAI's text and header agree.
        const SimWire::ErrorReply g = SimWire::error(Provider::Gemini, QStringLiteral("rate_limited"), 0, 7);
        QVERIFY(g.headers.isEmpty());
        QVERIFY(g.body.contains("\"retryDelay\":\"7s\""));
        const SimWire::ErrorReply o = SimWire::error(Provider::OpenAI, QStringLiteral("rate_limited"), 0, 7);
        QVERIFY(o.body.contains("try again in 7s"));
        QCOMPARE(o.headers.value(0).second, QByteArray("7"));
        const auto hint = FailureClassifier::classify(Provider::Gemini, [&] {
            ProviderResponse r;
            r.httpStatus = g.status;
            r.errorBody = g.body;
            return r;
        }());
        QCOMPARE(hint->retryAfter, std::optional<std::chrono::milliseconds>(std::chrono::seconds(7)));
    }

    void hostileBodies_data()
    {
        QTest::addColumn<Provider>("provider");
        QTest::addColumn<QByteArray>("body");
        const QByteArray huge = "{\"x\":\"" + QByteArray(4 * 1024 * 1024, 'a') + "\"}";
        QByteArray deep;
        for (int i = 0; i < 5000; ++i)
            deep += '[';
        const QList<std::pair<const char *, QByteArray>> bodies = {
            { "empty", QByteArray() },
            { "whitespace", QByteArray(" \n\t ") },
            { "truncated JSON", QByteArray("{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"{\\\"ti") },
            { "array", QByteArray("[1,2,3]") },
            { "null", QByteArray("null") },
            { "string", QByteArray("\"hello\"") },
            { "wrong types", QByteArray("{\"candidates\":\"x\",\"choices\":5,\"content\":{},\"usage\":\"lots\",\"usageMetadata\":[1]}") },
            { "parts not objects",
              QByteArray("{\"candidates\":[{\"content\":{\"parts\":[1,null,\"x\"]}}],\"choices\":[null],\"content\":[1,\"x\",null]}") },
            { "text not a string",
              QByteArray(
                  "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":42}]},\"finishReason\":7}],\"choices\":[{\"message\":{\"content\":{"
                  "\"a\":1}},\"finish_reason\":[]}],\"content\":[{\"type\":\"text\",\"text\":[1]}],\"stop_reason\":{}}") },
            { "invalid UTF-8", QByteArray("{\"choices\":[{\"message\":{\"content\":\"\xff\xfe\xfd\"},\"finish_reason\":\"stop\"}]}") },
            { "NUL bytes", QByteArray("{\"content\":[{\"type\":\"text\",\"text\":\"a\0b\"}]}", 40) },
            { "huge string", huge },
            { "deep nesting", deep },
            { "HTML error page", QByteArray("<html><body><h1>502 Bad Gateway</h1></body></html>") },
        };
        for (Provider p : { Provider::Gemini, Provider::OpenAI, Provider::Qwen, Provider::Anthropic })
            for (const auto &[name, body] : bodies)
                QTest::addRow("%s: %s", qPrintable(toId(p)), name) << p << body;
    }
    void hostileBodies()
    {
        QFETCH(Provider, provider);
        QFETCH(QByteArray, body);
        const auto format = WireFormat::create(provider);
        ProviderResponse r;
        r.httpStatus = 200;
        format->parseBody(body, r); // must not crash
        // As a success body: never accepted as a storyboard.
        const auto failure = FailureClassifier::classify(provider, r);
        QVERIFY2(failure || !StoryboardParser::parse(r.text).ok(), "garbage accepted as a storyboard");
        // As a stream: fed byte-wise chunks of garbage, the decoder stays sane and does not call it whole.
        bool terminated = false;
        const ProviderResponse streamed =
            decodeStream(provider, { QByteArray("data: ") + body.left(200000) + "\r\n\r\n" }, 4096, &terminated);
        QVERIFY(FailureClassifier::classify(provider, streamed).has_value());
        // As an error body with a 500: classified, one-line detail, never a success.
        ProviderResponse error;
        error.httpStatus = 500;
        error.errorBody = body;
        const auto f = FailureClassifier::classify(provider, error);
        QVERIFY(f.has_value());
        QVERIFY(!f->detail.contains(QLatin1Char('\n')));
    }

    void sseFraming_data()
    {
        QTest::addColumn<QByteArray>("stream");
        QTest::addColumn<QStringList>("events");
        QTest::newRow("LF") << QByteArray("data: a\n\ndata: b\n\n") << QStringList { QStringLiteral("|a"), QStringLiteral("|b") };
        QTest::newRow("CRLF") << QByteArray("data: a\r\n\r\ndata: b\r\n\r\n") << QStringList { QStringLiteral("|a"), QStringLiteral("|b") };
        QTest::newRow("CR") << QByteArray("data: a\r\rdata: b\r\r") << QStringList { QStringLiteral("|a"), QStringLiteral("|b") };
        QTest::newRow("named events") << QByteArray("event: ping\ndata: {}\n\nevent: error\ndata: {\"x\":1}\n\n")
                                      << QStringList { QStringLiteral("ping|{}"), QStringLiteral("error|{\"x\":1}") };
        QTest::newRow("multi-line data") << QByteArray("data: a\ndata: b\n\n") << QStringList { QStringLiteral("|a\nb") };
        QTest::newRow("multi-line data, CRLF") << QByteArray("data: a\r\ndata: b\r\n\r\n") << QStringList { QStringLiteral("|a\nb") };
        QTest::newRow("multi-line data, CR") << QByteArray("data: a\rdata: b\r\r") << QStringList { QStringLiteral("|a\nb") };
        QTest::newRow("comments and ids") << QByteArray(":HTTP_STATUS/200\nid: 1\ndata:x\n\n") << QStringList { QStringLiteral("|x") };
        QTest::newRow("unterminated last event") << QByteArray("data: a\n\ndata: b") << QStringList { QStringLiteral("|a") };
    }
    void sseFraming()
    {
        QFETCH(QByteArray, stream);
        QFETCH(QStringList, events);
        for (int slice : { 1, 2, 3, 7, 1000 }) {
            SseParser parser;
            QStringList got;
            for (qsizetype i = 0; i < stream.size(); i += slice) {
                const QList<SseEvent> parsed = parser.feed(QByteArrayView(stream).sliced(i, std::min<qsizetype>(slice, stream.size() - i)));
                for (const SseEvent &e : parsed)
                    got << QString::fromUtf8(e.event + '|' + e.data);
            }
            QCOMPARE(got, events);
        }
    }

    void requestsCarryTheStoryAndNoKeyInTheUrl_data() { providers(); }
    void requestsCarryTheStoryAndNoKeyInTheUrl()
    {
        QFETCH(Provider, provider);
        ProviderEndpoint e;
        e.provider = provider;
        e.baseUrl = QUrl(QStringLiteral("https://example.invalid/v1/"));
        e.model = QStringLiteral("model-x");
        e.apiKey = QStringLiteral("secret-key-123");
        const auto format = WireFormat::create(provider);
        const QNetworkRequest req = format->request(e);
        QVERIFY(!req.url().toString().contains(e.apiKey)); // keys only in headers
        bool keyInHeader = false;
        const QList<QByteArray> names = req.rawHeaderList();
        for (const QByteArray &h : names)
            keyInHeader = keyInHeader || req.rawHeader(h).contains("secret-key-123");
        QVERIFY(keyInHeader);
        QVERIFY(!req.url().path().contains(QStringLiteral("//")));
        const QByteArray body = format->body(e, StageRequest::forStory(kStory, QStringLiteral("user")));
        QVERIFY(!body.contains("secret-key-123"));
        QCOMPARE(SimWire::storyFromRequest(provider, body), kStory);
        QVERIFY(SimWire::requestWantsStream(provider, body, req.url().path()));
    }

    // The engine sends a template with the text spliced in (BodyTemplate): it must be exactly the body
    // the format writes, for every provider, stage, endpoint option and text that JSON must escape.
    void splicedBodiesAreTheFormatsOwn_data() { providers(); }
    void splicedBodiesAreTheFormatsOwn()
    {
        QFETCH(Provider, provider);
        const auto format = WireFormat::create(provider);
        const QStringList texts {
            kStory,
            QString(),
            QStringLiteral("ASCII only: quotes \" and \\ backslashes, a tab\t, lines\r\n, \b\f, a NUL \u0000 and \u001f / <>&"),
            QStringLiteral("quotes \" and \\ backslashes, a tab\t, lines\r\n and a NUL \u0000 and \u001f, \u2028 \u2029"),
            QStringLiteral("emoji \U0001F600, a lone surrogate \xD800 and </script> & <b>"),
            QStringLiteral("BULLPEN-STAGE-TEXT-3c1f0e9a57b24d86 (the marker itself) BULLPEN-STAGE-TEXT-3c1f0e9a57b24d86"),
            QString(5000, QLatin1Char('x')),
        };
        for (const bool stream : { true, false }) {
            ProviderEndpoint e;
            e.provider = provider;
            e.baseUrl = QUrl(QStringLiteral("https://example.invalid/v1/"));
            e.model = QStringLiteral("model-\"x\"");
            e.apiKey = QStringLiteral("k");
            e.stream = stream;
            e.maxOutputTokens = 1234;
            BodyTemplate bodies(*format, e);
            for (const Stage stage : { Stage::Storyboard, Stage::Captions, Stage::Image }) {
                // Every format writes the text once, as given; only Gemini has an image stage (the others
                // would not send the stage input at all, and are built in full).
                QCOMPARE(bodies.splices(stage), stage != Stage::Image || provider == Provider::Gemini);
                for (const QString &text : texts) {
                    StageRequest r;
                    r.stage = stage;
                    (stage == Stage::Storyboard ? r.story : r.stageInput) = text;
                    const QByteArray spliced = bodies.body(r);
                    QCOMPARE(spliced, format->body(e, r));
                    QVERIFY(QJsonDocument::fromJson(spliced).isObject());
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(tst_WireFormats)
#include "tst_wireformats.moc"
