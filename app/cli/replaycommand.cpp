// SPDX-License-Identifier: MIT
#include "replaycommand.h"

#include "clihelp.h"
#include "config/exitcode.h"
#include "remote/remotehistory.h"
#include "replay/replaysource.h"
#include "runtime/enginesetup.h"
#include "runtime/logsink.h"
#include "store/store.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

namespace bullpen::cli {

namespace {

struct ReplayOptions
{
    QCommandLineOption dataDir { QStringLiteral("data-dir"), QStringLiteral("The store to read the generation from."),
                                 QStringLiteral("path") };
    QCommandLineOption settings { QStringLiteral("settings"),
                                  QStringLiteral("Replay under this settings file (\"what if\") instead of the recorded policy."),
                                  QStringLiteral("file") };
    QCommandLineOption scenarioOut { QStringLiteral("scenario-out"),
                                     QStringLiteral("Also write the scenario (docs/scenarios.md) to FILE, for bullpen --scenario."),
                                     QStringLiteral("file") };
    QCommandLineOption json { QStringLiteral("json"), QStringLiteral("The verdict, both runs and the scenario as one JSON object.") };
    QCommandLineOption noRun { QStringLiteral("scenario-only"), QStringLiteral("Write or print the scenario without running it.") };
    RemoteFlag remote;
};

std::unique_ptr<HistoryReader> openHistory(const ReplayOptions &o, const QCommandLineParser &p, QString *error)
{
    if (o.remote.isSet(p)) {
        EngineEndpoint endpoint;
        if (!o.remote.endpoint(p, &endpoint, error))
            return nullptr;
        return std::make_unique<RemoteHistory>(endpoint);
    }
    const QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    const QString dir = p.isSet(o.dataDir) ? p.value(o.dataDir) : EngineSetup::defaultDataDir(environment);
    const std::optional<StoreLocation> location = StoreLocation::resolve(dir, environment, error);
    return location ? Store::openReadOnly(*location, error) : nullptr;
}

// Runs the scenario in an embedded engine on the simulator, with nothing stored; nothing on failure.
std::optional<GenerationResult> play(const QString &scenarioFile, const QString &settingsFile, const QString &keyFile,
                                     std::chrono::milliseconds limit, QString *why)
{
    SetupOptions o;
    o.forceSimulator = true;
    o.scenario = scenarioFile;
    o.settingsFile = settingsFile;
    o.keyFile = keyFile;
    o.useStore = false;
    o.engineThreads = 1;
    o.environment = QProcessEnvironment();
    EngineSetup setup;
    if (!setup.init(o)) {
        *why = setup.errors().constFirst().toString();
        return std::nullopt;
    }
    std::optional<GenerationResult> result;
    QEventLoop loop;
    QObject::connect(&setup.engine(), &EngineClient::finished, &loop, [&](const GenerationResult &r) {
        result = r;
        loop.quit();
    });
    QTimer::singleShot(limit, &loop, &QEventLoop::quit);
    GenerationRequest g;
    g.story = QStringLiteral("A replay: a lighthouse keeper finds a letter in a bottle and answers it."); // no user content
    g.fresh = true;
    setup.engine().start(g);
    loop.exec();
    if (!result)
        *why = QStringLiteral("the replay did not end within %1 s").arg(limit.count() / 1000);
    return result;
}

} // namespace

int runReplay(const QStringList &arguments)
{
    QTextStream out(stdout);
    QTextStream err(logging::stderrDevice());
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Plays a stored generation again on the built-in simulator: each provider behaves as "
                                                    "it did for that generation's attempts. Prints both timelines and a verdict."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("generation"), QStringLiteral("The generation's id (a whole id)."));
    const ReplayOptions o;
    parser.addOptions({ o.dataDir, o.settings, o.scenarioOut, o.json, o.noRun, o.remote.engine });
    if (!parser.parse(arguments) || parser.positionalArguments().size() != 1) {
        err << "bullpen-cli replay: " << (parser.errorText().isEmpty() ? QStringLiteral("give one generation id") : parser.errorText())
            << "\n";
        return kExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << commandHelp(parser, QStringLiteral("replay"),
                           { { 0, QStringLiteral("reproduced (or, with --settings, the replay ran)") },
                             { 1, QStringLiteral("the replay differs from the record (each difference is printed)") },
                             { 2, QStringLiteral("usage refused: no such generation, no store, a bad settings file") } });
        return 0;
    }
    QString why;
    const std::unique_ptr<HistoryReader> history = openHistory(o, parser, &why);
    const std::optional<ReplaySource> source =
        history ? ReplaySource::read(*history, parser.positionalArguments().constFirst(), &why) : std::nullopt;
    if (!source) {
        err << "bullpen-cli replay: " << why << "\n";
        return kExitUsage;
    }
    const ReplayScenario scenario = source->scenario();
    QTemporaryDir work;
    const QString scenarioFile = parser.isSet(o.scenarioOut) ? parser.value(o.scenarioOut) : work.filePath(QStringLiteral("scenario.json"));
    QSaveFile f(scenarioFile);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(scenario.scenario).toJson()) < 0 || !f.commit()) {
        err << "bullpen-cli replay: " << scenarioFile << ": cannot be written (" << f.errorString() << ")\n";
        return kExitUsage;
    }
    for (const QString &a : scenario.approximations)
        err << "bullpen-cli replay: approximate: " << a << "\n";
    if (parser.isSet(o.noRun)) {
        if (!parser.isSet(o.scenarioOut))
            out << QJsonDocument(scenario.toJson()).toJson(QJsonDocument::Indented);
        return kExitOk;
    }
    const bool asRecorded = !parser.isSet(o.settings);
    QString settingsFile = parser.value(o.settings);
    if (asRecorded) {
        if (!source->policy) {
            err << "bullpen-cli replay: its policy is not recorded (no events, no primary provider); give --settings FILE\n";
            return kExitUsage;
        }
        settingsFile = work.filePath(QStringLiteral("recorded.json"));
        QFile s(settingsFile);
        if (!s.open(QIODevice::WriteOnly) || s.write(QJsonDocument(source->policy->settingsJson()).toJson()) < 0) {
            err << "bullpen-cli replay: " << settingsFile << ": cannot be written\n";
            return kExitUsage;
        }
    }
    const ReplayRun recorded = source->run();
    const auto limit = std::chrono::milliseconds(static_cast<qint64>(recorded.elapsedMs * 3) + 30'000);
    const std::optional<GenerationResult> result = play(scenarioFile, settingsFile, work.filePath(QStringLiteral("none.env")), limit, &why);
    if (!result) {
        err << "bullpen-cli replay: " << why << "\n";
        return kExitUsage;
    }
    const ReplayRun replayed = replayedRun(*result);
    const ReplayVerdict verdict = ReplayVerdict::judge(recorded, replayed, asRecorded, scenario.approximate);
    if (parser.isSet(o.json)) {
        QJsonObject j = verdict.toJson();
        j.insert(QStringLiteral("generation_id"), source->row.id);
        j.insert(QStringLiteral("as_recorded"), asRecorded);
        j.insert(QStringLiteral("scenario"), scenario.toJson());
        out << QJsonDocument(j).toJson(QJsonDocument::Indented);
    } else {
        out << replayTimelines(recorded, replayed) << verdict.summary << "\n";
        for (const QString &d : verdict.differences)
            out << "  " << d << "\n";
    }
    return verdict.reproduced || !asRecorded ? kExitOk : kExitFailed;
}

} // namespace bullpen::cli
