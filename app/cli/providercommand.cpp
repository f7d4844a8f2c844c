// SPDX-License-Identifier: MIT
#include "providercommand.h"

#include "clihelp.h"
#include "config/exitcode.h"
#include "config/settings.h"
#include "enginecall.h"
#include "providerlist.h"
#include "runtime/enginesetup.h"
#include "runtime/logsink.h"
#include "wire/apiroutes.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

namespace bullpen::cli {

int runProvider(const QStringList &arguments)
{
    QTextStream out(stdout);
    QTextStream err(logging::stderrDevice());
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("The providers: list what an engine (--engine) or the local settings know, with an engine's breakers, "
                       "drains and last minutes; drain a provider (its stages go to their fallbacks at once) or restore it.\n"
                       "  provider list [--engine URL | --settings FILE] [--json] | drain ID --reason TEXT [--role R] [--stage S] "
                       "[--for D | --until T] | restore ID [--role R] [--stage S]"));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("action"), QStringLiteral("list, drain or restore"));
    parser.addPositionalArgument(QStringLiteral("provider"), QStringLiteral("the provider's id (drain, restore)"));
    const QCommandLineOption reason(QStringLiteral("reason"), QStringLiteral("Why (required to drain; kept in the audit)."),
                                    QStringLiteral("text"));
    const QCommandLineOption role(QStringLiteral("role"), QStringLiteral("Drain (or restore) one role only: primary or fallback."),
                                  QStringLiteral("role"));
    const QCommandLineOption stage(QStringLiteral("stage"),
                                   QStringLiteral("Drain (or restore) one stage only: storyboard, captions or image."),
                                   QStringLiteral("stage"));
    const QCommandLineOption forDuration(QStringLiteral("for"), QStringLiteral("The drain ends by itself after this long (e.g. 30m)."),
                                         QStringLiteral("duration"));
    const QCommandLineOption until(QStringLiteral("until"), QStringLiteral("The drain ends by itself then (ISO 8601 with a zone)."),
                                   QStringLiteral("time"));
    const QCommandLineOption json(
        QStringLiteral("json"),
        QStringLiteral("Print JSON: the list as its codec writes it (list), the engine's answer (drain, restore)."));
    const QCommandLineOption settings(
        QStringLiteral("settings"),
        QStringLiteral("list without --engine: the settings file whose providers to list (default: the user's)."), QStringLiteral("file"));
    const RemoteFlag remote;
    parser.addOptions({ reason, role, stage, forDuration, until, json, settings, remote.engine });
    if (!parser.parse(arguments)) {
        err << "bullpen-cli provider: " << parser.errorText() << "\n";
        return kExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << commandHelp(
            parser, QStringLiteral("provider"),
            { { kExitOk, QStringLiteral("done") },
              { kExitUsage,
                QStringLiteral("usage refused, or refused by the engine (a viewer's token, an unknown provider, a bad field)") },
              { kExitUnreachable, QStringLiteral("the engine could not be reached or failed") } });
        return kExitOk;
    }
    const QStringList pos = parser.positionalArguments();
    const QString action = pos.value(0);
    if (action != u"list" && action != u"drain" && action != u"restore") {
        err << "bullpen-cli provider: say list, drain ID or restore ID\n";
        return kExitUsage;
    }
    if ((action == u"list") != (pos.size() == 1) || pos.size() > 2) {
        err << "bullpen-cli provider: "
            << (action == u"list" ? "list takes no provider" : "name one provider, e.g. `provider drain gemini`") << "\n";
        return kExitUsage;
    }
    if (action == u"list" && remote.isSet(parser) && parser.isSet(settings)) {
        err << "bullpen-cli provider: list takes --engine URL or --settings FILE, not both (an engine lists its own providers)\n";
        return kExitUsage;
    }
    if (action == u"list" && !remote.isSet(parser))
        return listProviders(std::nullopt, parser.isSet(settings) ? parser.value(settings) : EngineSetup::defaultSettingsFile(),
                             parser.isSet(settings), parser.isSet(json));
    if (!remote.isSet(parser)) {
        err << "bullpen-cli provider: drains live in a running engine; pass --engine URL (BULLPEN_ENGINE_TOKEN for its token)\n";
        return kExitUsage;
    }
    EngineEndpoint endpoint;
    QString error;
    if (!remote.endpoint(parser, &endpoint, &error)) {
        err << "bullpen-cli provider: " << error << "\n";
        return kExitUsage;
    }

    if (action == u"list")
        return listProviders(endpoint, QString(), false, parser.isSet(json));
    EngineAnswer answer;
    {
        QJsonObject body;
        if (parser.isSet(reason))
            body.insert(QStringLiteral("reason"), parser.value(reason));
        if (parser.isSet(role))
            body.insert(QStringLiteral("role"), parser.value(role));
        if (parser.isSet(stage))
            body.insert(QStringLiteral("stage"), parser.value(stage));
        if (action == u"drain") {
            if (parser.isSet(forDuration) && parser.isSet(until)) {
                err << "bullpen-cli provider: --for or --until, not both\n";
                return kExitUsage;
            }
            if (parser.isSet(forDuration)) {
                QString why;
                const auto d = parseDuration(parser.value(forDuration), &why);
                if (!d) {
                    err << "bullpen-cli provider: --for: " << why << "\n";
                    return kExitUsage;
                }
                body.insert(QStringLiteral("until"), QDateTime::currentDateTimeUtc().addMSecs(d->count()).toString(Qt::ISODateWithMs));
            } else if (parser.isSet(until)) {
                body.insert(QStringLiteral("until"), parser.value(until));
            }
        }
        const QByteArray bytes = QJsonDocument(body).toJson(QJsonDocument::Compact);
        const ApiRoute route = action == u"drain" ? ApiRoute::DrainProvider : ApiRoute::RestoreProvider; // checked above
        answer = callEngine(endpoint, ApiRoutes::path(route, { pos.at(1) }), {}, &bytes);
    }
    if (!answer.error.isEmpty()) {
        err << "bullpen-cli provider: " << endpoint.display() << ": " << answer.error << "\n";
        return answer.status >= 400 && answer.status < 500 ? kExitUsage : kExitUnreachable;
    }
    out << QJsonDocument(QJsonDocument::fromJson(answer.body).object()).toJson(QJsonDocument::Indented);
    return kExitOk;
}

} // namespace bullpen::cli
