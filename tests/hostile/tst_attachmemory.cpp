// SPDX-License-Identifier: MIT
// The attach path's caps hold on memory as they hold on bytes (docs/api.md, "Limits"): a hostile
// "engine" over real loopback HTTP sends an endless or oversized answer to what an attached console or
// the CLI asks (its configuration, capped at 1 MiB; a result, capped at 16 MiB), through a real
// QNetworkAccessManager and EngineEndpoint::cap as RemoteEngine and RemoteHistory use them. The
// answer is refused, and the process's peak resident set grows by at most the cap and 32 MiB (Qt
// once read ahead of the cap: 134–401 MB for the 16 MiB one, 121 MB for the 1 MiB one).
#include "hostileserver.h"
#include "remote/engineendpoint.h"

#include <QElapsedTimer>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTest>

using namespace bullpen;
using bullpen::test::HostileServer;

namespace {

constexpr double kSlackMiB = 32;

// Kernel-reported resident set, in MiB (VmRSS now, or the peak VmHWM).
double procMiB(const char *field)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith(field))
            return line.mid(qsizetype(qstrlen(field))).trimmed().split(' ').first().toDouble() / 1024.0;
    }
    return -1;
}

// Resets the peak (VmHWM), so that each row measures its own.
bool resetPeak()
{
    QFile f(QStringLiteral("/proc/self/clear_refs"));
    return f.open(QIODevice::WriteOnly) && f.write("5") == 1;
}

} // namespace

class tst_AttachMemory final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void capHoldsOnMemory_data()
    {
        QTest::addColumn<qint64>("cap");
        QTest::addColumn<HostileServer::Mode>("mode");
        QTest::addColumn<QByteArray>("answer"); // Fixed mode's
        QTest::addColumn<QString>("path");
        const qint64 MiB = 1024 * 1024;
        QTest::addRow("the configuration (1 MiB), endless body")
            << MiB << HostileServer::Mode::JsonBodyFlood << QByteArray() << QStringLiteral("/v1/config");
        QTest::addRow("a result (16 MiB), endless body")
            << 16 * MiB << HostileServer::Mode::JsonBodyFlood << QByteArray() << QStringLiteral("/v1/generations/gen_x");
        // A head that says 2 GiB, then 48 MiB of body: refused by its head, before the body is read.
        QTest::addRow("a result (16 MiB), Content-Length 2 GiB")
            << 16 * MiB << HostileServer::Mode::Fixed
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2147483648\r\n\r\n")
                + QByteArray(48 * MiB, ' ')
            << QStringLiteral("/v1/generations/gen_x");
    }
    void capHoldsOnMemory()
    {
        QFETCH(qint64, cap);
        QFETCH(HostileServer::Mode, mode);
        QFETCH(QByteArray, answer);
        QFETCH(QString, path);
        HostileServer hostile(mode);
        hostile.setAnswer(answer);
        QString why;
        QVERIFY2(hostile.start(&why), qPrintable(why));
        QNetworkAccessManager nam;
        QUrl url = hostile.baseUrl();
        url.setPath(path);
        const double before = procMiB("VmRSS:");
        QVERIFY2(resetPeak(), "cannot reset the peak resident set (/proc/self/clear_refs)");
        QElapsedTimer took;
        took.start();
        QNetworkReply *reply = nam.get(QNetworkRequest(url));
        EngineEndpoint::cap(reply, cap);
        QSignalSpy finished(reply, &QNetworkReply::finished);
        QVERIFY(finished.wait(30'000));
        const double peak = procMiB("VmHWM:");
        const double grew = peak - before;
        const double capMiB = double(cap) / (1024 * 1024);
        qInfo("refused after %lld ms (%s); the server sent %lld MiB; peak RSS %.1f MiB, %.1f MiB over the start (allowed %.0f)",
              took.elapsed(), qPrintable(EngineEndpoint::capped(reply)), hostile.record().bytesSent / (1024 * 1024), peak, grew,
              capMiB + kSlackMiB);
        QVERIFY2(!EngineEndpoint::capped(reply).isEmpty(), "the answer was not refused by its cap");
        QCOMPARE(reply->error(), QNetworkReply::OperationCanceledError);
        QVERIFY2(grew <= capMiB + kSlackMiB,
                 qPrintable(QStringLiteral("peak RSS grew %1 MiB for a %2 MiB cap").arg(grew, 0, 'f', 1).arg(capMiB)));
        QVERIFY2(took.elapsed() < 5'000, qPrintable(QStringLiteral("refused only after %1 ms").arg(took.elapsed())));
        delete reply;
    }

    // The cap leaves an answer within it whole: the read buffer bounds memory, not what is read.
    void answerWithinTheCapIsRead()
    {
        HostileServer hostile(HostileServer::Mode::Fixed);
        const QByteArray body = '"' + QByteArray(900 * 1024, 'a') + '"';
        hostile.setAnswer("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size())
                          + "\r\nConnection: close\r\n\r\n" + body);
        QString why;
        QVERIFY2(hostile.start(&why), qPrintable(why));
        QNetworkAccessManager nam;
        QUrl url = hostile.baseUrl();
        url.setPath(QStringLiteral("/v1/config"));
        std::unique_ptr<QNetworkReply> reply(nam.get(QNetworkRequest(url)));
        EngineEndpoint::cap(reply.get(), 1024 * 1024);
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        QVERIFY(finished.wait(10'000));
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        QVERIFY(EngineEndpoint::capped(reply.get()).isEmpty());
        QCOMPARE(reply->readAll(), body);
    }
};

QTEST_MAIN(tst_AttachMemory)
#include "tst_attachmemory.moc"
