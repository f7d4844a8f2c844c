// SPDX-License-Identifier: MIT
// bullpen-engine: the engine as a service (docs/contract.md §12.1, docs/api.md). The same engine the console and the
// CLI embed, headless, serving its HTTP API; and `token add|list|revoke` for the API's bearer tokens.
#include "config/eventloops.h"
#include "config/exitcode.h"
#include "config/processlimits.h"
#include "config/qtnoise.h"
#include "config/settingstable.h"
#include "ops/interrupts.h"
#include "runtime/enginesetup.h"
#include "runtime/logsink.h"
#include "service/engineservice.h"
#include "sim/httpserving.h"
#include "store/apitokens.h"
#include "store/storedatabase.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QDir>
#include <QGuiApplication>
#include <QLoggingCategory>
#include <QTextStream>

using namespace bullpen;

namespace {

Q_LOGGING_CATEGORY(lcEngine, "bullpen.engine", QtInfoMsg)

QTextStream &out()
{
    static QTextStream s(stdout);
    return s;
}
QTextStream &err()
{
    static QTextStream s(stderr);
    return s;
}

QString dataDirFrom(const QCommandLineParser &parser, const QCommandLineOption &option)
{
    return parser.isSet(option) ? parser.value(option) : EngineSetup::defaultDataDir(QProcessEnvironment::systemEnvironment());
}

// `bullpen-engine token add NAME --role viewer|operator`, `token list`, `token revoke NAME`.
int runToken(QStringList arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("API tokens of this engine's store. A token is printed once, when it is made; only its "
                                                    "SHA-256 is kept."));
    parser.addHelpOption();
    const QCommandLineOption dataDir(QStringLiteral("data-dir"),
                                     QStringLiteral("The store's folder (default: BULLPEN_DATA_DIR, else the user's data folder)."),
                                     QStringLiteral("path"));
    const QCommandLineOption role(QStringLiteral("role"), QStringLiteral("viewer (reads) or operator (also starts, cancels, compares)."),
                                  QStringLiteral("role"));
    parser.addOptions({ dataDir, role });
    parser.addPositionalArgument(QStringLiteral("action"), QStringLiteral("add NAME, list, or revoke NAME"));
    arguments.removeAt(1); // "token"
    if (!parser.parse(arguments)) {
        err() << "bullpen-engine token: " << parser.errorText() << "\n";
        return kExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out() << parser.helpText();
        return 0;
    }
    const QStringList args = parser.positionalArguments();
    const QString action = args.value(0);
    if (action != u"add" && action != u"list" && action != u"revoke") {
        err() << "bullpen-engine token: say add NAME --role viewer|operator, list, or revoke NAME\n";
        return kExitUsage;
    }
    const QString dir = dataDirFrom(parser, dataDir);
    QString why;
    // Opening the store creates or upgrades it (and finishes the work of dead processes as ABANDONED).
    const std::optional<StoreLocation> location = StoreLocation::resolve(dir, QProcessEnvironment::systemEnvironment(), &why);
    const std::unique_ptr<Store> store = location ? Store::open(*location, &why) : nullptr;
    if (!store) {
        err() << "bullpen-engine token: " << why << "\n";
        return 1;
    }
    const std::unique_ptr<ApiTokens> tokens = ApiTokens::open(store->storeLocation(), &why);
    if (!tokens) {
        err() << "bullpen-engine token: " << why << "\n";
        return 1;
    }
    if (action == u"list") {
        const QList<ApiToken> all = tokens->list(&why);
        if (!why.isEmpty()) {
            err() << "bullpen-engine token: " << why << "\n";
            return 1;
        }
        if (all.isEmpty())
            err() << "no tokens yet: bullpen-engine token add NAME --role operator\n";
        for (const ApiToken &t : all)
            out() << QStringLiteral("%1  %2  created %3%4\n")
                         .arg(t.name, -24)
                         .arg(toId(t.role), -8)
                         .arg(QDateTime::fromMSecsSinceEpoch(t.createdAtMs).toString(Qt::ISODate),
                              t.revokedAtMs
                                  ? QStringLiteral("  revoked ") + QDateTime::fromMSecsSinceEpoch(*t.revokedAtMs).toString(Qt::ISODate)
                                  : QString());
        return 0;
    }
    const QString name = args.value(1);
    if (name.isEmpty()) {
        err() << "bullpen-engine token " << action << ": name the token\n";
        return kExitUsage;
    }
    if (action == u"revoke") {
        if (!tokens->revoke(name, &why)) {
            err() << "bullpen-engine token revoke: " << why << "\n";
            return 1;
        }
        err() << "revoked \"" << name << "\": refused from the engine's next request on\n";
        return 0;
    }
    const std::optional<ApiRole> r = apiRoleFromId(parser.value(role));
    if (!r) {
        err() << "bullpen-engine token add: --role viewer or --role operator is required\n";
        return kExitUsage;
    }
    const std::optional<QString> token = tokens->add(name, *r, &why);
    if (!token) {
        err() << "bullpen-engine token add: " << why << "\n";
        return 1;
    }
    out() << *token << "\n";
    err() << "token \"" << name << "\" (" << toId(*r) << ") made; it is shown this once. Clients send it as "
          << "Authorization: Bearer TOKEN (bullpen and bullpen-cli read BULLPEN_ENGINE_TOKEN).\n";
    return 0;
}

// What an operator must hear at start: a network address without TLS, no token to call with.
void warnOfExposure(const ServiceOptions &o, ApiTokens &tokens)
{
    if (!o.address.isLoopback() && !o.tls)
        qCWarning(lcEngine).noquote()
            << "listening on" << o.address.toString()
            << "without TLS: tokens and stories cross the network in clear; give --tls-cert and --tls-key, or put a "
               "TLS-terminating proxy in front";
    bool anyLive = false;
    for (const ApiToken &t : tokens.list())
        anyLive = anyLive || !t.revokedAtMs;
    if (!anyLive)
        qCWarning(lcEngine)
            << "no API token yet; every /v1 request is refused until you make one: bullpen-engine token add NAME --role operator";
}

// One line a supervisor or a test can read, and the same as a log line.
void announce(const ServiceOptions &o, const EngineService &service, EngineSetup &setup)
{
    out() << "bullpen-engine " << o.version << " listening on " << service.url().toString() << " (instance " << service.instance() << ", "
          << setup.engine().threadCount() << " engine threads); " << setup.describe() << "\n";
    out().flush();
    logging::setInstance(service.instance());
    logging::note(QtInfoMsg, lcEngine(), QStringLiteral("listening"),
                  { { QStringLiteral("url"), service.url().toString() },
                    { QStringLiteral("version"), o.version },
                    { QStringLiteral("engine_threads"), setup.engine().threadCount() },
                    { QStringLiteral("runs_on"), setup.describe() },
                    { QStringLiteral("proxy"), setup.proxyDescription() } });
}

// bullpen-engine's options, made once.
struct ServeFlags
{
    const QCommandLineOption listen { QStringLiteral("listen"),
                                      QStringLiteral("Address and port (default 127.0.0.1:8700; port 0: any free one)."),
                                      QStringLiteral("host:port"), QStringLiteral("127.0.0.1:8700") };
    const QCommandLineOption instance { QStringLiteral("instance"), QStringLiteral("This engine's name (default: host name and port)."),
                                        QStringLiteral("name") };
    const QCommandLineOption dataDir { QStringLiteral("data-dir"), QStringLiteral("The store's folder."), QStringLiteral("path") };
    const QCommandLineOption settings { QStringLiteral("settings"), QStringLiteral("Settings file."), QStringLiteral("file") };
    const QCommandLineOption keyFile { QStringLiteral("key-file"), QStringLiteral("The 0600 key file."), QStringLiteral("file") };
    const QCommandLineOption simulator { QStringLiteral("simulator"),
                                         QStringLiteral("Run on the built-in simulator even when keys are configured.") };
    const QCommandLineOption scenario { QStringLiteral("scenario"), QStringLiteral("The simulator's default scenario."),
                                        QStringLiteral("name") };
    const QCommandLineOption drain { QStringLiteral("drain"),
                                     QStringLiteral("How long running generations may take to finish on SIGTERM (default 30s)."),
                                     QStringLiteral("duration"), QStringLiteral("30s") };
    const QCommandLineOption probeEvery { QStringLiteral("probe-every"),
                                          QStringLiteral(
                                              "Probes: a provider, role and stage with no traffic for this long gets one minimal synthetic "
                                              "generation (it costs a request; off by default; on PostgreSQL one engine probes)."),
                                          QStringLiteral("duration") };
    const QCommandLineOption lease { QStringLiteral("lease"),
                                     QStringLiteral(
                                         "How long a running generation's lease lasts unless renewed (every third of it); when an engine "
                                         "dies, another finishes its generations as ABANDONED once the lease runs out (default 15s)."),
                                     QStringLiteral("duration"), QStringLiteral("15s") };
    const QCommandLineOption maxInFlight { QStringLiteral("max-in-flight"),
                                           QStringLiteral("Generations running at once; beyond it 429 (default 1000)."),
                                           QStringLiteral("n"), QStringLiteral("1000") };
    const QCommandLineOption rate { QStringLiteral("rate"),
                                    QStringLiteral("Requests per second per token (default 200; bursts of twice that)."),
                                    QStringLiteral("n"), QStringLiteral("200") };
    const QCommandLineOption maxSubscribers { QStringLiteral("max-subscribers"),
                                              QStringLiteral(
                                                  "Event stream clients at once (default 64); one token may hold a quarter of them."),
                                              QStringLiteral("n"), QStringLiteral("64") };
    const QCommandLineOption maxConnections {
        QStringLiteral("max-connections"),
        QStringLiteral("Client connections at once (default 1024, and no more than the open-file limit leaves room for); "
                       "one address may hold half of them. Past it the idlest connection is closed to make room."),
        QStringLiteral("n"), QStringLiteral("1024")
    };
    const QCommandLineOption requestTimeout {
        QStringLiteral("request-timeout"),
        QStringLiteral("How long a request may take to arrive whole, from a new connection or its first byte (default 10s)."),
        QStringLiteral("duration"), QStringLiteral("10s")
    };
    const QCommandLineOption idleTimeout { QStringLiteral("idle-timeout"),
                                           QStringLiteral("How long a connection may stay idle between requests (default 60s)."),
                                           QStringLiteral("duration"), QStringLiteral("60s") };
    const QCommandLineOption backlog {
        QStringLiteral("subscriber-backlog"),
        QStringLiteral("Unsent bytes an event subscriber may fall behind before it is closed with `overflow` (default 4194304)."),
        QStringLiteral("bytes"), QStringLiteral("4194304")
    };
    const QCommandLineOption eventMemory { QStringLiteral("event-memory"),
                                           QStringLiteral(
                                               "Events kept in memory for event-stream clients that resume (default 65536). On PostgreSQL "
                                               "older ones are read back from the store."),
                                           QStringLiteral("n"), QStringLiteral("65536") };
    const QCommandLineOption threads { QStringLiteral("threads"),
                                       QStringLiteral("Engine threads (default: BULLPEN_ENGINE_THREADS, else the cores)."),
                                       QStringLiteral("n") };
    const QCommandLineOption tlsCert { QStringLiteral("tls-cert"),
                                       QStringLiteral("Serve HTTPS with this certificate (PEM, its chain after it); needs --tls-key."),
                                       QStringLiteral("file") };
    const QCommandLineOption tlsKey { QStringLiteral("tls-key"),
                                      QStringLiteral("The certificate's private key (PEM, RSA or EC, no passphrase, mode 0600)."),
                                      QStringLiteral("file") };
    const QCommandLineOption logFormat { QStringLiteral("log-format"),
                                         QStringLiteral("json (one object per line, the default: for journald and containers) or text."),
                                         QStringLiteral("format"), QStringLiteral("json") };
    const QCommandLineOption logLevel { QStringLiteral("log-level"), QStringLiteral("debug, info (default), warning or error."),
                                        QStringLiteral("level"), QStringLiteral("info") };
};

// A whole-number flag from 1 to `max`; a refusal is logged naming the flag.
bool positiveFlag(const QCommandLineParser &parser, const QCommandLineOption &option, int max, int *into)
{
    bool ok = false;
    const int v = parser.value(option).toInt(&ok);
    if (!ok || v < 1 || v > max) {
        qCCritical(lcEngine).noquote() << QStringLiteral("--%1: a whole number from 1 to %2").arg(option.names().constFirst()).arg(max);
        return false;
    }
    *into = v;
    return true;
}

// The service's options from the flags, each refusal logged naming its flag.
bool serviceOptions(const QCommandLineParser &parser, const ServeFlags &f, ServiceOptions &o, std::chrono::milliseconds &leaseTime)
{
    if (parser.isSet(f.tlsCert) != parser.isSet(f.tlsKey)) {
        qCCritical(lcEngine) << "--tls-cert and --tls-key go together";
        return false;
    }
    o.version = QCoreApplication::applicationVersion();
    const QString hostPort = parser.value(f.listen);
    const qsizetype colon = hostPort.lastIndexOf(QLatin1Char(':'));
    bool portOk = false;
    const uint port = colon > 0 ? hostPort.mid(colon + 1).toUInt(&portOk) : 0;
    if (colon <= 0 || !portOk || port > 65535
        || o.address.setAddress(hostPort.left(colon).remove(QLatin1Char('[')).remove(QLatin1Char(']'))) == false) {
        qCCritical(lcEngine).noquote() << "--listen" << hostPort << ": expected HOST:PORT with a numeric address, e.g. 127.0.0.1:8700";
        return false;
    }
    o.port = static_cast<quint16>(port);
    o.instance = parser.value(f.instance);
    // A duration option at least `least` long, said with its name when refused.
    const auto duration = [&](const QCommandLineOption &option, std::chrono::milliseconds least, const char *example,
                              std::chrono::milliseconds *into) {
        QString why;
        const auto value = parseDuration(parser.value(option), &why);
        if (!value || *value < least) {
            qCCritical(lcEngine).noquote() << QStringLiteral("--%1:").arg(option.names().constFirst())
                                           << (value ? QStringLiteral("at least %1 ms").arg(least.count()) : why)
                                           << QStringLiteral("(e.g. %1)").arg(QLatin1StringView(example));
            return false;
        }
        *into = *value;
        return true;
    };
    if (!duration(f.drain, std::chrono::milliseconds(0), "30s", &o.drain)
        || !duration(f.lease, std::chrono::milliseconds(300), "15s", &leaseTime)
        || (parser.isSet(f.probeEvery) && !duration(f.probeEvery, std::chrono::seconds(1), "60s", &o.probeEvery))
        || !duration(f.requestTimeout, std::chrono::milliseconds(100), "10s", &o.connections.request)
        || !duration(f.idleTimeout, std::chrono::milliseconds(100), "60s", &o.connections.idle))
        return false;
    QString why;
    const auto positive = [&](const QCommandLineOption &option, int max, int *into) {
        return positiveFlag(parser, option, max, into);
    };
    int rateValue = 0;
    if (!positive(f.maxInFlight, 100000, &o.maxInFlight) || !positive(f.rate, 1000000, &rateValue)
        || !positive(f.maxSubscribers, 10000, &o.events.maxSubscribers)
        || !positive(f.maxConnections, 1 << 20, &o.connections.maxConnections))
        return false;
    o.events.maxPerToken = std::max(1, o.events.maxSubscribers / 4); // one token cannot take every slot
    o.events.reservedForOperators = o.events.maxSubscribers / 4; // viewers' streams never lock operators out
    int backlogBytes = 0;
    if (!positive(f.backlog, 1 << 30, &backlogBytes))
        return false;
    o.events.backlogBytes = backlogBytes;
    int eventMemoryValue = 0;
    if (!positive(f.eventMemory, 10'000'000, &eventMemoryValue))
        return false;
    o.events.retention = static_cast<std::size_t>(eventMemoryValue);
    if (parser.isSet(f.tlsCert)) {
        o.tls = loadServerTls(parser.value(f.tlsCert), parser.value(f.tlsKey), &why);
        if (!o.tls) {
            qCCritical(lcEngine).noquote() << why;
            return false;
        }
    }
    o.tokenRate = rateValue;
    o.tokenBurst = 2.0 * rateValue;
    return true;
}

int runServe(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Serves the engine's HTTP API (docs/api.md). SIGTERM drains: no new generations, running "
                       "ones finish or are cancelled within --drain, every one is recorded, exit 0."));
    parser.addHelpOption();
    parser.addVersionOption();
    const ServeFlags f;
    parser.addOptions({ f.listen,         f.instance,       f.dataDir,        f.settings,    f.keyFile,     f.simulator,
                        f.scenario,       f.drain,          f.probeEvery,     f.lease,       f.maxInFlight, f.rate,
                        f.maxSubscribers, f.maxConnections, f.requestTimeout, f.idleTimeout, f.backlog,     f.eventMemory,
                        f.threads,        f.tlsCert,        f.tlsKey,         f.logFormat,   f.logLevel });
    if (!parser.parse(arguments)) {
        err() << "bullpen-engine: " << parser.errorText() << "\n";
        return kExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out() << parser.helpText() << "\nAlso: bullpen-engine token add NAME --role viewer|operator | token list | token revoke NAME\n\n"
              << settingsHelpText();
        return 0;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        out() << "bullpen-engine " << QCoreApplication::applicationVersion() << "\n";
        return 0;
    }
    QString logError;
    const auto format = logging::parseFormat(parser.value(f.logFormat), &logError);
    const auto level = logging::parseLevel(parser.value(f.logLevel), &logError);
    if (!format || !level) {
        err() << "bullpen-engine: " << logError << "\n";
        return kExitUsage;
    }
    // From here on every diagnostic is a log line (docs/contract.md, "Logs").
    logging::install({ *format, *level, QStringLiteral("bullpen-engine"), QString() });
    ServiceOptions o;
    std::chrono::milliseconds leaseTime { 0 };
    if (!serviceOptions(parser, f, o, leaseTime))
        return kExitUsage;
    QString why;
    SetupOptions so;
    so.settingsFile = parser.value(f.settings);
    so.keyFile = parser.value(f.keyFile);
    so.namedFilesMustExist = true;
    so.forceSimulator = parser.isSet(f.simulator);
    so.scenario = parser.value(f.scenario);
    so.dataDir = parser.value(f.dataDir);
    so.engineThreads = SetupOptions::kThreadsFromEnvironment;
    if (parser.isSet(f.threads) && !positiveFlag(parser, f.threads, 64, &so.engineThreads))
        return kExitUsage;
    EngineSetup setup;
    if (!setup.init(so)) {
        for (const ConfigError &e : setup.errors())
            qCCritical(lcEngine).noquote() << e.toString();
        return kExitUsage;
    }
    setup.store()->setLease(leaseTime);
    const std::unique_ptr<ApiTokens> tokens = ApiTokens::open(setup.store()->storeLocation(), &why);
    if (!tokens) {
        qCCritical(lcEngine).noquote() << why;
        return 1;
    }
    EngineService service(setup, *tokens, o);
    if (!service.listen(&why)) {
        qCCritical(lcEngine).noquote() << why;
        return 1;
    }
    warnOfExposure(o, *tokens);
    // SIGTERM drains from before the line below: a supervisor that stops the engine the moment it
    // says it listens gets a drain, not the default action (the engine killed with nothing recorded).
    Interrupts interrupts([&service] { service.beginDrain(); });
    announce(o, service, setup);

    QObject::connect(&service, &EngineService::drained, qApp, [] { QCoreApplication::exit(0); });
    const int code = QCoreApplication::exec();
    qCInfo(lcEngine) << "stopped; every generation it ran is recorded in a final state";
    return code;
}

} // namespace

int main(int argc, char *argv[])
{
    bullpen::chooseEventLoops(bullpen::GlibLoops::None); // before Qt makes any event loop (config/eventloops.h)
    bullpen::muteQtNoise(); // Qt lines that say nothing to act on, or too much (config/qtnoise.h)
    // Headless: the simulator draws comics (QPainter text needs a QGuiApplication), never windows.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // Logging first, so that even Qt's start-up warnings are log lines (docs/contract.md 12.4); the
    // options are read again, and refused if wrong, with the others.
    {
        logging::Options log { logging::Format::Json, QtInfoMsg, QStringLiteral("bullpen-engine"), QString() };
        QStringList arguments;
        for (int i = 0; i < argc; ++i)
            arguments << QString::fromLocal8Bit(argv[i]);
        QString ignored; // a wrong value keeps the default here
        logging::takeArguments(&arguments, &log, &ignored);
        if (arguments.value(1) != u"token")
            logging::install(log);
    }
    QGuiApplication app(argc, argv);
    raiseOpenFileLimit();
    QCoreApplication::setApplicationName(QStringLiteral("bullpen"));
    QCoreApplication::setApplicationVersion(QStringLiteral(BULLPEN_VERSION));
    const QStringList args = QCoreApplication::arguments();
    if (args.value(1) == u"token")
        return runToken(args);
    return runServe(args);
}
