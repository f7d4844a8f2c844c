// SPDX-License-Identifier: MIT
// libFuzzer target: bullpen-engine's service (docs/api.md) reading whatever bytes one client sends,
// over a real loopback connection into this process (one engine on the simulator, its own store).
// Every input gets one well-formed status line or a close without an answer, never a 5xx but 501
// (an unknown transfer coding) or 503 (busy); after every input the engine still answers /healthz.
// "$OP" and "$VW" in an input become an operator's and a viewer's token, so that the fuzzer reaches
// the handlers behind authentication (tests/fuzz/corpus/fuzz_service_request holds such requests).
#include "runtime/enginesetup.h"
#include "service/engineservice.h"
#include "store/apitokens.h"
#include "store/store.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTimer>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

using namespace bullpen;

namespace {

struct Engine
{
    QTemporaryDir dir;
    EngineSetup setup;
    std::unique_ptr<ApiTokens> tokens;
    std::unique_ptr<EngineService> service;
    QByteArray operatorToken;
    QByteArray viewerToken;
    quint16 port = 0;
};

[[noreturn]] void fail(const char *what, const QString &why = {})
{
    fprintf(stderr, "fuzz_service_request: %s %s\n", what, qPrintable(why));
    abort();
}

Engine *start()
{
    static int argc = 1;
    static char name[] = "fuzz_service_request";
    static char *argv[] = { name, nullptr };
    new QCoreApplication(argc, argv); // for the whole run, as the engine is
    auto *e = new Engine;
    SetupOptions o;
    o.forceSimulator = true;
    o.dataDir = e->dir.filePath(QStringLiteral("data"));
    o.keyFile = e->dir.filePath(QStringLiteral("none.env"));
    o.engineThreads = 1;
    if (!e->setup.init(o))
        fail("engine setup failed");
    QString why;
    e->tokens = ApiTokens::open(e->setup.store()->storeLocation(), &why);
    if (!e->tokens)
        fail("no token table:", why);
    const auto token = [&](const char *tokenName, ApiRole role) {
        const std::optional<QString> t = e->tokens->add(QString::fromLatin1(tokenName), role, &why);
        if (!t)
            fail("no token:", why);
        return t->toLatin1();
    };
    e->operatorToken = token("fuzz-operator", ApiRole::Operator);
    e->viewerToken = token("fuzz-viewer", ApiRole::Viewer);
    ServiceOptions options;
    options.port = 0;
    options.tokenRate = 1e9; // the fuzzer's own pace, not the rate limit, is what is tested
    options.tokenBurst = 1e9;
    e->service = std::make_unique<EngineService>(e->setup, *e->tokens, options);
    if (!e->service->listen(&why))
        fail("the service did not listen:", why);
    e->port = static_cast<quint16>(e->service->url().port());
    return e;
}

// The bytes that came back, once a whole answer (its head and Content-Length bytes), a close, or the
// time is up, whichever is first; the engine's event loop runs meanwhile.
QByteArray exchange(quint16 port, const QByteArray &request, int waitMs)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    QEventLoop loop;
    QByteArray got;
    const auto whole = [&got] {
        const qsizetype end = got.indexOf("\r\n\r\n");
        if (end < 0)
            return false;
        const qsizetype at = got.toLower().indexOf("content-length:");
        if (at < 0 || at > end)
            return !got.toLower().contains("transfer-encoding: chunked") || got.endsWith("0\r\n\r\n");
        return got.size() - end - 4 >= got.mid(at + 15, got.indexOf('\r', at) - at - 15).trimmed().toLongLong();
    };
    QObject::connect(&socket, &QTcpSocket::connected, &loop, [&] { socket.write(request); });
    QObject::connect(&socket, &QTcpSocket::readyRead, &loop, [&] {
        got += socket.readAll();
        if (whole())
            loop.quit();
    });
    QObject::connect(&socket, &QTcpSocket::disconnected, &loop, &QEventLoop::quit);
    QObject::connect(&socket, &QTcpSocket::errorOccurred, &loop, &QEventLoop::quit);
    QTimer::singleShot(waitMs, &loop, &QEventLoop::quit);
    loop.exec();
    return got + socket.readAll();
}

int statusOf(const QByteArray &answer)
{
    if (!answer.startsWith("HTTP/1.1 ") || answer.size() < 12)
        return -1;
    bool ok = false;
    const int status = answer.mid(9, 3).toInt(&ok);
    return ok && answer.at(12) == ' ' ? status : -1;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Engine *engine = start();
    QByteArray request(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    request.replace("$OP", engine->operatorToken).replace("$VW", engine->viewerToken);

    const QByteArray answer = exchange(engine->port, request, 50); // a half request waits for more: not for long
    if (!answer.isEmpty()) {
        const int status = statusOf(answer);
        if (status < 100 || status > 599) {
            fprintf(stderr, "not an HTTP answer: %s\n", answer.left(200).constData());
            abort();
        }
        if (status >= 500 && status != 501 && status != 503) {
            fprintf(stderr, "a fault answered %d: %s\n", status, answer.left(400).constData());
            abort();
        }
    }
    const QByteArray health = exchange(engine->port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 5000);
    if (statusOf(health) != 200) {
        fprintf(stderr, "/healthz after the input: %s\n", health.left(200).constData());
        abort();
    }
    return 0;
}
