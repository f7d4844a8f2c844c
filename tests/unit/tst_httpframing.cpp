// SPDX-License-Identifier: MIT
// How the framing rules (the egress guard reads responses with them) say where an HTTP/1.1 message ends (RFC 9112 §6.3), which decides
// whether a connection may carry the next exchange: request and response heads, and chunked bodies
// split at every byte.
#include "providers/httpframing.h"

#include <QTest>

using namespace bullpen;

Q_DECLARE_METATYPE(BodyFraming)

class tst_HttpFraming : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void responseHeads_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<BodyFraming>("framing");
        QTest::addColumn<qint64>("length");
        QTest::addColumn<bool>("reusable");
        const auto row = [](const char *name, const QByteArray &headers, const char *method, BodyFraming f, qint64 length, bool reusable) {
            QTest::addRow("%s", name) << QByteArray("HTTP/1.1 200 OK\r\n" + headers + "\r\n") << QByteArray(method) << f << length
                                      << reusable;
        };
        row("length", "Content-Length: 12\r\n", "POST", BodyFraming::Length, 12, true);
        row("length repeated, same", "Content-Length: 12\r\ncontent-length: 12, 12\r\n", "POST", BodyFraming::Length, 12, true);
        row("length repeated, different", "Content-Length: 12\r\nContent-Length: 13\r\n", "POST", BodyFraming::UntilClose, 0, false);
        row("length not a number", "Content-Length: 12a\r\n", "POST", BodyFraming::UntilClose, 0, false);
        row("length negative", "Content-Length: -1\r\n", "POST", BodyFraming::UntilClose, 0, false);
        row("chunked", "Transfer-Encoding: chunked\r\n", "POST", BodyFraming::Chunked, 0, true);
        row("chunked, any case", "transfer-encoding: gzip, CHUNKED\r\n", "POST", BodyFraming::Chunked, 0, true);
        row("chunked not last", "Transfer-Encoding: chunked, gzip\r\n", "POST", BodyFraming::Chunked, 0, false);
        row("chunked and a length", "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n", "POST", BodyFraming::Chunked, 0, false);
        row("neither", "Content-Type: text/event-stream\r\n", "POST", BodyFraming::UntilClose, 0, false);
        row("close", "Content-Length: 12\r\nConnection: keep-alive, Close\r\n", "POST", BodyFraming::Length, 12, false);
        row("answer to HEAD", "Content-Length: 12\r\n", "HEAD", BodyFraming::None, 0, true);
        QTest::addRow("204") << QByteArray("HTTP/1.1 204 No Content\r\n\r\n") << QByteArray("POST") << BodyFraming::None << qint64(0)
                             << true;
        QTest::addRow("304 with a length") << QByteArray("HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n") << QByteArray("GET")
                                           << BodyFraming::None << qint64(0) << true;
        QTest::addRow("HTTP/1.0") << QByteArray("HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\n") << QByteArray("POST") << BodyFraming::Length
                                  << qint64(3) << false;
        QTest::addRow("bare LF") << QByteArray("HTTP/1.1 200 OK\nContent-Length: 3\n\n") << QByteArray("POST") << BodyFraming::Length
                                 << qint64(3) << true;
    }

    void responseHeads()
    {
        QFETCH(QByteArray, head);
        QFETCH(QByteArray, method);
        QFETCH(BodyFraming, framing);
        QFETCH(qint64, length);
        QFETCH(bool, reusable);
        const MessageHead m = readResponseHead(head, method);
        QCOMPARE(m.framing, framing);
        QCOMPARE(m.length, length);
        QCOMPARE(m.reusable, reusable);
    }

    void requestHeads()
    {
        MessageHead m = readRequestHead("POST /v1/x HTTP/1.1\r\nHost: a\r\nContent-Length: 1786\r\n\r\n");
        QCOMPARE(m.method, QByteArray("POST"));
        QCOMPARE(m.framing, BodyFraming::Length);
        QCOMPARE(m.length, 1786);
        QVERIFY(m.reusable);
        m = readRequestHead("GET /v1/models HTTP/1.1\r\nHost: a\r\n\r\n");
        QCOMPARE(m.framing, BodyFraming::None); // a request without a length has no body
        QVERIFY(m.reusable);
        // A chunked request's end is not followed: its connection carries one exchange.
        m = readRequestHead("POST /v1/x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n");
        QVERIFY(!m.reusable);
        m = readRequestHead("POST /v1/x HTTP/1.1\r\nContent-Length: 3\r\nConnection: close\r\n\r\n");
        QVERIFY(!m.reusable);
        m = readRequestHead("POST /v1/x HTTP/1.0\r\nContent-Length: 3\r\n\r\n");
        QVERIFY(!m.reusable);
    }

    void chunkedBodies_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QByteArray>("data"); // the chunks' data, decoded, when ok
        QTest::addRow("plain") << QByteArray("5\r\nhello\r\n0\r\n\r\n") << true << QByteArray("hello");
        QTest::addRow("hex sizes, any case") << QByteArray("a\r\n0123456789\r\nA\r\n0123456789\r\n0\r\n\r\n") << true
                                             << QByteArray("01234567890123456789");
        QTest::addRow("extensions") << QByteArray("5;name=value;x\r\nhello\r\n000;last\r\n\r\n") << true << QByteArray("hello");
        QTest::addRow("trailer") << QByteArray("5\r\nhello\r\n0\r\nX-Trailer: 1\r\nX-Other: 2\r\n\r\n") << true << QByteArray("hello");
        QTest::addRow("bare LF") << QByteArray("5\nhello\n0\n\n") << true << QByteArray("hello");
        QTest::addRow("data carries CRLF") << QByteArray("4\r\n\r\n\r\n\r\n0\r\n\r\n") << true << QByteArray("\r\n\r\n");
        QTest::addRow("long data") << QByteArray("2710\r\n" + QByteArray(10000, 'x') + "\r\n1\r\ny\r\n0\r\n\r\n") << true
                                   << QByteArray(10000, 'x') + "y";
        QTest::addRow("no size") << QByteArray("\r\nhello\r\n0\r\n\r\n") << false << QByteArray();
        QTest::addRow("not hex") << QByteArray("5g\r\nhello\r\n0\r\n\r\n") << false << QByteArray();
        QTest::addRow("data longer than its size") << QByteArray("3\r\nhello\r\n0\r\n\r\n") << false << QByteArray();
        QTest::addRow("size too large") << QByteArray("1000000000000000\r\nx") << false << QByteArray();
        QTest::addRow("extension too long") << QByteArray("5;" + QByteArray(ChunkedTracker::kMaxLineBytes + 1, 'x') + "\r\n") << false
                                            << QByteArray();
        QTest::addRow("trailer too large") << QByteArray("0\r\n" + QByteArray("X: y\r\n").repeated(ChunkedTracker::kMaxTrailerBytes / 6 + 1)
                                                         + "\r\n")
                                           << false << QByteArray();
    }

    // Split into two at every byte (every 997th inside long bodies): the same end and the same data
    // (what the egress guard hands the adapter), or the same failure.
    void chunkedBodies()
    {
        QFETCH(QByteArray, body);
        QFETCH(bool, ok);
        QFETCH(QByteArray, data);
        const QByteArray surplus = "HTTP/1.1 200 OK\r\n\r\n"; // the next message's bytes, never the body's
        for (qsizetype split = 0; split <= body.size(); split += split < 64 || split > body.size() - 64 ? 1 : 997) {
            ChunkedTracker t;
            const QByteArray all = body + surplus;
            QByteArray decoded;
            const qsizetype first = t.consume(QByteArrayView(all).first(split), &decoded);
            const qsizetype second = t.done() || t.failed() ? 0 : t.consume(QByteArrayView(all).sliced(split), &decoded);
            QCOMPARE(t.failed(), !ok);
            if (ok) {
                QVERIFY2(t.done(), qPrintable(QStringLiteral("split at %1").arg(split)));
                QCOMPARE(first + second, body.size());
                QCOMPARE(decoded, data);
            }
        }
    }

    void unfinishedBodyIsNeitherDoneNorFailed()
    {
        ChunkedTracker t;
        QCOMPARE(t.consume("5\r\nhel"), 6);
        QVERIFY(!t.done() && !t.failed());
        QCOMPARE(t.consume("lo\r\n0\r\n"), 7);
        QVERIFY(!t.done() && !t.failed()); // the trailer section's blank line is still to come
        QCOMPARE(t.consume("\r\nnext"), 2);
        QVERIFY(t.done());
    }
};

QTEST_APPLESS_MAIN(tst_HttpFraming)
#include "tst_httpframing.moc"
