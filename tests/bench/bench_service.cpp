// SPDX-License-Identifier: MIT
// bullpen-engine as a service, measured from outside its process (docs/api.md):
//   1. POST /v1/generations → 202, keep-alive, on a zero-latency simulator: median / p99
//   2. one generation through the service (POST → its generation_finished on the event stream) against
//      the same request on an embedded engine, alternately: the cost the service adds
//   3. the event stream: recorded → received by each of 20 subscribers while 200 generations/s start
//      (BENCH_SSE_RATE=N for another rate; on BULLPEN_TEST_STORE=postgres the stream is the store's)
//   4. 1000 concurrent keep-alive clients for D seconds: answers by status, the engine's RSS over time
// Usage: [BENCH_PARTS=1,3] bench_service [seconds for 4, default 60]. Build with the release preset.
#include "benchstats.h"
#include "config/processlimits.h"
#include "engineprocess.h"
#include "providers/sseparser.h"
#include "runtime/enginesetup.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>
#include <QUuid>

#include <map>
#include <memory>

using namespace bullpen;
using namespace bullpen::bench;

namespace {

// One keep-alive HTTP/1.1 connection: one request at a time, answers framed by Content-Length.
class Connection : public QObject
{
public:
    Connection(quint16 port, QByteArray token)
        : m_token(std::move(token))
    {
        m_socket.connectToHost(QHostAddress::LocalHost, port);
        connect(&m_socket, &QTcpSocket::readyRead, this, [this] { onData(); });
    }
    bool waitConnected() { return m_socket.state() == QAbstractSocket::ConnectedState || m_socket.waitForConnected(10000); }

    void send(const QByteArray &method, const QByteArray &path, const QByteArray &body, std::function<void(int, QByteArray)> done)
    {
        m_done = std::move(done);
        m_buffer.clear();
        m_socket.write(method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + m_token
                       + "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
    }
    bool busy() const { return static_cast<bool>(m_done); }

private:
    void onData()
    {
        m_buffer += m_socket.readAll();
        const qsizetype head = m_buffer.indexOf("\r\n\r\n");
        if (head < 0 || !m_done)
            return;
        const qsizetype cl = m_buffer.indexOf("Content-Length: ");
        const qsizetype eol = m_buffer.indexOf("\r\n", cl);
        const qsizetype length = cl >= 0 && cl < head ? m_buffer.mid(cl + 16, eol - cl - 16).toLongLong() : 0;
        if (m_buffer.size() < head + 4 + length)
            return;
        const int status = m_buffer.mid(9, 3).toInt();
        const QByteArray body = m_buffer.mid(head + 4, length);
        m_buffer.remove(0, head + 4 + length);
        auto done = std::move(m_done);
        m_done = nullptr;
        done(status, body);
    }

    QByteArray m_token;
    QTcpSocket m_socket;
    QByteArray m_buffer;
    std::function<void(int, QByteArray)> m_done;
};

// A raw event-stream subscriber.
class Subscriber : public QObject
{
public:
    Subscriber(quint16 port, const QByteArray &token, std::function<void(const SseEvent &)> onEvent)
        : m_onEvent(std::move(onEvent))
    {
        m_socket.connectToHost(QHostAddress::LocalHost, port);
        m_socket.waitForConnected(10000);
        m_socket.write("GET /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + token + "\r\n\r\n");
        connect(&m_socket, &QTcpSocket::readyRead, this, [this] {
            QByteArray data = m_socket.readAll();
            if (!m_headerSeen) {
                const qsizetype head = data.indexOf("\r\n\r\n");
                if (head < 0)
                    return;
                data = data.mid(head + 4);
                m_headerSeen = true;
            }
            for (const SseEvent &e : m_parser.feed(data))
                m_onEvent(e);
        });
    }

private:
    QTcpSocket m_socket;
    SseParser m_parser;
    bool m_headerSeen = false;
    std::function<void(const SseEvent &)> m_onEvent;
};

double rssMiB(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
    }
    return 0;
}

void spin(const std::function<bool()> &until, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!until() && t.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
}

QByteArray storyBody(const QString &id = {})
{
    QJsonObject o { { QStringLiteral("story"),
                      QStringLiteral("Mina finds a key. \"Whose is it?\" she asks. A cat meows at the door. They open it.") },
                    { QStringLiteral("fresh"), true } };
    if (!id.isEmpty())
        o.insert(QStringLiteral("generation_id"), id);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

constexpr char kUsage[] = R"(bench_service: bullpen-engine as a service, measured from outside its process (docs/api.md):
  1. POST /v1/generations -> 202 on a zero-latency simulator; 2. the cost the service adds over an embedded
  engine, paired (target: median <= 1 ms); 3. the event stream to 20 subscribers; 4. 1000 keep-alive clients.
Each figure is printed with its target on one line; exits 1 when a target is missed.
BENCH_TIGHTEN=F tightens every target F times.
  [BENCH_PARTS=1,3] bench_service [seconds for part 4, default 60]
)";

} // namespace

int main(int argc, char *argv[])
{
    if (bench::helpRequested(argc, argv, kUsage))
        return 0;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    raiseOpenFileLimit();
    QTextStream out(stdout);
    bench::Judge judge(QStringLiteral("bench_service"));
    const int soakSeconds = argc > 1 ? QString::fromLatin1(argv[1]).toInt() : 60;
    // BENCH_PARTS=3 (or 1,3 …): only those parts, for a quick comparison of one figure.
    const QStringList parts = qEnvironmentVariable("BENCH_PARTS").split(QLatin1Char(','), Qt::SkipEmptyParts);
    const auto runs = [&parts](int part) {
        return parts.isEmpty() || parts.contains(QString::number(part));
    };
    QTemporaryDir dir;
    const QString scenario = dir.filePath(QStringLiteral("instant.json"));
    {
        QFile f(scenario);
        f.open(QIODevice::WriteOnly);
        f.write(
            R"({"name": "instant", "description": "every provider answers at once", "seed": 1, "providers": {"*": {"do": "ok", "latency_ms": [0, 0]}}})");
    }
    test::Engine engine(dir.filePath(QStringLiteral("engine")));
    const QByteArray token = engine.token(QStringLiteral("bench"), QStringLiteral("operator")).toLatin1();
    if (token.isEmpty()
        || !engine.start({ QStringLiteral("--scenario"), scenario, QStringLiteral("--rate"), QStringLiteral("1000000"),
                           QStringLiteral("--max-in-flight"), QStringLiteral("100000"), QStringLiteral("--max-subscribers"),
                           QStringLiteral("100") })) {
        out << "bench_service: the engine did not start\n";
        return 2;
    }
    const quint16 port = engine.m_port;
    const qint64 pid = engine.m_process.processId();
    out << "bullpen-engine pid " << pid << " on " << engine.url.toString() << ", zero-latency simulator, 2 cores\n";

    // 1. POST → 202 on one keep-alive connection, one after another.
    if (runs(1)) {
        Connection c(port, token);
        c.waitConnected();
        Sample ms;
        int accepted = 0;
        for (int i = 0; i < 2000; ++i) {
            QElapsedTimer t;
            t.start();
            bool done = false;
            c.send("POST", "/v1/generations", storyBody(), [&](int status, const QByteArray &) {
                ms.add(double(t.nsecsElapsed()) / 1e6);
                accepted += status == 202 ? 1 : 0;
                done = true;
            });
            spin([&] { return done; }, 10000);
        }
        out << "1. POST /v1/generations -> 202, keep-alive, one at a time (each starts a generation that runs meanwhile), ms:\n   "
            << ms.summary(3) << "; " << accepted << " of 2000 accepted\n";
        spin([] { return false; }, 3000); // let them finish
    }

    // 2. One generation, service vs embedded, alternately.
    if (runs(2)) {
        QTemporaryDir embeddedDir;
        SetupOptions o;
        o.forceSimulator = true;
        o.scenario = scenario;
        o.dataDir = embeddedDir.filePath(QStringLiteral("data"));
        o.settingsFile = embeddedDir.filePath(QStringLiteral("none.json"));
        o.keyFile = embeddedDir.filePath(QStringLiteral("none.env"));
        o.environment = QProcessEnvironment();
        o.engineThreads = SetupOptions::kThreadsFromEnvironment;
        EngineSetup embedded;
        if (!embedded.init(o)) {
            out << "bench_service: " << embedded.errors().constFirst().toString() << "\n";
            return 2;
        }
        QString waitingFor;
        bool finished = false;
        Subscriber watch(port, token, [&](const SseEvent &e) {
            if (e.event == "generation_finished" && e.data.contains(waitingFor.toLatin1()))
                finished = true;
        });
        QObject::connect(&embedded.engine(), &EngineClient::finished, &app, [&](const GenerationResult &r) {
            if (r.generationId == waitingFor)
                finished = true;
        });
        spin([] { return false; }, 300);
        Connection c(port, token);
        c.waitConnected();
        // Part 1's 2000 generations finish first: none of them may still be running, nor their records
        // waiting for the store's writer, under the first samples here.
        for (bool idle = false; !idle;) {
            c.send("GET", "/metrics", {}, [&idle](int, const QByteArray &body) {
                idle = body.contains("\nbullpen_generations_in_flight 0\n") && body.contains("\nbullpen_store_write_backlog 0\n");
            });
            spin([&] { return !c.busy(); }, 5000);
            if (!idle)
                spin([] { return false; }, 200);
        }
        spin([] { return false; }, 500);
        Sample viaService, inProcess, paired;
        const qint64 faultsBefore = minorFaultsOf(pid);
        const double cpuBefore = cpuMsOf(pid);
        for (int i = 0; i < 300; ++i) {
            for (const bool remote : { true, false }) {
                waitingFor = QStringLiteral("gen_") + QUuid::createUuid().toString(QUuid::Id128);
                finished = false;
                QElapsedTimer t;
                t.start();
                if (remote) {
                    c.send("POST", "/v1/generations", storyBody(waitingFor), [](int, const QByteArray &) {});
                } else {
                    GenerationRequest r;
                    r.story = QStringLiteral("Mina finds a key. \"Whose is it?\" she asks. A cat meows at the door. They open it.");
                    r.fresh = true;
                    r.generationId = waitingFor;
                    embedded.startGeneration(r);
                }
                spin([&] { return finished; }, 20000);
                (remote ? viaService : inProcess).add(double(t.nsecsElapsed()) / 1e6);
                if (!remote) // each pair ran back to back: its difference cancels the machine's slow drift
                    paired.add(viaService.values.back() - inProcess.values.back());
                spin([&] { return !c.busy(); }, 5000);
            }
        }
        out << "2. One whole generation (storyboard, captions, image), start -> finished, ms:\n"
            << "   through bullpen-engine (POST, then its generation_finished on /v1/events): " << viaService.summary(3) << "\n"
            << "   embedded (LocalEngine in this process):                                 " << inProcess.summary(3) << "\n"
            << "   added by the service: median " << QString::number(viaService.at(50) - inProcess.at(50), 'f', 3) << " ms, p90 "
            << QString::number(viaService.at(90) - inProcess.at(90), 'f', 3) << " ms; median of the 300 pairs' differences "
            << QString::number(paired.at(50), 'f', 3) << " ms (p25 " << QString::number(paired.at(25), 'f', 3) << ", p75 "
            << QString::number(paired.at(75), 'f', 3) << ")\n"
            << "   the engine process per generation: " << QString::number((cpuMsOf(pid) - cpuBefore) / 300.0, 'f', 2) << " ms of CPU, "
            << QString::number(double(minorFaultsOf(pid) - faultsBefore) / 300.0, 'f', 0) << " minor page faults\n";
        // Paired: each pair ran back to back, so the machine's drift cancels. On a fresh engine
        // (BENCH_PARTS=2, as scripts/bench.sh --gate runs it); after part 1's 2000 generations it is not met.
        judge.atMost("service_added_ms_median_paired", paired.at(50), 1.0, "ms",
                     QStringLiteral("one whole generation through bullpen-engine minus the same embedded, median of 300 pairs"));
        judge.report("generation_via_service_ms_median", viaService.at(50), "ms");
        judge.report("generation_embedded_ms_median", inProcess.at(50), "ms");
    }

    // 3. Event fan-out: 20 subscribers, 200 generations/s (BENCH_SSE_RATE) for 10 s.
    if (runs(3)) {
        const int rate = std::clamp(qEnvironmentVariableIntValue("BENCH_SSE_RATE"), 0, 1000);
        Sample lateness;
        qint64 frames = 0;
        std::vector<std::unique_ptr<Subscriber>> subscribers;
        for (int i = 0; i < 20; ++i) {
            subscribers.push_back(std::make_unique<Subscriber>(port, token, [&](const SseEvent &e) {
                if (e.id.isEmpty())
                    return;
                ++frames;
                const QJsonObject o = QJsonDocument::fromJson(e.data).object();
                const QDateTime recorded = QDateTime::fromString(o.value(QLatin1StringView("wall_time")).toString(), Qt::ISODateWithMs);
                if (recorded.isValid())
                    lateness.add(double(QDateTime::currentMSecsSinceEpoch() - recorded.toMSecsSinceEpoch()));
            }));
        }
        spin([] { return false; }, 500);
        std::vector<std::unique_ptr<Connection>> posters;
        for (int i = 0; i < 8; ++i) {
            posters.push_back(std::make_unique<Connection>(port, token));
            posters.back()->waitConnected();
        }
        int sent = 0, refused = 0;
        QTimer tick;
        tick.setTimerType(Qt::PreciseTimer);
        tick.setInterval(1000 / (rate > 0 ? rate : 200));
        QObject::connect(&tick, &QTimer::timeout, &app, [&] {
            for (auto &p : posters) {
                if (!p->busy()) {
                    p->send("POST", "/v1/generations", storyBody(),
                            [&](int status, const QByteArray &) { refused += status == 202 ? 0 : 1; });
                    ++sent;
                    return;
                }
            }
        });
        QElapsedTimer wall;
        wall.start();
        tick.start();
        spin([&] { return wall.elapsed() > 10000; }, 11000);
        tick.stop();
        spin([] { return false; }, 3000);
        out << "3. Event stream, 20 subscribers, " << QString::number(sent / 10.0, 'f', 0) << " generations/s started for 10 s (" << refused
            << " refused): " << frames << " frames received; recorded -> received by a subscriber, ms (wall clock, 1 ms resolution):\n   "
            << lateness.summary(1) << "\n";
    }

    // 4. 1000 concurrent clients.
    if (runs(4)) {
        std::vector<std::unique_ptr<Connection>> clients;
        for (int i = 0; i < 1000; ++i)
            clients.push_back(std::make_unique<Connection>(port, token));
        int connected = 0;
        for (auto &c : clients)
            connected += c->waitConnected() ? 1 : 0;
        std::map<int, qint64> statuses;
        Sample answerMs;
        QElapsedTimer wall;
        wall.start();
        const double rssStart = rssMiB(pid);
        double rssMax = rssStart;
        std::vector<double> rssEvery10s;
        // Each client asks again ~1 s after its last answer: ~1000 requests/s, a mix of reads and starts.
        std::function<void(Connection *, int)> ask = [&](Connection *c, int n) {
            if (wall.elapsed() > soakSeconds * 1000)
                return;
            QElapsedTimer *t = new QElapsedTimer;
            t->start();
            const bool start = n % 50 == 0;
            const QByteArray path = start ? "/v1/generations" : n % 3 == 0 ? "/v1/stats/providers" : "/v1/instances";
            c->send(start ? "POST" : "GET", path, start ? storyBody() : QByteArray(), [&, c, n, t](int status, const QByteArray &) {
                ++statuses[status];
                answerMs.add(double(t->nsecsElapsed()) / 1e6);
                delete t;
                QTimer::singleShot(900 + (n * 37) % 200, c, [&, c, n] { ask(c, n + 1); });
            });
        };
        for (std::size_t i = 0; i < clients.size(); ++i)
            QTimer::singleShot(static_cast<int>(i % 1000), clients[i].get(), [&, c = clients[i].get(), i] { ask(c, static_cast<int>(i)); });
        QTimer sampler;
        QObject::connect(&sampler, &QTimer::timeout, &app, [&] {
            const double rss = rssMiB(pid);
            rssMax = std::max(rssMax, rss);
            rssEvery10s.push_back(rss);
        });
        sampler.start(10000);
        spin([&] { return wall.elapsed() > (soakSeconds + 3) * 1000; }, (soakSeconds + 5) * 1000);
        sampler.stop();
        QString byStatus;
        for (const auto &[status, n] : statuses)
            byStatus += QStringLiteral(" %1×%2").arg(status).arg(n);
        QString rssLine;
        for (double r : rssEvery10s)
            rssLine += QStringLiteral(" %1").arg(r, 0, 'f', 1);
        out << "4. " << connected << " concurrent keep-alive clients for " << soakSeconds
            << " s (~1 request/s each: instances, provider stats, "
            << "every 50th a generation): answers" << byStatus << "\n   answer time ms: " << answerMs.summary(2)
            << "\n   engine RSS MiB: start " << QString::number(rssStart, 'f', 1) << ", every 10 s:" << rssLine << ", max "
            << QString::number(rssMax, 'f', 1) << "\n";
    }
    engine.stop();
    return judge.exitCode();
}
