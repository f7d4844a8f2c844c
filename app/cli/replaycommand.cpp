// SPDX-License-Identifier: MIT
#include "replaycommand.h"

#include "clihelp.h"
#include "config/exitcode.h"
#include "remote/remotehistory.h"
#include "replay/replayreport.h"
#include "replay/replaysource.h"
#include "runtime/enginesetup.h"
#include "runtime/logsink.h"
#include "runtime/replayrunner.h"
#include "store/store.h"

#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QTextStream>

namespace bullpen::cli {

namespace {

struct ReplayOptions
{
    QCommandLineOption dataDir { QStringLiteral("data-dir"), QStringLiteral("The store to read the generation from."),
                                 QStringLiteral("path") };
    QCommandLineOption settings { QStringLiteral("settings"),
                                  QStringLiteral("Replay under this settings file (\"what if\") instead of the recorded policy."),
                                  QStringLiteral("file") };
    QCommandLineOption scenarioOut {
        QStringLiteral("scenario-out"),
        QStringLiteral("Also write the scenario (its format: docs/simulator.md) to FILE, for bullpen --scenario."), QStringLiteral("file")
    };
    QCommandLineOption json { QStringLiteral("json"), QStringLiteral("The verdict, both runs and the scenario as one JSON object.") };
    QCommandLineOption report { QStringLiteral("report"),
                                QStringLiteral(
                                    "Also write a bug report to FILE (mode 0600): the scenario, the settings, the verdict, the recorded "
                                    "generation as exports show it (masked) and the replay's result."),
                                QStringLiteral("file") };
    QCommandLineOption noRun { QStringLiteral("scenario-only"), QStringLiteral("Write or print the scenario without running it.") };
    QCommandLineOption noStore { QStringLiteral("no-store"),
                                 QStringLiteral("Do not record the replay in the store it was read from (it is recorded there as a "
                                                "synthetic generation linked to the original, left out of users' figures).") };
    RemoteFlag remote;
};

// The history to read from; a local store is opened for writing too, unless --no-store, so that the
// replay is recorded beside its original (*writable then names it).
std::unique_ptr<HistoryReader> openHistory(const ReplayOptions &o, const QCommandLineParser &p, Store **writable, QString *error)
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
    if (!location)
        return nullptr;
    // A replay reads a generation that was recorded: a store that is not there is a mistyped folder,
    // never one to create (opening it for the replay's record would make an empty one).
    if (!location->isPostgres() && !QFileInfo::exists(location->sqlitePath())) {
        *error = QStringLiteral("no store at %1 (%2 does not exist); give the data folder of the engine that ran the generation "
                                "(--data-dir, as bullpen-engine was given it), or --engine URL to ask a running engine")
                     .arg(dir, location->sqlitePath());
        return nullptr;
    }
    if (p.isSet(o.noStore) || p.isSet(o.noRun))
        return Store::openReadOnly(*location, error);
    std::unique_ptr<Store> store = Store::open(*location, error);
    *writable = store.get();
    return store;
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
    parser.addOptions({ o.dataDir, o.settings, o.scenarioOut, o.json, o.report, o.noRun, o.noStore, o.remote.engine });
    const bool parsed = parser.parse(arguments);
    if (!parsed || (parser.positionalArguments().size() != 1 && !parser.isSet(QStringLiteral("help")))) {
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
    Store *writable = nullptr;
    const std::unique_ptr<HistoryReader> history = openHistory(o, parser, &writable, &why);
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
    QJsonObject settings;
    if (asRecorded) {
        if (!source->policy) {
            err << "bullpen-cli replay: its policy is not recorded (no events, no primary provider); give --settings FILE\n";
            return kExitUsage;
        }
        // Its providers as this machine's settings file describes them (an added one's dialect, endpoint, auth).
        settings = source->policy->settingsJson(SettingsLoader::load(EngineSetup::defaultSettingsFile(), EngineSetup::defaultKeyFile(),
                                                                     QProcessEnvironment::systemEnvironment(), false)
                                                    .settings.providerTable);
        settingsFile = work.filePath(QStringLiteral("recorded.json"));
        QFile s(settingsFile);
        if (!s.open(QIODevice::WriteOnly) || s.write(QJsonDocument(settings).toJson()) < 0) {
            err << "bullpen-cli replay: " << settingsFile << ": cannot be written\n";
            return kExitUsage;
        }
    } else if (QFile s(settingsFile); s.open(QIODevice::ReadOnly)) {
        settings = QJsonDocument::fromJson(s.read(1 << 20)).object(); // for the report; the engine reads and judges the file
    }
    const ReplayRun recorded = source->run();
    const auto limit = std::chrono::milliseconds(static_cast<qint64>(recorded.elapsedMs * 3) + 30'000);
    const ReplayRunner::Options play { scenarioFile, settingsFile, work.filePath(QStringLiteral("none.env")), source->row.id, writable };
    const std::optional<GenerationResult> result = ReplayRunner::play(play, limit, &why);
    if (!result) {
        err << "bullpen-cli replay: " << why << "\n";
        return kExitUsage;
    }
    if (writable && !writable->flush())
        err << "bullpen-cli replay: the replay could not be recorded in the store (it ran; its verdict follows)\n";
    const ReplayRun replayed = replayedRun(*result);
    const ReplayVerdict verdict = ReplayVerdict::judge(recorded, replayed, asRecorded, scenario.approximate);
    const QString replayId = writable ? result->generationId : QString();
    if (parser.isSet(o.report)) {
        const QJsonObject report = ReplayReport::build({ .source = *source,
                                                         .scenario = scenario,
                                                         .settings = settings,
                                                         .asRecorded = asRecorded,
                                                         .verdict = verdict,
                                                         .replayed = *result,
                                                         .replayId = replayId });
        if (!ReplayReport::write(parser.value(o.report), report, &why))
            err << "bullpen-cli replay: the report could not be written: " << why << " (the replay ran; its verdict follows)\n";
    }
    if (parser.isSet(o.json)) {
        QJsonObject j = verdict.toJson();
        j.insert(QStringLiteral("generation_id"), source->row.id);
        j.insert(QStringLiteral("as_recorded"), asRecorded);
        j.insert(QStringLiteral("scenario"), scenario.toJson());
        j.insert(QStringLiteral("replay_id"), replayId.isEmpty() ? QJsonValue() : QJsonValue(replayId));
        j.insert(QStringLiteral("recorded"), recorded.toJson());
        j.insert(QStringLiteral("replayed"), replayed.toJson());
        out << QJsonDocument(j).toJson(QJsonDocument::Indented);
    } else {
        out << replayTimelines(recorded, replayed) << verdict.summary << "\n";
        for (const QString &d : verdict.differences)
            out << "  " << d << "\n";
        out << (writable ? QStringLiteral("recorded as %1 (synthetic, replay of %2)\n").arg(result->generationId, source->row.id)
                         : QStringLiteral("not recorded (%1)\n")
                               .arg(o.remote.isSet(parser) ? QStringLiteral("the replay ran here, not on the engine")
                                                           : QStringLiteral("--no-store")));
    }
    return verdict.reproduced || !asRecorded ? kExitOk : kExitFailed;
}

} // namespace bullpen::cli
