// SPDX-License-Identifier: MIT
#include "generatecommand.h"

#include "clihelp.h"
#include "config/exitcode.h"
#include "config/settingstable.h"
#include "failure/secretscrubber.h"
#include "ops/interrupts.h"
#include "remote/remoteengine.h"
#include "remote/remotehistory.h"
#include "runtime/enginesetup.h"
#include "runtime/logsink.h"
#include "wire/apiroutes.h"
#include "wire/engineconfigjson.h"
#include "wire/storyboardpolicyjson.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>
#include <QTimer>

#include <array>

namespace bullpen::cli {

namespace {

// Provider text on a terminal: control characters (ESC/OSC sequences) become spaces.
QString printable(const QString &text)
{
    return SecretScrubber::printable(text);
}

QString ms(std::chrono::microseconds us)
{
    return QString::number(static_cast<double>(us.count()) / 1000.0, 'f', 1);
}

void printHuman(QTextStream &out, const GenerationResult &g)
{
    const StageResult &r = g.storyboard;
    const QList<AttemptRecord> attempts = g.attempts();
    if (g.fromCache)
        out << "  (served from cache: an identical request succeeded within 24 h; --fresh runs it again)\n";
    for (const AttemptRecord &a : attempts) {
        out << QStringLiteral("  %1 %2 %3 (%4) round %5: ").arg(toId(a.stage), toId(a.role), toId(a.provider), a.model).arg(a.round);
        if (a.success)
            out << "ok";
        else
            out << enumName(a.failure->kind) << " — " << printable(a.failure->detail);
        out << QStringLiteral(" [%1 ms of %2 ms deadline, %3 request(s)")
                   .arg(ms(a.duration), ms(a.deadline - a.startedAt))
                   .arg(a.requestsSent);
        if (a.tokens.known())
            out << QStringLiteral(", tokens %1/%2").arg(a.tokens.input).arg(a.tokens.output);
        out << "]\n";
    }
    out << "decision: " << r.decision << "\n";
    if (g.state == FinalState::Succeeded) {
        out << QStringLiteral("SUCCEEDED in %1 ms; storyboard by %2 (%3)")
                   .arg(ms(g.elapsed), r.fallback.finalProvider ? toId(*r.fallback.finalProvider) : QString(), r.fallback.finalModelId);
        if (r.fallback.applied)
            out << QStringLiteral(", fallback applied: %1").arg(r.fallback.reason);
        if (g.degraded)
            out << ", DEGRADED (default captions)";
        out << "\n\n" << printable(r.storyboard->title) << "\n";
        for (int i = 0; i < r.storyboard->panels.size(); ++i) {
            const Panel &p = r.storyboard->panels.at(i);
            out << QStringLiteral("  %1. %2 — %3\n").arg(p.index).arg(printable(p.role), printable(p.scene));
            for (const DialogueLine &d : p.dialogue)
                out << QStringLiteral("       %1: %2\n").arg(printable(d.speaker), printable(d.text));
            if (i < g.captionLines.size())
                out << QStringLiteral("       alt: %1\n").arg(printable(g.captionLines.at(i)));
        }
        if (!g.imagePath.isEmpty())
            out << "image: " << g.imagePath << "\n";
    } else {
        out << QStringLiteral("%1 at the %2 stage: %3 (%4) in %5 ms: %6\n")
                   .arg(toId(g.state).toUpper(), toId(g.failedStage), enumName(g.failure->publicCode()), enumName(g.failure->kind),
                        ms(g.elapsed), g.failure->detail);
        if (g.nextStep)
            out << "next: " << g.nextStep->message << "\n";
    }
}

// How long `generate --engine` waits for the engine (the settings table's engine_connect_timeout and
// engine_deadline): from the settings file the command names, else the user's, and the environment.
// Nothing, with the refusal in *why, when one of those two does not read.
std::optional<AttachSettings> attachSettings(const QCommandLineParser &parser, const EngineFlags &flags, QString *why)
{
    const bool named = parser.isSet(flags.settings);
    const QString path = named ? parser.value(flags.settings) : EngineSetup::defaultSettingsFile();
    if (named && !QFileInfo(path).isFile()) {
        *why = QStringLiteral("--settings %1: no such file").arg(path);
        return std::nullopt;
    }
    const SettingsLoad load = SettingsLoader::load(path, {}, QProcessEnvironment::systemEnvironment(), false);
    for (const ConfigError &e : load.errors) {
        if (e.setting.contains(u"engine_connect_timeout") || e.setting.contains(u"engine_deadline")
            || e.setting.contains(u"BULLPEN_ENGINE_CONNECT_TIMEOUT") || e.setting.contains(u"BULLPEN_ENGINE_DEADLINE")) {
            *why = e.toString();
            return std::nullopt;
        }
    }
    return load.settings.attach;
}

// The result of a generation on the engine, as the embedded run prints it (and the comic fetched for --image-out).
void printRemoteResult(const GenerationResult &r, const RemoteEngine &engine, const QJsonArray &events, bool asJson,
                       const QString &imageOut)
{
    QTextStream out(stdout);
    QTextStream err(logging::stderrDevice());
    const EngineEndpoint &endpoint = engine.endpoint();
    if (!imageOut.isEmpty() && !r.imageSha256.isEmpty()) {
        RemoteHistory fetch(endpoint);
        const RemoteHistory::Answer image = fetch.get(ApiRoutes::path(ApiRoute::Image, { r.imageSha256 }));
        QFile file(imageOut);
        if (!image.error.isEmpty() || !file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(image.body) != image.body.size())
            err << "bullpen-cli generate: could not write --image-out " << imageOut
                << (image.error.isEmpty() ? QString() : QStringLiteral(": ") + image.error) << "\n";
    }
    if (asJson) {
        QJsonObject o = r.toJson();
        o.insert(QStringLiteral("events"), events);
        o.insert(QStringLiteral("engine"), endpoint.display());
        o.insert(QStringLiteral("instance"), EngineConfigJson::identity(engine.config()).instance);
        out << QJsonDocument(o).toJson(QJsonDocument::Indented);
    } else {
        out << "generation " << r.generationId << "\n";
        GenerationResult shown = r;
        if (!shown.imageSha256.isEmpty()) // the engine's own path means nothing here
            shown.imagePath = endpoint.display() + ApiRoutes::path(ApiRoute::Image, { shown.imageSha256 });
        printHuman(out, shown);
    }
    out.flush();
}

// After one SIGINT, or the deadline, a started generation is cancelled on the engine; an engine that
// does not answer that cancel cannot hold the command longer than this.
constexpr std::chrono::milliseconds kCancelGrace { 3000 };

// `generate --engine URL`: the same request on a running bullpen-engine; the same output and exit codes,
// and 5 when the engine cannot be reached within engine_connect_timeout or gives no result within
// engine_deadline.
int runRemote(const QCommandLineParser &parser, const RemoteFlag &remote, const AttachSettings &attach, const QJsonObject &body,
              bool asJson, const QString &imageOut)
{
    QTextStream err(logging::stderrDevice());
    EngineEndpoint endpoint;
    QString why;
    if (!remote.endpoint(parser, &endpoint, &why)) {
        err << "bullpen-cli generate: " << why << "\n";
        return kExitUsage;
    }
    RemoteEngine engine(endpoint);
    QString generationId; // set once the request is sent: only then is there anything to cancel
    QJsonArray events;
    bool gaveUp = false;
    const auto endAfterCancel = [&](int code) {
        engine.cancel(generationId);
        QTimer::singleShot(kCancelGrace, &engine, [&err, code] {
            err << "bullpen-cli generate: the engine did not confirm the cancel within " << formatDuration(kCancelGrace)
                << "; the generation may still run there\n";
            QCoreApplication::exit(code);
        });
    };
    Interrupts interrupts([&] {
        if (generationId.isEmpty()) {
            err << "bullpen-cli generate: interrupted; nothing was started on the engine\n";
            QCoreApplication::exit(kExitCancelled);
            return;
        }
        err << "bullpen-cli generate: interrupted; cancelling " << generationId << " on the engine (a second signal exits at once)\n";
        err.flush();
        endAfterCancel(kExitCancelled);
    });
    QTimer connectTimer;
    connectTimer.setSingleShot(true);
    QObject::connect(&connectTimer, &QTimer::timeout, &engine, [&] {
        err << "bullpen-cli generate: could not reach the engine at " << endpoint.display() << " within "
            << formatDuration(attach.connectTimeout) << " (" << engine.describeState()
            << "); check the URL and that bullpen-engine runs there, or raise BULLPEN_ENGINE_CONNECT_TIMEOUT\n";
        QCoreApplication::exit(kExitUnreachable);
    });
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &engine, [&] {
        err << "bullpen-cli generate: no result from the engine at " << endpoint.display() << " within " << formatDuration(attach.deadline)
            << " (BULLPEN_ENGINE_DEADLINE); giving up\n";
        gaveUp = true;
        if (generationId.isEmpty())
            QCoreApplication::exit(kExitUnreachable);
        else
            endAfterCancel(kExitUnreachable);
    });
    QObject::connect(&engine, &EngineClient::eventRecorded, &engine, [&](const Event &e) {
        if (e.generationId == generationId)
            events.append(e.toJson());
    });
    // Sent once the event stream is open, so that every event of this generation is seen.
    QObject::connect(&engine, &RemoteEngine::stateChanged, &engine, [&](RemoteEngine::State state) {
        if (state == RemoteEngine::State::Refused) {
            err << "bullpen-cli generate: " << engine.describeState() << "\n";
            QCoreApplication::exit(kExitUsage);
            return;
        }
        if (state == RemoteEngine::State::Reconnecting)
            err << "bullpen-cli generate: " << engine.describeState() << "\n";
        if (state == RemoteEngine::State::Connected && generationId.isEmpty() && !gaveUp) {
            connectTimer.stop();
            err << "bullpen-cli: on the engine at " << endpoint.display() << "\n";
            generationId = engine.startBody(body);
        }
    });
    bool refused = false;
    QObject::connect(&engine, &RemoteEngine::startRefused, &engine, [&](const QString &id, int status, const QString &message) {
        if (id != generationId)
            return;
        refused = true;
        err << "bullpen-cli generate: the engine at " << endpoint.display() << " refused the request (HTTP " << status << "): " << message
            << "\n"
            << (status == 401 || status == 403 ? "  Use a token with the operator role (bullpen-engine token add NAME --role operator).\n"
                                               : "  Nothing was started; correct the request and run it again.\n");
        QCoreApplication::exit(kExitUsage);
    });
    QObject::connect(&engine, &EngineClient::finished, &engine, [&](const GenerationResult &r) {
        if (r.generationId != generationId || refused)
            return;
        printRemoteResult(r, engine, events, asJson, imageOut);
        QCoreApplication::exit(gaveUp                                 ? kExitUnreachable
                                   : r.state == FinalState::Succeeded ? kExitOk
                                   : r.state == FinalState::Cancelled ? kExitCancelled
                                                                      : kExitFailed);
    });
    connectTimer.start(attach.connectTimeout);
    deadline.start(attach.deadline);
    engine.connectToEngine();
    return QCoreApplication::exec();
}

// The command's options, made once.
struct GenerateOptions
{
    const QCommandLineOption story { QStringLiteral("story"), QStringLiteral("The story text."), QStringLiteral("text") };
    const QCommandLineOption storyFile { QStringLiteral("story-file"), QStringLiteral("Read the story from a UTF-8 file."),
                                         QStringLiteral("path") };
    const QCommandLineOption user { QStringLiteral("user"), QStringLiteral("User id (never printed or stored raw)."),
                                    QStringLiteral("id") };
    const QCommandLineOption policy { QStringLiteral("policy"),
                                      QStringLiteral("relief, capacity or rounds (default: the configured policy, relief)."),
                                      QStringLiteral("preset") };
    const QCommandLineOption primary { QStringLiteral("primary"), QStringLiteral("Primary provider (default: the configured one, gemini)."),
                                       QStringLiteral("provider") };
    const QCommandLineOption fallback { QStringLiteral("fallback"),
                                        QStringLiteral(
                                            "Fallback provider, or none (default: the configured one; none, or qwen on the simulator)."),
                                        QStringLiteral("provider") };
    const QCommandLineOption primaryTimeout {
        QStringLiteral("primary-timeout"),
        QStringLiteral("The primary's own timeout, e.g. 60s, 1500ms (default: the configured one, 60s)."), QStringLiteral("duration")
    };
    const QCommandLineOption fallbackTimeout { QStringLiteral("fallback-timeout"),
                                               QStringLiteral("The fallback provider's timeout (default: the configured one, 60s)."),
                                               QStringLiteral("duration") };
    const QCommandLineOption budget { QStringLiteral("budget"),
                                      QStringLiteral("Total storyboard-stage budget, e.g. 120s (default: the two timeouts added)."),
                                      QStringLiteral("duration") };
    const QCommandLineOption json { QStringLiteral("json"), QStringLiteral("Print one JSON object.") };
    const QCommandLineOption fresh { QStringLiteral("fresh"), QStringLiteral("Run even if an identical request is cached.") };
    const QCommandLineOption imageOut { QStringLiteral("image-out"), QStringLiteral("Also write the comic image to this file."),
                                        QStringLiteral("path") };
};

// Attached (--engine): the request as the API takes it; what the flags leave out is the engine's own
// setting. Nothing, with the refusal printed, when a duration flag is wrong.
std::optional<QJsonObject> requestBody(const QCommandLineParser &parser, const GenerateOptions &o, const EngineFlags &engine,
                                       const QString &storyText, QTextStream &err)
{
    QJsonObject body { { QStringLiteral("story"), storyText } };
    if (parser.isSet(o.user))
        body.insert(QStringLiteral("user_id"), parser.value(o.user));
    using Field = StoryboardPolicyJson::RequestField;
    for (const auto &[option, field] :
         { std::pair { &o.policy, Field::Preset }, std::pair { &o.primary, Field::Primary }, std::pair { &o.fallback, Field::Fallback } }) {
        if (parser.isSet(*option))
            body.insert(StoryboardPolicyJson::requestField(field), parser.value(*option));
    }
    std::array<std::optional<std::chrono::milliseconds>, 3> durations; // primary, fallback, budget
    const std::array options { &o.primaryTimeout, &o.fallbackTimeout, &o.budget };
    for (std::size_t i = 0; i < options.size(); ++i) {
        if (!parser.isSet(*options[i]))
            continue;
        QString why;
        durations[i] = parseDuration(parser.value(*options[i]), &why);
        if (!durations[i]) {
            err << "bullpen-cli generate: --" << options[i]->names().constFirst() << ": " << why << "\n";
            return std::nullopt;
        }
    }
    if (const QJsonObject timeouts = StoryboardPolicyJson::timeouts(durations[0], durations[1], durations[2]); !timeouts.isEmpty())
        body.insert(StoryboardPolicyJson::requestField(Field::Timeouts), timeouts);
    if (parser.isSet(o.fresh))
        body.insert(QStringLiteral("fresh"), true);
    if (parser.isSet(engine.scenario))
        body.insert(QStringLiteral("scenario"), parser.value(engine.scenario));
    return body;
}

// docs/contract.md §5: a failed write never fails the generation, but it is said, and the exit code
// says it. Empty when every record since `failedBefore` reached the store.
QString notDurableSince(Store *store, quint64 failedBefore)
{
    if (!store)
        return {};
    const bool flushed = store->flush(std::chrono::seconds(30));
    const Store::Stats st = store->stats();
    if (flushed && st.failed <= failedBefore)
        return {};
    return QStringLiteral("%1 record write(s) failed — %2: %3")
        .arg(st.failed - failedBefore)
        .arg(store->databasePath(), flushed ? st.firstError : QStringLiteral("the writer did not finish within 30 s"));
}

// --image-out: the comic, copied from the store or written from the result's bytes.
void writeImage(const GenerationResult &r, const QString &path, QTextStream &err)
{
    QFile::remove(path);
    const QByteArray bytes = r.image ? r.image->image : QByteArray();
    QFile file(path);
    const bool ok =
        !r.imagePath.isEmpty() ? QFile::copy(r.imagePath, path) : (file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size());
    if (!ok)
        err << "bullpen-cli generate: could not write --image-out " << path << "\n";
}

} // namespace

int runGenerate(const QStringList &arguments)
{
    QTextStream out(stdout);
    QTextStream err(logging::stderrDevice());
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Run one storyboard generation. With no provider key configured, Bullpen starts its "
                                                    "built-in simulator and runs against it over real HTTP."));
    parser.addHelpOption();
    const GenerateOptions o;
    const EngineFlags engine;
    const RemoteFlag remote;
    parser.addOptions({ o.story, o.storyFile, o.user, o.policy, o.primary, o.fallback, o.primaryTimeout, o.fallbackTimeout, o.budget,
                        o.json, o.fresh, o.imageOut, remote.engine });
    engine.add(parser);
    if (!parser.parse(arguments)) {
        err << "bullpen-cli generate: " << parser.errorText() << "\n";
        return kExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << commandHelp(parser, QStringLiteral("generate"),
                           { { kExitOk, QStringLiteral("succeeded") },
                             { kExitFailed, QStringLiteral("failed (the reason and the next step are printed)") },
                             { kExitUsage, QStringLiteral("usage or configuration refused") },
                             { kExitCancelled, QStringLiteral("cancelled (SIGINT/SIGTERM; a second signal exits at once)") },
                             { kExitNotDurable, QStringLiteral("result produced, but its records did not all reach the store") },
                             { kExitUnreachable,
                               QStringLiteral("--engine: the engine was not reached within engine_connect_timeout, or gave no result "
                                              "within engine_deadline (a started generation is cancelled there)") } })
            << "\n"
            << settingsHelpText();
        return kExitOk;
    }

    QString storyText;
    if (!readStory(parser, o.story, o.storyFile, QStringLiteral("generate"), &storyText))
        return kExitUsage;

    if (remote.isSet(parser)) {
        const std::optional<QJsonObject> body = requestBody(parser, o, engine, storyText, err);
        if (!body)
            return kExitUsage;
        QString why;
        const std::optional<AttachSettings> attach = attachSettings(parser, engine, &why);
        if (!attach) {
            err << "bullpen-cli generate: refused: " << why << "\n";
            return kExitUsage;
        }
        return runRemote(parser, remote, *attach, *body, parser.isSet(o.json),
                         parser.isSet(o.imageOut) ? parser.value(o.imageOut) : QString());
    }

    // Command-line choices are environment overrides by another name (docs/contract.md §4.6 order: they win).
    EngineSetup setup;
    if (!engine.start(parser,
                      { { &o.policy, "STORYBOARD_POLICY" },
                        { &o.primary, "STORYBOARD_PROVIDER" },
                        { &o.fallback, "STORYBOARD_FALLBACK_PROVIDER" },
                        { &o.primaryTimeout, "STORYBOARD_PRIMARY_TIMEOUT" },
                        { &o.fallbackTimeout, "STORYBOARD_FALLBACK_TIMEOUT" },
                        { &o.budget, "STORYBOARD_TOTAL_BUDGET" } },
                      setup))
        return kExitUsage;
    // Installed before anything is announced; the cancel itself runs from the event loop, after the
    // generation has started.
    QString generationId;
    Interrupts interrupts([&] {
        err << "bullpen-cli generate: interrupted; cancelling (a second signal exits at once)\n";
        err.flush();
        setup.pipeline().cancel(generationId);
    });
    announce(setup);

    GenerationPipeline &pipeline = setup.pipeline();
    quint64 failedBefore = 0;
    QJsonArray events;
    QObject::connect(&pipeline, &GenerationPipeline::eventRecorded, &pipeline, [&events](const Event &e) { events.append(e.toJson()); });
    int exitCode = kExitFailed;
    QObject::connect(&pipeline, &GenerationPipeline::finished, &pipeline, [&](const GenerationResult &r) {
        exitCode = r.state == FinalState::Succeeded ? kExitOk : r.state == FinalState::Cancelled ? kExitCancelled : kExitFailed;
        // docs/contract.md §5: a failed write never fails the generation, but it is said, and the exit code says it.
        const QString notDurable = notDurableSince(setup.store(), failedBefore);
        if (parser.isSet(o.imageOut) && r.state == FinalState::Succeeded)
            writeImage(r, parser.value(o.imageOut), err);
        if (parser.isSet(o.json)) {
            QJsonObject whole = r.toJson();
            whole.insert(QStringLiteral("events"), events);
            whole.insert(QStringLiteral("policy"), setup.storyboardPolicy().preset);
            if (setup.usingSimulator())
                whole.insert(QStringLiteral("simulator"), setup.simulator()->countersJson());
            if (setup.store())
                whole.insert(QStringLiteral("store"), setup.store()->databasePath());
            if (!notDurable.isEmpty())
                whole.insert(QStringLiteral("store_warning"), notDurable);
            out << QJsonDocument(whole).toJson(QJsonDocument::Indented);
        } else {
            out << "generation " << r.generationId << "\n"; // whole: `history` and `export` find it by this id
            printHuman(out, r);
        }
        out.flush();
        if (!notDurable.isEmpty()) {
            err << "bullpen-cli generate: warning: result produced, record not durable: " << notDurable
                << "; free space or repair the store, then run it again\n";
            err.flush();
            exitCode = kExitNotDurable;
        }
        QCoreApplication::exit(exitCode);
    });
    GenerationRequest request;
    request.story = storyText;
    request.userId = parser.value(o.user);
    request.fresh = parser.isSet(o.fresh);
    failedBefore = setup.store() ? setup.store()->stats().failed : 0;
    generationId = setup.startGeneration(request);
    QCoreApplication::exec();
    return exitCode;
}

} // namespace bullpen::cli
