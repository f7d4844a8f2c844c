// SPDX-License-Identifier: MIT
#include "enginesetup.h"

#include "config/keytransport.h"
#include "config/modeldeprecations.h"
#include "config/processlimits.h"
#include "config/providertrust.h"
#include "config/proxyrules.h"
#include "contract/isotime.h"
#include "contract/providerregistry.h"
#include "engine/breakeraudit.h"
#include "engine/breakerboard.h"
#include "keychain/secretstore.h"
#include "logsink.h"
#include "replayrunner.h"
#include "store/silencerecords.h"
#include "wire/providersjson.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QSysInfo>

Q_LOGGING_CATEGORY(lcSetup, "bullpen.setup")

namespace bullpen {

namespace {

// Descriptors an engine may hold at once: one connection per attempt in flight, up to the per-provider
// limit for every provider it knows, twice over when the simulator's end is in this process, and a
// margin for the store, logs and listeners (docs/architecture.md, "Descriptors").
qint64 descriptorsWanted(const Settings &settings, bool simulate)
{
    const qint64 perProvider = settings.pipeline.maxInFlightPerProvider;
    const qint64 providers = settings.providerTable.all().size();
    return perProvider * providers * (simulate ? 2 : 1) + 256;
}

} // namespace

EngineSetup::EngineSetup(QObject *parent)
    : EngineConnection(parent)
{
}

EngineSetup::~EngineSetup()
{
    m_engine.reset(); // every stage shut down while the clients and the simulator still exist
    m_simulatorThread.reset();
    m_simulator = nullptr;
    if (m_store)
        m_store->flush();
}

std::shared_ptr<ProxyRoutes> EngineSetup::proxyRoutes(const QProcessEnvironment &environment, QString *error)
{
    const SettingsLoad load = SettingsLoader::load(defaultSettingsFile(), defaultKeyFile(), environment, /*requireKeys=*/false);
    const std::optional<ProxyRules> rules = ProxyRules::from(load.settings.proxy, environment, error);
    if (!rules)
        return nullptr;
    auto routes = std::make_shared<ProxyRoutes>();
    routes->install(*rules);
    return routes;
}

QString EngineSetup::defaultSettingsFile()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)).filePath(QStringLiteral("bullpen/bullpen.json"));
}

QString EngineSetup::defaultDataDir(const QProcessEnvironment &environment)
{
    const QString fromEnv = environment.value(QStringLiteral("BULLPEN_DATA_DIR"));
    if (!fromEnv.isEmpty())
        return fromEnv;
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)).filePath(QStringLiteral("bullpen"));
}

QString EngineSetup::defaultKeyFile()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)).filePath(QStringLiteral("bullpen/keys.env"));
}

QProcessEnvironment EngineSetup::keychainKeys(const ProviderTable &providers)
{
    QProcessEnvironment found;
    for (Provider p : providers.all()) {
        const QString variable = apiKeyVariable(providers, p);
        if (variable.isEmpty())
            continue; // it takes no key
        const secrets::Result r = secrets::read(variable);
        if (r.status == secrets::Status::Unavailable)
            break; // no keychain here: asking for the others would only wait again
        if (r.status == secrets::Status::Ok)
            found.insert(variable, r.value);
    }
    return found;
}

// The store in the data directory (or BULLPEN_DATABASE_URL) with its masking key; false with errors().
bool EngineSetup::openStore(const SetupOptions &options)
{
    m_dataDir = options.dataDir;
    if (m_dataDir.isEmpty())
        m_dataDir = options.environment.contains(QStringLiteral("BULLPEN_DATA_DIR")) || m_settings.dataDir.isEmpty()
            ? defaultDataDir(options.environment)
            : m_settings.dataDir;
    QString why;
    const std::optional<StoreLocation> location = StoreLocation::resolve(m_dataDir, options.environment, &why);
    if (location)
        m_store = Store::open(*location, &why);
    if (!m_store) {
        m_errors << ConfigError { location && location->isPostgres() ? QString::fromLatin1(StoreLocation::kUrlVariable)
                                                                     : QStringLiteral("data directory"),
                                  why };
        return false;
    }
    // Until a front end names it (bullpen-engine: --instance, else host:port): host and program.
    m_store->setIdentity(QSysInfo::machineHostName() + QLatin1Char(':') + QFileInfo(QCoreApplication::applicationFilePath()).fileName(),
                         QCoreApplication::applicationVersion());
    m_store->setRetention(m_settings.retention, QDir(m_dataDir).filePath(QStringLiteral("images")));
    // One key per deployment (docs/contract.md §12.2): engines sharing a store are given the same file.
    const QString keyVariable = QStringLiteral("BULLPEN_MASKING_KEY_FILE");
    const bool named = !options.environment.value(keyVariable).isEmpty();
    const QString keyPath = named ? options.environment.value(keyVariable) : QDir(m_dataDir).filePath(QStringLiteral("masking.key"));
    m_masking = Masking::loadOrCreate(keyPath, &why);
    if (m_masking && !m_store->adoptMaskingKey(m_masking->fingerprint(), &why))
        m_masking.reset();
    if (m_masking)
        m_store->setMasking(&*m_masking); // searches by raw user id are hashed in the store
    if (!m_masking) {
        m_errors << ConfigError { named ? keyVariable : QStringLiteral("data directory"), why };
        m_store.reset();
        return false;
    }
    // Alert silences live in the store: every engine on it shows and obeys the same ones, and a restart
    // keeps them (docs/api.md, "Alerts"). On PostgreSQL a change through any engine is announced at once.
    why.clear();
    m_silenceRecords = SilenceRecords::open(*location, &why);
    if (m_silenceRecords)
        m_silenceRecords->listen([this] {
            syncSilences(/*force=*/true);
            emitAlerts();
        });
    else
        qCWarning(lcSetup).noquote() << "alert silences are kept by this engine alone (the store has none:" << why << ")";
    return true;
}

// The built-in simulator on a thread of its own, scripted by --scenario, every provider pointed at it
// with a key for this run; false with errors().
bool EngineSetup::startSimulator(const SetupOptions &options)
{
    QString why;
    const std::optional<Scenario> scenario =
        Scenario::load(options.scenario.isEmpty() ? QStringLiteral("healthy") : options.scenario, &why);
    if (!scenario) {
        m_errors << ConfigError { QStringLiteral("--scenario"), why };
        return false;
    }
    // On a thread of its own: the provider's side of every exchange never competes with the
    // engine's deadlines for the engine's event loop (a real provider is another machine).
    m_simulatorThread = std::make_unique<SimulatorThread>();
    if (!m_simulatorThread->start(options.simulatorPort, &why)) {
        m_errors << ConfigError { QStringLiteral("simulator"), why + QStringLiteral("; choose another port") };
        m_simulatorThread.reset();
        return false;
    }
    m_simulator = &m_simulatorThread->simulator();
    if (!m_settings.storyboardFallbackChosen) {
        // Against the simulator, with no fallback provider chosen anywhere, run the fallback path of the
        // source write-up (Gemini primary, Qwen fallback) so that scenarios show it. Real providers
        // keep docs/contract.md §4.6's default of none.
        m_settings.storyboard.fallback = m_settings.storyboard.primary == Provider::Qwen ? Provider::Gemini : Provider::Qwen;
        m_simulatedFallback = true;
    }
    m_simulator->setProviders(m_settings.providerTable); // it plays this engine's providers, at their own paths
    m_simulator->setScenario(*scenario);
    m_simulator->setRoles(m_settings.storyboard.primary, m_settings.storyboard.fallback);
    // A key for this run only: other local users cannot drive (or reset) this process's simulator.
    QByteArray secret(18, Qt::Uninitialized);
    QRandomGenerator::system()->generate(secret.begin(), secret.end());
    const QString key =
        QStringLiteral("sim-") + QString::fromLatin1(secret.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
    m_simulator->setRequiredKey(key.toLatin1());
    for (auto &entry : m_settings.providers) {
        entry.second.baseUrl = m_simulator->baseUrl(entry.first);
        entry.second.apiKey = key;
    }
    return true;
}

// Proxies and the authorities trusted for provider calls; false with errors().
bool EngineSetup::installNetworkRules(const SetupOptions &options)
{
    // Proxies for every provider call; the built-in simulator, in this process, is reached directly.
    {
        QString why;
        const std::optional<ProxyRules> rules = ProxyRules::from(m_settings.proxy, options.environment, &why);
        if (!rules) {
            m_errors << ConfigError { QStringLiteral("proxy"), why };
            return false;
        }
        m_context.proxy->install(*rules); // this engine's, never the process's: another engine keeps its own
        if (m_simulator) {
            for (const auto &entry : m_settings.providers)
                m_context.proxy->addDirectOrigin(entry.second.baseUrl);
        }
        m_proxyDescription = rules->describe();
    }
    // Authorities trusted for https providers besides the system's (a TLS-inspecting proxy, a private CA).
    {
        QList<QSslCertificate> extra;
        if (!m_settings.providerCa.isEmpty()) {
            QString why;
            const std::optional<QList<QSslCertificate>> read = readPemCertificates(m_settings.providerCa, &why);
            if (!read) {
                m_errors << ConfigError { QStringLiteral("BULLPEN_PROVIDER_CA"), why };
                return false;
            }
            extra = *read;
        }
        m_context.trust->install(extra); // this engine's: another engine in the process trusts its own
    }
    return true;
}

bool EngineSetup::init(const SetupOptions &options)
{
    raiseOpenFileLimit();
    const QString settingsFile = options.settingsFile.isEmpty() ? defaultSettingsFile() : options.settingsFile;
    const QString keyFile = options.keyFile.isEmpty() ? defaultKeyFile() : options.keyFile;
    m_settingsFilePath = settingsFile;
    m_keyFilePath = keyFile;
    m_environment = options.environment;
    if (options.clock && options.engineThreads != 0) {
        m_errors << ConfigError { QStringLiteral("clock"),
                                  QStringLiteral(
                                      "a clock of the caller's runs the engine on the calling thread only: set engineThreads to 0") };
        return false;
    }
    if (options.clock)
        m_context.clock = options.clock;

    // A file named on purpose must exist: a typo must not quietly fall back to the simulator.
    for (const auto &[given, flag] : { std::pair { options.settingsFile, QStringLiteral("--settings") },
                                       std::pair { options.keyFile, QStringLiteral("--key-file") } }) {
        if (options.namedFilesMustExist && !given.isEmpty() && !QFileInfo::exists(given)) {
            m_errors << ConfigError { flag, QStringLiteral("%1 does not exist; check the path").arg(given) };
            return false;
        }
    }

    // First without requiring keys: whether any key exists decides between real providers and the simulator.
    QProcessEnvironment keychain;
    if (options.useKeychain) // for the providers the settings list (a first read tells which)
        keychain = keychainKeys(SettingsLoader::load(settingsFile, keyFile, options.environment, false).settings.providerTable);
    SettingsLoad load = SettingsLoader::load(settingsFile, keyFile, options.environment, /*requireKeys=*/false, keychain);
    m_errors = load.errors;
    m_settings = load.settings;
    if (!m_errors.isEmpty())
        return false;

    const bool simulate = options.forceSimulator || m_settings.noProviderConfigured();
    // Before the first burst needs it, and before this setup starts the simulator's thread: while a
    // process has one thread, growing its table waits for no grace period (docs/architecture.md,
    // "Descriptors").
    reserveDescriptorTable(descriptorsWanted(m_settings, simulate));
    if (!simulate) {
        if (!options.scenario.isEmpty()) {
            m_errors << ConfigError { QStringLiteral("--scenario"),
                                      QStringLiteral("scenarios script the built-in simulator, but provider keys are configured; "
                                                     "add --simulator to use it anyway") };
            return false;
        }
        m_errors = SettingsLoader::validate(m_settings, /*requireKeys=*/true);
        if (!m_errors.isEmpty())
            return false;
    } else if (!startSimulator(options)) {
        return false;
    }

    // Keys are masked in every log line (logsink.h), whatever quotes them.
    for (const auto &entry : m_settings.providers)
        logging::addSecret(entry.second.apiKey);
    if (!simulate)
        for (const KeyTransportWarning &w : keyTransportWarnings(m_settings))
            qCWarning(lcSetup).noquote() << w.text;

    if (!installNetworkRules(options))
        return false;

    if (options.useStore && !openStore(options))
        return false;
    if (m_store) // the store's own words (its address, the driver's error) are logged here, never answered (/readyz)
        connect(m_store.get(), &HistoryWrites::reachabilityChanged, this, [](bool reachable, const QString &message) {
            if (reachable)
                qCInfo(lcSetup).noquote() << message;
            else
                qCWarning(lcSetup).noquote() << message;
        });

    const int threads = options.engineThreads == SetupOptions::kThreadsFromEnvironment ? LocalEngine::threadsFromEnvironment(m_environment)
                                                                                       : std::max(0, options.engineThreads);
    Store *const store = m_store ? m_store.get() : options.writeInto;
    const Masking *const masking = m_masking ? &*m_masking : options.writeIntoMasking;
    m_engine = std::make_unique<LocalEngine>(m_settings, pipelineOptions(), store, masking, threads, m_context);
    // A breaker that opens or closes on an engine thread reaches the console's cards (queued to this thread).
    // Its transitions go to the console's audit trail too (as the engine's), as an attached engine audits them.
    connect(&m_engine->breakers(), &BreakerBoard::changed, this, [this](const BreakerChange &change) {
        refreshProviders();
        if (const auto line = engineAuditLine(change))
            auditConsole(line->action, line->target, QString::fromLatin1(kEngineAuditor));
    });
    m_alertTimer.setInterval(kAlertInterval);
    connect(&m_alertTimer, &QTimer::timeout, this, &EngineSetup::evaluateAlerts);
    m_alertTimer.start();
    return true;
}

void EngineSetup::refreshProviders()
{
    if (!m_engine)
        return;
    QMetaObject::invokeMethod(
        this,
        [this] {
            const BreakerBoard &board = m_engine->breakers();
            Q_EMIT providersChanged(
                ProvidersJson::toJson(m_settings.providerTable.all(), board.breakers(m_context.clock->now()), board.drains(), {}));
        },
        Qt::QueuedConnection);
}

void EngineSetup::drainProvider(const DrainRequest &drain)
{
    if (!m_engine)
        return;
    Drain d;
    d.provider = drain.provider;
    d.role = drain.role;
    d.stage = drain.stage;
    d.reason = drain.reason.trimmed().left(500);
    d.by = QStringLiteral("console");
    d.until = drain.until;
    m_engine->breakers().drain(d);
    auditConsole(QStringLiteral("drain"), QStringLiteral("%1 (%2)").arg(toId(d.provider), d.reason.left(200)));
}

void EngineSetup::restoreProvider(Provider provider)
{
    if (!m_engine)
        return;
    m_engine->breakers().restore(provider, QStringLiteral("console"));
    auditConsole(QStringLiteral("restore"), toId(provider));
}

void EngineSetup::restoreDrains(const RestoreRequest &restore)
{
    if (!m_engine)
        return;
    m_engine->breakers().restore(restore.provider, QStringLiteral("console"), restore.reason.trimmed().left(500),
                                 DrainScope { restore.role, restore.stage });
    auditConsole(QStringLiteral("restore"), toId(restore.provider));
}

void EngineSetup::resetBreaker(const BreakerResetRequest &reset)
{
    if (!m_engine)
        return;
    const BreakerKey key { reset.provider, reset.role, reset.stage };
    m_engine->breakers().reset(key, QStringLiteral("console"), reset.reason.trimmed().left(500), m_context.clock->now());
    auditConsole(QStringLiteral("reset"), key.toString());
    refreshProviders(); // a closed breaker that was closed announces nothing
}

void EngineSetup::auditConsole(const QString &action, const QString &target, const QString &who)
{
    m_consoleAudit.prepend(QJsonObject { { QStringLiteral("at"), isoUtcWithMs(QDateTime::currentMSecsSinceEpoch()) },
                                         { QStringLiteral("token"), who },
                                         { QStringLiteral("action"), action },
                                         { QStringLiteral("target"), target },
                                         { QStringLiteral("instance"), QString() } });
    while (m_consoleAudit.size() > 1000)
        m_consoleAudit.removeLast();
    refreshAudit();
}

void EngineSetup::evaluateAlerts()
{
    if (!m_engine)
        return;
    syncSilences();
    AlertFacts facts;
    const Clock::time_point now = alertClock().now();
    facts.breakers = m_engine->breakers().breakers(now);
    facts.drains = m_engine->breakers().drains();
    if (m_store)
        facts.storeReachable = m_store->writeStats().unreachableSinceMs == 0;
    for (const Alert &a : m_alerts.evaluate(facts, now, QDateTime::currentDateTimeUtc()))
        Q_EMIT alertChanged(a.toJson());
    emitAlerts();
}

QJsonObject EngineSetup::alertsJson(const QString &instance) const
{
    return m_alerts.toJson(instance, alertClock().now());
}

void EngineSetup::refreshAlerts()
{
    evaluateAlerts();
}

void EngineSetup::emitAlerts()
{
    const QJsonObject answer = alertsJson(QString());
    QMetaObject::invokeMethod(
        this, [this, answer] { Q_EMIT alertsChanged(answer); }, Qt::QueuedConnection);
}

void EngineSetup::silenceAlert(const SilenceRequest &silence)
{
    QString why;
    std::optional<Silence> s = AlertBoard::makeSilence(silence.rule, QStringLiteral("console"), silence.reason.trimmed().left(500),
                                                       silence.length, alertClock().now(), QDateTime::currentDateTimeUtc(), &why);
    if (s)
        s = putSilence(*s, &why);
    if (!s) {
        QMetaObject::invokeMethod(
            this, [this, why] { Q_EMIT providerActionFailed(why); }, Qt::QueuedConnection);
        return;
    }
    auditConsole(QStringLiteral("silence"),
                 QStringLiteral("%1 until %2 (%3)").arg(s->rule, isoUtcWithMs(s->until.toMSecsSinceEpoch()), s->reason.left(200)));
    emitAlerts();
}

void EngineSetup::endSilence(const QString &rule)
{
    QString why;
    if (liftSilence(rule, QStringLiteral("console"), &why))
        auditConsole(QStringLiteral("unsilence"), rule);
    else if (!why.isEmpty())
        QMetaObject::invokeMethod(
            this, [this, why] { Q_EMIT providerActionFailed(why); }, Qt::QueuedConnection);
    emitAlerts();
}

std::optional<Silence> EngineSetup::putSilence(const Silence &made, QString *storeError)
{
    QString why;
    if (m_silenceRecords && !m_silenceRecords->save(made, m_store ? m_store->instance() : QString(), &why)) {
        qCWarning(lcSetup).noquote() << "a silence could not be stored:" << why;
        // In the console's language (its message line); English in the service, which installs none.
        *storeError = QCoreApplication::translate("bullpen::EngineSetup",
                                                  "the silence could not be stored (the engine's log says why); "
                                                  "nothing was changed. Try again when the store answers");
        return std::nullopt;
    }
    m_alerts.addSilence(made);
    return made;
}

std::optional<Silence> EngineSetup::liftSilence(const QString &rule, const QString &by, QString *storeError)
{
    syncSilences(/*force=*/true); // a silence made through another engine a moment ago is ended too
    const Clock::time_point now = alertClock().now();
    const std::vector<Silence> lasting = m_alerts.silences(now);
    const auto it = std::find_if(lasting.begin(), lasting.end(), [&](const Silence &s) { return s.rule == rule; });
    if (it == lasting.end())
        return std::nullopt;
    QString why;
    if (m_silenceRecords && !m_silenceRecords->end(it->id, by, QDateTime::currentDateTimeUtc(), &why)) {
        if (why.isEmpty()) { // another engine ended it in between
            syncSilences(/*force=*/true);
            return std::nullopt;
        }
        qCWarning(lcSetup).noquote() << "the end of a silence could not be stored:" << why;
        *storeError = QCoreApplication::translate("bullpen::EngineSetup",
                                                  "the end of the silence could not be stored (the engine's log "
                                                  "says why); it still lasts. Try again when the store answers");
        return std::nullopt;
    }
    return m_alerts.endSilence(rule, now);
}

void EngineSetup::syncSilences(bool force)
{
    if (!m_silenceRecords)
        return;
    QString why;
    for (const Silence &s : m_alerts.takeEnded(alertClock().now()))
        if (!m_silenceRecords->expire(s.id, &why))
            break; // still open in the store: read back below, it is seen to have run out again
    // How fresh the copy is, on the real steady clock: store polling, not engine time (a test's clock may
    // stand still).
    const Clock::time_point read = SteadyClock::instance().now();
    if (why.isEmpty() && !force && m_silencesRead && read - *m_silencesRead < kSilenceRefresh)
        return;
    std::vector<Silence> stored;
    if (why.isEmpty())
        stored = m_silenceRecords->load(&why);
    if (!why.isEmpty()) {
        if (why != m_silenceSyncError) // said once per distinct failure; the silences in force stay as they were
            qCWarning(lcSetup).noquote() << "could not read the alert silences from the store:" << why;
        m_silenceSyncError = why;
        return;
    }
    m_silenceSyncError.clear();
    m_silencesRead = read;
    m_alerts.adoptSilences(std::move(stored), alertClock().now(), QDateTime::currentDateTimeUtc());
}

void EngineSetup::refreshAudit()
{
    QMetaObject::invokeMethod(
        this, [this] { Q_EMIT auditChanged(m_consoleAudit); }, Qt::QueuedConnection);
}

PipelineOptions EngineSetup::pipelineOptions() const
{
    PipelineOptions o = EngineStack::optionsFor(m_settings);
    if (!m_dataDir.isEmpty())
        o.imageDir = QDir(m_dataDir).filePath(QStringLiteral("images"));
    o.providerOrigin = m_simulator ? QStringLiteral("simulator:") + m_simulator->scenario().name : QStringLiteral("live");
    return o;
}

QStringList EngineSetup::scenarios() const
{
    return m_simulator ? Scenario::builtInNames() : QStringList {};
}

QString EngineSetup::defaultScenario() const
{
    return m_simulator ? m_simulator->scenario().name : QString();
}

ReplayPlayer *EngineSetup::newReplay(QObject *parent)
{
    return new ReplayRunner(replayStore(), replayMasking(), parent);
}

ComparisonRunner *EngineSetup::newComparisonRunner(QObject *parent)
{
    auto *runner = new ComparisonRunner(*m_engine, parent);
    runner->setStore(m_store.get(), m_settings.pipeline.storeContent);
    return runner;
}

QString EngineSetup::startGeneration(const GenerationRequest &request)
{
    return m_engine->start(request);
}

QStringList EngineSetup::warnings() const
{
    QStringList out;
    if (m_simulator)
        return out; // the simulator answers any model name
    std::vector<Provider> used { m_settings.storyboard.primary };
    if (m_settings.storyboard.fallback)
        used.push_back(*m_settings.storyboard.fallback);
    for (Provider p : used) {
        const QString w = deprecationWarning(p, m_settings.provider(p).model);
        if (!w.isEmpty() && !out.contains(w))
            out << w;
    }
    const QString image = deprecationWarning(Provider::Gemini, m_settings.pipeline.imageModel);
    if (!image.isEmpty())
        out << image;
    return out;
}

QString EngineSetup::describe() const
{
    // In the application's language where a console installed one (the status bar); English in the
    // CLI and the service, which install none.
    if (m_simulator)
        return QCoreApplication::translate(
                   "bullpen::EngineSetup",
                   "built-in simulator on http://127.0.0.1:%1 (scenario %2 unless a request names its own), %3 → %4%5; "
                   "no provider key is configured or --simulator was given")
            .arg(m_simulator->port())
            .arg(m_simulator->scenario().name, toId(m_settings.storyboard.primary),
                 m_settings.storyboard.fallback ? toId(*m_settings.storyboard.fallback) : QStringLiteral("none"),
                 m_simulatedFallback ? QCoreApplication::translate(
                     "bullpen::EngineSetup", " (fallback provider chosen for the simulator; set STORYBOARD_FALLBACK_PROVIDER to change)")
                                     : QString());
    QStringList live;
    for (const auto &entry : m_settings.providers) {
        if (entry.second.hasKey() || !m_settings.providerTable.spec(entry.first).takesKey()) // an added provider may take no key
            live << toId(entry.first);
    }
    return QCoreApplication::translate("bullpen::EngineSetup", "live providers: %1").arg(live.join(QStringLiteral(", ")));
}

} // namespace bullpen
