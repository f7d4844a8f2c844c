// SPDX-License-Identifier: MIT
#include "replayrunner.h"

#include "enginesetup.h"

#include <QEventLoop>
#include <QTimer>

namespace bullpen {

ReplayRunner::ReplayRunner(QObject *parent)
    : ReplayPlayer(parent)
{
}

ReplayRunner::ReplayRunner(Store *into, const Masking *masking, QObject *parent)
    : ReplayPlayer(parent)
    , m_into(into)
    , m_masking(masking)
{
}

ReplayRunner::~ReplayRunner() = default;

bool ReplayRunner::start(const Plan &plan, QString *why)
{
    return start(Options { plan.scenarioFile, plan.settingsFile, plan.keyFile, plan.replayOf, m_into, m_masking }, why);
}

bool ReplayRunner::start(const Options &options, QString *why)
{
    if (m_setup) {
        *why = QStringLiteral("a replay is already running");
        return false;
    }
    SetupOptions o;
    o.forceSimulator = true;
    o.scenario = options.scenarioFile;
    o.settingsFile = options.settingsFile;
    o.keyFile = options.keyFile;
    o.useStore = false;
    o.writeInto = options.into;
    o.writeIntoMasking = options.masking;
    o.engineThreads = 1;
    o.environment = QProcessEnvironment(); // nothing from this process's environment: no key, no endpoint
    auto setup = std::make_unique<EngineSetup>();
    if (!setup->init(o)) {
        QStringList errors;
        for (const ConfigError &e : setup->errors())
            errors << e.toString();
        *why = errors.join(QStringLiteral("; "));
        return false;
    }
    m_setup = std::move(setup);
    connect(&m_setup->engine(), &EngineClient::eventRecorded, this, &ReplayRunner::eventRecorded);
    connect(&m_setup->engine(), &EngineClient::finished, this, [this](const GenerationResult &result) {
        // The engine ends after its own signal has returned, never inside it: before anything a
        // receiver of finished() queues, so that running() is false by then.
        QTimer::singleShot(0, this, [this] { m_setup.reset(); });
        Q_EMIT finished(result);
    });
    GenerationRequest g;
    g.story = QStringLiteral("A replay: a lighthouse keeper finds a letter in a bottle and answers it."); // no user content
    g.fresh = true;
    g.replayOf = options.replayOf;
    m_setup->engine().start(g);
    return true;
}

std::optional<GenerationResult> ReplayRunner::play(const Options &options, std::chrono::milliseconds limit, QString *why)
{
    ReplayRunner runner;
    std::optional<GenerationResult> result;
    QEventLoop loop;
    connect(&runner, &ReplayRunner::finished, &loop, [&](const GenerationResult &r) {
        result = r;
        loop.quit();
    });
    if (!runner.start(options, why))
        return std::nullopt;
    QTimer::singleShot(limit, &loop, &QEventLoop::quit);
    loop.exec();
    if (!result)
        *why = QStringLiteral("the replay did not end within %1 s").arg(limit.count() / 1000);
    return result;
}

} // namespace bullpen
