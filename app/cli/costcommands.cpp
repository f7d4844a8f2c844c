// SPDX-License-Identifier: MIT
#include "costcommands.h"

#include "clihelp.h"
#include "config/exitcode.h"
#include "contract/durationtext.h"
#include "remote/remotehistory.h"
#include "runtime/logsink.h"
#include "storeargs.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <QTextStream>

namespace bullpen::cli {

namespace {

// --since: "7d", "36h", or any duration a setting takes ("30m"); from 1 minute to 400 days.
std::optional<std::chrono::milliseconds> parseSince(const QString &text, QString *why)
{
    static const QRegularExpression daysOrHours(QStringLiteral(R"(^\s*([0-9]{1,5})\s*(d|h)\s*$)"));
    std::optional<std::chrono::milliseconds> d;
    if (const QRegularExpressionMatch m = daysOrHours.match(text); m.hasMatch())
        d = std::chrono::hours(m.captured(1).toLongLong() * (m.captured(2) == u"d" ? 24 : 1));
    else
        d = parseDuration(text, why);
    if (d && (*d < std::chrono::minutes(1) || *d > std::chrono::hours(24 * 400))) {
        *why = QStringLiteral("\"%1\" is not from 1 minute to 400 days").arg(text);
        return std::nullopt;
    }
    return d;
}

// The shared start of both commands: options parsed, the history opened (the store, or --engine's).
struct CostCommand
{
    QString name;
    QCommandLineParser parser;
    StoreArgs args;
    RemoteFlag remote;
    QCommandLineOption json { QStringLiteral("json"), QStringLiteral("One JSON object (docs/openapi.yaml).") };
    QTextStream out { stdout };
    QTextStream err { logging::stderrDevice() };
    qint64 fromMs = 0;
    qint64 toMs = 0;
    std::unique_ptr<HistoryReader> history;

    // -1: go on; otherwise the exit code.
    int parse(const QStringList &arguments, const QString &description, const QList<QCommandLineOption> &own)
    {
        parser.setApplicationDescription(description);
        parser.addHelpOption();
        parser.addOptions({ args.dataDir, args.since, args.settings, json, remote.engine });
        parser.addOptions(own);
        if (!parser.parse(arguments))
            return fail(parser.errorText());
        if (parser.isSet(QStringLiteral("help"))) {
            out << commandHelp(parser, name,
                               { { 0, QStringLiteral("figured (an empty range says so)") },
                                 { 2, QStringLiteral("usage refused: a value that does not parse, or no store") } });
            return 0;
        }
        QString why;
        const auto since = parseSince(parser.isSet(args.since) ? parser.value(args.since) : QStringLiteral("7d"), &why);
        if (!since)
            return fail(QStringLiteral("--since: ") + why + QStringLiteral("; e.g. --since 7d, --since 36h"));
        toMs = QDateTime::currentMSecsSinceEpoch();
        fromMs = toMs - since->count();
        QString error;
        if (remote.isSet(parser)) {
            EngineEndpoint endpoint;
            if (!remote.endpoint(parser, &endpoint, &error))
                return fail(error);
            history = std::make_unique<RemoteHistory>(endpoint);
        } else {
            history = args.open(parser, &error);
        }
        return history ? -1 : fail(error);
    }
    int fail(const QString &why)
    {
        err << "bullpen-cli " << name << ": " << why << "\n";
        return kExitUsage;
    }
};

QString money(double cost, const QString &currency)
{
    return QStringLiteral("%1 %2").arg(cost, 0, 'f', cost < 1 ? 4 : 2).arg(currency);
}

} // namespace

int runSpend(const QStringList &arguments)
{
    CostCommand c;
    c.name = QStringLiteral("spend");
    if (const int code = c.parse(arguments,
                                 QStringLiteral("What users' attempts cost (tokens reported × the provider's price), by "
                                                "provider, stage and role, and what fallbacks added. --since 7d by default."),
                                 {});
        code >= 0)
        return code;
    QString error;
    const std::optional<Spend> spend = c.history->spend(c.fromMs, c.toMs, &error);
    if (!spend)
        return c.fail(error);
    if (c.parser.isSet(c.json)) {
        c.out << QJsonDocument(spend->toJson()).toJson(QJsonDocument::Indented);
        return 0;
    }
    if (spend->rows.isEmpty()) {
        c.err << "bullpen-cli spend: no attempts in the range\n";
        return 0;
    }
    const auto line = [&](const QString &a, const QString &b, const QString &d, const QString &e, const QString &f, const QString &g) {
        c.out << QStringLiteral("%1  %2  %3  %4  %5  %6").arg(a, -12).arg(b, -10).arg(d, -8).arg(e, 14).arg(f, 9).arg(g, 14).trimmed()
              << "\n";
    };
    line(QStringLiteral("provider"), QStringLiteral("stage"), QStringLiteral("role"), QStringLiteral("cost"), QStringLiteral("attempts"),
         QStringLiteral("cost unknown"));
    for (const SpendRow &r : spend->rows)
        line(r.provider, toId(r.stage), toId(r.role), r.currency.isEmpty() ? QStringLiteral("-") : money(r.cost, r.currency),
             QString::number(r.attempts), QString::number(r.unknown));
    for (const auto &[currency, total] : spend->totals())
        c.out << "total " << money(total, currency) << "\n";
    for (const auto &[currency, added] : spend->totals(true))
        c.out << "added by fallbacks " << money(added, currency) << "\n";
    if (spend->unknownAttempts() > 0)
        c.out << spend->unknownAttempts() << " attempts cost an unknown amount (no tokens reported, or no price): not counted\n";
    return 0;
}

namespace {

// `bullpen-cli tune` without --json: the recorded figures, the timeout grid, then today's timeouts with
// the breaker replayed on and off and under the other preset.
void printTune(QTextStream &out, const TuneReport &report)
{
    out << report.generations << " generations of " << toId(report.stage) << "; recorded: p50 " << durationText(report.recorded.p50Ms)
        << ", p95 " << durationText(report.recorded.p95Ms) << ", success " << QString::number(100 * report.recorded.successRate, 'f', 1)
        << " %, fallback " << QString::number(100 * report.recorded.fallbackRate, 'f', 1) << " %\n";
    const auto row = [&out](const QString &a, const QString &b, const QString &p50, const QString &p95, const QString &ok,
                            const QString &fallback, const QString &cost, const QString &censored, const QString &unobserved) {
        out << QStringLiteral("%1  %2  %3  %4  %5  %6  %7  %8  %9")
                   .arg(a, -9)
                   .arg(b, -9)
                   .arg(p50, 9)
                   .arg(p95, 9)
                   .arg(ok, 8)
                   .arg(fallback, 8)
                   .arg(cost, 10)
                   .arg(censored, 8)
                   .arg(unobserved, 10);
    };
    const auto prediction = [&](const QString &a, const QString &b, const TunePrediction &p) {
        row(a, b, durationText(p.p50Ms), durationText(p.p95Ms), QString::number(100 * p.successRate, 'f', 1) + QStringLiteral(" %"),
            QString::number(100 * p.fallbackRate, 'f', 1) + QStringLiteral(" %"), QString::number(p.cost, 'f', 2),
            QString::number(p.censored), QString::number(p.unobserved));
        out << (p.candidate.today ? "  ← today" : "") << "\n";
    };
    const auto ms = [](std::chrono::milliseconds d) {
        return durationText(static_cast<double>(d.count()));
    };
    row(QStringLiteral("primary"), QStringLiteral("fallback"), QStringLiteral("p50"), QStringLiteral("p95"), QStringLiteral("success"),
        QStringLiteral("fallback"), QStringLiteral("cost"), QStringLiteral("censored"), QStringLiteral("unobserved"));
    out << "\n";
    for (const TunePrediction &p : report.predictions)
        prediction(ms(p.candidate.primaryTimeout), ms(p.candidate.fallbackTimeout), p);
    out << "\nat today's timeouts, the breaker replayed in time order:\n";
    row(QStringLiteral("preset"), QStringLiteral("breaker"), QStringLiteral("p50"), QStringLiteral("p95"), QStringLiteral("success"),
        QStringLiteral("fallback"), QStringLiteral("cost"), QStringLiteral("censored"), QStringLiteral("unobserved"));
    out << "\n";
    for (const TunePrediction &p : report.alternatives)
        prediction(p.candidate.preset, toId(p.candidate.breaker), p);
    out << "censored: predictions that wait longer than a recorded timeout did (it says only \"longer than T\")\n"
        << "unobserved: predictions that call a primary the record skipped (stood in by the nearest earlier one), or assume a "
           "capacity marker the record does not keep\n";
}

} // namespace

int runTune(const QStringList &arguments)
{
    CostCommand c;
    c.name = QStringLiteral("tune");
    const QCommandLineOption stage(QStringLiteral("stage"), QStringLiteral("The stage to tune (storyboard)."), QStringLiteral("stage"),
                                   QStringLiteral("storyboard"));
    QStringList defaults; // the Tune panel's list (defaultTuneTimeouts)
    for (const std::chrono::milliseconds t : defaultTuneTimeouts())
        defaults << QStringLiteral("%1s").arg(std::chrono::duration_cast<std::chrono::seconds>(t).count());
    const QCommandLineOption timeouts(QStringLiteral("timeouts"),
                                      QStringLiteral("Candidate primary timeouts, comma-separated (default %1).").arg(defaults.join(u',')),
                                      QStringLiteral("list"), defaults.join(u','));
    const QCommandLineOption fallbackTimeout(QStringLiteral("fallback-timeout"),
                                             QStringLiteral("Today's fallback timeout (default: the settings file's)."),
                                             QStringLiteral("duration"));
    const QCommandLineOption fallbackTimeouts(
        QStringLiteral("fallback-timeouts"),
        QStringLiteral("Candidate fallback timeouts, comma-separated: each is tried with every primary timeout (default: today's)."),
        QStringLiteral("list"));
    if (const int code = c.parse(arguments,
                                 QStringLiteral("Replays the recorded attempts' timings (no network) under candidate primary and fallback "
                                                "timeouts and predicts p50/p95 latency, success rate, fallback rate and cost. --since 7d "
                                                "by default."),
                                 { stage, timeouts, fallbackTimeout, fallbackTimeouts });
        code >= 0)
        return code;
    const std::optional<Stage> s = stageFromId(c.parser.value(stage).trimmed().toLower());
    if (!s)
        return c.fail(QStringLiteral("--stage %1: not one of storyboard, captions, image").arg(c.parser.value(stage)));
    // Today's setting: the settings file and environment the engine would start with.
    const QString file = c.parser.isSet(c.args.settings) ? c.parser.value(c.args.settings) : EngineSetup::defaultSettingsFile();
    const SettingsLoad load = SettingsLoader::load(file, {}, QProcessEnvironment::systemEnvironment(), false);
    TuneCandidate today { load.settings.storyboard.primaryTimeout, load.settings.storyboard.fallbackTimeout, true };
    today.preset = load.settings.storyboard.preset;
    today.breakerSettings = load.settings.breaker;
    QString why;
    if (c.parser.isSet(fallbackTimeout)) {
        const auto f = parseDuration(c.parser.value(fallbackTimeout), &why);
        if (!f)
            return c.fail(QStringLiteral("--fallback-timeout: ") + why);
        today.fallbackTimeout = *f;
    }
    QList<std::chrono::milliseconds> lists[2];
    for (const auto &[option, list] : { std::pair { &timeouts, &lists[0] }, std::pair { &fallbackTimeouts, &lists[1] } }) {
        for (const QString &t : c.parser.value(*option).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const auto d = parseDuration(t, &why);
            if (!d || d->count() <= 0)
                return c.fail(QStringLiteral("--%1 %2: %3; e.g. --%1 10s,30s,60s")
                                  .arg(option->names().constFirst(), t, why.isEmpty() ? QStringLiteral("must be > 0") : why));
            *list << *d;
        }
    }
    const QList<TuneCandidate> candidates = tuneCandidates(lists[0], lists[1], today);
    QString error;
    const std::optional<TuneReport> report = c.history->tune(*s, c.fromMs, c.toMs, candidates, today, &error);
    if (!report)
        return c.fail(error);
    if (c.parser.isSet(c.json)) {
        c.out << QJsonDocument(report->toJson()).toJson(QJsonDocument::Indented);
        return 0;
    }
    printTune(c.out, *report);
    return 0;
}

} // namespace bullpen::cli
