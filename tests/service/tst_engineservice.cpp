// SPDX-License-Identifier: MIT
// bullpen-engine over loopback, as a client sees it (docs/contract.md §12.1, docs/api.md): real child processes, real
// HTTP through QNetworkAccessManager, the real store. Tokens and roles, field errors and limits, results
// and cancel, the event stream's resume and overflow, RemoteEngine and RemoteHistory against it, a
// SIGTERM drain, and a kill -9 that leaves nothing running.
#include "engine/alertrules.h"
#include "engineprocess.h"
#include "pipeline/generationresult.h"
#include "remote/remoteconnection.h"
#include "remote/remoteengine.h"
#include "remote/remotehistory.h"
#include "remote/remotestorewatch.h"
#include "runtime/enginesetup.h"
#include "runtime/logsink.h"
#include "service/engineservice.h"
#include "service/storerelay.h"
#include "store/apitokens.h"
#include "store/drainrecords.h"
#include "store/masking.h"
#include "store/store.h"
#include "teststore.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <csignal>

using namespace bullpen;
using bullpen::test::Engine;
using bullpen::test::TestStore;

namespace {

struct Answer
{
    int status = 0;
    QByteArray body;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QByteArray retryAfter;
    QByteArray wwwAuthenticate;
    QByteArray allow;
    QByteArray location;
    QByteArray contentType;
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
    QString errorField() const { return json().value(QLatin1StringView("error")).toObject().value(QLatin1StringView("field")).toString(); }
    QString message() const { return json().value(QLatin1StringView("error")).toObject().value(QLatin1StringView("message")).toString(); }
};

// A fake engine's JSON answer on a raw socket.
void answerRaw(QTcpSocket *socket, int status, const QByteArray &json)
{
    socket->write("HTTP/1.1 " + QByteArray::number(status)
                  + " X\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(json.size()) + "\r\n\r\n" + json);
}

QByteArray body(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

class tst_EngineService : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<Engine> m_engine;
    QString m_operator, m_viewer;
    QNetworkAccessManager m_network;
    QStringList m_secrets; // every token made: none may appear in a log

    Answer call(const QByteArray &method, const QString &path, const QString &token, const QByteArray &payload = {},
                const QList<std::pair<QByteArray, QByteArray>> &headers = {}, const QUrl &base = {})
    {
        QUrl url = base.isEmpty() ? m_engine->url : base;
        const qsizetype q = path.indexOf(QLatin1Char('?'));
        url.setPath(q < 0 ? path : path.left(q), QUrl::TolerantMode); // "%00" in a path is sent as it is written
        if (q >= 0)
            url.setQuery(path.mid(q + 1));
        QNetworkRequest r(url);
        if (!token.isEmpty())
            r.setRawHeader("Authorization", "Bearer " + token.toLatin1());
        for (const auto &[name, value] : headers)
            r.setRawHeader(name, value);
        if (method == "POST")
            r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        r.setTransferTimeout(30000);
        QNetworkReply *reply = m_network.sendCustomRequest(r, method, payload);
        QSignalSpy done(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            done.wait(35000);
        Answer a;
        a.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        a.body = reply->readAll();
        a.error = reply->error();
        a.retryAfter = reply->rawHeader("Retry-After");
        a.wwwAuthenticate = reply->rawHeader("WWW-Authenticate");
        a.allow = reply->rawHeader("Allow");
        a.location = reply->rawHeader("Location");
        a.contentType = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
        reply->deleteLater();
        recordAnswer(method, url, a);
        return a;
    }

    // With BULLPEN_API_ANSWERS=FILE (ctest sets it), every answer received is appended to FILE as a
    // JSON line, which tst_openapi checks against docs/openapi.yaml.
    static void recordAnswer(const QByteArray &method, const QUrl &url, const Answer &a)
    {
        const QString file = qEnvironmentVariable("BULLPEN_API_ANSWERS");
        if (file.isEmpty() || a.status == 0)
            return;
        QFile out(file);
        if (!out.open(QIODevice::Append))
            return;
        QJsonParseError error;
        const QJsonDocument body = QJsonDocument::fromJson(a.body, &error);
        const QJsonObject line { { QStringLiteral("method"), QString::fromLatin1(method) },
                                 { QStringLiteral("path"), url.path() },
                                 { QStringLiteral("status"), a.status },
                                 { QStringLiteral("content_type"), QString::fromLatin1(a.contentType) },
                                 { QStringLiteral("allow"), QString::fromLatin1(a.allow) },
                                 { QStringLiteral("location"), QString::fromLatin1(a.location) },
                                 { QStringLiteral("retry_after"), QString::fromLatin1(a.retryAfter) },
                                 { QStringLiteral("body"),
                                   error.error == QJsonParseError::NoError && !body.isNull()
                                       ? (body.isObject() ? QJsonValue(body.object()) : QJsonValue(body.array()))
                                       : QJsonValue() } };
        out.write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n');
    }

    QString startGeneration(const QJsonObject &extra = {}, const QString &token = {})
    {
        QJsonObject o { { QStringLiteral("story"), QStringLiteral("A cat finds a hat on a windy day.") },
                        { QStringLiteral("user_id"), QStringLiteral("alice@example.com") } };
        for (auto it = extra.begin(); it != extra.end(); ++it)
            o.insert(it.key(), it.value());
        const Answer a = call("POST", QStringLiteral("/v1/generations"), token.isEmpty() ? m_operator : token, body(o));
        if (a.status != 202)
            qWarning() << "POST /v1/generations" << a.status << a.body;
        return a.json().value(QLatin1StringView("generation_id")).toString();
    }

    // Polls until the result is final (the engine answers 409 while it runs).
    Answer waitForResult(const QString &id, int timeoutMs = 30000)
    {
        QElapsedTimer t;
        t.start();
        Answer a;
        do {
            a = call("GET", QStringLiteral("/v1/generations/") + id, m_viewer);
            if (a.status != 409)
                return a;
            QTest::qWait(20);
        } while (t.elapsed() < timeoutMs);
        return a;
    }

    // Two engines on a's store with one masking key, named NAME-a and NAME-b: an operator token for
    // both, or empty if either failed to start.
    // A raw `GET /v1/events` reader: the cursors and event types as they arrive.
    struct SseStream
    {
        QPointer<QNetworkReply> reply;
        SseParser parser;
        QStringList ids;
        QStringList types;
        QList<QByteArray> data;
        QStringList noticeTypes; // frames without an id: the engine's notices
        QList<QJsonObject> notices;
        int resets = 0;
    };
    void openStream(SseStream &s, const QUrl &engine, const QString &token, const QByteArray &lastId)
    {
        QUrl url = engine;
        url.setPath(QStringLiteral("/v1/events"));
        QNetworkRequest r(url);
        r.setRawHeader("Authorization", "Bearer " + token.toLatin1());
        if (!lastId.isEmpty())
            r.setRawHeader("Last-Event-ID", lastId);
        s.reply = m_network.get(r);
        QObject::connect(s.reply, &QNetworkReply::readyRead, s.reply, [&s] {
            for (const SseEvent &e : s.parser.feed(s.reply->readAll())) {
                s.resets += e.event == "reset" ? 1 : 0;
                if (!e.id.isEmpty()) {
                    s.ids << QString::fromLatin1(e.id);
                    s.types << QString::fromLatin1(e.event);
                    s.data << e.data;
                } else if (e.event != "reset" && e.event != "overflow") {
                    s.noticeTypes << QString::fromLatin1(e.event);
                    s.notices << QJsonDocument::fromJson(e.data).object();
                }
            }
        });
    }

    QString startSharingOneStore(Engine &a, Engine &b, const QString &name, const QStringList &extraArguments = {})
    {
        b.store = a.store;
        const QString key = m_dir.filePath(name + QStringLiteral(".key"));
        a.extraEnvironment.insert(QStringLiteral("BULLPEN_MASKING_KEY_FILE"), key);
        b.extraEnvironment.insert(QStringLiteral("BULLPEN_MASKING_KEY_FILE"), key);
        const QString token = a.token(QStringLiteral("ops"), QStringLiteral("operator"));
        m_secrets << token;
        if (!a.start(QStringList { QStringLiteral("--instance"), name + QStringLiteral("-a") } + extraArguments)
            || !b.start(QStringList { QStringLiteral("--instance"), name + QStringLiteral("-b") } + extraArguments))
            return {};
        return token;
    }

    static QJsonObject hang(int primaryMs, int fallbackMs = 2000)
    {
        return QJsonObject { { QStringLiteral("scenario"), QStringLiteral("primary-hang") },
                             { QStringLiteral("timeouts"),
                               QJsonObject { { QStringLiteral("primary_ms"), primaryMs },
                                             { QStringLiteral("fallback_ms"), fallbackMs } } } };
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        if (const QString answers = qEnvironmentVariable("BULLPEN_API_ANSWERS"); !answers.isEmpty())
            QFile::remove(answers); // this run's answers only
        BULLPEN_REQUIRE_TEST_STORE();
        m_engine = std::make_unique<Engine>(m_dir.filePath(QStringLiteral("main")));
        // Tokens are made before the engine runs, and (revoke) while it runs: both reach it.
        m_operator = m_engine->token(QStringLiteral("ops"), QStringLiteral("operator"));
        m_viewer = m_engine->token(QStringLiteral("watcher"), QStringLiteral("viewer"));
        QVERIFY(m_operator.startsWith(QLatin1StringView("bp_")));
        QVERIFY(m_viewer.startsWith(QLatin1StringView("bp_")));
        m_secrets << m_operator << m_viewer;
        QVERIFY(m_engine->start({ QStringLiteral("--instance"), QStringLiteral("test-main") }));
    }

    void cleanupTestCase()
    {
        if (m_engine) {
            m_engine->stop();
            const QByteArray log = m_engine->stderrText();
            // docs/contract.md §11.9 on the service: no token value or raw user id in any log line.
            for (const QString &secret : std::as_const(m_secrets))
                QVERIFY2(!log.contains(secret.toLatin1()), "a token value reached the engine's log");
            QVERIFY2(!log.contains("alice@example.com"), "a raw user id reached the engine's log");
            QVERIFY(log.contains("bullpen.api")); // the log was on: the check above read something
        }
    }

    void healthNeedsNoTokenEverythingElseDoes()
    {
        QCOMPARE(call("GET", QStringLiteral("/healthz"), {}).status, 200);
        QCOMPARE(call("GET", QStringLiteral("/readyz"), {}).status, 200);
        const Answer none = call("GET", QStringLiteral("/v1/config"), {});
        QCOMPARE(none.status, 401);
        QVERIFY(none.wwwAuthenticate.startsWith("Bearer"));
        const Answer wrong = call("GET", QStringLiteral("/v1/config"), QStringLiteral("bp_not-a-token"));
        QCOMPARE(wrong.status, 401);
        QCOMPARE(wrong.body, none.body); // no hint of why
        QCOMPARE(call("GET", QStringLiteral("/metrics"), {}).status, 401);
        QCOMPARE(call("GET", QStringLiteral("/v1/config"), m_viewer).status, 200);
        QCOMPARE(call("GET", QStringLiteral("/metrics"), m_viewer).status, 200);
    }

    void viewerReadsOperatorActsAndIsAudited()
    {
        const Answer viewerPost =
            call("POST", QStringLiteral("/v1/generations"), m_viewer,
                 body({ { QStringLiteral("story"), QStringLiteral("x") }, { QStringLiteral("user_id"), QStringLiteral("u") } }));
        QCOMPARE(viewerPost.status, 403);
        QCOMPARE(call("POST", QStringLiteral("/v1/generations/gen_00000000000000000000000000000000/cancel"), m_viewer, "{}").status, 403);
        const QString id = startGeneration();
        QVERIFY(id.startsWith(QLatin1StringView("gen_")));
        QCOMPARE(waitForResult(id).status, 200);

        // The audit names the token, never the user.
        QString why;
        const auto tokens = ApiTokens::open(m_engine->store, &why);
        QVERIFY2(tokens, qPrintable(why));
        // Written off the request's thread, a moment after the answer.
        const auto audited = [&] {
            bool found = false;
            for (const AuditEntry &e : tokens->auditLog(100)) {
                if (e.detail.contains(QLatin1StringView("alice")))
                    return false;
                found = found || (e.action == u"start" && e.target == id && e.tokenName == u"ops" && e.instance == u"test-main");
            }
            return found;
        };
        QTRY_VERIFY_WITH_TIMEOUT(audited(), 5000);
    }

    // docs/contract.md §13, docs/api.md "Providers": a drain through the API, obeyed by the next
    // generation, audited, in the metrics, and ended by restore.
    void drainRoutesToTheFallbackAndIsAudited()
    {
        const Answer list = call("GET", QStringLiteral("/v1/providers"), m_viewer);
        QCOMPARE(list.status, 200);
        const QJsonObject listed = list.json();
        QCOMPARE(listed.value(QLatin1StringView("providers")).toArray().size(), 4);
        QVERIFY(listed.value(QLatin1StringView("breaker")).toObject().value(QLatin1StringView("enabled")).toBool());
        QVERIFY2(listed.value(QLatin1StringView("probes")).isNull(), "no prober runs without --probe-every: probes is null");

        const QByteArray drainBody = body({ { QStringLiteral("reason"), QStringLiteral("incident 4711") } });
        QCOMPARE(call("POST", QStringLiteral("/v1/providers/gemini/drain"), m_viewer, drainBody).status, 403);
        const Answer noReason = call("POST", QStringLiteral("/v1/providers/gemini/drain"), m_operator, "{}");
        QCOMPARE(noReason.status, 400);
        QVERIFY2(noReason.body.contains("reason"), noReason.body.constData());
        QCOMPARE(call("POST", QStringLiteral("/v1/providers/nosuch/drain"), m_operator, drainBody).status, 404);
        const Answer past = call("POST", QStringLiteral("/v1/providers/gemini/drain"), m_operator,
                                 body({ { QStringLiteral("reason"), QStringLiteral("x") },
                                        { QStringLiteral("until"), QStringLiteral("2001-01-01T00:00:00Z") } }));
        QCOMPARE(past.status, 400);
        QVERIFY2(past.body.contains("until"), past.body.constData());

        const Answer drained = call("POST", QStringLiteral("/v1/providers/gemini/drain"), m_operator, drainBody);
        QCOMPARE(drained.status, 200);
        QCOMPARE(drained.json().value(QLatin1StringView("by")).toString(), QStringLiteral("ops"));
        const QString id = startGeneration(
            { { QStringLiteral("primary"), QStringLiteral("gemini") }, { QStringLiteral("fallback"), QStringLiteral("qwen") } });
        const Answer result = waitForResult(id);
        QCOMPARE(result.status, 200);
        QVERIFY2(result.body.contains("gemini_drained"), result.body.constData());
        QVERIFY(call("GET", QStringLiteral("/metrics"), m_viewer)
                    .body.contains("bullpen_provider_drains{provider=\"gemini\",role=\"any\",stage=\"any\"} 1"));
        QVERIFY(call("GET", QStringLiteral("/metrics"), m_viewer)
                    .body.contains("bullpen_primary_skipped_total{stage=\"storyboard\",from=\"gemini\",to=\"qwen\",state=\"drained\"} 1"));

        const Answer restored = call("POST", QStringLiteral("/v1/providers/gemini/restore"), m_operator,
                                     body({ { QStringLiteral("reason"), QStringLiteral("fixed") } }));
        QCOMPARE(restored.status, 200);
        QCOMPARE(restored.json().value(QLatin1StringView("restored")).toInt(), 1);
        const QString after = startGeneration(
            { { QStringLiteral("primary"), QStringLiteral("gemini") }, { QStringLiteral("fallback"), QStringLiteral("qwen") } });
        QVERIFY(!waitForResult(after).body.contains("gemini_drained"));
        // A scoped drain with an expiry: its audit row says the role, the stage and until when.
        const Answer scoped = call("POST", QStringLiteral("/v1/providers/qwen/drain"), m_operator,
                                   body({ { QStringLiteral("reason"), QStringLiteral("scoped 4712") },
                                          { QStringLiteral("role"), QStringLiteral("fallback") },
                                          { QStringLiteral("stage"), QStringLiteral("captions") },
                                          { QStringLiteral("until"), QStringLiteral("2099-01-01T00:00:00Z") } }));
        QCOMPARE(scoped.status, 200);
        QCOMPARE(
            call("POST", QStringLiteral("/v1/providers/qwen/restore"), m_operator,
                 body({ { QStringLiteral("role"), QStringLiteral("fallback") }, { QStringLiteral("stage"), QStringLiteral("captions") } }))
                .status,
            200);

        QString why;
        const auto tokens = ApiTokens::open(m_engine->store, &why);
        QVERIFY2(tokens, qPrintable(why));
        const auto audited = [&] {
            bool drain = false, restore = false, scopedDrain = false, scopedRestore = false;
            for (const AuditEntry &e : tokens->auditLog(100)) {
                drain = drain || (e.action == u"drain" && e.tokenName == u"ops" && e.target.contains(QLatin1StringView("incident 4711")));
                restore = restore || (e.action == u"restore" && e.tokenName == u"ops");
                const QJsonObject detail = QJsonDocument::fromJson(e.detail.toUtf8()).object();
                scopedDrain = scopedDrain
                    || (e.action == u"drain" && detail.value(QLatin1StringView("role")).toString() == u"fallback"
                        && detail.value(QLatin1StringView("stage")).toString() == u"captions"
                        && detail.value(QLatin1StringView("until")).toString().startsWith(QLatin1StringView("2099-01-01")));
                scopedRestore = scopedRestore
                    || (e.action == u"restore" && detail.value(QLatin1StringView("role")).toString() == u"fallback"
                        && detail.value(QLatin1StringView("stage")).toString() == u"captions");
            }
            return drain && restore && scopedDrain && scopedRestore;
        };
        QTRY_VERIFY_WITH_TIMEOUT(audited(), 5000);
    }

    // docs/api.md "Providers": an operator resets one breaker (role and stage named), audited, and the
    // audit trail reads back through GET /v1/audit, filtered by action.
    void breakerResetIsAuditedAndTheAuditIsRead()
    {
        const QByteArray one = body({ { QStringLiteral("role"), QStringLiteral("primary") },
                                      { QStringLiteral("stage"), QStringLiteral("storyboard") },
                                      { QStringLiteral("reason"), QStringLiteral("provider fixed, ticket 88") } });
        QCOMPARE(call("POST", QStringLiteral("/v1/providers/gemini/reset"), m_viewer, one).status, 403);
        QCOMPARE(call("POST", QStringLiteral("/v1/providers/nosuch/reset"), m_operator, one).status, 404);
        const Answer noStage = call("POST", QStringLiteral("/v1/providers/gemini/reset"), m_operator,
                                    body({ { QStringLiteral("role"), QStringLiteral("primary") } }));
        QCOMPARE(noStage.status, 400);
        QCOMPARE(noStage.errorField(), QStringLiteral("stage"));
        const Answer reset = call("POST", QStringLiteral("/v1/providers/gemini/reset"), m_operator, one);
        QCOMPARE(reset.status, 200);
        QCOMPARE(reset.json().value(QLatin1StringView("stage")).toString(), QStringLiteral("storyboard"));
        QVERIFY(!reset.json().value(QLatin1StringView("was_open")).toBool()); // nothing failed it here

        QCOMPARE(call("GET", QStringLiteral("/v1/audit?limit=0"), m_viewer).status, 400);
        const Answer audit = call("GET", QStringLiteral("/v1/audit?action=reset"), m_viewer);
        QCOMPARE(audit.status, 200);
        const QJsonArray entries = audit.json().value(QLatin1StringView("entries")).toArray();
        QVERIFY2(!entries.isEmpty(), audit.body.constData());
        for (const QJsonValue &e : entries)
            QCOMPARE(e.toObject().value(QLatin1StringView("action")).toString(), QStringLiteral("reset"));
        const QJsonObject first = entries.first().toObject();
        QCOMPARE(first.value(QLatin1StringView("token")).toString(), QStringLiteral("ops"));
        QCOMPARE(first.value(QLatin1StringView("target")).toString(),
                 QStringLiteral("gemini/primary/storyboard (provider fixed, ticket 88)"));
    }

    // docs/api.md "Alerts": the rules this engine evaluates and the ones left to Prometheus, each with
    // its runbook; nothing is failing here, so nothing is active.
    void alertsListTheRules()
    {
        const Answer a = call("GET", QStringLiteral("/v1/alerts"), m_viewer);
        QCOMPARE(a.status, 200);
        const QJsonObject o = a.json();
        QVERIFY(o.value(QLatin1StringView("alerts")).isArray());
        QVERIFY(o.value(QLatin1StringView("history")).isArray());
        const QJsonArray rules = o.value(QLatin1StringView("rules")).toArray();
        QCOMPARE(rules.size(),
                 static_cast<qsizetype>(alertRules().size())); // every rule of the one table (tst_alertboard: = the shipped file)
        QCOMPARE(rules.first().toObject().value(QLatin1StringView("runbook_url")).toString(),
                 QStringLiteral("docs/operations.md#bullpenproviderfailingnow"));
        QVERIFY(rules.first().toObject().value(QLatin1StringView("evaluated_here")).toBool());
    }

    // docs/api.md "Alerts": acknowledge = silence a rule for one of the offered lengths (operators only,
    // a reason required), listed with who, why and until, audited; ended by DELETE, once.
    void silenceIsAuditedAndEnded()
    {
        const QString path = QStringLiteral("/v1/alerts/BullpenProviderFailingNow/silence");
        const QByteArray hour =
            body({ { QStringLiteral("for_s"), 3600 }, { QStringLiteral("reason"), QStringLiteral("known outage, ticket 12") } });
        QCOMPARE(call("POST", path, m_viewer, hour).status, 403);
        QCOMPARE(call("POST", QStringLiteral("/v1/alerts/NoSuchRule/silence"), m_operator, hour).status, 404);
        const Answer noReason = call("POST", path, m_operator, body({ { QStringLiteral("for_s"), 3600 } }));
        QCOMPARE(noReason.status, 400);
        QCOMPARE(noReason.errorField(), QStringLiteral("reason"));
        const Answer oddLength =
            call("POST", path, m_operator, body({ { QStringLiteral("for_s"), 600 }, { QStringLiteral("reason"), QStringLiteral("x") } }));
        QCOMPARE(oddLength.status, 400);
        QCOMPARE(oddLength.errorField(), QStringLiteral("for_s"));
        QVERIFY2(oddLength.message().contains(u"900, 3600, 14400 seconds"), qPrintable(oddLength.message()));

        const Answer silenced = call("POST", path, m_operator, hour);
        QCOMPARE(silenced.status, 200);
        const QDateTime until = QDateTime::fromString(silenced.json().value(QLatin1StringView("until")).toString(), Qt::ISODateWithMs);
        const QDateTime since = QDateTime::fromString(silenced.json().value(QLatin1StringView("since")).toString(), Qt::ISODateWithMs);
        QCOMPARE(since.secsTo(until), 3600);
        const QJsonArray silences =
            call("GET", QStringLiteral("/v1/alerts"), m_viewer).json().value(QLatin1StringView("silences")).toArray();
        QCOMPARE(silences.size(), 1);
        QCOMPARE(silences.first().toObject().value(QLatin1StringView("by")).toString(), QStringLiteral("ops"));
        QCOMPARE(silences.first().toObject().value(QLatin1StringView("reason")).toString(), QStringLiteral("known outage, ticket 12"));

        QCOMPARE(call("DELETE", path, m_viewer).status, 403);
        QCOMPARE(call("DELETE", path, m_operator).status, 200);
        const Answer again = call("DELETE", path, m_operator);
        QCOMPARE(again.status, 404);
        QVERIFY2(again.message().contains(u"not silenced"), qPrintable(again.message()));
        QVERIFY(call("GET", QStringLiteral("/v1/alerts"), m_viewer).json().value(QLatin1StringView("silences")).toArray().isEmpty());
        // Who, why and until in the audit trail; the end too.
        const auto audited = [&] {
            const QJsonArray entries =
                call("GET", QStringLiteral("/v1/audit?action=silence"), m_viewer).json().value(QLatin1StringView("entries")).toArray();
            const QJsonArray ended =
                call("GET", QStringLiteral("/v1/audit?action=unsilence"), m_viewer).json().value(QLatin1StringView("entries")).toArray();
            return !entries.isEmpty() && !ended.isEmpty()
                && entries.first().toObject().value(QLatin1StringView("token")).toString() == u"ops"
                && entries.first()
                       .toObject()
                       .value(QLatin1StringView("target"))
                       .toString()
                       .contains(u"until " + until.toString(Qt::ISODateWithMs))
                && entries.first().toObject().value(QLatin1StringView("target")).toString().contains(u"ticket 12");
        };
        QTRY_VERIFY_WITH_TIMEOUT(audited(), 5000);
    }

    // The drains of `provider` that GET /v1/providers lists, as "role/stage" ("any" for every one).
    QStringList drainsOf(const QString &provider)
    {
        QStringList out;
        for (const QJsonValue &p :
             call("GET", QStringLiteral("/v1/providers"), m_viewer).json().value(QLatin1StringView("providers")).toArray()) {
            if (p.toObject().value(QLatin1StringView("id")).toString() != provider)
                continue;
            for (const QJsonValue &d : p.toObject().value(QLatin1StringView("drains")).toArray())
                out << d.toObject().value(QLatin1StringView("role")).toString(QStringLiteral("any")) + QLatin1Char('/')
                        + d.toObject().value(QLatin1StringView("stage")).toString(QStringLiteral("any"));
        }
        out.sort();
        return out;
    }

    // docs/api.md, "Providers": a restore ends only the drains of its scope (role, stage), and refuses
    // a value it does not know or a field it does not take, naming it. (Before: role=primary ended both
    // drains, and any body was taken.)
    void restoreKeepsToItsScope()
    {
        const auto drain = [&](const QJsonObject &scope) {
            QJsonObject o = scope;
            o.insert(QStringLiteral("reason"), QStringLiteral("scope check"));
            return call("POST", QStringLiteral("/v1/providers/openai/drain"), m_operator, body(o)).status;
        };
        const auto restore = [&](const QJsonObject &o) {
            return call("POST", QStringLiteral("/v1/providers/openai/restore"), m_operator, body(o));
        };
        QCOMPARE(drain({ { QStringLiteral("role"), QStringLiteral("primary") } }), 200);
        QCOMPARE(drain({ { QStringLiteral("role"), QStringLiteral("fallback") } }), 200);
        QCOMPARE(drain({ { QStringLiteral("role"), QStringLiteral("fallback") }, { QStringLiteral("stage"), QStringLiteral("captions") } }),
                 200);
        QCOMPARE(drainsOf(QStringLiteral("openai")),
                 (QStringList { QStringLiteral("fallback/any"), QStringLiteral("fallback/captions"), QStringLiteral("primary/any") }));

        const QList<std::pair<QJsonObject, QString>> refused {
            { { { QStringLiteral("role"), QStringLiteral("bogus") } }, QStringLiteral("role") },
            { { { QStringLiteral("stage"), QStringLiteral("everything") } }, QStringLiteral("stage") },
            { { { QStringLiteral("role"), 1 } }, QStringLiteral("role") },
            { { { QStringLiteral("rol"), QStringLiteral("primary") } }, QStringLiteral("rol") },
            { { { QStringLiteral("reason"), 42 } }, QStringLiteral("reason") },
        };
        for (const auto &[o, field] : refused) {
            const Answer a = restore(o);
            QVERIFY2(a.status == 400, a.body.constData());
            QCOMPARE(a.json().value(QLatin1StringView("error")).toObject().value(QLatin1StringView("field")).toString(), field);
        }
        QCOMPARE(drainsOf(QStringLiteral("openai")).size(), 3); // nothing was restored by a refusal

        const Answer primary =
            restore({ { QStringLiteral("role"), QStringLiteral("primary") }, { QStringLiteral("reason"), QStringLiteral("back") } });
        QCOMPARE(primary.status, 200);
        QCOMPARE(primary.json().value(QLatin1StringView("restored")).toInt(), 1);
        QCOMPARE(drainsOf(QStringLiteral("openai")), (QStringList { QStringLiteral("fallback/any"), QStringLiteral("fallback/captions") }));
        const Answer captions = restore({ { QStringLiteral("stage"), QStringLiteral("captions") } });
        QCOMPARE(captions.json().value(QLatin1StringView("restored")).toInt(), 1);
        QCOMPARE(drainsOf(QStringLiteral("openai")), QStringList { QStringLiteral("fallback/any") });
        QCOMPARE(restore({}).json().value(QLatin1StringView("restored")).toInt(), 1); // no scope: every drain of the provider
        QVERIFY(drainsOf(QStringLiteral("openai")).isEmpty());
    }

    // A drain's or a restore's reason is one line of text: control characters (CR, LF, ESC, NUL, …) are
    // refused, and the 500-character limit counts characters, not UTF-16 units. A reason stored with an
    // escape sequence all the same (by an older engine) reaches a terminal through `bullpen-cli provider
    // list` without it.
    void drainReasonsArePrintableText()
    {
        const auto drainWith = [&](const QString &reason) {
            return call("POST", QStringLiteral("/v1/providers/openai/drain"), m_operator, body({ { QStringLiteral("reason"), reason } }));
        };
        for (const QString &bad : { QStringLiteral("line\nbreak"), QStringLiteral("carriage\rreturn"), QStringLiteral("\x1b[31mred"),
                                    QString(QStringLiteral("nul") + QChar(0) + QStringLiteral("x")) }) {
            const Answer a = drainWith(bad);
            QVERIFY2(a.status == 400 && a.body.contains("control"), a.body.constData());
        }
        const Answer badRestore = call("POST", QStringLiteral("/v1/providers/openai/restore"), m_operator,
                                       body({ { QStringLiteral("reason"), QStringLiteral("\x1b]0;title\x07") } }));
        QVERIFY2(badRestore.status == 400, badRestore.body.constData());
        QVERIFY(drainsOf(QStringLiteral("openai")).isEmpty());

        const QString balloon = QString::fromUtf8("\xF0\x9F\x8E\x88"); // one character, two UTF-16 units
        QCOMPARE(drainWith(balloon.repeated(501)).status, 400);
        const Answer full = drainWith(balloon.repeated(500));
        QVERIFY2(full.status == 200, full.body.constData());
        QCOMPARE(call("POST", QStringLiteral("/v1/providers/openai/restore"), m_operator, "{}").status, 200);

        // Stored with an escape sequence by an older engine: every engine reads it back from the store.
        QString why;
        const std::unique_ptr<DrainRecords> records = DrainRecords::open(m_engine->store, &why);
        QVERIFY2(records, qPrintable(why));
        Drain old;
        old.provider = Provider::OpenAI;
        old.reason = QStringLiteral("\x1b]0;pwned\x07\x1b[2Jvendor outage\r\nsecond line");
        old.by = QStringLiteral("old\x1b[1mengine");
        old.since = QDateTime::currentDateTimeUtc();
        QVERIFY2(records->save(old, QStringLiteral("old-engine"), &why), qPrintable(why));
        QTRY_COMPARE_WITH_TIMEOUT(drainsOf(QStringLiteral("openai")), QStringList { QStringLiteral("any/any") }, 5000);
        QProcess cli;
        QProcessEnvironment env = m_engine->environment();
        env.insert(QStringLiteral("BULLPEN_ENGINE_TOKEN"), m_viewer);
        cli.setProcessEnvironment(env);
        cli.start(QStringLiteral(BULLPEN_CLI),
                  { QStringLiteral("provider"), QStringLiteral("list"), QStringLiteral("--engine"), m_engine->url.toString() });
        QVERIFY(cli.waitForFinished(30'000));
        const QByteArray listed = cli.readAllStandardOutput();
        QCOMPARE(cli.exitCode(), 0);
        QVERIFY2(listed.contains("vendor outage") && listed.contains("second line"), listed.constData());
        for (const char c : { '\x1b', '\x07', '\r' })
            QVERIFY2(!listed.contains(c), listed.toPercentEncoding(" \n").constData());
        QCOMPARE(call("POST", QStringLiteral("/v1/providers/openai/restore"), m_operator, "{}").status, 200);
    }

    // `bullpen-cli audit` (docs/api.md, GET /v1/audit): from a running engine (--engine) and from the store
    // itself (--data-dir), filtered by action, with a stored row's control characters printed as spaces as
    // `provider list` does; a bad --limit is refused saying what to give.
    void cliAuditPrintsTheTrailSafely()
    {
        QString why;
        const std::unique_ptr<ApiTokens> tokens = ApiTokens::open(m_engine->store, &why);
        QVERIFY2(tokens, qPrintable(why));
        QVERIFY2(tokens->audit(QStringLiteral("old\x1b[1mops"), QStringLiteral("drain"),
                               QStringLiteral("gemini (\x1b]0;pwned\x07\x1b[2Jvendor outage\r\nsecond line)"), {}, &why),
                 qPrintable(why));
        QVERIFY(tokens->audit(QStringLiteral("ops"), QStringLiteral("restore"), QStringLiteral("gemini"), {}, &why));
        const auto cli = [&](const QStringList &args, QByteArray *out, QByteArray *err = nullptr) {
            QProcess p;
            QProcessEnvironment env = m_engine->environment();
            env.insert(QStringLiteral("BULLPEN_ENGINE_TOKEN"), m_viewer);
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(BULLPEN_CLI), QStringList { QStringLiteral("audit") } + args);
            if (!p.waitForFinished(30'000))
                return -1;
            *out = p.readAllStandardOutput();
            if (err)
                *err = p.readAllStandardError();
            return p.exitCode();
        };
        const QStringList remote { QStringLiteral("--engine"), m_engine->url.toString() };
        const QStringList local { QStringLiteral("--data-dir"), m_dir.filePath(QStringLiteral("main")) };
        for (const QStringList &where : { remote, local }) {
            QByteArray out;
            QCOMPARE(cli(where + QStringList { QStringLiteral("--action"), QStringLiteral("drain") }, &out), 0);
            QVERIFY2(out.contains("vendor outage") && out.contains("second line") && out.contains("old [1mops"), out.constData());
            QVERIFY2(!out.contains("restore"), out.constData()); // --action filters
            for (const char c : { '\x1b', '\x07', '\r' })
                QVERIFY2(!out.contains(c), out.toPercentEncoding(" \n").constData());
            QCOMPARE(cli(where + QStringList { QStringLiteral("--json"), QStringLiteral("--limit"), QStringLiteral("1") }, &out), 0);
            const QJsonArray entries = QJsonDocument::fromJson(out).object().value(QLatin1StringView("entries")).toArray();
            QCOMPARE(entries.size(), 1);
            QCOMPARE(entries.first().toObject().value(QLatin1StringView("action")).toString(), QStringLiteral("restore"));
        }
        QByteArray out, err;
        QCOMPARE(cli({ QStringLiteral("--limit"), QStringLiteral("0") }, &out, &err), 2);
        QVERIFY2(err.contains("--limit: a whole number from 1 to 1000"), err.constData());
        if (!m_engine->store.isPostgres()) { // there the environment names the store, not the folder
            QCOMPARE(cli({ QStringLiteral("--data-dir"), m_dir.filePath(QStringLiteral("nosuch")) }, &out, &err), 5);
            QVERIFY2(err.contains("--engine URL"), err.constData());
        }
    }

    // A control character (NUL above all: an error inside PostgreSQL) in a path or a query parameter is a
    // 400 at the API's edge that names the place, on both stores; no answer ever carries the store's SQL.
    void controlCharactersAreRefusedAtTheEdge_data()
    {
        QTest::addColumn<QString>("path");
        for (const char *name : { "user", "instance", "before_id", "fallback_reason", "id_prefix", "provider", "kind" })
            QTest::addRow("history %s", name) << QStringLiteral("/v1/history?") + QLatin1StringView(name) + QStringLiteral("=a%00b");
        QTest::addRow("history before_id tab") << QStringLiteral("/v1/history?before_id=gen_%09x");
        QTest::addRow("history id") << QStringLiteral("/v1/history/gen_%00abc");
        QTest::addRow("generation id") << QStringLiteral("/v1/generations/gen_%00abc");
        QTest::addRow("scenario") << QStringLiteral("/v1/history/gen_%00abc/scenario");
        QTest::addRow("comparisons") << QStringLiteral("/v1/comparisons?before_id=a%00b");
        QTest::addRow("stats") << QStringLiteral("/v1/stats/fallback-rate?instance=a%00b");
    }
    void controlCharactersAreRefusedAtTheEdge()
    {
        QFETCH(QString, path);
        const Answer a = call("GET", path, m_viewer);
        QVERIFY2(a.status == 400, a.body.constData());
        QVERIFY2(a.body.contains("control character"), a.body.constData());
        for (const char *sql : { "SELECT", "select ", "WHERE", "invalid byte sequence", "QPSQL", "ERROR:" })
            QVERIFY2(!a.body.contains(sql), a.body.constData());
        QCOMPARE(call("GET", path, QString()).status, 401); // the token is asked for first
    }

    // RFC 9112 §6.3: no request smuggling. Both Content-Length and Transfer-Encoding, or two lengths
    // that disagree: 400 and the connection closed, so the request hidden in the body never runs; an
    // unknown transfer coding: 501. "bearer" is the scheme in any case.
    void framingThatHidesARequestIsRefused()
    {
        const QByteArray smuggled = "GET /v1/instances HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_viewer.toLatin1() + "\r\n\r\n";
        const auto exchange = [&](const QByteArray &framing, const QByteArray &bodyBytes) {
            QTcpSocket socket;
            socket.connectToHost(QHostAddress::LocalHost, m_engine->m_port);
            if (!socket.waitForConnected(5000))
                return QByteArray("no connection");
            socket.write("POST /v1/generations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_operator.toLatin1()
                         + "\r\nContent-Type: application/json\r\n" + framing + "\r\n" + bodyBytes);
            QByteArray got;
            QElapsedTimer t;
            t.start();
            while (socket.state() == QAbstractSocket::ConnectedState && t.elapsed() < 5000) {
                socket.waitForReadyRead(200);
                got += socket.readAll();
            }
            got += socket.readAll();
            return socket.state() == QAbstractSocket::ConnectedState ? got + "\n(still open)" : got;
        };
        const QByteArray chunk = "0\r\n\r\n" + smuggled;
        const QByteArray both =
            exchange("Content-Length: " + QByteArray::number(chunk.size()) + "\r\nTransfer-Encoding: chunked\r\n", chunk);
        QVERIFY2(both.startsWith("HTTP/1.1 400"), both.constData());
        QVERIFY2(!both.contains("still open") && both.count("HTTP/1.1") == 1, both.constData()); // closed; the hidden GET never answered
        const QByteArray twoLengths = exchange("Content-Length: 2\r\nContent-Length: 40\r\n", "{}" + smuggled);
        QVERIFY2(twoLengths.startsWith("HTTP/1.1 400") && twoLengths.count("HTTP/1.1") == 1, twoLengths.constData());
        const QByteArray gzip = exchange("Transfer-Encoding: gzip\r\n", "x");
        QVERIFY2(gzip.startsWith("HTTP/1.1 501") || gzip.startsWith("HTTP/1.1 400"), gzip.constData()); // Qt's parser may refuse it first
        QCOMPARE(call("GET", QStringLiteral("/v1/instances"), {}, {}, { { QByteArray("Authorization"), "bEaReR " + m_viewer.toLatin1() } })
                     .status,
                 200);
    }

    // `bytes` written on a new connection; what came back until the server closed it or `waitMs`
    // passed ("(still open)" is added then), and how long that took.
    static std::pair<QByteArray, qint64> untilClosed(quint16 port, const QByteArray &bytes, int waitMs = 5000)
    {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, port);
        if (!socket.waitForConnected(5000))
            return { "no connection", 0 };
        QElapsedTimer t;
        t.start();
        socket.write(bytes);
        QByteArray got;
        while (socket.state() == QAbstractSocket::ConnectedState && t.elapsed() < waitMs) {
            socket.waitForReadyRead(100);
            got += socket.readAll();
        }
        got += socket.readAll();
        return { socket.state() == QAbstractSocket::ConnectedState ? got + "\n(still open)" : got, t.elapsed() };
    }

    // RFC 9112 §6.3: a Content-Length that is not one decimal number leaves the request without a
    // length: 400, and the connection closed, so its body never runs as a request of its own.
    void invalidContentLengthClosesTheConnection_data()
    {
        QTest::addColumn<QByteArray>("length"); // N: the body's real length
        QTest::addRow("a list") << QByteArray("N, N");
        QTest::addRow("negative") << QByteArray("-N");
        QTest::addRow("20 digits") << QByteArray("18446744073709551616");
        QTest::addRow("hex") << QByteArray("0x2a");
        QTest::addRow("trailing junk") << QByteArray("Nabc");
    }

    void invalidContentLengthClosesTheConnection()
    {
        QFETCH(QByteArray, length);
        const QByteArray smuggled = "GET /v1/instances HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_viewer.toLatin1() + "\r\n\r\n";
        length.replace("N", QByteArray::number(smuggled.size()));
        const auto [got, ms] = untilClosed(m_engine->m_port,
                                           "POST /v1/generations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_operator.toLatin1()
                                               + "\r\nContent-Type: application/json\r\nContent-Length: " + length + "\r\n\r\n" + smuggled);
        QVERIFY2(got.startsWith("HTTP/1.1 400"), got.constData());
        QVERIFY2(!got.contains("still open"), got.constData());
        QVERIFY2(got.count("HTTP/1.1 ") == 1, got.constData()); // the hidden GET never answered
    }

    // RFC 9112 §9.3, §9.6: "Connection: close", or HTTP/1.0, ends the connection after the answer (not
    // after the idle timeout of 60 s); an HTTP/1.1 request without it keeps the connection.
    void connectionCloseAndHttp10EndTheConnection_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<bool>("closes");
        QTest::addRow("Connection: close") << QByteArray("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") << true;
        QTest::addRow("Connection: Keep-Alive, Close")
            << QByteArray("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: Keep-Alive, Close\r\n\r\n") << true;
        QTest::addRow("HTTP/1.0") << QByteArray("GET /healthz HTTP/1.0\r\n\r\n") << true;
        QTest::addRow("HTTP/1.1, refused") << QByteArray("GET /v1/instances HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") << true;
        QTest::addRow("HTTP/1.1 keep-alive") << QByteArray("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n") << false;
    }

    void connectionCloseAndHttp10EndTheConnection()
    {
        QFETCH(QByteArray, request);
        QFETCH(bool, closes);
        const auto [got, ms] = untilClosed(m_engine->m_port, request, closes ? 10'000 : 1500);
        QVERIFY2(got.startsWith("HTTP/1.1 200") || got.startsWith("HTTP/1.1 401"), got.constData());
        QCOMPARE(got.contains("still open"), !closes);
        if (closes) {
            QVERIFY2(got.contains("\r\nConnection: close\r\n"), got.constData());
            QVERIFY2(ms < 2000, qPrintable(QStringLiteral("closed after %1 ms").arg(ms)));
        }
    }

    // Two Authorization headers: 400 (which one a proxy in front checked is unknown), never "the
    // first wins". Over 100 header fields: 431 (the HTTP server's parser would keep none, and the
    // request would read as one without a token: 401).
    void ambiguousOrOverlongHeadsAreRefused()
    {
        const QByteArray two = rawExchange(m_engine->m_port,
                                           "GET /v1/instances HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_viewer.toLatin1()
                                               + "\r\nAuthorization: Bearer bp_someone-else\r\n\r\n");
        QVERIFY2(two.startsWith("HTTP/1.1 400") && two.contains("Authorization"), two.constData());
        QByteArray many = "GET /v1/instances HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_viewer.toLatin1() + "\r\n";
        for (int i = 0; i < 101; ++i)
            many += "X-Filler-" + QByteArray::number(i) + ": " + QByteArray::number(i) + "\r\n";
        const QByteArray tooMany = rawExchange(m_engine->m_port, many + "\r\n");
        QVERIFY2(tooMany.startsWith("HTTP/1.1 431"), tooMany.constData());
        // 100 fields in all are still a request.
        QByteArray enough = "GET /v1/instances HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_viewer.toLatin1() + "\r\n";
        for (int i = 0; i < 98; ++i)
            enough += "X-Filler-" + QByteArray::number(i) + ": " + QByteArray::number(i) + "\r\n";
        const QByteArray fine = rawExchange(m_engine->m_port, enough + "\r\n");
        QVERIFY2(fine.startsWith("HTTP/1.1 200"), fine.constData());
    }

    // Behind a load balancer the engine that ran a generation can go away while this client's stream,
    // on another engine, stays up: the balancer answers the result's GET with 502. That is asked again
    // (not a reason to reconnect); any other failed read that does reconnect really does, and the
    // client says "connected" again. (Before: a 502 set "reconnecting" while the stream stayed open,
    // no new stream was made, and a soak through HAProxy waited for ever.)
    void balancerLosingAnEngineIsAskedAgain_data()
    {
        QTest::addColumn<int>("firstStatus"); // what the first GET of the result gets
        QTest::addColumn<int>("streams"); // event streams the client opens in all
        QTest::addRow("502 from the balancer") << 502 << 1;
        QTest::addRow("504 from the balancer") << 504 << 1;
        QTest::addRow("500: reconnect, for real") << 500 << 2;
    }

    void balancerLosingAnEngineIsAskedAgain()
    {
        QFETCH(int, firstStatus);
        QFETCH(int, streams);
        GenerationResult done;
        done.generationId = QStringLiteral("gen_balanced");
        done.state = FinalState::Succeeded;
        const QByteArray result = QJsonDocument(done.toJson()).toJson(QJsonDocument::Compact);
        Event finished;
        finished.generationId = done.generationId;
        finished.body = GenerationFinished { FinalState::Succeeded, std::nullopt, std::nullopt, std::nullopt, QString(), false };
        QTcpServer fake;
        QVERIFY(fake.listen(QHostAddress::LocalHost));
        int resultAsks = 0, streamsOpened = 0;
        QPointer<QTcpSocket> stream;
        QObject::connect(&fake, &QTcpServer::newConnection, &fake, [&] {
            QTcpSocket *socket = fake.nextPendingConnection();
            QObject::connect(socket, &QTcpSocket::readyRead, socket, [&, socket] {
                const QByteArray request = socket->readAll();
                if (request.startsWith("GET /v1/config")) {
                    answerRaw(socket, 200, R"({"instance":"fake","version":"9"})");
                } else if (request.startsWith("POST /v1/generations")) {
                    answerRaw(socket, 202, R"({"generation_id":"gen_balanced"})");
                } else if (request.startsWith("GET /v1/generations/gen_balanced")) {
                    const bool first = resultAsks++ == 0;
                    answerRaw(socket, first ? firstStatus : 200, first ? QByteArray("{}") : result);
                } else if (request.startsWith("GET /v1/events")) {
                    ++streamsOpened;
                    stream = socket;
                    socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n: hello\n\n");
                }
            });
        });
        RemoteEngine engine(EngineEndpoint { QUrl(QStringLiteral("http://127.0.0.1:%1").arg(fake.serverPort())), "bp_fake" });
        QSignalSpy delivered(&engine, &EngineClient::finished);
        engine.connectToEngine();
        QTRY_VERIFY_WITH_TIMEOUT(engine.state() == RemoteEngine::State::Connected, 10'000);
        GenerationRequest request;
        request.story = QStringLiteral("A story.");
        request.generationId = done.generationId;
        engine.start(request);
        QTRY_COMPARE_WITH_TIMEOUT(engine.pendingSummary().startsWith(u"1 waiting for a result: 0 posting"), true, 10'000);
        // Its end, on the stream of an engine that did not run it; the result's GET then meets the balancer.
        QVERIFY(stream);
        stream->write("event: generation_finished\nid: 1\ndata: " + finished.compactJson() + "\n\n");
        QVERIFY(delivered.wait(10'000));
        QCOMPARE(delivered.constFirst().constFirst().value<GenerationResult>().state, FinalState::Succeeded);
        QCOMPARE(resultAsks, 2);
        QTRY_VERIFY_WITH_TIMEOUT(engine.state() == RemoteEngine::State::Connected, 10'000);
        QCOMPARE(streamsOpened, streams);
    }

    // An engine that answers the stream and drops it at once, again and again: the client backs off
    // (0.25 s doubling, each wait at least half of it), not back to 0.25 s on each answer, so its fifth
    // stream comes after at least 0.125 + 0.25 + 0.5 + 1 s (reset on each answer: within about 1 s).
    void droppedStreamBacksOff()
    {
        QTcpServer fake;
        QVERIFY(fake.listen(QHostAddress::LocalHost));
        int streams = 0;
        QObject::connect(&fake, &QTcpServer::newConnection, &fake, [&] {
            QTcpSocket *socket = fake.nextPendingConnection();
            QObject::connect(socket, &QTcpSocket::readyRead, socket, [&, socket] {
                const QByteArray request = socket->readAll();
                if (request.startsWith("GET /v1/config")) {
                    answerRaw(socket, 200, R"({"instance":"fake","version":"9"})");
                } else if (request.startsWith("GET /v1/events")) {
                    ++streams;
                    socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n: hello\n\n");
                    socket->disconnectFromHost();
                }
            });
        });
        RemoteEngine engine(EngineEndpoint { QUrl(QStringLiteral("http://127.0.0.1:%1").arg(fake.serverPort())), "bp_fake" });
        QElapsedTimer took;
        took.start();
        engine.connectToEngine();
        QTRY_VERIFY_WITH_TIMEOUT(streams >= 5, 20'000);
        QVERIFY2(took.elapsed() >= 1800, qPrintable(QString::number(took.elapsed())));
    }

    // The attach path against a hostile "engine": an event stream that is one endless data line. The
    // client gives up on it past 4 MiB, says why, and has read a bounded amount.
    void attachedClientCapsAnEndlessEvent()
    {
        QTcpServer fake;
        QVERIFY(fake.listen(QHostAddress::LocalHost));
        qint64 sent = 0;
        QObject::connect(&fake, &QTcpServer::newConnection, &fake, [&] {
            QTcpSocket *socket = fake.nextPendingConnection();
            QObject::connect(socket, &QTcpSocket::readyRead, socket, [&, socket] {
                const QByteArray request = socket->readAll();
                if (request.startsWith("GET /v1/config")) {
                    const QByteArray body = R"({"instance":"fake","version":"9"})";
                    socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size())
                                  + "\r\n\r\n" + body);
                    return;
                }
                if (!request.startsWith("GET /v1/events"))
                    return;
                socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: ");
                auto *pump = new QTimer(socket);
                QObject::connect(pump, &QTimer::timeout, socket, [&, socket] {
                    if (socket->state() != QAbstractSocket::ConnectedState || socket->bytesToWrite() > 1024 * 1024)
                        return;
                    socket->write(QByteArray(256 * 1024, 'x'));
                    sent += 256 * 1024;
                });
                pump->start(1);
            });
        });
        RemoteEngine engine(EngineEndpoint { QUrl(QStringLiteral("http://127.0.0.1:%1").arg(fake.serverPort())), "bp_fake" });
        engine.connectToEngine();
        QTRY_VERIFY_WITH_TIMEOUT(engine.describeState().contains(QStringLiteral("passed 4 MiB")), 20'000);
        QVERIFY2(sent < 16 * 1024 * 1024, qPrintable(QString::number(sent))); // read as it came, not buffered without end
    }

    // HTTP's own rules: a 405 says what is allowed; a 202 that made a resource says where it is.
    void methodsAndLocations()
    {
        // The methods of the path that was asked for, from the route table: not a blanket list.
        const Answer wrongMethod = call("DELETE", QStringLiteral("/v1/history"), m_viewer);
        QCOMPARE(wrongMethod.status, 405);
        QCOMPARE(wrongMethod.allow, QByteArray("GET"));
        const Answer postHistory = call("POST", QStringLiteral("/v1/history"), m_operator, "{}");
        QCOMPARE(postHistory.status, 405);
        QCOMPARE(postHistory.allow, QByteArray("GET"));
        const Answer getCancel = call("GET", QStringLiteral("/v1/generations/gen_x/cancel"), m_viewer);
        QCOMPARE(getCancel.status, 405);
        QCOMPARE(getCancel.allow, QByteArray("POST"));
        const Answer putComparisons = call("PUT", QStringLiteral("/v1/comparisons"), m_operator, "x");
        QCOMPARE(putComparisons.status, 405);
        QCOMPARE(putComparisons.allow, QByteArray("GET, POST"));
        QCOMPARE(call("GET", QStringLiteral("/v1/history/gen_x/nothing"), m_viewer).status, 404);
        QCOMPARE(call("GET", QStringLiteral("/v2/history"), m_viewer).status, 404);
        // A viewer's token reads; an operator's route refuses it, whatever the path's parameters.
        QCOMPARE(call("POST", QStringLiteral("/v1/providers/gemini/drain"), m_viewer, "{}").status, 403);
        QCOMPARE(call("POST", QStringLiteral("/v1/comparisons/cmp_x/cancel"), m_viewer, "{}").status, 403);
        const Answer metricsPut = call("PUT", QStringLiteral("/metrics"), m_viewer, "x");
        QCOMPARE(metricsPut.status, 405);
        QCOMPARE(metricsPut.allow, QByteArray("GET"));
        const Answer compared =
            call("POST", QStringLiteral("/v1/comparisons"), m_operator,
                 body({ { QStringLiteral("story"), QStringLiteral("A fox and a crow. The crow sings. The cheese falls. The fox eats.") },
                        { QStringLiteral("fallback"), QStringLiteral("qwen") } }));
        QCOMPARE(compared.status, 202);
        QCOMPARE(
            compared.location,
            QString(QStringLiteral("/v1/comparisons/") + compared.json().value(QLatin1StringView("comparison_id")).toString()).toLatin1());
        const Answer comparison = call("GET", QString::fromLatin1(compared.location), m_viewer);
        QCOMPARE(comparison.status, 200);
        QVERIFY2(!comparison.body.contains("image_path"), comparison.body.constData());
    }

    // Every read answers 200 for a finished generation (and tst_openapi checks each answer's shape
    // against docs/openapi.yaml).
    void everyReadIsAnswered()
    {
        const QString id = startGeneration(); // healthy: a failing primary here would count against its breaker in later cases
        QVERIFY(!id.isEmpty());
        QCOMPARE(waitForResult(id).status, 200);
        // The result is answered from memory at once; its row reaches the store a moment later (the
        // writer's batch; on PostgreSQL under load, tens of ms), and a replay's scenario reads the row.
        const auto storedState = [this, &id] {
            return call("GET", QStringLiteral("/v1/history/") + id, m_viewer)
                .json()
                .value(QLatin1StringView("generation"))
                .toObject()
                .value(QLatin1StringView("state"))
                .toString();
        };
        QTRY_COMPARE_WITH_TIMEOUT(storedState(), QStringLiteral("succeeded"), 10'000);
        const QString window = QStringLiteral("from_ms=%1&to_ms=%2")
                                   .arg(QDateTime::currentMSecsSinceEpoch() - 3'600'000)
                                   .arg(QDateTime::currentMSecsSinceEpoch() + 60'000);
        const QStringList reads {
            QStringLiteral("/v1/history?limit=5"),
            QStringLiteral("/v1/history/") + id,
            QStringLiteral("/v1/history/") + id + QStringLiteral("/scenario"),
            QStringLiteral("/v1/comparisons?limit=5"),
            QStringLiteral("/v1/stats/count?state=succeeded"),
            QStringLiteral("/v1/stats/counts?by=kind"),
            QStringLiteral("/v1/stats/fallback-rate?") + window + QStringLiteral("&bucket_ms=60000"),
            QStringLiteral("/v1/stats/fallback-wait-histogram?stage=storyboard&") + window + QStringLiteral("&bucket_ms=60000"),
            QStringLiteral("/v1/stats/fallback-waits?stage=storyboard&") + window,
            QStringLiteral("/v1/stats/health?") + window,
            QStringLiteral("/v1/stats/latency?provider=gemini&role=primary&stage=storyboard&") + window,
            QStringLiteral("/v1/stats/latency-histogram?provider=gemini&role=primary&stage=storyboard&") + window
                + QStringLiteral("&bucket_ms=60000"),
            QStringLiteral("/v1/stats/oldest"),
            QStringLiteral("/v1/stats/providers"),
            QStringLiteral("/v1/stats/spend?") + window,
            QStringLiteral("/v1/stats/tune?stage=storyboard&primary_timeouts_ms=10000,60000&") + window,
            QStringLiteral("/v1/config"),
            QStringLiteral("/v1/providers"),
            QStringLiteral("/v1/instances"),
        };
        for (const QString &path : reads) {
            const Answer a = call("GET", path, m_viewer);
            QVERIFY2(a.status == 200, qPrintable(path + QStringLiteral(": ") + QString::number(a.status) + QLatin1Char(' ') + a.message()));
        }
        // The tune's candidates are a grid: each primary timeout with each fallback timeout (today's 60 s /
        // 60 s among them), and a wrong list names its field.
        const Answer grid = call(
            "GET", QStringLiteral("/v1/stats/tune?primary_timeouts_ms=10000,60000&fallback_timeouts_ms=5000,60000&") + window, m_viewer);
        QCOMPARE(grid.status, 200);
        const QJsonArray predictions = grid.json().value(QLatin1StringView("predictions")).toArray();
        QCOMPARE(predictions.size(), 4);
        QCOMPARE(predictions.at(0).toObject().value(QLatin1StringView("fallback_timeout_ms")).toInteger(), 5000);
        QVERIFY(predictions.at(3).toObject().value(QLatin1StringView("today")).toBool());
        const Answer wrong = call("GET", QStringLiteral("/v1/stats/tune?fallback_timeouts_ms=5s&") + window, m_viewer);
        QCOMPARE(wrong.status, 400);
        QCOMPARE(wrong.errorField(), QStringLiteral("fallback_timeouts_ms"));
    }

    // The route table and docs/api.md agree both ways: every route is documented, and every endpoint the
    // document names is served.
    void everyRouteIsDocumented()
    {
        QTemporaryDir dir;
        SetupOptions o;
        o.forceSimulator = true;
        o.dataDir = dir.filePath(QStringLiteral("data"));
        o.keyFile = dir.filePath(QStringLiteral("none.env"));
        o.engineThreads = 1;
        EngineSetup setup;
        QVERIFY(setup.init(o));
        QString why;
        const std::unique_ptr<ApiTokens> tokens = ApiTokens::open(setup.store()->storeLocation(), &why);
        QVERIFY2(tokens, qPrintable(why));
        ServiceOptions options;
        options.port = 0;
        const EngineService service(setup, *tokens, options);
        const QStringList endpoints = service.endpoints();
        QVERIFY(endpoints.size() >= 20);

        QFile doc(QStringLiteral(BULLPEN_SOURCE_DIR "/docs/api.md"));
        QVERIFY(doc.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(doc.readAll());
        using Method = QHttpServerRequest::Method;
        RouteTable<int> served;
        for (const QString &e : endpoints) {
            const QString method = e.section(QLatin1Char(' '), 0, 0);
            const QString path = e.section(QLatin1Char(' '), 1);
            served.add(method == u"POST" ? Method::Post : Method::Get, path, RouteAccess::Public, 0);
            const QString documented = path + QLatin1Char('`');
            const bool found = text.contains(QLatin1Char('`') + method + QLatin1Char(' ') + documented)
                || text.contains(QLatin1Char('`') + method + QLatin1Char(' ') + path + QLatin1Char('?'))
                || text.contains(QLatin1Char('`') + method + QLatin1Char(' ') + path + QLatin1Char('['));
            QVERIFY2(found, qPrintable(e + QStringLiteral(" is served and not in docs/api.md")));
        }
        static const QRegularExpression named(QStringLiteral("`(GET|POST) (/[^`?\\[ ]*)"));
        int checked = 0;
        for (auto it = named.globalMatch(text); it.hasNext(); ++checked) {
            const QRegularExpressionMatch m = it.next();
            const auto match = served.match(m.captured(1) == u"POST" ? Method::Post : Method::Get,
                                            m.captured(2).split(QLatin1Char('/'), Qt::SkipEmptyParts));
            QVERIFY2(std::holds_alternative<RouteTable<int>::Found>(match),
                     qPrintable(m.captured(0).mid(1) + QStringLiteral(" is in docs/api.md and not served")));
        }
        QVERIFY(checked >= endpoints.size());
    }

    void revokedTokenIsRefusedAtOnce()
    {
        const QString temp = m_engine->token(QStringLiteral("temp"), QStringLiteral("viewer"));
        m_secrets << temp;
        QCOMPARE(call("GET", QStringLiteral("/v1/instances"), temp).status, 200);
        // One token holds at most a quarter of the stream slots (16 of 64) … (raw sockets: QNAM would
        // queue all but six of them)
        std::vector<std::unique_ptr<QTcpSocket>> streams;
        for (int i = 0; i < 16; ++i) {
            auto &socket = streams.emplace_back(std::make_unique<QTcpSocket>());
            socket->connectToHost(QHostAddress::LocalHost, m_engine->m_port);
            QVERIFY(socket->waitForConnected(5000));
            socket->write("GET /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + temp.toLatin1() + "\r\n\r\n");
            QByteArray got;
            QTRY_VERIFY_WITH_TIMEOUT((got += socket->readAll()).startsWith("HTTP/1.1 200"), 10'000);
        }
        const Answer seventeenth = call("GET", QStringLiteral("/v1/events"), temp);
        QCOMPARE(seventeenth.status, 429);
        QVERIFY2(seventeenth.body.contains("per token"), seventeenth.body.constData());
        SseStream other; // … and another token still gets one
        openStream(other, m_engine->url, m_viewer, {});
        QTRY_COMPARE_WITH_TIMEOUT(other.reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200, 10'000);
        QCOMPARE(m_engine->tokenCommand({ QStringLiteral("revoke"), QStringLiteral("temp") }), 0);
        // A revoked token's open streams end within a second of the revocation (the command has
        // returned: the store holds it), the check's tick included.
        QElapsedTimer closing;
        closing.start();
        QCOMPARE(call("GET", QStringLiteral("/v1/instances"), temp).status, 401);
        const auto allClosed = [&] {
            for (const auto &socket : streams) {
                socket->readAll();
                if (socket->state() == QAbstractSocket::ConnectedState)
                    return false;
            }
            return true;
        };
        QTRY_VERIFY_WITH_TIMEOUT(allClosed(), 5'000);
        QVERIFY2(closing.elapsed() < 1000, qPrintable(QString::number(closing.elapsed())));
        QVERIFY(other.reply->isRunning()); // not another token's
        other.reply->abort();
        QVERIFY(m_engine->tokenCommand({ QStringLiteral("revoke"), QStringLiteral("temp") }) != 0); // gone already
        QVERIFY(m_engine->token(QStringLiteral("temp"), QStringLiteral("viewer")).isEmpty()); // names are not reused
    }

    // The bound from the commit itself: each token is revoked here through the store (as `bullpen-engine
    // token revoke` does from another process), so the clock starts when the revocation is committed.
    // The engine checks on a tick; one observation says little about a tick between 1 and 2 s (its phase
    // may be kind), so four revocations are timed, each against its own stream.
    void revocationEndsStreamsWithinASecondOfTheCommit()
    {
        QString why;
        const std::unique_ptr<ApiTokens> tokens = ApiTokens::open(m_engine->store, &why);
        QVERIFY2(tokens, qPrintable(why));
        qint64 slowest = 0;
        for (int round = 0; round < 4; ++round) {
            const QString name = QStringLiteral("revoked-%1").arg(round);
            const QString token = m_engine->token(name, QStringLiteral("viewer"));
            QVERIFY(!token.isEmpty());
            m_secrets << token;
            QTcpSocket stream;
            stream.connectToHost(QHostAddress::LocalHost, m_engine->m_port);
            QVERIFY(stream.waitForConnected(5000));
            stream.write("GET /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + token.toLatin1() + "\r\n\r\n");
            QByteArray got;
            QTRY_VERIFY_WITH_TIMEOUT((got += stream.readAll()).startsWith("HTTP/1.1 200"), 10'000);
            QVERIFY2(tokens->revoke(name, &why), qPrintable(why));
            QElapsedTimer closing;
            closing.start();
            QTRY_VERIFY_WITH_TIMEOUT((stream.readAll(), stream.state() != QAbstractSocket::ConnectedState), 5'000);
            slowest = std::max(slowest, closing.elapsed());
        }
        QVERIFY2(slowest < 1000,
                 qPrintable(QStringLiteral("the slowest of 4 streams ended %1 ms after its token's revocation").arg(slowest)));
    }

    void badRequestsNameTheField_data()
    {
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("field");
        QTest::addRow("unknown field") << QByteArray(R"({"story":"s","user_id":"u","colour":"red"})") << 400 << QStringLiteral("colour");
        QTest::addRow("wrong type") << QByteArray(R"({"story":5,"user_id":"u"})") << 400 << QStringLiteral("story");
        QTest::addRow("blank user") << QByteArray(R"({"story":"s","user_id":""})") << 400 << QStringLiteral("user_id");
        QTest::addRow("timeout out of range") << QByteArray(R"({"story":"s","user_id":"u","timeouts":{"primary_ms":0}})") << 400
                                              << QStringLiteral("timeouts.primary_ms");
        QTest::addRow("not json") << QByteArray("story=s") << 400 << QString();
        QTest::addRow("unknown scenario") << QByteArray(R"({"story":"s","user_id":"u","scenario":"no-such-one"})") << 400
                                          << QStringLiteral("scenario");
        QTest::addRow("bad id") << QByteArray(R"({"story":"s","user_id":"u","generation_id":"../x"})") << 400
                                << QStringLiteral("generation_id");
        const QByteArray longStory = "{\"story\":\"" + QByteArray(40 * 1024, 'a') + "\",\"user_id\":\"u\"}";
        QTest::addRow("story over 32 KiB") << longStory << 413 << QStringLiteral("story");
        const QByteArray huge = "{\"story\":\"" + QByteArray(300 * 1024, 'a') + "\",\"user_id\":\"u\"}";
        QTest::addRow("body over 256 KiB") << huge << 413 << QString();
    }
    void badRequestsNameTheField()
    {
        QFETCH(QByteArray, payload);
        QFETCH(int, status);
        QFETCH(QString, field);
        const Answer a = call("POST", QStringLiteral("/v1/generations"), m_operator, payload);
        QCOMPARE(a.status, status);
        QCOMPARE(a.errorField(), field);
        QVERIFY(!a.message().isEmpty());
    }

    void oversizeHeadersAreRefused()
    {
        const Answer a = call("GET", QStringLiteral("/v1/config"), m_viewer, {}, { { "X-Padding", QByteArray(20 * 1024, 'p') } });
        QCOMPARE(a.status, 431);
    }

    void resultIs409WhileRunningThenTheCliShape()
    {
        const QString id = startGeneration(hang(800));
        QVERIFY(!id.isEmpty());
        const Answer running = call("GET", QStringLiteral("/v1/generations/") + id, m_viewer);
        QCOMPARE(running.status, 409);
        QCOMPARE(running.json().value(QLatin1StringView("state")).toString(), QStringLiteral("running"));
        const Answer done = waitForResult(id);
        QCOMPARE(done.status, 200);
        const QJsonObject r = done.json();
        QCOMPARE(r.value(QLatin1StringView("state")).toString(), QStringLiteral("succeeded"));
        QCOMPARE(r.value(QLatin1StringView("provider_fallback_applied")).toBool(), true);
        QCOMPARE(r.value(QLatin1StringView("provider_fallback_reason")).toString(), QStringLiteral("gemini_timeout"));
        QVERIFY(r.value(QLatin1StringView("attempts")).toArray().size() >= 4); // primary, fallback, captions, image
        // The same JSON reads back into the engine's own value (what RemoteEngine does).
        QString why;
        const auto back = GenerationResult::fromJson(r, &why);
        QVERIFY2(back, qPrintable(why));
        QVERIFY(back->storyboard.fallback.applied);
        QCOMPARE(call("GET", QStringLiteral("/v1/generations/gen_0123456789abcdef0123456789abcdef"), m_viewer).status, 404);
        // A client-chosen id that exists is refused.
        QCOMPARE(call("POST", QStringLiteral("/v1/generations"), m_operator,
                      body({ { QStringLiteral("story"), QStringLiteral("s") },
                             { QStringLiteral("user_id"), QStringLiteral("u") },
                             { QStringLiteral("generation_id"), id } }))
                     .status,
                 409);
    }

    void cancelIsIdempotent()
    {
        const QString id = startGeneration(hang(30000, 30000));
        QVERIFY(!id.isEmpty());
        QCOMPARE(call("POST", QStringLiteral("/v1/generations/%1/cancel").arg(id), m_operator, "{}").status, 202);
        const Answer done = waitForResult(id);
        QCOMPARE(done.status, 200);
        QCOMPARE(done.json().value(QLatin1StringView("state")).toString(), QStringLiteral("cancelled"));
        const Answer again = call("POST", QStringLiteral("/v1/generations/%1/cancel").arg(id), m_operator, "{}");
        QCOMPARE(again.status, 200);
        QCOMPARE(again.json().value(QLatin1StringView("cancelling")).toBool(true), false);
        QCOMPARE(call("POST", QStringLiteral("/v1/generations/gen_0123456789abcdef0123456789abcdef/cancel"), m_operator, "{}").status, 404);
    }

    // docs/contract.md §12.1: Last-Event-ID resumes without loss or repeats, compared with a subscriber that never
    // dropped.
    void eventStreamResumesWithoutLossOrRepeats()
    {
        SseStream steady, dropped;
        openStream(steady, m_engine->url, m_viewer, {});
        openStream(dropped, m_engine->url, m_viewer, {});
        const auto subscribed = [](const SseStream &s) {
            return s.reply && s.reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200;
        };
        QTRY_VERIFY_WITH_TIMEOUT(subscribed(steady) && subscribed(dropped), 10'000); // the engine wrote both streams' heads
        const QString first = startGeneration(hang(300));
        QTRY_VERIFY_WITH_TIMEOUT(dropped.ids.size() >= 3, 20000);
        dropped.reply->abort();
        const QByteArray lastSeen = dropped.ids.last().toLatin1();
        const QString second = startGeneration();
        QTRY_VERIFY_WITH_TIMEOUT(steady.types.count(QStringLiteral("generation_finished")) == 2, 30000);
        SseStream resumed;
        openStream(resumed, m_engine->url, m_viewer, lastSeen);
        QTRY_VERIFY_WITH_TIMEOUT(!resumed.ids.isEmpty() && resumed.ids.last() == steady.ids.last(), 20000);
        const QStringList joined = dropped.ids + resumed.ids;
        QCOMPARE(joined.size(), QSet<QString>(joined.begin(), joined.end()).size()); // nothing twice
        const qsizetype from = steady.ids.indexOf(dropped.ids.first());
        QVERIFY(from >= 0);
        QCOMPARE(joined, steady.ids.mid(from, joined.size())); // nothing lost, same order
        QCOMPARE(resumed.resets, 0);
        QVERIFY(!first.isEmpty() && !second.isEmpty());
        steady.reply->abort();
        resumed.reply->abort();
    }

    void foreignCursorGetsReset()
    {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, m_engine->m_port);
        QVERIFY(socket.waitForConnected(5000));
        socket.write("GET /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_viewer.toLatin1()
                     + "\r\nLast-Event-ID: 0badcafe-7\r\n\r\n");
        QByteArray got;
        QTRY_VERIFY_WITH_TIMEOUT((got += socket.readAll()).contains("event: reset"), 10000);
        QVERIFY(got.startsWith("HTTP/1.1 200"));
    }

    void remoteClientsSeeWhatTheEngineDid()
    {
        EngineEndpoint endpoint { m_engine->url, m_operator.toLatin1() };
        RemoteEngine engine(endpoint);
        QSignalSpy finished(&engine, &EngineClient::finished);
        QList<Event> events;
        connect(&engine, &EngineClient::eventRecorded, this, [&events](const Event &e) { events << e; });
        engine.connectToEngine();
        QTRY_COMPARE_WITH_TIMEOUT(engine.state(), RemoteEngine::State::Connected, 10000);
        GenerationRequest request;
        request.story = QStringLiteral("A dog finds a bone.");
        request.userId = QStringLiteral("bob");
        request.scenario.name = QStringLiteral("primary-overloaded");
        const QString id = engine.start(request);
        QCOMPARE(engine.activeCount(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        const auto result = finished.first().first().value<GenerationResult>();
        QCOMPARE(result.generationId, id);
        QCOMPARE(result.state, FinalState::Succeeded);
        QVERIFY(result.storyboard.fallback.applied);
        QCOMPARE(engine.activeCount(), 0);
        QStringList mine;
        for (const Event &e : std::as_const(events)) {
            if (e.generationId != id)
                continue;
            mine << e.type();
            if (const auto *g = std::get_if<GenerationStarted>(&e.body)) // the stream names the instance running it
                QCOMPARE(g->instance, QStringLiteral("test-main"));
        }
        QCOMPARE(mine.first(), QStringLiteral("generation_started"));
        QCOMPARE(mine.last(), QStringLiteral("generation_finished"));
        QVERIFY(mine.contains(QStringLiteral("storyboard_fallback_triggered")));
        QVERIFY(engine.describeState().contains(QLatin1StringView("test-main")));

        // The history, read remotely through the console's interface.
        RemoteHistory history(endpoint);
        QString why;
        QTRY_VERIFY_WITH_TIMEOUT(history.generation(id, &why).has_value(), 10000);
        const GenerationRow row = *history.generation(id, &why);
        QCOMPARE(row.state, QStringLiteral("succeeded"));
        QVERIFY(row.fallbackApplied);
        QVERIFY(!row.userMask.isEmpty() && row.userMask != u"bob"); // the mask, never the id
        QVERIFY(!row.imageSha256.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(!history.events(id, &why).isEmpty(), 10000);
        QVERIFY(!history.attempts(id, &why).isEmpty());
        // A detail pane's three questions about one generation are one request.
        const auto answered = [this] {
            const QByteArray m = call("GET", QStringLiteral("/metrics"), m_viewer).body;
            const QByteArray series = "bullpen_api_responses_total{status=\"200\"} ";
            const qsizetype at = m.indexOf(series) + series.size();
            return m.mid(at, m.indexOf('\n', at) - at).toLongLong();
        };
        QTest::qWait(1100); // past the reuse window
        const qint64 before = answered();
        QVERIFY(history.generation(id, &why) && !history.events(id, &why).isEmpty() && !history.attempts(id, &why).isEmpty());
        QCOMPARE(answered() - before, 2); // the first /metrics and one /v1/history/{id}
        HistoryFilter applied;
        applied.fallbackApplied = true;
        const QList<GenerationRow> rows = history.generations(applied, 1000, &why);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(!rows.isEmpty());
        for (const GenerationRow &r : rows)
            QVERIFY(r.fallbackApplied);
        QCOMPARE(history.count(applied, &why), rows.size());
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        QVERIFY(!history.latencySamples(Provider::Gemini, Role::Primary, now - 3600000, now + 1000, &why).isEmpty());
        QVERIFY(!history.fallbackWaits(Stage::Storyboard, now - 3600000, now + 1000, &why).isEmpty());
        QVERIFY(!history.countBy(HistoryGroup::State, {}, &why).isEmpty());
        QVERIFY(history.oldestGenerationMs(&why).has_value());
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(history.generation(QStringLiteral("gen_0123456789abcdef0123456789abcdef"), &why) == std::nullopt);
        QVERIFY(why.isEmpty()); // not found is not an error

        // A refused token says so, and does not retry.
        RemoteEngine refused(EngineEndpoint { m_engine->url, "bp_wrong" });
        refused.connectToEngine();
        QTRY_COMPARE_WITH_TIMEOUT(refused.state(), RemoteEngine::State::Refused, 10000);
    }

    // docs/contract.md §12 for the CLI: generate, history, compare and export on the engine, same output as embedded.
    void cliDrivesTheEngine()
    {
        const auto cli = [this](const QStringList &args, const QString &token, QByteArray *outText = nullptr) {
            QProcess p;
            QProcessEnvironment env = m_engine->environment();
            if (!token.isEmpty())
                env.insert(QStringLiteral("BULLPEN_ENGINE_TOKEN"), token);
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(BULLPEN_CLI), QStringList(args) << QStringLiteral("--engine") << m_engine->url.toString());
            if (!p.waitForFinished(60000))
                return -1;
            if (outText)
                *outText = p.readAllStandardOutput() + p.readAllStandardError();
            return p.exitCode();
        };
        QByteArray text;
        QCOMPARE(
            cli({ QStringLiteral("generate"), QStringLiteral("--story"), QStringLiteral("A fox and a crow."), QStringLiteral("--user"),
                  QStringLiteral("carol"), QStringLiteral("--scenario"), QStringLiteral("primary-overloaded"), QStringLiteral("--json") },
                m_operator, &text),
            0);
        const QJsonObject g = QJsonDocument::fromJson(text.left(text.lastIndexOf('}') + 1)).object();
        QCOMPARE(g.value(QLatin1StringView("state")).toString(), QStringLiteral("succeeded"));
        QVERIFY(g.value(QLatin1StringView("provider_fallback_applied")).toBool());
        QVERIFY(g.value(QLatin1StringView("events")).toArray().size() >= 6);
        QCOMPARE(g.value(QLatin1StringView("instance")).toString(), QStringLiteral("test-main"));
        const QString id = g.value(QLatin1StringView("generation_id")).toString();
        QVERIFY(!text.contains("carol"));

        QCOMPARE(
            cli({ QStringLiteral("history"), QStringLiteral("--limit"), QStringLiteral("5"), QStringLiteral("--json") }, m_viewer, &text),
            0);
        QVERIFY2(text.contains(id.toLatin1()), text.constData());
        QCOMPARE(cli({ QStringLiteral("export"), QStringLiteral("--since"), QStringLiteral("1h"), QStringLiteral("--format"),
                       QStringLiteral("jsonl") },
                     m_viewer, &text),
                 0);
        QVERIFY(text.contains(id.toLatin1()));
        QCOMPARE(cli({ QStringLiteral("compare"), QStringLiteral("--story"),
                       QStringLiteral("A fox and a crow. The crow sings. The cheese falls. The fox eats."), QStringLiteral("--json") },
                     m_operator, &text),
                 0);
        const QString comparison =
            QJsonDocument::fromJson(text.left(text.lastIndexOf('}') + 1)).object().value(QLatin1StringView("comparison_id")).toString();
        QVERIFY2(comparison.startsWith(QLatin1StringView("cmp_")), text.constData());
        QCOMPARE(call("GET", QStringLiteral("/v1/comparisons/") + comparison, m_viewer).status, 200); // kept by the engine

        // Without a token: refused before anything is sent, saying where the token goes.
        QCOMPARE(cli({ QStringLiteral("history") }, {}, &text), 2);
        QVERIFY(text.contains("BULLPEN_ENGINE_TOKEN"));
        // A viewer cannot start one: the engine's 403 is named as the refusal it is (usage, exit 2),
        // never as a fault in Bullpen.
        QCOMPARE(cli({ QStringLiteral("generate"), QStringLiteral("--story"), QStringLiteral("x") }, m_viewer, &text), 2);
        QVERIFY2(text.contains("viewer") && text.contains("HTTP 403") && text.contains("operator role"), text.constData());
        QVERIFY2(!text.contains("INTERNAL_ERROR") && !text.contains("report it"), text.constData());
    }

    // `soak --engine`: the load test of a running engine, judged by its events, its results, its history
    // and its simulator's request counts. A low rate makes the engine answer 429: each is honoured and
    // its generation sent again, so every slot runs and every invariant still holds.
    // The log sink masks what the process knows to be secret, and anything shaped like a key or token,
    // in the message and in every field; text format keeps the message as it is, fields after it.
    void logSinkMasksSecrets()
    {
        logging::addSecret(QStringLiteral("plain-secret-value-1234"));
        const QString message =
            QStringLiteral("provider said: key plain-secret-value-1234 is invalid; also AIzaSyD0123456789abcdefghijklmnop and "
                           "Bearer bp_abcdefghijklmnopqrstuvwxyz\nand a second line");
        const QByteArray line = logging::format(QtWarningMsg, "bullpen.test", message, 0);
        QVERIFY2(!line.contains("plain-secret-value-1234") && !line.contains("AIzaSyD0123456789") && !line.contains("bp_abcdefghij"),
                 line.constData());
        QVERIFY2(line.contains("provider said"), line.constData());
        QVERIFY(line.endsWith('\n') && line.count('\n') == 1); // one line, whatever the message held
    }

    // Structured logs (docs/contract.md 12.4): one JSON object per line with its keys, a line per
    // generation that was not a plain success, and nothing secret or personal anywhere in the log,
    // even from a provider that quotes the key back.
    void logLinesAreJsonWithNothingSecretOrPersonal()
    {
        Engine engine(m_dir.filePath(QStringLiteral("logs")));
        const QString token = engine.token(QStringLiteral("ops"), QStringLiteral("operator"));
        QVERIFY(!token.isEmpty());
        QVERIFY(engine.start(
            { QStringLiteral("--instance"), QStringLiteral("log-test"), QStringLiteral("--log-level"), QStringLiteral("debug") }));
        const QString user = QStringLiteral("quintessa.private@example.org");
        const QString story = QStringLiteral("Quintessa the zebra paints her stripes purple before the moonlit parade.");
        QStringList ids;
        for (const char *scenario : { "healthy", "primary-overloaded", "primary-auth-echo", "both-down" }) {
            QNetworkRequest r(engine.url.resolved(QUrl(QStringLiteral("/v1/generations"))));
            r.setRawHeader("Authorization", "Bearer " + token.toLatin1());
            r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
            QNetworkReply *reply = m_network.post(r,
                                                  body({ { QStringLiteral("story"), story },
                                                         { QStringLiteral("user_id"), user },
                                                         { QStringLiteral("fresh"), true },
                                                         { QStringLiteral("scenario"), QLatin1StringView(scenario) } }));
            QSignalSpy done(reply, &QNetworkReply::finished);
            QVERIFY(reply->isFinished() || done.wait(10000));
            QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 202);
            ids << QJsonDocument::fromJson(reply->readAll()).object().value(QLatin1StringView("generation_id")).toString();
            reply->deleteLater();
        }
        // Until each has its line (the engine logs a generation when it finishes).
        QTRY_VERIFY_WITH_TIMEOUT(
            std::all_of(ids.cbegin(), ids.cend(), [&](const QString &id) { return engine.stderrText().contains(id.toLatin1()); }), 30000);
        engine.stop();
        const QByteArray log = engine.stderrText();
        int generationLines = 0;
        QSet<QString> states;
        for (const QByteArray &line : log.split('\n')) {
            if (line.isEmpty())
                continue;
            QJsonParseError error {};
            const QJsonObject o = QJsonDocument::fromJson(line, &error).object();
            QVERIFY2(error.error == QJsonParseError::NoError && !o.isEmpty(), line.constData());
            for (const char *key : { "time", "level", "program", "category", "message" })
                QVERIFY2(o.contains(QLatin1StringView(key)), line.constData());
            QCOMPARE(o.value(QLatin1StringView("program")).toString(), QStringLiteral("bullpen-engine"));
            if (o.value(QLatin1StringView("category")).toString() == u"bullpen.generation") {
                ++generationLines;
                QCOMPARE(o.value(QLatin1StringView("instance")).toString(), QStringLiteral("log-test"));
                QVERIFY2(ids.contains(o.value(QLatin1StringView("generation_id")).toString()), line.constData());
                states << o.value(QLatin1StringView("state")).toString() + QLatin1Char('/') + o.value(QLatin1StringView("kind")).toString();
            }
        }
        QCOMPARE(generationLines, ids.size());
        QVERIFY2(states.contains(QStringLiteral("failed/AUTH_CONFIG")), qPrintable(QStringList(states.values()).join(u' ')));
        QVERIFY2(!log.contains(user.toUtf8()) && !log.contains("quintessa"), "a raw user id reached the log");
        QVERIFY2(!log.contains("moonlit") && !log.contains("Quintessa"), "story text reached the log");
        QVERIFY2(!log.contains(token.toLatin1()), "the API token reached the log");
        static const QRegularExpression simulatorKey(QStringLiteral("sim-[A-Za-z0-9_-]{16,}"));
        QVERIFY2(!simulatorKey.match(QString::fromUtf8(log)).hasMatch(), "the provider key reached the log");
    }

    void soakLoadTestsTheEngine()
    {
        Engine engine(m_dir.filePath(QStringLiteral("soak")));
        const QString token = engine.token(QStringLiteral("soak"), QStringLiteral("operator"));
        QVERIFY(!token.isEmpty());
        QVERIFY(engine.start({ QStringLiteral("--rate"), QStringLiteral("10") })); // a burst of 20, then 10 a second
        QProcess soak;
        QProcessEnvironment env = engine.environment();
        env.insert(QStringLiteral("BULLPEN_ENGINE_TOKEN"), token);
        soak.setProcessEnvironment(env);
        soak.start(QStringLiteral(BULLPEN_CLI),
                   { QStringLiteral("soak"), QStringLiteral("--engine"), engine.url.toString(), QStringLiteral("--count"),
                     QStringLiteral("30"), QStringLiteral("--concurrency"), QStringLiteral("30"), QStringLiteral("--scenario-mix"),
                     QStringLiteral("healthy,primary-overloaded,primary-hang"), QStringLiteral("--primary-timeout"),
                     QStringLiteral("300ms"), QStringLiteral("--fallback-timeout"), QStringLiteral("2s"), QStringLiteral("--json") });
        QVERIFY(soak.waitForFinished(120'000));
        const QByteArray errText = soak.readAllStandardError();
        const QByteArray outText = soak.readAllStandardOutput();
        const QJsonObject summary = QJsonDocument::fromJson(outText).object();
        QVERIFY2(!summary.isEmpty(), QByteArray(errText + outText).constData());
        QCOMPARE(summary.value(QLatin1StringView("generations")).toInt(), 30);
        const QJsonObject ran = summary.value(QLatin1StringView("engine")).toObject();
        QCOMPARE(ran.value(QLatin1StringView("admitted")).toInt(), 30);
        QCOMPARE(ran.value(QLatin1StringView("history_checked")).toInt(), 30);
        QVERIFY2(ran.value(QLatin1StringView("refused_429")).toInt() > 0, errText.constData()); // the rate was met, and honoured
        QVERIFY(ran.value(QLatin1StringView("history_attempts")).toInt() >= 30 * 3); // storyboard, captions, image at least
        // Invariants 1 and 12 were judged on the simulator's own counts (the run had the engine to itself).
        QVERIFY2(!errText.contains("judged by each attempt's own count only"), errText.constData());
        const QJsonObject outcomes = summary.value(QLatin1StringView("outcomes")).toObject();
        QCOMPARE(outcomes.keys(),
                 (QStringList { QStringLiteral("healthy"), QStringLiteral("primary-hang"), QStringLiteral("primary-overloaded") }));
        // Every check must pass except the two timing ones (2 and 5): those are figures of a release build
        // on an idle machine (the soak in .ci/run and the benchmarks judge them), and this test runs a debug
        // build beside other tests. They are still measured, and the exit code follows them. 3 (no result
        // accepted after its deadline) is asserted: the ledger judges it, as the engine does, by when the
        // answer's last byte arrived (answer_complete_at_ms), not by when its record was made after parsing.
        bool timingFailed = false;
        for (const QString &key : { QStringLiteral("invariants"), QStringLiteral("service_checks") }) {
            const QJsonArray checks = summary.value(key).toArray();
            QVERIFY(!checks.isEmpty());
            for (const QJsonValue &v : checks) {
                const QJsonObject c = v.toObject();
                const int number = c.value(QLatin1StringView("number")).toInt(-1);
                const bool pass = c.value(QLatin1StringView("pass")).toBool();
                if (key == QLatin1StringView("invariants") && (number == 2 || number == 5))
                    timingFailed = timingFailed || !pass;
                else
                    QVERIFY2(pass, QJsonDocument(c).toJson().constData());
            }
        }
        QVERIFY(summary.contains(QLatin1StringView("deadline_overrun_p99_ms"))
                && summary.contains(QLatin1StringView("budget_overrun_max_ms")));
        QCOMPARE(soak.exitCode(), timingFailed ? 1 : 0);
        // 2 and 5 asserted where they mean something on this build: a deadline or a budget overrun by a
        // third of the primary's 300 ms timeout is one not kept, however loaded the machine (the 5 ms
        // of the contract is the release soak's and bench_engine's to judge).
        constexpr double kKeptMs = 300.0 / 3;
        const double deadlineOverrun = summary.value(QLatin1StringView("deadline_overrun_p99_ms")).toDouble(-1);
        const double budgetOverrun = summary.value(QLatin1StringView("budget_overrun_max_ms")).toDouble(-1);
        QVERIFY2(deadlineOverrun >= 0 && deadlineOverrun <= kKeptMs, outText.constData());
        QVERIFY2(budgetOverrun >= 0 && budgetOverrun <= kKeptMs, outText.constData());
        if (timingFailed)
            qInfo("soak --engine: a timing invariant missed its 5 ms on this loaded debug build (p99 deadline overrun %.1f ms, "
                  "budget overrun max %.1f ms; both within %.0f ms)",
                  deadlineOverrun, budgetOverrun, kKeptMs);
        // The engine's metrics say what the simulator received: one request per attempt. (The soak has
        // just spent this token's rate: a 429 is asked again.)
        const auto readMetrics = [&] {
            QNetworkAccessManager network;
            QNetworkRequest get(engine.url.resolved(QUrl(QStringLiteral("/metrics"))));
            get.setRawHeader("Authorization", "Bearer " + token.toLatin1());
            QNetworkReply *reply = network.get(get);
            QSignalSpy done(reply, &QNetworkReply::finished);
            done.wait(10'000);
            reply->deleteLater();
            return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200 ? reply->readAll() : QByteArray();
        };
        QByteArray metrics = readMetrics();
        for (int tries = 0; metrics.isEmpty() && tries < 20; ++tries) {
            QTest::qWait(500); // the token's rate refills: 10 a second
            metrics = readMetrics();
        }
        QVERIFY(!metrics.isEmpty());
        qint64 requests = 0;
        for (const QByteArray &line : metrics.split('\n')) {
            if (line.startsWith("bullpen_simulator_requests_total{"))
                requests += line.mid(line.lastIndexOf(' ') + 1).toLongLong();
        }
        QCOMPARE(requests, static_cast<qint64>(ran.value(QLatin1StringView("history_attempts")).toInt()));

        // Scenarios exist only on the simulator's engine, and a local-only flag is refused with --engine.
        QProcess refused;
        refused.setProcessEnvironment(env);
        refused.start(QStringLiteral(BULLPEN_CLI),
                      { QStringLiteral("soak"), QStringLiteral("--engine"), engine.url.toString(), QStringLiteral("--no-store") });
        QVERIFY(refused.waitForFinished(30'000));
        QCOMPARE(refused.exitCode(), 2);
        QVERIFY(refused.readAllStandardError().contains("--no-store is for the embedded engine"));
    }

    // --tls-cert/--tls-key: the same API over HTTPS, the event stream included; a client trusts the
    // engine's private CA through BULLPEN_ENGINE_CA; nothing is served in clear on that port; the byte
    // cap counts what arrives through TLS; a private key others may read is refused at start.
    void tlsServesTheSameApi()
    {
        const QString cert = QFINDTESTDATA("../data/tls/engine.pem");
        const QString ca = QFINDTESTDATA("../data/tls/ca.pem");
        const QString keySource = QFINDTESTDATA("../data/tls/engine.key");
        QVERIFY(!cert.isEmpty() && !ca.isEmpty() && !keySource.isEmpty());
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("tls-files"))));
        const QString key = m_dir.filePath(QStringLiteral("tls-files/engine.key"));
        const QString openKey = m_dir.filePath(QStringLiteral("tls-files/open.key"));
        QVERIFY(QFile::copy(keySource, key) && QFile::copy(keySource, openKey));
        QVERIFY(QFile::setPermissions(key, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        QVERIFY(QFile::setPermissions(openKey,
                                      QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));

        Engine careless(m_dir.filePath(QStringLiteral("tls-careless")));
        QVERIFY(!careless.start({ QStringLiteral("--tls-cert"), cert, QStringLiteral("--tls-key"), openKey }));
        QVERIFY2(careless.stderrText().contains("chmod 600"), careless.stderrText().constData());

        Engine engine(m_dir.filePath(QStringLiteral("tls")));
        const QString token = engine.token(QStringLiteral("tls"), QStringLiteral("operator"));
        QVERIFY(!token.isEmpty());
        QVERIFY(engine.start({ QStringLiteral("--tls-cert"), cert, QStringLiteral("--tls-key"), key }));
        QCOMPARE(engine.url.scheme(), QStringLiteral("https"));

        EngineEndpoint endpoint { engine.url, token.toLatin1() };
        endpoint.trusted = QSslCertificate::fromPath(ca);
        QCOMPARE(endpoint.trusted.size(), 1);
        RemoteHistory reader(endpoint);
        QString why;
        const auto config = reader.getObject(QStringLiteral("/v1/config"), {}, &why);
        QVERIFY2(config, qPrintable(why));
        QCOMPARE(config->value(QLatin1StringView("tls")).toObject().value(QLatin1StringView("subject")).toString(),
                 QStringLiteral("127.0.0.1"));

        // A generation through RemoteEngine: its events over the TLS event stream, then its result.
        RemoteEngine client(endpoint);
        QSignalSpy finished(&client, &EngineClient::finished);
        QStringList types;
        connect(&client, &EngineClient::eventRecorded, this, [&types](const Event &e) { types << e.type(); });
        client.connectToEngine();
        QTRY_COMPARE_WITH_TIMEOUT(client.state(), RemoteEngine::State::Connected, 10000);
        GenerationRequest request;
        request.story = QStringLiteral("A heron waits. A fish passes. \"Not today,\" says the heron. The pond is still.");
        request.scenario.name = QStringLiteral("primary-overloaded");
        client.start(request);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QCOMPARE(finished.first().first().value<GenerationResult>().state, FinalState::Succeeded);
        QVERIFY(types.contains(QStringLiteral("storyboard_fallback_triggered")));
        QCOMPARE(types.last(), QStringLiteral("generation_finished"));

        // Without the CA the certificate is refused, and the message says where a CA goes.
        RemoteHistory stranger(EngineEndpoint { engine.url, token.toLatin1() });
        QVERIFY(!stranger.getObject(QStringLiteral("/v1/config"), {}, &why));
        QVERIFY2(why.contains(QLatin1StringView("BULLPEN_ENGINE_CA")), qPrintable(why));

        // Plain HTTP to the TLS port: closed without an answer.
        QTcpSocket plain;
        plain.connectToHost(QHostAddress::LocalHost, engine.m_port);
        QVERIFY(plain.waitForConnected(5000));
        plain.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        QVERIFY(plain.state() == QAbstractSocket::UnconnectedState || plain.waitForDisconnected(10000));
        QVERIFY(!plain.readAll().contains("HTTP/1.1"));

        // The cap counts the decrypted bytes as they arrive: a body that keeps coming is answered 413.
        QSslSocket tls;
        QSslConfiguration trust = QSslConfiguration::defaultConfiguration();
        trust.addCaCertificates(endpoint.trusted);
        tls.setSslConfiguration(trust);
        tls.connectToHostEncrypted(QStringLiteral("127.0.0.1"), engine.m_port);
        QVERIFY2(tls.waitForEncrypted(10000), qPrintable(tls.errorString()));
        tls.write("POST /v1/generations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token.toLatin1()
                  + "\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n{\"story\":\"");
        QByteArray answer;
        for (int i = 0; i < 64 && !answer.contains("413") && tls.state() == QAbstractSocket::ConnectedState; ++i) {
            tls.write(QByteArray(16 * 1024, 'a'));
            tls.waitForBytesWritten(1000);
            if (tls.waitForReadyRead(20))
                answer += tls.readAll();
        }
        if (!answer.contains("413") && tls.waitForReadyRead(5000))
            answer += tls.readAll();
        QVERIFY2(answer.startsWith("HTTP/1.1 413"), answer.left(200).constData());

        // The CLI trusts the CA named by BULLPEN_ENGINE_CA.
        QProcess cli;
        QProcessEnvironment env = engine.environment();
        env.insert(QStringLiteral("BULLPEN_ENGINE_TOKEN"), token);
        env.insert(QStringLiteral("BULLPEN_ENGINE_CA"), ca);
        cli.setProcessEnvironment(env);
        cli.start(QStringLiteral(BULLPEN_CLI),
                  { QStringLiteral("history"), QStringLiteral("--json"), QStringLiteral("--engine"), engine.url.toString() });
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        QCOMPARE(QJsonDocument::fromJson(cli.readAllStandardOutput()).array().size(), 1);
    }

    void metricsConfigAndInstances()
    {
        const Answer m = call("GET", QStringLiteral("/metrics"), m_viewer);
        QCOMPARE(m.status, 200);
        QVERIFY(m.body.contains("bullpen_attempts_total{stage=\"storyboard\",provider=\"gemini\",role=\"primary\",result=\"TIMEOUT\"}"));
        QVERIFY(m.body.contains("bullpen_fallbacks_total{stage=\"storyboard\",from=\"gemini\",to=\"qwen\",kind=\"TIMEOUT\"}"));
        QVERIFY(m.body.contains("bullpen_attempt_duration_seconds_bucket{"));
        QVERIFY(m.body.contains("bullpen_generations_in_flight "));
        // The store's writer catches up: nothing left between handed over and written.
        QTRY_VERIFY_WITH_TIMEOUT(call("GET", QStringLiteral("/metrics"), m_viewer).body.contains("\nbullpen_store_write_backlog 0\n"),
                                 10000);
        const QJsonObject config = call("GET", QStringLiteral("/v1/config"), m_viewer).json();
        QCOMPARE(config.value(QLatin1StringView("instance")).toString(), QStringLiteral("test-main"));
        // This suite's backend (tst_engineservice_postgres runs it on PostgreSQL), named without a password.
        const QJsonObject store = config.value(QLatin1StringView("store")).toObject();
        QCOMPARE(store.value(QLatin1StringView("backend")).toString(),
                 TestStore::postgres() ? QStringLiteral("postgresql") : QStringLiteral("sqlite"));
        QVERIFY(store.value(QLatin1StringView("location")).isNull()); // where it is: an operator's to know
        const QJsonObject operatorStore =
            call("GET", QStringLiteral("/v1/config"), m_operator).json().value(QLatin1StringView("store")).toObject();
        QCOMPARE(operatorStore.value(QLatin1StringView("location")).toString(), m_engine->store.display());
        QVERIFY(config.value(QLatin1StringView("simulator")).toBool());
        QVERIFY(config.value(QLatin1StringView("scenarios")).toArray().contains(QStringLiteral("primary-hang")));
        // On the simulator the providers' key is the simulator's per-run secret: not a character of it.
        const QJsonObject gemini = config.value(QLatin1StringView("keys")).toObject().value(QLatin1StringView("gemini")).toObject();
        QCOMPARE(gemini.value(QLatin1StringView("source")).toString(), QStringLiteral("simulator"));
        QVERIFY(gemini.value(QLatin1StringView("last4")).isNull());
        // The endpoint in use (here the simulator's), not the registry's public one.
        for (const QJsonValue p : config.value(QLatin1StringView("providers")).toArray()) {
            const QUrl used(p.toObject().value(QLatin1StringView("base_url")).toString());
            QVERIFY2(QHostAddress(used.host()).isLoopback(), qPrintable(used.toString()));
        }
        QCOMPARE(config.value(QLatin1StringView("warnings")).toArray(), QJsonArray {}); // the simulator's keys stay on this machine
        const QJsonArray instances =
            call("GET", QStringLiteral("/v1/instances"), m_viewer).json().value(QLatin1StringView("instances")).toArray();
        QCOMPARE(instances.size(), 1);
        QCOMPARE(instances.first().toObject().value(QLatin1StringView("name")).toString(), QStringLiteral("test-main"));
        const QJsonObject providers = call("GET", QStringLiteral("/v1/stats/providers"), m_viewer).json();
        QVERIFY(providers.value(QLatin1StringView("last_15m"))
                    .toObject()
                    .value(QLatin1StringView("gemini"))
                    .toObject()
                    .value(QLatin1StringView("attempts"))
                    .toInt()
                > 0);
        QCOMPARE(call("GET", QStringLiteral("/v1/history?kind=NOPE"), m_viewer).errorField(), QStringLiteral("kind"));
        QCOMPARE(call("GET", QStringLiteral("/v1/history?limit=501"), m_viewer).errorField(), QStringLiteral("limit"));
        QCOMPARE(call("GET", QStringLiteral("/v1/history?colour=red"), m_viewer).errorField(), QStringLiteral("colour"));
        QCOMPARE(call("GET", QStringLiteral("/v1/images/notahash"), m_viewer).status, 400);
    }

    // Prometheus' own checker accepts the page, with the breaker series and build_info in it (the
    // shipped alerting rules read them; tst_alert_rules tests the rules).
    void metricsPassPromtool()
    {
        const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
        QVERIFY2(!promtool.isEmpty(), "promtool is not installed (apt-get install prometheus; scripts/install-deps.sh does)");
        QCOMPARE(waitForResult(startGeneration(hang(300))).status, 200); // a fallback: every family has a series
        const QByteArray page = call("GET", QStringLiteral("/metrics"), m_viewer).body;
        QVERIFY(page.contains("bullpen_build_info{version=\""));
        QVERIFY(page.contains("bullpen_breaker_state{provider=\"gemini\",role=\"primary\",stage=\"storyboard\"}"));
        // What the fallback's answer cost (the primary hung: its cost is unknown and adds nothing).
        QVERIFY(page.contains("bullpen_spend_total{provider=\"qwen\",stage=\"storyboard\",role=\"fallback\",currency=\"USD\"} "));
        // Every final state's series from 0; comic files apart from rows; the process collector's names.
        for (const char *state : { "succeeded", "failed", "cancelled", "abandoned" })
            QVERIFY2(page.contains(QByteArray(QByteArray("bullpen_generations_finished_total{state=\"") + state + "\"} ")), state);
        QVERIFY(page.contains("\nbullpen_store_purged_files_total "));
        QVERIFY(!page.contains("image_files"));
        const auto value = [&page](const QByteArray &name) {
            const qsizetype at = page.indexOf(QByteArray('\n' + name + ' '));
            return at < 0 ? -1.0 : page.mid(at + name.size() + 2, page.indexOf('\n', at + 1) - at - name.size() - 2).toDouble();
        };
        QVERIFY(value("process_resident_memory_bytes") > 1e6);
        QVERIFY(value("process_virtual_memory_bytes") >= value("process_resident_memory_bytes"));
        QVERIFY(value("process_cpu_seconds_total") > 0);
        QVERIFY(value("process_open_fds") > 3);
        QVERIFY(value("process_max_fds") >= value("process_open_fds"));
        const double started = value("process_start_time_seconds"), now = QDateTime::currentSecsSinceEpoch();
        QVERIFY2(started > now - 3600 && started <= now + 1,
                 qPrintable(QString::number(now - started))); // the engine started with this suite
        QProcess check;
        check.start(promtool, { QStringLiteral("check"), QStringLiteral("metrics") });
        QVERIFY(check.waitForStarted(10'000));
        check.write(page);
        check.closeWriteChannel();
        QVERIFY(check.waitForFinished(30'000));
        QVERIFY2(check.exitCode() == 0, QByteArray(check.readAllStandardOutput() + check.readAllStandardError()).constData());
    }

    void limitsAnswerWithTheirStatusAndMessage()
    {
        Engine tight(m_dir.filePath(QStringLiteral("tight")));
        const QString token = tight.token(QStringLiteral("ops"), QStringLiteral("operator"));
        m_secrets << token;
        QVERIFY(tight.start({ QStringLiteral("--drain"), QStringLiteral("1s"), QStringLiteral("--max-in-flight"), QStringLiteral("2"),
                              QStringLiteral("--rate"), QStringLiteral("4"), QStringLiteral("--max-subscribers"), QStringLiteral("1") }));
        const QByteArray hanging = body({ { QStringLiteral("story"), QStringLiteral("s") },
                                          { QStringLiteral("user_id"), QStringLiteral("u") },
                                          { QStringLiteral("scenario"), QStringLiteral("primary-hang") },
                                          { QStringLiteral("timeouts"), QJsonObject { { QStringLiteral("primary_ms"), 20000 } } } });
        QCOMPARE(call("POST", QStringLiteral("/v1/generations"), token, hanging, {}, tight.url).status, 202);
        QCOMPARE(call("POST", QStringLiteral("/v1/generations"), token, hanging, {}, tight.url).status, 202);
        const Answer full = call("POST", QStringLiteral("/v1/generations"), token, hanging, {}, tight.url);
        QCOMPARE(full.status, 429);
        QCOMPARE(full.retryAfter, QByteArray("1"));
        QVERIFY(full.message().contains(QLatin1StringView("in flight")));

        // Burst of 8 (twice the rate): the ninth quick request is refused, with when to come back.
        int refused = 0;
        QByteArray retryAfter;
        for (int i = 0; i < 12; ++i) {
            const Answer a = call("GET", QStringLiteral("/v1/instances"), token, {}, {}, tight.url);
            if (a.status == 429) {
                ++refused;
                retryAfter = a.retryAfter;
            }
        }
        QVERIFY(refused >= 1);
        QVERIFY(retryAfter.toInt() >= 1);
        tight.stop(); // SIGTERM: the two hanging generations are cancelled after the drain time
        QCOMPARE(tight.m_process.exitCode(), 0);
    }

    // Event stream slots (docs/api.md, "Events"): viewers' streams may not take the quarter kept for
    // operators, so viewer tokens filling every slot they may take leave an operator able to open a
    // stream and start a generation with the CLI (which opens its stream before it POSTs).
    void viewersCannotTakeTheOperatorsStreams()
    {
        Engine engine(m_dir.filePath(QStringLiteral("stream-slots")));
        QStringList viewers;
        for (int i = 0; i < 4; ++i) {
            viewers << engine.token(QStringLiteral("viewer%1").arg(i), QStringLiteral("viewer"));
            m_secrets << viewers.last();
        }
        const QString ops = engine.token(QStringLiteral("ops"), QStringLiteral("operator"));
        m_secrets << ops;
        QVERIFY(engine.start({ QStringLiteral("--max-subscribers"), QStringLiteral("8") })); // 2 per token, 2 kept for operators
        std::vector<std::unique_ptr<QTcpSocket>> streams;
        const auto open = [&](const QString &token) {
            auto socket = std::make_unique<QTcpSocket>();
            socket->connectToHost(QHostAddress::LocalHost, engine.m_port);
            if (!socket->waitForConnected(5000))
                return QByteArray("no connection");
            socket->write("GET /v1/events HTTP/1.1\r\nHost: bullpen\r\nAuthorization: Bearer " + token.toLatin1() + "\r\n\r\n");
            QByteArray got;
            QElapsedTimer t;
            t.start();
            while (!got.contains("\r\n\r\n") && t.elapsed() < 5000 && socket->state() == QAbstractSocket::ConnectedState) {
                socket->waitForReadyRead(100);
                got += socket->readAll();
            }
            if (socket->waitForReadyRead(200)) // a refusal's body
                got += socket->readAll();
            streams.push_back(std::move(socket));
            return got;
        };
        QByteArrayList refusals;
        for (const QString &viewer : std::as_const(viewers))
            for (int i = 0; i < 2; ++i)
                if (const QByteArray got = open(viewer); !got.startsWith("HTTP/1.1 200"))
                    refusals << got;
        QCOMPARE(refusals.size(), 2); // 8 asked for, 6 taken: the last 2 slots are the operators'
        QVERIFY2(refusals.first().startsWith("HTTP/1.1 429") && refusals.first().contains("kept for operators"),
                 refusals.first().constData());
        QVERIFY(open(ops).startsWith("HTTP/1.1 200"));

        QProcess cli;
        QProcessEnvironment env = engine.environment();
        env.insert(QStringLiteral("BULLPEN_ENGINE_TOKEN"), ops);
        cli.setProcessEnvironment(env);
        cli.start(QStringLiteral(BULLPEN_CLI),
                  { QStringLiteral("generate"), QStringLiteral("--story"), QStringLiteral("A fox and a crow."), QStringLiteral("--json"),
                    QStringLiteral("--engine"), engine.url.toString() });
        QVERIFY(cli.waitForFinished(60'000));
        const QByteArray text = cli.readAllStandardOutput() + cli.readAllStandardError();
        QVERIFY2(cli.exitCode() == 0, text.constData());
        QVERIFY2(text.contains("\"succeeded\""), text.constData());
        streams.clear();
        engine.stop();
    }

    // A raw connection from `from` (any 127.0.0.0/8 address), `request` written; what came back until
    // one whole answer arrived, the server closed, or 5 s passed.
    static QByteArray rawExchange(quint16 port, const QByteArray &request, const QString &from = QStringLiteral("127.0.0.1"))
    {
        QTcpSocket socket;
        socket.bind(QHostAddress(from), 0);
        socket.connectToHost(QHostAddress::LocalHost, port);
        if (!socket.waitForConnected(5000))
            return "no connection";
        socket.write(request);
        QByteArray got;
        QElapsedTimer t;
        t.start();
        const auto whole = [&] {
            const qsizetype end = got.indexOf("\r\n\r\n");
            const QRegularExpressionMatch m =
                QRegularExpression(QStringLiteral("(?i)content-length: (\\d+)")).match(QString::fromLatin1(got));
            return end >= 0 && m.hasMatch() && got.size() - end - 4 >= m.captured(1).toLongLong();
        };
        while (socket.state() == QAbstractSocket::ConnectedState && !whole() && t.elapsed() < 5000) {
            socket.waitForReadyRead(100);
            got += socket.readAll();
        }
        return got + socket.readAll();
    }

    // Behind a balancer (docs/operations.md): address_rate counts each client by the address that a
    // trusted proxy's X-Forwarded-For names; from any other peer the header is ignored, so a client
    // cannot spread its requests over addresses it invents.
    void clientAddressIsBelievedOnlyFromTrustedProxies()
    {
        Engine engine(m_dir.filePath(QStringLiteral("trusted-proxies")));
        engine.extraEnvironment.insert(QStringLiteral("BULLPEN_TRUSTED_PROXIES"), QStringLiteral("127.0.0.1"));
        engine.extraEnvironment.insert(QStringLiteral("BULLPEN_ADDRESS_RATE"), QStringLiteral("1")); // a burst of 2, then 1 a second
        QVERIFY(engine.start());
        const auto health = [&](const QString &from, const QByteArray &forwardedFor) {
            return rawExchange(engine.m_port, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: " + forwardedFor + "\r\n\r\n", from)
                .left(12);
        };
        // Through the balancer (127.0.0.1): each client has its own bucket.
        QCOMPARE(health(QStringLiteral("127.0.0.1"), "203.0.113.7"), QByteArray("HTTP/1.1 200"));
        QCOMPARE(health(QStringLiteral("127.0.0.1"), "203.0.113.7"), QByteArray("HTTP/1.1 200"));
        QCOMPARE(health(QStringLiteral("127.0.0.1"), "203.0.113.7"), QByteArray("HTTP/1.1 429"));
        QCOMPARE(health(QStringLiteral("127.0.0.1"), "198.51.100.9, 203.0.113.8"), QByteArray("HTTP/1.1 200"));
        // From a peer that is no balancer (127.0.0.2): its own address, whatever the header says.
        QCOMPARE(health(QStringLiteral("127.0.0.2"), "192.0.2.1"), QByteArray("HTTP/1.1 200"));
        QCOMPARE(health(QStringLiteral("127.0.0.2"), "192.0.2.2"), QByteArray("HTTP/1.1 200"));
        QCOMPARE(health(QStringLiteral("127.0.0.2"), "192.0.2.3"), QByteArray("HTTP/1.1 429"));
        engine.stop();
        QCOMPARE(engine.m_process.exitCode(), 0);
    }

    // Idle connections past the caps (in all, and per address) make room: the idlest is closed, so
    // /healthz still answers at once; the caps follow the open-file limit (here 160 descriptors: 88
    // connections, 44 per address). When every connection is busy mid-request, a new one gets 503
    // with Retry-After and is closed. (Before: 1,100 idle connections took every descriptor, accept()
    // failed, and /healthz timed out.)
    void connectionsPastTheCapsMakeRoom()
    {
        Engine engine(m_dir.filePath(QStringLiteral("connections")));
        const QString token = engine.token(QStringLiteral("ops"), QStringLiteral("operator"));
        m_secrets << token;
        engine.launcher = QStringList { QStringLiteral("prlimit"), QStringLiteral("--nofile=160:160"), QStringLiteral("--") };
        QVERIFY(engine.start({ QStringLiteral("--threads"), QStringLiteral("1") }));
        const QJsonObject limits = call("GET", QStringLiteral("/v1/config"), token, {}, {}, engine.url).json()[u"limits"].toObject();
        QCOMPARE(limits[u"max_connections"].toInt(), 88);
        QCOMPARE(limits[u"max_connections_per_address"].toInt(), 44);

        std::vector<std::unique_ptr<QTcpSocket>> idle;
        for (int i = 0; i < 300; ++i) {
            idle.push_back(std::make_unique<QTcpSocket>());
            idle.back()->connectToHost(QHostAddress::LocalHost, engine.m_port);
            QVERIFY(idle.back()->waitForConnected(5000));
        }
        const QByteArray health = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
        QElapsedTimer took;
        took.start();
        const QByteArray sameAddress = rawExchange(engine.m_port, health);
        QVERIFY2(sameAddress.startsWith("HTTP/1.1 200"), sameAddress.constData());
        QVERIFY2(rawExchange(engine.m_port, health, QStringLiteral("127.0.0.2")).startsWith("HTTP/1.1 200"), "another address");
        QVERIFY2(took.elapsed() < 3000, QByteArray::number(took.elapsed()).constData()); // not by a timeout: within the 10 s one

        // 44 connections from one address, each mid-request: that address's next one is refused.
        std::vector<std::unique_ptr<QTcpSocket>> busy;
        for (int i = 0; i < 44; ++i) {
            busy.push_back(std::make_unique<QTcpSocket>());
            busy.back()->bind(QHostAddress(QStringLiteral("127.0.0.3")), 0);
            busy.back()->connectToHost(QHostAddress::LocalHost, engine.m_port);
            QVERIFY(busy.back()->waitForConnected(5000));
            busy.back()->write("GET /healthz HTTP/1.1\r\n");
            busy.back()->waitForBytesWritten(1000);
        }
        const QByteArray refused = rawExchange(engine.m_port, health, QStringLiteral("127.0.0.3"));
        QVERIFY2(refused.startsWith("HTTP/1.1 503") && refused.contains("Retry-After: 1"), refused.constData());
        QVERIFY2(rawExchange(engine.m_port, health, QStringLiteral("127.0.0.4")).startsWith("HTTP/1.1 200"), "a fourth address");

        const QByteArray metrics = call("GET", QStringLiteral("/metrics"), token, {}, {}, engine.url).body;
        const QRegularExpressionMatch evicted =
            QRegularExpression(QStringLiteral("bullpen_connections_ended_total\\{reason=\"evicted\"\\} (\\d+)"))
                .match(QString::fromUtf8(metrics));
        QVERIFY2(evicted.hasMatch() && evicted.captured(1).toInt() >= 250, metrics.constData());
        QVERIFY(metrics.contains("bullpen_connections_ended_total{reason=\"refused\"} 1"));
        QVERIFY(metrics.contains("bullpen_api_responses_total{status=\"503\"} 1")); // answered before any route, and counted
        QTRY_VERIFY_WITH_TIMEOUT(engine.stderrText().contains("connection limits (88 in all, 44 per address) bit"), 15000);
        idle.clear();
        busy.clear();
        engine.stop();
        QCOMPARE(engine.m_process.exitCode(), 0);
    }

    // A connection that sends nothing, or half a request, is closed after --request-timeout (a half
    // request is told 408); one idle after its answer after --idle-timeout; an event stream stays.
    void idleAndHalfSentConnectionsTimeOut()
    {
        Engine engine(m_dir.filePath(QStringLiteral("timeouts")));
        const QString token = engine.token(QStringLiteral("ops"), QStringLiteral("viewer"));
        m_secrets << token;
        QVERIFY(engine.start(
            { QStringLiteral("--request-timeout"), QStringLiteral("500ms"), QStringLiteral("--idle-timeout"), QStringLiteral("1s") }));
        const auto closedAfter = [&](const QByteArray &send, QByteArray *got) {
            QTcpSocket socket;
            socket.connectToHost(QHostAddress::LocalHost, engine.m_port);
            if (!socket.waitForConnected(5000))
                return qint64(-1);
            socket.write(send);
            QElapsedTimer t;
            t.start();
            while (socket.state() == QAbstractSocket::ConnectedState && t.elapsed() < 10000) {
                socket.waitForReadyRead(100);
                *got += socket.readAll();
            }
            *got += socket.readAll();
            return socket.state() == QAbstractSocket::ConnectedState ? qint64(-1) : t.elapsed();
        };
        QByteArray silent, half, answered;
        const qint64 silentMs = closedAfter({}, &silent);
        QVERIFY2(silentMs >= 400 && silentMs < 3000 && silent.isEmpty(), QByteArray(QByteArray::number(silentMs) + silent).constData());
        const qint64 halfMs = closedAfter("GET /healthz HTTP/1.1\r\nHost: x\r\n", &half);
        QVERIFY2(halfMs >= 400 && halfMs < 3000 && half.startsWith("HTTP/1.1 408"),
                 QByteArray(QByteArray::number(halfMs) + half).constData());
        const qint64 idleMs = closedAfter("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", &answered);
        QVERIFY2(idleMs >= 900 && idleMs < 4000 && answered.startsWith("HTTP/1.1 200"),
                 QByteArray(QByteArray::number(idleMs) + answered).constData());

        QTcpSocket stream;
        stream.connectToHost(QHostAddress::LocalHost, engine.m_port);
        QVERIFY(stream.waitForConnected(5000));
        stream.write("GET /v1/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nAuthorization: Bearer " + token.toLatin1()
                     + "\r\n\r\n");
        QByteArray streamed;
        QElapsedTimer t;
        t.start();
        while (stream.state() == QAbstractSocket::ConnectedState && t.elapsed() < 2500) {
            stream.waitForReadyRead(100);
            streamed += stream.readAll();
        }
        QVERIFY2(stream.state() == QAbstractSocket::ConnectedState && streamed.startsWith("HTTP/1.1 200"), streamed.constData());
        const QByteArray metrics = call("GET", QStringLiteral("/metrics"), token, {}, {}, engine.url).body;
        QVERIFY2(metrics.contains("bullpen_connections_ended_total{reason=\"request_timeout\"} 2")
                     && metrics.contains("bullpen_connections_ended_total{reason=\"idle_timeout\"} 1")
                     && metrics.contains("bullpen_api_responses_total{status=\"408\"} 1"),
                 metrics.constData());
        engine.stop();
        QCOMPARE(engine.m_process.exitCode(), 0);
    }

    void slowSubscriberOverflowsAndIsClosed()
    {
        Engine engine(m_dir.filePath(QStringLiteral("overflow")));
        const QString token = engine.token(QStringLiteral("ops"), QStringLiteral("operator"));
        m_secrets << token;
        QVERIFY(engine.start({ QStringLiteral("--subscriber-backlog"), QStringLiteral("16384") }));
        QTcpSocket stuck;
        stuck.setSocketOption(QAbstractSocket::ReceiveBufferSizeSocketOption, 4096);
        stuck.setReadBufferSize(4096); // and Qt reads no more than this for us: the reader is stuck
        stuck.connectToHost(QHostAddress::LocalHost, engine.m_port);
        QVERIFY(stuck.waitForConnected(5000));
        stuck.write("GET /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + token.toLatin1() + "\r\n\r\n");
        QVERIFY(stuck.waitForBytesWritten(5000));
        QTRY_VERIFY_WITH_TIMEOUT(
            call("GET", QStringLiteral("/metrics"), token, {}, {}, engine.url).body.contains("bullpen_sse_subscribers 1"), 10000);
        // Generations until the engine gives up on the reader (each writes ~5 KB of events).
        for (int round = 0; round < 40; ++round) {
            for (int i = 0; i < 10; ++i)
                call("POST", QStringLiteral("/v1/generations"), token,
                     body({ { QStringLiteral("story"), QStringLiteral("Story %1 %2").arg(round).arg(i) },
                            { QStringLiteral("user_id"), QStringLiteral("u") },
                            { QStringLiteral("fresh"), true } }),
                     {}, engine.url);
            if (call("GET", QStringLiteral("/metrics"), token, {}, {}, engine.url).body.contains("bullpen_sse_overflows_total 1"))
                break;
            QTest::qWait(100);
        }
        const QByteArray metrics = call("GET", QStringLiteral("/metrics"), token, {}, {}, engine.url).body;
        QVERIFY2(metrics.contains("bullpen_sse_overflows_total 1"), metrics.constData());
        QTRY_VERIFY_WITH_TIMEOUT(
            call("GET", QStringLiteral("/metrics"), token, {}, {}, engine.url).body.contains("bullpen_sse_subscribers 0"), 10000);
    }

    // docs/contract.md §12.1 shutdown: /readyz 503, no new generations, the running ones end and are recorded, exit 0.
    void sigtermDrainsAndRecordsEveryGeneration()
    {
        Engine engine(m_dir.filePath(QStringLiteral("drain")));
        const QString token = engine.token(QStringLiteral("ops"), QStringLiteral("operator"));
        m_secrets << token;
        QVERIFY(engine.start({ QStringLiteral("--drain"), QStringLiteral("20s") }));
        QStringList ids;
        for (int i = 0; i < 3; ++i) {
            const Answer a = call("POST", QStringLiteral("/v1/generations"), token,
                                  body({ { QStringLiteral("story"), QStringLiteral("s") },
                                         { QStringLiteral("user_id"), QStringLiteral("u") },
                                         { QStringLiteral("scenario"), QStringLiteral("primary-hang") },
                                         { QStringLiteral("timeouts"), QJsonObject { { QStringLiteral("primary_ms"), 1500 } } } }),
                                  {}, engine.url);
            QCOMPARE(a.status, 202);
            ids << a.json().value(QLatin1StringView("generation_id")).toString();
        }
        SseStream watching; // the drain closes it only once every generation's end is on it
        openStream(watching, engine.url, token, {});
        QTRY_COMPARE_WITH_TIMEOUT(watching.reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200, 10'000);
        engine.m_process.terminate();
        QTRY_COMPARE_WITH_TIMEOUT(call("GET", QStringLiteral("/readyz"), {}, {}, {}, engine.url).status, 503, 5000);
        QCOMPARE(call("POST", QStringLiteral("/v1/generations"), token,
                      body({ { QStringLiteral("story"), QStringLiteral("s") }, { QStringLiteral("user_id"), QStringLiteral("u") } }), {},
                      engine.url)
                     .status,
                 503);
        QVERIFY(engine.m_process.waitForFinished(30000));
        QCOMPARE(engine.m_process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(engine.m_process.exitCode(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(watching.reply->isFinished(), 5000);
        for (const QString &id : std::as_const(ids)) {
            bool ended = false;
            for (qsizetype i = 0; i < watching.types.size(); ++i)
                ended = ended || (watching.types.at(i) == u"generation_finished" && watching.data.at(i).contains(id.toLatin1()));
            QVERIFY2(ended,
                     qPrintable(id + QStringLiteral(": its generation_finished never reached the stream before it closed; it had: ")
                                + watching.types.join(QLatin1Char(','))));
        }
        // Each is in the store in its final state: handed to the fallback after its primary's 1.5 s deadline.
        {
            QString why;
            QSqlDatabase db = engine.store.connect(QStringLiteral("drain-check"), StoreLocation::Access::ReadOnly, &why);
            QVERIFY2(db.isOpen(), qPrintable(why));
            for (const QString &id : std::as_const(ids)) {
                QSqlQuery q(db);
                q.prepare(QStringLiteral("SELECT state FROM generations WHERE id = ?"));
                q.addBindValue(id);
                QVERIFY(q.exec() && q.next());
                QCOMPARE(q.value(0).toString(), QStringLiteral("succeeded"));
            }
        }
        StoreLocation::disconnect(QStringLiteral("drain-check"));
    }

    // When the drain time runs out, what still runs is cancelled and recorded as the engine shutting
    // down, not as an operator's cancel.
    void drainTimeUpRecordsAShutdownCancel()
    {
        Engine engine(m_dir.filePath(QStringLiteral("drain-short")));
        const QString token = engine.token(QStringLiteral("ops"), QStringLiteral("operator"));
        m_secrets << token;
        QVERIFY(engine.start({ QStringLiteral("--drain"), QStringLiteral("500ms") }));
        const Answer a = call("POST", QStringLiteral("/v1/generations"), token,
                              body({ { QStringLiteral("story"), QStringLiteral("s") },
                                     { QStringLiteral("user_id"), QStringLiteral("u") },
                                     { QStringLiteral("scenario"), QStringLiteral("primary-hang") },
                                     { QStringLiteral("timeouts"), QJsonObject { { QStringLiteral("primary_ms"), 30000 } } } }),
                              {}, engine.url);
        QCOMPARE(a.status, 202);
        const QString id = a.json().value(QLatin1StringView("generation_id")).toString();
        engine.stop(); // SIGTERM; exit 0 is judged there
        QString why;
        {
            QSqlDatabase db = engine.store.connect(QStringLiteral("drain-short-check"), StoreLocation::Access::ReadOnly, &why);
            QVERIFY2(db.isOpen(), qPrintable(why));
            QSqlQuery q(db);
            q.prepare(QStringLiteral("SELECT state, detail FROM generations WHERE id = ?"));
            q.addBindValue(id);
            QVERIFY(q.exec() && q.next());
            QCOMPARE(q.value(0).toString(), QStringLiteral("cancelled"));
            QVERIFY2(q.value(1).toString().contains(QStringLiteral("shutting down")), qPrintable(q.value(1).toString()));
        }
        StoreLocation::disconnect(QStringLiteral("drain-short-check"));
    }

    // docs/contract.md §12.2: two engines share one store. One is killed with generations running; the other, still
    // up, finishes each of them as ABANDONED once its lease runs out (no restart needed), names both
    // instances in the detail, and lists the dead one as gone in /v1/instances.
    void anotherEngineFinishesADeadOnesWork()
    {
        const QString dir = m_dir.filePath(QStringLiteral("shared"));
        Engine dying(dir), surviving(dir);
        const QString token = dying.token(QStringLiteral("ops"), QStringLiteral("operator"));
        m_secrets << token;
        QVERIFY(dying.start({ QStringLiteral("--instance"), QStringLiteral("lease-a"), QStringLiteral("--lease"), QStringLiteral("1s") }));
        QVERIFY(
            surviving.start({ QStringLiteral("--instance"), QStringLiteral("lease-b"), QStringLiteral("--lease"), QStringLiteral("1s") }));
        QStringList ids;
        for (int i = 0; i < 5; ++i) {
            QJsonObject o = hang(30'000, 30'000);
            o.insert(QStringLiteral("story"), QStringLiteral("A fox waits for rain, part %1.").arg(i));
            o.insert(QStringLiteral("user_id"), QStringLiteral("u%1").arg(i));
            const Answer a = call("POST", QStringLiteral("/v1/generations"), token, body(o), {}, dying.url);
            QCOMPARE(a.status, 202);
            ids << a.json().value(QLatin1StringView("generation_id")).toString();
        }
        const auto rowsOf = [&](const QString &query) {
            return call("GET", QStringLiteral("/v1/history?instance=lease-a&") + query, token, {}, {}, surviving.url)
                .json()
                .value(QLatin1StringView("generations"))
                .toArray();
        };
        // Written by the dying engine, seen through the other one.
        QTRY_COMPARE_WITH_TIMEOUT(rowsOf(QStringLiteral("state=running")).size(), 5, 10'000);
        QElapsedTimer sinceKill;
        dying.kill();
        sinceKill.start();
        QTRY_COMPARE_WITH_TIMEOUT(rowsOf(QStringLiteral("state=abandoned")).size(), 5, 15'000);
        qInfo("all 5 ABANDONED %lld ms after the kill (lease 1 s, renewed and checked every 333 ms)", sinceKill.elapsed());
        for (const QJsonValue &v : rowsOf(QStringLiteral("state=abandoned"))) {
            const QJsonObject row = v.toObject();
            QVERIFY(ids.contains(row.value(QLatin1StringView("generation_id")).toString()));
            QCOMPARE(row.value(QLatin1StringView("instance")).toString(), QStringLiteral("lease-a"));
            const QString detail = row.value(QLatin1StringView("detail")).toString();
            QVERIFY2(detail.contains(QLatin1StringView("lease-a")) && detail.contains(QLatin1StringView("lease-b")), qPrintable(detail));
        }
        QCOMPARE(rowsOf(QStringLiteral("state=running")).size(), 0);
        // Its rows name it: the generations (above), their attempts and events.
        {
            QString why;
            QSqlDatabase db = surviving.store.connect(QStringLiteral("instance-check"), StoreLocation::Access::ReadOnly, &why);
            QVERIFY2(db.isOpen(), qPrintable(why));
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM events WHERE instance = 'lease-a'")) && q.next());
            QVERIFY(q.value(0).toInt() >= 5 * 2); // generation_started and the first attempt's start, at least
            QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM events WHERE instance IS NULL OR instance <> 'lease-a'")) && q.next());
            QCOMPARE(q.value(0).toInt(), 0);
        }
        StoreLocation::disconnect(QStringLiteral("instance-check"));
        // The instances: this one up, the dead one gone.
        const QJsonArray instances = call("GET", QStringLiteral("/v1/instances"), token, {}, {}, surviving.url)
                                         .json()
                                         .value(QLatin1StringView("instances"))
                                         .toArray();
        QMap<QString, QString> status;
        for (const QJsonValue &v : instances)
            status.insert(v.toObject().value(QLatin1StringView("name")).toString(),
                          v.toObject().value(QLatin1StringView("status")).toString());
        QCOMPARE(status.value(QStringLiteral("lease-b")), QStringLiteral("up"));
        QCOMPARE(status.value(QStringLiteral("lease-a")), QStringLiteral("gone"));
    }

    // docs/contract.md §13: a drain is kept in the store, so a restarted engine still obeys it.
    void drainOutlivesARestart()
    {
        Engine engine(m_dir.filePath(QStringLiteral("drain-restart")));
        const QString token = engine.token(QStringLiteral("ops"), QStringLiteral("operator"));
        m_secrets << token;
        QVERIFY(engine.start());
        const QByteArray drain = body({ { QStringLiteral("reason"), QStringLiteral("maintenance window") } });
        QCOMPARE(call("POST", QStringLiteral("/v1/providers/qwen/drain"), token, drain, {}, engine.url).status, 200);
        engine.stop();
        QVERIFY(engine.start());
        const auto drainedBy = [&] {
            const QJsonArray providers = call("GET", QStringLiteral("/v1/providers"), token, {}, {}, engine.url)
                                             .json()
                                             .value(QLatin1StringView("providers"))
                                             .toArray();
            for (const QJsonValue &p : providers)
                if (p.toObject().value(QLatin1StringView("id")).toString() == u"qwen")
                    return p.toObject()
                        .value(QLatin1StringView("drains"))
                        .toArray()
                        .first()
                        .toObject()
                        .value(QLatin1StringView("by"))
                        .toString();
            return QString();
        };
        QTRY_COMPARE_WITH_TIMEOUT(drainedBy(), QStringLiteral("ops"), 5000);
        QCOMPARE(call("POST", QStringLiteral("/v1/providers/qwen/restore"), token, {}, {}, engine.url).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(drainedBy(), QString(), 5000);
    }

    // docs/api.md, drains: a drain scoped to one role and one stage, with an end, is kept in the store
    // as it was made: after a restart the engine reads back the same provider, role, stage, reason, by
    // and until, obeys it only there, and a restore of another scope leaves it.
    void scopedDrainOutlivesARestart()
    {
        Engine engine(m_dir.filePath(QStringLiteral("scoped-drain-restart")));
        const QString token = engine.token(QStringLiteral("ops"), QStringLiteral("operator"));
        m_secrets << token;
        QVERIFY(engine.start());
        const QString until = QDateTime::currentDateTimeUtc().addSecs(2 * 3600).toString(Qt::ISODate);
        const QByteArray drain = body({ { QStringLiteral("reason"), QStringLiteral("captions model rollout") },
                                        { QStringLiteral("role"), QStringLiteral("fallback") },
                                        { QStringLiteral("stage"), QStringLiteral("storyboard") },
                                        { QStringLiteral("until"), until } });
        const Answer made = call("POST", QStringLiteral("/v1/providers/qwen/drain"), token, drain, {}, engine.url);
        QCOMPARE(made.status, 200);
        const auto drainsOfQwen = [&] {
            const QJsonArray providers = call("GET", QStringLiteral("/v1/providers"), token, {}, {}, engine.url)
                                             .json()
                                             .value(QLatin1StringView("providers"))
                                             .toArray();
            for (const QJsonValue &p : providers)
                if (p.toObject().value(QLatin1StringView("id")).toString() == u"qwen")
                    return p.toObject().value(QLatin1StringView("drains")).toArray();
            return QJsonArray();
        };
        const auto scopeOf = [](const QJsonArray &drains) {
            if (drains.size() != 1)
                return QStringLiteral("%1 drains").arg(drains.size());
            const QJsonObject d = drains.first().toObject();
            QStringList parts;
            for (const char *key : { "provider", "role", "stage", "reason", "by" })
                parts << d.value(QLatin1StringView(key)).toString();
            parts << QDateTime::fromString(d.value(QLatin1StringView("until")).toString(), Qt::ISODate).toUTC().toString(Qt::ISODate);
            return parts.join(QLatin1Char('|'));
        };
        const QString expected = QStringLiteral("qwen|fallback|storyboard|captions model rollout|ops|") + until;
        QTRY_COMPARE_WITH_TIMEOUT(scopeOf(drainsOfQwen()), expected, 5000);
        engine.stop();
        QVERIFY(engine.start());
        QTRY_COMPARE_WITH_TIMEOUT(scopeOf(drainsOfQwen()), expected, 5000); // read back from the store
        // Another scope's restore leaves it; its own ends it.
        const QByteArray primaryOnly = body({ { QStringLiteral("role"), QStringLiteral("primary") } });
        const Answer other = call("POST", QStringLiteral("/v1/providers/qwen/restore"), token, primaryOnly, {}, engine.url);
        QCOMPARE(other.status, 200);
        QCOMPARE(other.json().value(QLatin1StringView("restored")).toInt(), 0);
        QCOMPARE(scopeOf(drainsOfQwen()), expected);
        const QByteArray itsOwn =
            body({ { QStringLiteral("role"), QStringLiteral("fallback") }, { QStringLiteral("stage"), QStringLiteral("storyboard") } });
        const Answer restored = call("POST", QStringLiteral("/v1/providers/qwen/restore"), token, itsOwn, {}, engine.url);
        QCOMPARE(restored.json().value(QLatin1StringView("restored")).toInt(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(drainsOfQwen().isEmpty(), 5000);
    }

    // A result read back after a restart (from the history) has the shape of the one answered from
    // memory: the same fields, the same attempts, plus "source": "history".
    void resultReadAfterARestartHasTheSameShape()
    {
        Engine engine(m_dir.filePath(QStringLiteral("same-shape")));
        const QString token = engine.token(QStringLiteral("ops"), QStringLiteral("operator"));
        m_secrets << token;
        QVERIFY(engine.start());
        const QJsonObject request { { QStringLiteral("story"),
                                      QStringLiteral("A cat finds a hat. It is windy. The hat flies. The cat laughs.") },
                                    { QStringLiteral("scenario"), QStringLiteral("primary-overloaded") } };
        const QString id = call("POST", QStringLiteral("/v1/generations"), token, body(request), {}, engine.url)
                               .json()
                               .value(QLatin1StringView("generation_id"))
                               .toString();
        QVERIFY(!id.isEmpty());
        Answer fromMemory;
        QTRY_COMPARE_WITH_TIMEOUT((fromMemory = call("GET", QStringLiteral("/v1/generations/") + id, token, {}, {}, engine.url)).status,
                                  200, 20'000);
        engine.stop();
        QVERIFY(engine.start());
        const Answer fromHistory = call("GET", QStringLiteral("/v1/generations/") + id, token, {}, {}, engine.url);
        QCOMPARE(fromHistory.status, 200);
        QJsonObject memory = fromMemory.json(), history = fromHistory.json();
        QCOMPARE(history.value(QLatin1StringView("source")).toString(), QStringLiteral("history"));
        history.remove(QStringLiteral("source"));
        QCOMPARE(QStringList(history.keys()), QStringList(memory.keys()));
        QCOMPARE(history.value(QLatin1StringView("attempts")), memory.value(QLatin1StringView("attempts")));
        QCOMPARE(history.value(QLatin1StringView("provider_fallback_reason")).toString(), QStringLiteral("gemini_provider_unavailable"));
        // The comic by URL and digest, never the server's file path.
        QVERIFY(!memory.contains(QLatin1StringView("image_path")));
        const QString image = memory.value(QLatin1StringView("image_url")).toString();
        QCOMPARE(image, QStringLiteral("/v1/images/") + memory.value(QLatin1StringView("image_sha256")).toString());
        QCOMPARE(call("GET", image, token, {}, {}, engine.url).status, 200);
    }

    // docs/api.md, "Event stream": breakers opening and drains are notices on the stream, without a
    // cursor; a stream of one generation does not get them.
    void breakersAndDrainsAreNoticesOnTheStream()
    {
        Engine engine(m_dir.filePath(QStringLiteral("notices")));
        const QString token = engine.token(QStringLiteral("ops"), QStringLiteral("operator"));
        m_secrets << token;
        QVERIFY(engine.start());
        SseStream all, one;
        openStream(all, engine.url, token, {});
        QUrl oneUrl = engine.url;
        oneUrl.setQuery(QStringLiteral("generation=gen_none"));
        openStream(one, oneUrl, token, {});
        QTRY_VERIFY_WITH_TIMEOUT(all.reply->isRunning() && all.reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200,
                                 10000);
        const QJsonObject overloaded { { QStringLiteral("story"), QStringLiteral("A cat finds a hat on a windy day.") },
                                       { QStringLiteral("scenario"), QStringLiteral("primary-overloaded") },
                                       { QStringLiteral("primary"), QStringLiteral("gemini") },
                                       { QStringLiteral("fallback"), QStringLiteral("qwen") } };
        // min_attempts (5) blamed failures in a row open gemini's storyboard breaker.
        for (int i = 0; i < 5; ++i) {
            const QString id = call("POST", QStringLiteral("/v1/generations"), token, body(overloaded), {}, engine.url)
                                   .json()
                                   .value(QLatin1StringView("generation_id"))
                                   .toString();
            QVERIFY(!id.isEmpty());
            QTRY_COMPARE_WITH_TIMEOUT(call("GET", QStringLiteral("/v1/generations/") + id, token, {}, {}, engine.url).status, 200, 20000);
        }
        QTRY_VERIFY_WITH_TIMEOUT(all.noticeTypes.contains(QStringLiteral("breaker_opened")), 10000);
        const QJsonObject opened = all.notices.at(all.noticeTypes.indexOf(QStringLiteral("breaker_opened")));
        QCOMPARE(opened.value(QLatin1StringView("provider")).toString(), QStringLiteral("gemini"));
        QCOMPARE(opened.value(QLatin1StringView("role")).toString(), QStringLiteral("primary"));
        QCOMPARE(opened.value(QLatin1StringView("stage")).toString(), QStringLiteral("storyboard"));
        QCOMPARE(opened.value(QLatin1StringView("breaker")).toObject().value(QLatin1StringView("state")).toString(),
                 QStringLiteral("open"));
        QVERIFY2(opened.value(QLatin1StringView("reason")).toString().contains(QLatin1StringView("TRANSIENT_SERVER")),
                 qPrintable(opened.value(QLatin1StringView("reason")).toString()));

        const QByteArray drain = body(
            { { QStringLiteral("reason"), QStringLiteral("incident 4712") }, { QStringLiteral("stage"), QStringLiteral("captions") } });
        QCOMPARE(call("POST", QStringLiteral("/v1/providers/qwen/drain"), token, drain, {}, engine.url).status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(all.noticeTypes.contains(QStringLiteral("provider_drained")), 10000);
        const QJsonObject drained = all.notices.at(all.noticeTypes.indexOf(QStringLiteral("provider_drained")));
        QCOMPARE(drained.value(QLatin1StringView("provider")).toString(), QStringLiteral("qwen"));
        QVERIFY(drained.value(QLatin1StringView("role")).isNull()); // every role
        QCOMPARE(drained.value(QLatin1StringView("stage")).toString(), QStringLiteral("captions"));
        QCOMPARE(drained.value(QLatin1StringView("drain")).toObject().value(QLatin1StringView("by")).toString(), QStringLiteral("ops"));
        QCOMPARE(call("POST", QStringLiteral("/v1/providers/qwen/restore"), token, {}, {}, engine.url).status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(all.noticeTypes.contains(QStringLiteral("provider_restored")), 10000);
        QVERIFY(!all.ids.isEmpty()); // the generations' events have cursors …
        QVERIFY(one.noticeTypes.isEmpty()); // … and a stream of one generation gets no notice
        all.reply->abort();
        one.reply->abort();
    }

    // docs/contract.md §13: the prober leaves alone a target that has had users' traffic within the
    // interval. Users' generations keep gemini's storyboard primary busy; qwen, the fallback, sees none:
    // qwen is probed again interval after interval, gemini's storyboard primary never again.
    void proberLeavesABusyTargetAlone()
    {
        Engine engine(m_dir.filePath(QStringLiteral("probes-busy")));
        const QString token = engine.token(QStringLiteral("ops"), QStringLiteral("operator"));
        m_secrets << token;
        QVERIFY(engine.start({ QStringLiteral("--probe-every"), QStringLiteral("2s") }));
        const auto probes = [&](const QString &target) {
            int n = 0;
            const QJsonArray rows = call("GET", QStringLiteral("/v1/history?synthetic=only&limit=500"), token, {}, {}, engine.url)
                                        .json()
                                        .value(QLatin1StringView("generations"))
                                        .toArray();
            for (const QJsonValue &v : rows)
                n += v.toObject().value(QLatin1StringView("probe")).toString() == target ? 1 : 0;
            return n;
        };
        const QString busy = QStringLiteral("gemini/primary/storyboard");
        const QString idle = QStringLiteral("qwen/fallback/storyboard");
        QTRY_VERIFY_WITH_TIMEOUT(probes(busy) == 1 && probes(idle) == 1, 15'000); // every target is idle at the start
        // Users' traffic, a generation every 300 ms (well within the 2 s interval), while qwen is
        // probed twice more.
        QElapsedTimer sinceLast;
        int started = 0;
        const auto userTraffic = [&] {
            if (started > 0 && sinceLast.elapsed() < 300)
                return;
            const QJsonObject story { { QStringLiteral("story"), QStringLiteral("A cat finds a hat on a windy day.") } };
            if (call("POST", QStringLiteral("/v1/generations"), token, body(story), {}, engine.url).status == 202)
                ++started;
            sinceLast.start();
        };
        QTRY_VERIFY_WITH_TIMEOUT((userTraffic(), probes(idle) >= 3), 20'000);
        QVERIFY(started > 10);
        QCOMPARE(probes(busy), 1);
    }

    // docs/contract.md §13 on PostgreSQL: a drain made through one engine is obeyed by another within
    // 2 s, and a restore through the other ends it on the first.
    // docs/contract.md §13: an idle provider, role and stage gets a synthetic generation; probes are
    // listed only when asked for, are in none of the users' figures, and show as each card's last probe.
    void probesAreSyntheticAndKeptApart()
    {
        Engine engine(m_dir.filePath(QStringLiteral("probes")));
        const QString token = engine.token(QStringLiteral("ops"), QStringLiteral("operator"));
        m_secrets << token;
        QVERIFY(engine.start({ QStringLiteral("--probe-every"), QStringLiteral("1s") }));
        QCOMPARE(
            call("GET", QStringLiteral("/v1/config"), token, {}, {}, engine.url).json().value(QLatin1StringView("probe_every_ms")).toInt(),
            1000);
        const auto probed = [&] {
            QSet<QString> targets;
            const QJsonArray rows = call("GET", QStringLiteral("/v1/history?synthetic=only"), token, {}, {}, engine.url)
                                        .json()
                                        .value(QLatin1StringView("generations"))
                                        .toArray();
            for (const QJsonValue &v : rows) {
                if (v.toObject().value(QLatin1StringView("synthetic")).toBool()
                    && v.toObject().value(QLatin1StringView("state")).toString() == u"succeeded")
                    targets.insert(v.toObject().value(QLatin1StringView("probe")).toString());
            }
            return targets;
        };
        // The simulator's default policies: gemini → qwen for storyboards, gemini for captions and images.
        const QSet<QString> every { QStringLiteral("gemini/primary/storyboard"), QStringLiteral("qwen/fallback/storyboard"),
                                    QStringLiteral("gemini/primary/captions"), QStringLiteral("gemini/primary/image") };
        QTRY_COMPARE_WITH_TIMEOUT(probed(), every, 15000);
        QCOMPARE(call("GET", QStringLiteral("/v1/history"), token, {}, {}, engine.url)
                     .json()
                     .value(QLatin1StringView("generations"))
                     .toArray()
                     .size(),
                 0);
        QCOMPARE(call("GET", QStringLiteral("/v1/history?synthetic=sometimes"), token, {}, {}, engine.url).status, 400);

        const QJsonObject story { { QStringLiteral("story"), QStringLiteral("A cat finds a hat on a windy day.") } };
        const QString id = call("POST", QStringLiteral("/v1/generations"), token, body(story), {}, engine.url)
                               .json()
                               .value(QLatin1StringView("generation_id"))
                               .toString();
        QVERIFY(!id.isEmpty());
        Answer done;
        QTRY_VERIFY_WITH_TIMEOUT((done = call("GET", QStringLiteral("/v1/generations/") + id, token, {}, {}, engine.url)).status == 200,
                                 20000);
        QTRY_COMPARE_WITH_TIMEOUT(call("GET", QStringLiteral("/v1/history"), token, {}, {}, engine.url)
                                      .json()
                                      .value(QLatin1StringView("generations"))
                                      .toArray()
                                      .size(),
                                  1, 5000);
        // The card of gemini's storyboard primary: one user's attempt, and its last probe apart.
        QJsonObject card;
        for (const QJsonValue &v : call("GET", QStringLiteral("/v1/stats/health"), token, {}, {}, engine.url)
                                       .json()
                                       .value(QLatin1StringView("providers"))
                                       .toArray())
            if (v.toObject().value(QLatin1StringView("provider")).toString() == u"gemini"
                && v.toObject().value(QLatin1StringView("stage")).toString() == u"storyboard")
                card = v.toObject();
        QCOMPARE(card.value(QLatin1StringView("attempts")).toInt(), 1);
        QVERIFY2(card.value(QLatin1StringView("last_probe")).toObject().value(QLatin1StringView("ok")).toBool(),
                 QJsonDocument(card).toJson().constData());
        const QByteArray metrics = call("GET", QStringLiteral("/metrics"), token, {}, {}, engine.url).body;
        QVERIFY2(metrics.contains("bullpen_generations_started_total 1\n"), metrics.constData());
        QVERIFY(metrics.contains("bullpen_probes_total{provider=\"qwen\",role=\"fallback\",stage=\"storyboard\",result=\"ok\"}"));
        QVERIFY(metrics.contains("bullpen_probe_success{provider=\"gemini\",role=\"primary\",stage=\"image\"} 1"));
        probesAreListedWithTheProviders(engine.url, token, every);
    }

    // docs/contract.md §15: GET /v1/providers' `probes` names every target of this engine's prober with
    // its last result and when it is due again, for the Control view.
    void probesAreListedWithTheProviders(const QUrl &url, const QString &token, const QSet<QString> &every)
    {
        const QJsonObject probes =
            call("GET", QStringLiteral("/v1/providers"), token, {}, {}, url).json().value(QLatin1StringView("probes")).toObject();
        QCOMPARE(probes.value(QLatin1StringView("every_ms")).toInt(), 1000);
        QVERIFY(probes.value(QLatin1StringView("lead")).toBool());
        QSet<QString> listed;
        const QDateTime now = QDateTime::currentDateTimeUtc();
        for (const QJsonValue &v : probes.value(QLatin1StringView("targets")).toArray()) {
            const QJsonObject t = v.toObject();
            const QString name = t.value(QLatin1StringView("provider")).toString() + QLatin1Char('/')
                + t.value(QLatin1StringView("role")).toString() + QLatin1Char('/') + t.value(QLatin1StringView("stage")).toString();
            listed.insert(name);
            const QJsonObject last = t.value(QLatin1StringView("last")).toObject();
            QVERIFY2(last.value(QLatin1StringView("ok")).toBool() || t.value(QLatin1StringView("running")).toBool(),
                     qPrintable(name + QStringLiteral(": ") + QString::fromUtf8(QJsonDocument(t).toJson(QJsonDocument::Compact))));
            const QDateTime at = QDateTime::fromString(last.value(QLatin1StringView("at")).toString(), Qt::ISODateWithMs);
            QVERIFY2(at.isValid() && at <= now && at > now.addSecs(-60), qPrintable(name));
            QVERIFY(last.value(QLatin1StringView("generation_id")).toString().startsWith(QLatin1String("gen_")));
            if (!t.value(QLatin1StringView("running")).toBool()) {
                const QDateTime due = QDateTime::fromString(t.value(QLatin1StringView("next_due")).toString(), Qt::ISODateWithMs);
                QVERIFY2(due.isValid() && due > now.addSecs(-1) && due <= now.addSecs(3),
                         qPrintable(name + QStringLiteral(" next due ") + due.toString(Qt::ISODateWithMs)));
            }
        }
        QCOMPARE(listed, every);
    }

    // On PostgreSQL one engine probes (the probers' advisory lock); when it stops, another takes over.
    void oneEngineProbesPerStore()
    {
        if (!TestStore::postgres())
            QSKIP("one SQLite store has one engine; tst_engineservice_postgres runs this on PostgreSQL");
        Engine a(m_dir.filePath(QStringLiteral("probes-a"))), b(m_dir.filePath(QStringLiteral("probes-b")));
        const QString token =
            startSharingOneStore(a, b, QStringLiteral("probers"), { QStringLiteral("--probe-every"), QStringLiteral("1s") });
        QVERIFY(!token.isEmpty());
        qsizetype probes = 0;
        const auto instances = [&] {
            QSet<QString> seen;
            const QJsonArray rows = call("GET", QStringLiteral("/v1/history?synthetic=only"), token, {}, {}, a.url)
                                        .json()
                                        .value(QLatin1StringView("generations"))
                                        .toArray();
            for (const QJsonValue &v : rows)
                seen.insert(v.toObject().value(QLatin1StringView("instance")).toString());
            probes = rows.size();
            return seen;
        };
        // Three rounds of the four targets, a second apart at least: both engines asked many times.
        QTRY_VERIFY_WITH_TIMEOUT((instances(), probes >= 12), 20000);
        const QSet<QString> first = instances();
        QCOMPARE(first.size(), 1);
        Engine &prober = *first.begin() == u"probers-a" ? a : b;
        Engine &other = &prober == &a ? b : a;
        prober.stop();
        const auto byOther = [&] {
            const QJsonArray rows = call("GET", QStringLiteral("/v1/history?synthetic=only"), token, {}, {}, other.url)
                                        .json()
                                        .value(QLatin1StringView("generations"))
                                        .toArray();
            return std::any_of(rows.begin(), rows.end(), [&](const QJsonValue &v) {
                return v.toObject().value(QLatin1StringView("instance")).toString() != *first.begin();
            });
        };
        QTRY_VERIFY_WITH_TIMEOUT(byOther(), 15000);
    }

    // Issue 54: an alert's silence is kept in the store (docs/api.md, "Alerts"), on SQLite (two engines
    // on one data folder) and on PostgreSQL: set through engine A it is listed by engine B and by a
    // console attached to B, a restarted A still lists it, and that console's End silence (through B)
    // ends it on A. (tst_silencerecords: it ends on its own at `until`, on the steady clock.)
    void silenceIsSharedByEveryEngineAndOutlivesARestart()
    {
        const QString dir = m_dir.filePath(QStringLiteral("silences"));
        Engine a(dir), b(TestStore::postgres() ? m_dir.filePath(QStringLiteral("silences-b")) : dir);
        const QString token = startSharingOneStore(a, b, QStringLiteral("silences"));
        QVERIFY(!token.isEmpty());
        const QString path = QStringLiteral("/v1/alerts/BullpenBreakerOpen/silence");
        const auto silences = [&](const QUrl &engine) {
            QStringList out;
            for (const QJsonValue &v :
                 call("GET", QStringLiteral("/v1/alerts"), token, {}, {}, engine).json().value(QLatin1StringView("silences")).toArray())
                out << QStringLiteral("%1 by %2 until %3 (%4)")
                           .arg(v[QLatin1StringView("rule")].toString(), v[QLatin1StringView("by")].toString(),
                                v[QLatin1StringView("until")].toString(), v[QLatin1StringView("reason")].toString());
            return out;
        };
        QElapsedTimer took;
        took.start();
        const Answer silenced =
            call("POST", path, token,
                 body({ { QStringLiteral("for_s"), 14400 }, { QStringLiteral("reason"), QStringLiteral("ticket 54") } }), {}, a.url);
        QCOMPARE(silenced.status, 200);
        const QStringList expected { QStringLiteral("BullpenBreakerOpen by ops until %1 (ticket 54)")
                                         .arg(silenced.json().value(QLatin1StringView("until")).toString()) };
        QCOMPARE(silences(a.url), expected);
        QTRY_COMPARE_WITH_TIMEOUT(silences(b.url), expected, 2000);
        qInfo() << "silence through a listed by b after" << took.elapsed() << "ms on" << TestStore::backendName();

        a.stop();
        QVERIFY(a.start(QStringList { QStringLiteral("--instance"), QStringLiteral("silences-a") }));
        QCOMPARE(silences(a.url), expected);

        // A console attached to B lists it, and its End silence (DELETE through B) ends it on A too.
        RemoteConnection console(EngineEndpoint { b.url, token.toLatin1() });
        QSignalSpy answers(&console, &EngineConnection::alertsChanged);
        const auto consoleLists = [&] {
            const QJsonArray listed = answers.constLast().at(0).toJsonObject().value(QLatin1StringView("silences")).toArray();
            return listed.size() == 1 ? listed.first()[QLatin1StringView("by")].toString() : QString::number(listed.size());
        };
        console.refreshAlerts();
        QVERIFY(answers.wait(5000));
        QCOMPARE(consoleLists(), QStringLiteral("ops"));
        took.restart();
        console.endSilence(QStringLiteral("BullpenBreakerOpen"));
        QVERIFY(answers.wait(5000)); // the console reads the alerts again once the end is answered
        QCOMPARE(consoleLists(), QStringLiteral("0"));
        QCOMPARE(silences(b.url), QStringList());
        QTRY_COMPARE_WITH_TIMEOUT(silences(a.url), QStringList(), 2000);
        qInfo() << "end through a console attached to b seen by a after" << took.elapsed() << "ms";
        const Answer again = call("DELETE", path, token, {}, {}, a.url);
        QCOMPARE(again.status, 404);
    }

    // A silence, or its end, that the store does not keep (here: its table moved away under the engine)
    // is refused with 503 and Retry-After, saying what to do, and changes nothing; once the table is
    // back the engine's silences work again.
    void silenceTheStoreRefusesChangesNothing()
    {
        Engine engine(m_dir.filePath(QStringLiteral("silence-refused")));
        const QString token = engine.token(QStringLiteral("ops"), QStringLiteral("operator"));
        m_secrets << token;
        QVERIFY(engine.start());
        const auto moveTable = [&](const char *from, const char *to) {
            QString why;
            {
                QSqlDatabase db = engine.store.connect(QStringLiteral("tst-move-silences"), StoreLocation::Access::ReadWrite, &why);
                QSqlQuery q(db);
                if (why.isEmpty()
                    && !q.exec(QStringLiteral("ALTER TABLE %1 RENAME TO %2").arg(QLatin1StringView(from), QLatin1StringView(to))))
                    why = q.lastError().text();
            }
            StoreLocation::disconnect(QStringLiteral("tst-move-silences"));
            return why;
        };
        const QString path = QStringLiteral("/v1/alerts/BullpenBreakerOpen/silence");
        const QByteArray hour =
            body({ { QStringLiteral("for_s"), 3600 }, { QStringLiteral("reason"), QStringLiteral("store outage drill") } });
        const auto listed = [&] {
            return call("GET", QStringLiteral("/v1/alerts"), token, {}, {}, engine.url)
                .json()
                .value(QLatin1StringView("silences"))
                .toArray()
                .size();
        };
        QCOMPARE(moveTable("alert_silences", "alert_silences_away"), QString());
        const Answer refused = call("POST", path, token, hour, {}, engine.url);
        QCOMPARE(refused.status, 503);
        QCOMPARE(refused.retryAfter, QByteArray("5"));
        QVERIFY2(refused.message().contains(u"could not be stored") && refused.message().contains(u"Try again"),
                 qPrintable(refused.message()));
        QCOMPARE(listed(), 0);
        QCOMPARE(moveTable("alert_silences_away", "alert_silences"), QString());
        QCOMPARE(call("POST", path, token, hour, {}, engine.url).status, 200);
        QCOMPARE(listed(), 1);

        QCOMPARE(moveTable("alert_silences", "alert_silences_away"), QString());
        const Answer kept = call("DELETE", path, token, {}, {}, engine.url);
        QCOMPARE(kept.status, 503);
        QVERIFY2(kept.message().contains(u"still lasts"), qPrintable(kept.message()));
        QCOMPARE(listed(), 1);
        QCOMPARE(moveTable("alert_silences_away", "alert_silences"), QString());
        QCOMPARE(call("DELETE", path, token, {}, {}, engine.url).status, 200); // on a connection made anew after the refusal
        QCOMPARE(listed(), 0);
    }

    void drainIsObeyedByEveryEngineWithinTwoSeconds()
    {
        if (!TestStore::postgres())
            QSKIP("one SQLite store has one engine; tst_engineservice_postgres runs this on PostgreSQL");
        Engine a(m_dir.filePath(QStringLiteral("drains-a"))), b(m_dir.filePath(QStringLiteral("drains-b")));
        const QString token = startSharingOneStore(a, b, QStringLiteral("drains"));
        QVERIFY(!token.isEmpty());
        const auto drained = [&](const QUrl &engine) {
            const QJsonArray providers =
                call("GET", QStringLiteral("/v1/providers"), token, {}, {}, engine).json().value(QLatin1StringView("providers")).toArray();
            for (const QJsonValue &p : providers)
                if (p.toObject().value(QLatin1StringView("id")).toString() == u"gemini")
                    return p.toObject().value(QLatin1StringView("drained")).toBool();
            return false;
        };
        QElapsedTimer took;
        took.start();
        QCOMPARE(call("POST", QStringLiteral("/v1/providers/gemini/drain"), token,
                      body({ { QStringLiteral("reason"), QStringLiteral("incident") } }), {}, a.url)
                     .status,
                 200);
        QTRY_VERIFY_WITH_TIMEOUT(drained(b.url), 2000);
        qInfo() << "drain through a seen by b after" << took.elapsed() << "ms";
        // Told at once (LISTEN/NOTIFY), not found by the once-a-second read.
        QVERIFY2(took.elapsed() < 500, "the drain was not announced to the other engine");
        const QJsonObject o { { QStringLiteral("story"), QStringLiteral("A kite learns to land.") },
                              { QStringLiteral("primary"), QStringLiteral("gemini") },
                              { QStringLiteral("fallback"), QStringLiteral("qwen") } };
        const Answer started = call("POST", QStringLiteral("/v1/generations"), token, body(o), {}, b.url);
        QCOMPARE(started.status, 202);
        const QString id = started.json().value(QLatin1StringView("generation_id")).toString();
        Answer done;
        QTRY_VERIFY_WITH_TIMEOUT((done = call("GET", QStringLiteral("/v1/generations/") + id, token, {}, {}, b.url)).status == 200, 20000);
        QVERIFY2(done.body.contains("gemini_drained"), done.body.constData());
        took.restart();
        QCOMPARE(call("POST", QStringLiteral("/v1/providers/gemini/restore"), token, {}, {}, b.url).status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(!drained(a.url), 2000);
        qInfo() << "restore through b seen by a after" << took.elapsed() << "ms";
        QVERIFY2(took.elapsed() < 500, "the restore was not announced to the other engine");
    }

    // Issue 16: on PostgreSQL the comics are in the store, once each by their SHA-256, so that any engine
    // serves any engine's comic; two generations of one story make one comic and one stored copy.
    void comicsAreServedByEveryEngine()
    {
        if (!TestStore::postgres())
            QSKIP("SQLite keeps the comics as files in its one data folder; on PostgreSQL they are in the store "
                  "(tst_engineservice_postgres)");
        Engine a(m_dir.filePath(QStringLiteral("comics-a"))), b(m_dir.filePath(QStringLiteral("comics-b")));
        const QString token = startSharingOneStore(a, b, QStringLiteral("comics"));
        QVERIFY(!token.isEmpty());
        QStringList hashes;
        for (int i = 0; i < 2; ++i) {
            const QJsonObject o { { QStringLiteral("story"), QStringLiteral("A kite learns to land.") },
                                  { QStringLiteral("fresh"), true } };
            const Answer started = call("POST", QStringLiteral("/v1/generations"), token, body(o), {}, a.url);
            QCOMPARE(started.status, 202);
            const QString id = started.json().value(QLatin1StringView("generation_id")).toString();
            Answer done;
            QTRY_VERIFY_WITH_TIMEOUT((done = call("GET", QStringLiteral("/v1/generations/") + id, token, {}, {}, a.url)).status != 409,
                                     30'000);
            QCOMPARE(done.status, 200);
            QCOMPARE(done.json().value(QLatin1StringView("state")).toString(), QStringLiteral("succeeded"));
            hashes << done.json().value(QLatin1StringView("image_sha256")).toString();
        }
        QCOMPARE(hashes.at(0).size(), 64);
        QCOMPARE(hashes.at(1), hashes.at(0));
        const Answer own = call("GET", QStringLiteral("/v1/images/") + hashes.at(0), token, {}, {}, a.url);
        QCOMPARE(own.status, 200);
        // The other engine has no file of it: it answers from the store, once the writer has committed it.
        Answer other;
        QTRY_COMPARE_WITH_TIMEOUT((other = call("GET", QStringLiteral("/v1/images/") + hashes.at(0), token, {}, {}, b.url)).status, 200,
                                  10'000);
        QCOMPARE(other.body, own.body);
        QCOMPARE(QCryptographicHash::hash(other.body, QCryptographicHash::Sha256).toHex(), hashes.at(0).toLatin1());
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("comics-b/images"))));
        {
            QString why;
            QSqlDatabase db = a.store.connect(QStringLiteral("comics-check"), StoreLocation::Access::ReadOnly, &why);
            QVERIFY2(db.isOpen(), qPrintable(why));
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM images")) && q.next());
            QCOMPARE(q.value(0).toInt(), 1);
        }
        StoreLocation::disconnect(QStringLiteral("comics-check"));
        QCOMPARE(call("GET", QStringLiteral("/v1/images/") + QString(64, QLatin1Char('0')), token, {}, {}, b.url).status, 404);
    }

    // Issue 16: engines sharing a PostgreSQL store stream one another's events (LISTEN/NOTIFY, StoreRelay):
    // a client of one engine sees a generation another engine runs, named by its instance, each event
    // once, and its own engine's events once too.
    void everyInstanceStreamsEveryInstancesEvents()
    {
        if (!TestStore::postgres())
            QSKIP("one SQLite file has one engine; on PostgreSQL the engines relay one another's events (tst_engineservice_postgres)");
        Engine a(m_dir.filePath(QStringLiteral("relay-a"))), b(m_dir.filePath(QStringLiteral("relay-b")));
        const QString token = startSharingOneStore(a, b, QStringLiteral("relay"));
        QVERIFY(!token.isEmpty());
        RemoteEngine client(EngineEndpoint { a.url, token.toLatin1() });
        QMap<QString, QList<Event>> seen;
        connect(&client, &EngineClient::eventRecorded, this, [&seen](const Event &e) { seen[e.generationId] << e; });
        client.connectToEngine();
        QTRY_COMPARE_WITH_TIMEOUT(client.state(), RemoteEngine::State::Connected, 10'000);
        QStringList onB, onA;
        for (int i = 0; i < 3; ++i) {
            const QJsonObject o { { QStringLiteral("story"), QStringLiteral("A heron counts fish, part %1.").arg(i) },
                                  { QStringLiteral("fresh"), true } };
            const Answer sentB = call("POST", QStringLiteral("/v1/generations"), token, body(o), {}, b.url);
            QCOMPARE(sentB.status, 202);
            onB << sentB.json().value(QLatin1StringView("generation_id")).toString();
            const Answer sentA = call("POST", QStringLiteral("/v1/generations"), token, body(o), {}, a.url);
            QCOMPARE(sentA.status, 202);
            onA << sentA.json().value(QLatin1StringView("generation_id")).toString();
        }
        const auto finishedIn = [&seen](const QString &id) {
            const QList<Event> &events = seen.value(id);
            return std::any_of(events.begin(), events.end(),
                               [](const Event &e) { return std::holds_alternative<GenerationFinished>(e.body); });
        };
        for (const QString &id : std::as_const(onB))
            QTRY_VERIFY_WITH_TIMEOUT(finishedIn(id), 20'000);
        for (const QString &id : std::as_const(onA))
            QTRY_VERIFY_WITH_TIMEOUT(finishedIn(id), 20'000);
        QTest::qWait(1500); // a late duplicate would come within a relay poll
        for (const QString &id : onB + onA) {
            const QList<Event> &events = seen.value(id);
            QSet<quint64> sequences;
            for (const Event &e : events) {
                QVERIFY2(!sequences.contains(e.sequence), qPrintable(QStringLiteral("%1: event %2 twice").arg(id).arg(e.sequence)));
                sequences.insert(e.sequence);
            }
            QCOMPARE(qsizetype(sequences.size()), events.size());
            QVERIFY(std::holds_alternative<GenerationStarted>(events.first().body));
            const QString instance = std::get<GenerationStarted>(events.first().body).instance;
            QCOMPARE(instance, onB.contains(id) ? QStringLiteral("relay-b") : QStringLiteral("relay-a"));
            // Every event the store holds for it, and no other.
            QCOMPARE(qsizetype(events.last().sequence) + 1, events.size());
        }
    }

    // Issue 16: on PostgreSQL every instance streams the store's events in the store's order, so a client
    // that loses one engine resumes on another from its cursor: nothing lost, nothing twice, in the order
    // of a subscriber that never dropped. The engines keep 4 events in memory, so the resumed part comes
    // back from the store.
    void streamResumesOnAnotherInstance()
    {
        if (!TestStore::postgres())
            QSKIP("one SQLite file has one engine; on PostgreSQL a cursor resumes on any engine (tst_engineservice_postgres)");
        Engine a(m_dir.filePath(QStringLiteral("resume-a"))), b(m_dir.filePath(QStringLiteral("resume-b")));
        const QString token =
            startSharingOneStore(a, b, QStringLiteral("resume"), { QStringLiteral("--event-memory"), QStringLiteral("4") });
        QVERIFY(!token.isEmpty());
        SseStream steady, dropped;
        openStream(steady, b.url, token, {});
        openStream(dropped, a.url, token, {});
        for (const QUrl &engine : { a.url, b.url })
            QTRY_VERIFY_WITH_TIMEOUT(
                call("GET", QStringLiteral("/metrics"), token, {}, {}, engine).body.contains("bullpen_sse_subscribers 1"), 10'000);
        const auto start = [&](const QUrl &engine, int i) {
            const QJsonObject o { { QStringLiteral("story"), QStringLiteral("An otter stacks stones, part %1.").arg(i) },
                                  { QStringLiteral("fresh"), true } };
            return call("POST", QStringLiteral("/v1/generations"), token, body(o), {}, engine).status;
        };
        QCOMPARE(start(a.url, 1), 202);
        QCOMPARE(start(b.url, 2), 202);
        QTRY_VERIFY_WITH_TIMEOUT(dropped.ids.size() >= 3, 20'000);
        dropped.reply->abort();
        const QByteArray lastSeen = dropped.ids.last().toLatin1();
        for (int i = 3; i <= 6; ++i)
            QCOMPARE(start(i % 2 ? a.url : b.url, i), 202);
        QTRY_COMPARE_WITH_TIMEOUT(steady.types.count(QStringLiteral("generation_finished")), 6, 30'000);
        SseStream resumed;
        openStream(resumed, b.url, token, lastSeen);
        QTRY_VERIFY_WITH_TIMEOUT(!resumed.ids.isEmpty() && resumed.ids.last() == steady.ids.last(), 20'000);
        QCOMPARE(resumed.resets, 0);
        const QStringList joined = dropped.ids + resumed.ids;
        QCOMPARE(joined.size(), QSet<QString>(joined.begin(), joined.end()).size()); // nothing twice
        const qsizetype from = steady.ids.indexOf(dropped.ids.first());
        QVERIFY(from >= 0);
        QCOMPARE(joined, steady.ids.mid(from)); // nothing lost, same order
        // The cursors are places in the store's order, rising.
        qint64 previous = 0;
        for (const QString &id : std::as_const(steady.ids)) {
            QVERIFY2(id.startsWith(QLatin1Char('s')) && id.mid(1).toLongLong() > previous, qPrintable(id));
            previous = id.mid(1).toLongLong();
        }
        // More events than the engine keeps in memory came after the cursor: the store supplied them.
        QVERIFY(resumed.ids.size() > 4);
        const QByteArray metrics = call("GET", QStringLiteral("/metrics"), token, {}, {}, b.url).body;
        qint64 backfilled = -1;
        for (const QByteArray &line : metrics.split('\n')) {
            if (line.startsWith("bullpen_sse_backfilled_events_total "))
                backfilled = line.mid(line.indexOf(' ') + 1).toLongLong();
        }
        QVERIFY2(backfilled >= resumed.ids.size() - 4, qPrintable(QString::number(backfilled)));
        steady.reply->abort();
        resumed.reply->abort();
    }

    // docs/store.md, "Live events across instances": a row waits for a hole below it exactly as long as a
    // transaction that drew the hole is open, then both follow in the store's order; a hole left by a
    // rollback is given up as soon as no transaction can fill it (not after the 5 s backstop).
    void streamWaitsForAHoleAndNoLonger()
    {
        if (!TestStore::postgres())
            QSKIP("the store's order is PostgreSQL's (tst_engineservice_postgres)");
        Engine engine(m_dir.filePath(QStringLiteral("holes")));
        const QString token = engine.token(QStringLiteral("ops"), QStringLiteral("viewer"));
        m_secrets << token;
        QVERIFY(engine.start({ QStringLiteral("--instance"), QStringLiteral("holes") }));
        SseStream stream;
        openStream(stream, engine.url, token, {});
        QTRY_VERIFY_WITH_TIMEOUT(
            call("GET", QStringLiteral("/metrics"), token, {}, {}, engine.url).body.contains("bullpen_sse_subscribers 1"), 10'000);
        QString why;
        QSqlDatabase held = engine.store.connect(QStringLiteral("hole-held"), StoreLocation::Access::ReadWrite, &why);
        QVERIFY2(held.isOpen(), qPrintable(why));
        QSqlDatabase other = engine.store.connect(QStringLiteral("hole-other"), StoreLocation::Access::ReadWrite, &why);
        QVERIFY2(other.isOpen(), qPrintable(why));
        const auto insert = [](QSqlDatabase &db, const QString &generation) {
            Event e;
            e.generationId = generation;
            e.body = GenerationStarted {};
            QSqlQuery q(db);
            q.prepare(
                QStringLiteral("INSERT INTO events (generation_id, seq, type, at_ms, body, instance) VALUES (?, 0, ?, 0, ?, 'elsewhere')"));
            q.addBindValue(generation);
            q.addBindValue(e.type());
            q.addBindValue(QString::fromUtf8(e.compactJson()));
            return q.exec() && QSqlQuery(db).exec(QStringLiteral("NOTIFY bullpen_events"));
        };
        const QString first = QStringLiteral("gen_%1").arg(1, 32, 10, QLatin1Char('0'));
        const QString second = QStringLiteral("gen_%1").arg(2, 32, 10, QLatin1Char('0'));
        const QString rolledBack = QStringLiteral("gen_%1").arg(3, 32, 10, QLatin1Char('0'));
        const QString third = QStringLiteral("gen_%1").arg(4, 32, 10, QLatin1Char('0'));
        // `first` draws its place and stays open; `second`, drawn after it, commits.
        QVERIFY(held.transaction());
        QVERIFY(insert(held, first));
        QVERIFY(insert(other, second));
        // Nothing to await here: the relay reads `second` at once (notified) and must hold it. Three of
        // its hole re-reads and more than the grace pass; then `first` commits and both follow, in order.
        QTest::qWait(1500);
        QCOMPARE(stream.ids.size(), 0);
        QVERIFY(held.commit());
        QTRY_COMPARE_WITH_TIMEOUT(stream.ids.size(), 2, 10'000);
        QVERIFY(stream.ids.at(0).mid(1).toLongLong() < stream.ids.at(1).mid(1).toLongLong());
        QVERIFY(stream.data.at(0).contains(first.toLatin1()));
        QVERIFY(stream.data.at(1).contains(second.toLatin1()));
        // A rolled-back place: the row after it follows once no transaction is left that could fill it.
        QVERIFY(held.transaction());
        QVERIFY(insert(held, rolledBack));
        QVERIFY(insert(other, third));
        QElapsedTimer sinceRollback;
        QVERIFY(held.rollback());
        sinceRollback.start();
        QTRY_COMPARE_WITH_TIMEOUT(stream.ids.size(), 3, 10'000);
        QVERIFY(stream.data.at(2).contains(third.toLatin1()));
        QVERIFY2(sinceRollback.elapsed() < StoreRelay::kGapPatienceMs - 1000, qPrintable(QString::number(sinceRollback.elapsed())));
        QCOMPARE(stream.types, (QStringList { 3, QStringLiteral("generation_started") }));
        held = {};
        other = {};
        StoreLocation::disconnect(QStringLiteral("hole-held"));
        StoreLocation::disconnect(QStringLiteral("hole-other"));
        stream.reply->abort();
    }

    // An attached console learns of its engine's store outage from the engine's /readyz (RemoteStoreWatch,
    // the status bar's source), even while no generation runs, and of its end.
    void attachedConsoleSeesTheEnginesStoreOutage()
    {
        if (!TestStore::postgres())
            QSKIP("a SQLite file does not go away (tst_engineservice_postgres stops its server)");
        Engine idle(m_dir.filePath(QStringLiteral("outage")));
        const QString token = idle.token(QStringLiteral("ops"), QStringLiteral("viewer"));
        m_secrets << token;
        QVERIFY(idle.start({ QStringLiteral("--instance"), QStringLiteral("outage"), QStringLiteral("--lease"), QStringLiteral("1s") }));
        RemoteStoreWatch watch(EngineEndpoint { idle.url, token.toLatin1() }, std::chrono::milliseconds(200));
        QSignalSpy changed(&watch, &HistoryWrites::reachabilityChanged);
        watch.start();
        QString why;
        QVERIFY2(TestStore::stopServer(&why), qPrintable(why));
        // The idle engine notices at its next lease upkeep (a third of a second), then /readyz says so.
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, 15'000);
        QCOMPARE(changed.at(0).at(0).toBool(), false);
        QVERIFY(watch.writeStats().unreachableSinceMs > 0);
        QVERIFY2(changed.at(0).at(1).toString().contains(QLatin1StringView("unreachable")), qPrintable(changed.at(0).at(1).toString()));
        const Answer ready = call("GET", QStringLiteral("/readyz"), {}, {}, {}, idle.url);
        QCOMPARE(ready.status, 503);
        QVERIFY(ready.json().value(QLatin1StringView("store_unreachable_since_ms")).toInteger() > 0);
        for (const char *sql : { "QPSQL", "ERROR", "connection to server", "SELECT", "INSERT" }) // public: never the store's words
            QVERIFY2(!ready.body.contains(sql), ready.body.constData());
        QVERIFY2(TestStore::startServer(&why), qPrintable(why));
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 2, 20'000);
        QCOMPARE(changed.at(1).at(0).toBool(), true);
        QCOMPARE(watch.writeStats().unreachableSinceMs, 0);
        QCOMPARE(call("GET", QStringLiteral("/readyz"), {}, {}, {}, idle.url).status, 200);
    }

    // A token is judged only when the store can be read: during a store outage a good token gets 503 with
    // Retry-After (not 401, which would tell a client its token is bad), and once the server is back, or
    // after a cut connection, the engine connects again by itself and the same token is let in.
    void aStoreOutageIsNotAnAuthorizationFailure()
    {
        if (!TestStore::postgres())
            QSKIP("a SQLite file does not go away (tst_engineservice_postgres stops its server)");
        Engine idle(m_dir.filePath(QStringLiteral("tokens-outage")));
        const QString token = idle.token(QStringLiteral("ops"), QStringLiteral("viewer"));
        m_secrets << token;
        QVERIFY(idle.start({ QStringLiteral("--instance"), QStringLiteral("tokens-outage") }));
        const QString path = QStringLiteral("/v1/history?limit=1");
        QCOMPARE(call("GET", path, token, {}, {}, idle.url).status, 200);
        QString why;
        // A cut connection (the server stays up): the very next request is answered, on a new connection.
        QVERIFY2(TestStore::dropConnections(idle.store, &why) >= 0, qPrintable(why));
        QCOMPARE(call("GET", path, token, {}, {}, idle.url).status, 200);
        QVERIFY2(TestStore::stopServer(&why), qPrintable(why));
        const Answer down = call("GET", path, token, {}, {}, idle.url);
        QCOMPARE(down.status, 503);
        QVERIFY2(down.body.contains("check the token"), down.body.constData());
        QVERIFY(!down.retryAfter.isEmpty());
        for (const char *sql : { "QPSQL", "connection to server", "SELECT" }) // the store's words stay in the log
            QVERIFY2(!down.body.contains(sql), down.body.constData());
        QCOMPARE(call("GET", path, QStringLiteral("bp_not-a-token"), {}, {}, idle.url).status, 503); // nobody is judged
        QVERIFY2(TestStore::startServer(&why), qPrintable(why));
        QTRY_COMPARE_WITH_TIMEOUT(call("GET", path, token, {}, {}, idle.url).status, 200, 20'000);
        QCOMPARE(call("GET", path, QStringLiteral("bp_not-a-token"), {}, {}, idle.url).status, 401);
    }

    // docs/contract.md §12.2: one masking key per deployment. The store keeps the first engine's key fingerprint; an
    // engine with another key is refused, naming both; one given the same file starts.
    void engineWithAnotherMaskingKeyIsRefused()
    {
        const QString dir = m_dir.filePath(QStringLiteral("keys"));
        Engine first(dir);
        QVERIFY(first.start());
        first.stop();
        QString why;
        const auto kept = Masking::loadOrCreate(QDir(dir).filePath(QStringLiteral("masking.key")), &why);
        const auto other = Masking::loadOrCreate(m_dir.filePath(QStringLiteral("other.key")), &why);
        QVERIFY2(kept && other, qPrintable(why));
        QVERIFY(kept->fingerprint() != other->fingerprint());

        Engine stranger(dir);
        stranger.extraEnvironment.insert(QStringLiteral("BULLPEN_MASKING_KEY_FILE"), m_dir.filePath(QStringLiteral("other.key")));
        QVERIFY(!stranger.start());
        const QByteArray said = stranger.stderrText();
        QVERIFY2(said.contains(kept->fingerprint().toLatin1()) && said.contains(other->fingerprint().toLatin1()), said.constData());
        QVERIFY2(said.contains("BULLPEN_MASKING_KEY_FILE"), said.constData());

        Engine colleague(dir);
        colleague.extraEnvironment.insert(QStringLiteral("BULLPEN_MASKING_KEY_FILE"), QDir(dir).filePath(QStringLiteral("masking.key")));
        QVERIFY(colleague.start());
    }

    // docs/contract.md §11.10 across the wire: the engine is killed with 20 generations running; the client sees the
    // loss, reconnects to the restarted engine, and each of the 20 ends ABANDONED, once.
    void killedEngineLeavesNothingRunning()
    {
        Engine engine(m_dir.filePath(QStringLiteral("killed")));
        const QString token = engine.token(QStringLiteral("ops"), QStringLiteral("operator"));
        m_secrets << token;
        QVERIFY(engine.start());
        const quint16 port = engine.m_port;
        RemoteEngine client(EngineEndpoint { engine.url, token.toLatin1() });
        QSignalSpy finished(&client, &EngineClient::finished);
        int started = 0;
        connect(&client, &EngineClient::eventRecorded, this,
                [&started](const Event &e) { started += std::holds_alternative<GenerationStarted>(e.body) ? 1 : 0; });
        client.connectToEngine();
        QTRY_COMPARE_WITH_TIMEOUT(client.state(), RemoteEngine::State::Connected, 10000);
        for (int i = 0; i < 20; ++i) {
            GenerationRequest r;
            r.story = QStringLiteral("Story %1").arg(i);
            r.userId = QStringLiteral("u");
            r.scenario.name = QStringLiteral("primary-hang");
            StagePolicy p = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
            p.primaryTimeout = std::chrono::minutes(5);
            r.storyboardPolicy = p;
            client.start(r);
        }
        QTRY_COMPARE_WITH_TIMEOUT(started, 20, 20000);
        engine.kill();
        QTRY_COMPARE_WITH_TIMEOUT(client.state(), RemoteEngine::State::Reconnecting, 10000);
        QVERIFY(finished.isEmpty());
        Engine again(m_dir.filePath(QStringLiteral("killed")));
        QVERIFY(again.start({}, port));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 20, 60000);
        QSet<QString> ids;
        for (const QList<QVariant> &args : std::as_const(finished)) {
            const auto r = args.first().value<GenerationResult>();
            QCOMPARE(r.state, FinalState::Abandoned);
            ids.insert(r.generationId);
        }
        QCOMPARE(ids.size(), 20);
        QCOMPARE(client.activeCount(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(client.state(), RemoteEngine::State::Connected, 10000);
    }
};

QTEST_GUILESS_MAIN(tst_EngineService)
#include "tst_engineservice.moc"
