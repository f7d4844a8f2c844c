// SPDX-License-Identifier: MIT
#include "providercommand.h"

#include "clihelp.h"
#include "config/exitcode.h"
#include "config/settings.h"
#include "enginecall.h"
#include "failure/secretscrubber.h"
#include "runtime/logsink.h"
#include "wire/apiroutes.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

namespace bullpen::cli {

namespace {

QString since(const QJsonValue &iso)
{
    const QDateTime t = QDateTime::fromString(iso.toString(), Qt::ISODateWithMs);
    return t.isValid() ? t.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QStringLiteral("-");
}

// What an engine sent, on a terminal: control characters (escape sequences, line breaks) become spaces.
QString printable(const QString &text)
{
    return SecretScrubber::printable(text);
}

void printList(QTextStream &out, const QJsonObject &o)
{
    const QJsonObject b = o.value(QLatin1StringView("breaker")).toObject();
    out << (b.value(QLatin1StringView("enabled")).toBool() ? QStringLiteral("breakers on") : QStringLiteral("breakers off")) << "\n";
    for (const QJsonValue &pv : o.value(QLatin1StringView("providers")).toArray()) {
        const QJsonObject p = pv.toObject();
        QStringList notes;
        for (const QJsonValue &dv : p.value(QLatin1StringView("drains")).toArray()) {
            const QJsonObject d = dv.toObject();
            const QString scope = QStringLiteral("%1/%2").arg(d.value(QLatin1StringView("role")).toString(QStringLiteral("any")),
                                                              d.value(QLatin1StringView("stage")).toString(QStringLiteral("any")));
            QString n = QStringLiteral("DRAINED %1 by %2 since %3")
                            .arg(printable(scope), printable(d.value(QLatin1StringView("by")).toString()),
                                 since(d.value(QLatin1StringView("since"))));
            if (d.value(QLatin1StringView("until")).isString())
                n += QStringLiteral(" until %1").arg(since(d.value(QLatin1StringView("until"))));
            notes << n + QStringLiteral(": ") + printable(d.value(QLatin1StringView("reason")).toString());
        }
        for (const QJsonValue &bv : p.value(QLatin1StringView("breakers")).toArray()) {
            const QJsonObject k = bv.toObject();
            const QString state = k.value(QLatin1StringView("state")).toString();
            const QString where =
                QStringLiteral("%1/%2").arg(k.value(QLatin1StringView("role")).toString(), k.value(QLatin1StringView("stage")).toString());
            if (state == u"closed")
                notes << QStringLiteral("%1 closed (%2 failed of %3 in the window)")
                             .arg(where)
                             .arg(k.value(QLatin1StringView("window_failures")).toInt())
                             .arg(k.value(QLatin1StringView("window_attempts")).toInt());
            else
                notes << QStringLiteral("%1 %2 since %3: %4")
                             .arg(printable(where), printable(state.toUpper()), since(k.value(QLatin1StringView("since"))),
                                  printable(k.value(QLatin1StringView("reason")).toString()));
        }
        out << QStringLiteral("%1  %2")
                   .arg(printable(p.value(QLatin1StringView("id")).toString()), -10)
                   .arg(notes.isEmpty() ? QStringLiteral("no traffic yet") : notes.takeFirst())
            << "\n";
        for (const QString &n : notes)
            out << QString(12, QLatin1Char(' ')) << n << "\n";
    }
}

} // namespace

int runProvider(const QStringList &arguments)
{
    QTextStream out(stdout);
    QTextStream err(logging::stderrDevice());
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "A running engine's providers: list breakers and drains, drain a provider (its stages go "
        "to their fallbacks at once) or restore it.\n"
        "  provider list | drain ID --reason TEXT [--role R] [--stage S] [--for D | --until T] | restore ID [--role R] [--stage S]"));
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
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print the engine's JSON answer."));
    const RemoteFlag remote;
    parser.addOptions({ reason, role, stage, forDuration, until, json, remote.engine });
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
    if (!remote.isSet(parser)) {
        err << "bullpen-cli provider: breakers and drains live in a running engine; pass --engine URL (BULLPEN_ENGINE_TOKEN for its "
               "token)\n";
        return kExitUsage;
    }
    EngineEndpoint endpoint;
    QString error;
    if (!remote.endpoint(parser, &endpoint, &error)) {
        err << "bullpen-cli provider: " << error << "\n";
        return kExitUsage;
    }

    EngineAnswer answer;
    if (action == u"list") {
        answer = callEngine(endpoint, ApiRoutes::path(ApiRoute::Providers), {}, nullptr);
    } else {
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
    const QJsonObject o = QJsonDocument::fromJson(answer.body).object();
    if (parser.isSet(json) || action != u"list") {
        out << QJsonDocument(o).toJson(QJsonDocument::Indented);
        return kExitOk;
    }
    printList(out, o);
    return kExitOk;
}

} // namespace bullpen::cli
