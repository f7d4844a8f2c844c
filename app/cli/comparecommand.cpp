// SPDX-License-Identifier: MIT
#include "comparecommand.h"

#include "clihelp.h"
#include "config/exitcode.h"
#include "contract/textdiff.h"
#include "failure/secretscrubber.h"
#include "ops/interrupts.h"
#include "pipeline/comparison.h"
#include "remote/remoteconnection.h"
#include "runtime/enginesetup.h"
#include "runtime/logsink.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

namespace bullpen::cli {

namespace {

// The parts of a storyboard compared side by side: the title, each panel, the captions.
QList<std::pair<QString, QString>> parts(const ComparisonSide &side)
{
    QList<std::pair<QString, QString>> out;
    if (!side.storyboard)
        return out;
    out.append({ QStringLiteral("title"), side.storyboard->title });
    for (const Panel &p : side.storyboard->panels) {
        QStringList lines { p.scene };
        for (const DialogueLine &d : p.dialogue)
            lines << d.speaker + QStringLiteral(": ") + d.text;
        out.append({ QStringLiteral("panel %1").arg(p.index), lines.join(QLatin1Char('\n')) });
    }
    if (!side.captions.isEmpty())
        out.append({ QStringLiteral("captions"), side.captions.join(QLatin1Char('\n')) });
    return out;
}

QString outcome(const ComparisonSide &s)
{
    if (s.state == FinalState::Succeeded)
        return QStringLiteral("succeeded");
    return QStringLiteral("%1 %2/%3").arg(toId(s.state), s.publicCode, s.kind);
}

// The command's options, made once (as the other commands keep theirs).
struct CompareOptions
{
    const QCommandLineOption story { QStringLiteral("story"), QStringLiteral("The story text."), QStringLiteral("text") };
    const QCommandLineOption storyFile { QStringLiteral("story-file"), QStringLiteral("Read the story from a UTF-8 file."),
                                         QStringLiteral("path") };
    const QCommandLineOption user { QStringLiteral("user"), QStringLiteral("User id (never printed or stored raw)."),
                                    QStringLiteral("id") };
    const QCommandLineOption left { QStringLiteral("primary"), QStringLiteral("Left side (default: the configured primary)."),
                                    QStringLiteral("provider") };
    const QCommandLineOption right { QStringLiteral("fallback"), QStringLiteral("Right side (default: the configured fallback provider)."),
                                     QStringLiteral("provider") };
    const QCommandLineOption leftTimeout { QStringLiteral("primary-timeout"),
                                           QStringLiteral("Left side's timeout (default: the configured primary timeout)."),
                                           QStringLiteral("duration") };
    const QCommandLineOption rightTimeout { QStringLiteral("fallback-timeout"),
                                            QStringLiteral("Right side's timeout (default: the configured fallback timeout)."),
                                            QStringLiteral("duration") };
    const QCommandLineOption json { QStringLiteral("json"), QStringLiteral("Print the whole comparison as one JSON object.") };
};

// The words that differ, part by part: the rows (`--json`'s "parts") and the totals. A part only one side
// has is shown, not counted, as in the console.
struct PartsDiff
{
    QJsonArray rows;
    int changed = 0;
    int total = 0;
};

PartsDiff diffParts(const Comparison &c)
{
    PartsDiff diff;
    const auto leftParts = parts(c.primary);
    const auto rightParts = parts(c.fallback);
    for (qsizetype i = 0; i < std::max(leftParts.size(), rightParts.size()); ++i) {
        const QString name = i < leftParts.size() ? leftParts.at(i).first : rightParts.at(i).first;
        const QString l = i < leftParts.size() ? leftParts.at(i).second : QString();
        const QString r = i < rightParts.size() ? rightParts.at(i).second : QString();
        // One side has nothing to compare with (it failed): shown, not counted, as in the console.
        const bool oneSided = l.isEmpty() || r.isEmpty();
        const TextDiff d = oneSided ? TextDiff {} : TextDiff::compute(l, r);
        if (!oneSided) {
            diff.changed += d.changedLeft + d.changedRight;
            diff.total += static_cast<int>(TextDiff::words(l).size() + TextDiff::words(r).size());
        }
        diff.rows.append(QJsonObject { { QStringLiteral("part"), name },
                                       { QStringLiteral("left"), l },
                                       { QStringLiteral("right"), r },
                                       { QStringLiteral("changed_left"), d.changedLeft },
                                       { QStringLiteral("changed_right"), d.changedRight } });
    }
    return diff;
}

void printJson(QTextStream &out, const Comparison &c, const PartsDiff &diff)
{
    QJsonObject o { { QStringLiteral("comparison_id"), c.id },
                    { QStringLiteral("created_at"), QDateTime::fromMSecsSinceEpoch(c.createdAtMs, Qt::UTC).toString(Qt::ISODateWithMs) },
                    { QStringLiteral("primary"), c.primary.toJson(true) },
                    { QStringLiteral("fallback"), c.fallback.toJson(true) },
                    { QStringLiteral("words_changed"), diff.changed },
                    { QStringLiteral("words_total"), diff.total },
                    { QStringLiteral("parts"), diff.rows } };
    out << QJsonDocument(o).toJson(QJsonDocument::Indented);
}

void printText(QTextStream &out, const Comparison &c, const PartsDiff &diff)
{
    const auto row = [&](const QString &label, const QString &a, const QString &b) {
        out << QStringLiteral("%1 %2 %3\n").arg(label, -16).arg(SecretScrubber::printable(a), -44).arg(SecretScrubber::printable(b));
    };
    out << "comparison " << c.id << "\n";
    row(QString(), QStringLiteral("%1 (left)").arg(toId(c.primary.provider)), QStringLiteral("%1 (right)").arg(toId(c.fallback.provider)));
    row(QStringLiteral("generation"), c.primary.generationId, c.fallback.generationId);
    row(QStringLiteral("outcome"), outcome(c.primary), outcome(c.fallback));
    row(QStringLiteral("model"), c.primary.model, c.fallback.model);
    row(QStringLiteral("storyboard ms"), QString::number(c.primary.storyboardMs, 'f', 0), QString::number(c.fallback.storyboardMs, 'f', 0));
    row(QStringLiteral("total ms"), QString::number(c.primary.totalMs, 'f', 0), QString::number(c.fallback.totalMs, 'f', 0));
    const auto tokens = [](const TokenUsage &t) {
        return t.known() ? QStringLiteral("%1 / %2").arg(t.input).arg(t.output) : QStringLiteral("unknown");
    };
    row(QStringLiteral("tokens in/out"), tokens(c.primary.tokens), tokens(c.fallback.tokens));
    row(QStringLiteral("validation"), c.primary.validation, c.fallback.validation);
    for (const ComparisonSide *s : { &c.primary, &c.fallback }) {
        if (s->state != FinalState::Succeeded)
            out << toId(s->provider) << ": " << SecretScrubber::printable(s->detail)
                << (s->nextStep.isEmpty() ? QString() : QStringLiteral(" — ") + s->nextStep) << "\n";
    }
    for (const QJsonValue &v : std::as_const(diff.rows)) {
        const QJsonObject p = v.toObject();
        const QString l = p.value(QStringLiteral("left")).toString();
        const QString r = p.value(QStringLiteral("right")).toString();
        out << "\n--- " << p.value(QStringLiteral("part")).toString();
        if (l.isEmpty() || r.isEmpty())
            out << QStringLiteral(" (only %1 has it)\n").arg(toId(l.isEmpty() ? c.fallback.provider : c.primary.provider));
        else
            out << QStringLiteral(" (%1 / %2 words differ)\n")
                       .arg(p.value(QStringLiteral("changed_left")).toInt())
                       .arg(p.value(QStringLiteral("changed_right")).toInt());
        const auto side = [](const QString &text) {
            return text.isEmpty() ? QStringLiteral("—")
                                  : SecretScrubber::printable(QString(text).replace(QLatin1Char('\n'), QStringLiteral(" / ")));
        };
        out << QStringLiteral("  %1 %2\n").arg(toId(c.primary.provider) + QLatin1Char(':'), -10).arg(side(l));
        out << QStringLiteral("  %1 %2\n").arg(toId(c.fallback.provider) + QLatin1Char(':'), -10).arg(side(r));
    }
    if (diff.total > 0)
        out << QStringLiteral("\n%1 of %2 words differ between the two storyboards\n").arg(diff.changed).arg(diff.total);
    else
        out << "\nnothing to compare word by word: only one side produced a storyboard\n";
}

// Attached (--engine): the engine's storyboard settings, with the flags over them. Nothing, with the
// refusal printed, when the engine cannot be used or a flag is wrong.
std::optional<StagePolicy> attachedPolicy(const QCommandLineParser &parser, const CompareOptions &o, const RemoteFlag &remote,
                                          std::unique_ptr<RemoteConnection> &attached, QTextStream &err)
{
    EngineEndpoint endpoint;
    QString why;
    if (!remote.endpoint(parser, &endpoint, &why)) {
        err << "bullpen-cli compare: " << why << "\n";
        return std::nullopt;
    }
    attached = std::make_unique<RemoteConnection>(endpoint);
    attached->open();
    QElapsedTimer wait;
    wait.start();
    while (!(attached->usable() && !attached->runningConfig().isEmpty()) && attached->remote().state() != RemoteEngine::State::Refused
           && wait.elapsed() < 15000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    if (!attached->usable()) {
        err << "bullpen-cli compare: " << attached->remote().describeState() << "\n";
        return std::nullopt;
    }
    StagePolicy policy = attached->storyboardPolicy();
    for (const auto &[option, into] : { std::pair { &o.left, &policy.primary } }) {
        if (parser.isSet(*option)) {
            const auto p = providerFromId(parser.value(*option));
            if (!p) {
                err << "bullpen-cli compare: --primary " << parser.value(*option) << ": not a provider\n";
                return std::nullopt;
            }
            *into = *p;
        }
    }
    if (parser.isSet(o.right)) {
        policy.fallback = providerFromId(parser.value(o.right));
        if (!policy.fallback) {
            err << "bullpen-cli compare: --fallback " << parser.value(o.right) << ": not a provider\n";
            return std::nullopt;
        }
    }
    for (const auto &[option, into] :
         { std::pair { &o.leftTimeout, &policy.primaryTimeout }, std::pair { &o.rightTimeout, &policy.fallbackTimeout } }) {
        if (!parser.isSet(*option))
            continue;
        const auto d = parseDuration(parser.value(*option), &why);
        if (!d) {
            err << "bullpen-cli compare: --" << option->names().constFirst() << ": " << why << "\n";
            return std::nullopt;
        }
        *into = *d;
    }
    err << "bullpen-cli: on the engine at " << endpoint.display() << "\n";
    return policy;
}

} // namespace

int runCompare(const QStringList &arguments)
{
    QTextStream out(stdout);
    QTextStream err(logging::stderrDevice());
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Run one story on two providers at once, each alone with no fallback (the console's Compare), and print both storyboards "
        "and the words that differ. Both runs are recorded like any generation. With no provider key configured, both run on the "
        "built-in simulator."));
    parser.addHelpOption();
    const CompareOptions o;
    const EngineFlags engine;
    const RemoteFlag remote;
    parser.addOptions({ o.story, o.storyFile, o.user, o.left, o.right, o.leftTimeout, o.rightTimeout, o.json, remote.engine });
    engine.add(parser);
    if (!parser.parse(arguments)) {
        err << "bullpen-cli compare: " << parser.errorText() << "\n";
        return kExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << commandHelp(parser, QStringLiteral("compare"),
                           { { kExitOk, QStringLiteral("both sides succeeded") },
                             { kExitFailed, QStringLiteral("at least one side failed (each side's reason is printed)") },
                             { kExitUsage, QStringLiteral("usage or configuration refused") },
                             { kExitCancelled, QStringLiteral("cancelled (SIGINT/SIGTERM)") } });
        return kExitOk;
    }
    QString storyText;
    if (!readStory(parser, o.story, o.storyFile, QStringLiteral("compare"), &storyText))
        return kExitUsage;

    std::unique_ptr<EngineSetup> setup;
    std::unique_ptr<RemoteConnection> attached;
    StagePolicy policy;
    QString scenarioName;
    if (remote.isSet(parser)) {
        const std::optional<StagePolicy> p = attachedPolicy(parser, o, remote, attached, err);
        if (!p)
            return kExitUsage;
        policy = *p;
        scenarioName = parser.value(engine.scenario);
    } else {
        // The two sides are the storyboard settings by another name: the same validation names the flag.
        setup = std::make_unique<EngineSetup>();
        if (!engine.start(parser,
                          { { &o.left, "STORYBOARD_PROVIDER" },
                            { &o.right, "STORYBOARD_FALLBACK_PROVIDER" },
                            { &o.leftTimeout, "STORYBOARD_PRIMARY_TIMEOUT" },
                            { &o.rightTimeout, "STORYBOARD_FALLBACK_TIMEOUT" } },
                          *setup))
            return kExitUsage;
        policy = setup->storyboardPolicy();
    }
    if (!policy.fallback || *policy.fallback == policy.primary) {
        err << "bullpen-cli compare: a comparison needs two providers: give --fallback PROVIDER (or configure "
               "STORYBOARD_FALLBACK_PROVIDER)\n";
        return kExitUsage;
    }
    if (setup)
        announce(*setup);

    std::unique_ptr<ComparisonRunner> runnerOwner;
    if (setup) {
        runnerOwner = std::make_unique<ComparisonRunner>(setup->engine());
        runnerOwner->setStore(setup->store(), setup->settings().pipeline.storeContent);
    } else {
        runnerOwner.reset(attached->newComparisonRunner(nullptr)); // the engine runs and keeps it
    }
    ComparisonRunner &runner = *runnerOwner;
    ComparisonRequest request;
    request.story = storyText;
    request.userId = parser.value(o.user);
    request.primary = policy.primary;
    request.fallback = *policy.fallback;
    request.primaryTimeout = policy.primaryTimeout;
    request.fallbackTimeout = policy.fallbackTimeout;
    request.scenario = scenarioName;
    QString comparisonId;
    bool cancelled = false;
    Interrupts interrupts([&] {
        err << "bullpen-cli compare: interrupted; cancelling both sides\n";
        err.flush();
        cancelled = true;
        runner.cancel(comparisonId);
    });
    std::optional<Comparison> result;
    QObject::connect(&runner, &ComparisonRunner::finished, &runner, [&](const Comparison &c) {
        result = c;
        QCoreApplication::exit(0);
    });
    comparisonId = runner.start(request);
    QCoreApplication::exec();
    if (setup && setup->store())
        setup->store()->flush(std::chrono::seconds(10));
    if (!result)
        return kExitCancelled;

    const Comparison &c = *result;
    const PartsDiff diff = diffParts(c);
    if (parser.isSet(o.json))
        printJson(out, c, diff);
    else
        printText(out, c, diff);
    out.flush();
    if (cancelled || c.primary.state == FinalState::Cancelled || c.fallback.state == FinalState::Cancelled)
        return kExitCancelled;
    return c.primary.state == FinalState::Succeeded && c.fallback.state == FinalState::Succeeded ? kExitOk : kExitFailed;
}

} // namespace bullpen::cli
