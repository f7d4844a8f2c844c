// SPDX-License-Identifier: MIT
#include "alerthandlers.h"

#include "api/breakerjson.h"
#include "audittrail.h"
#include "contract/isotime.h"
#include "eventstream.h"
#include "runtime/enginesetup.h"
#include "servicecontext.h"
#include "store/apitokens.h"

#include <QHttpServerRequest>
#include <QJsonDocument>

namespace bullpen {

namespace {

// The body of POST /v1/alerts/{name}/silence: {"for_s": 900 | 3600 | 14400, "reason": "..."}.
std::variant<SilenceRequest, FieldError> silenceFromJson(const QString &rule, const QByteArray &body)
{
    const QString example = QStringLiteral("a JSON object such as {\"for_s\": 3600, \"reason\": \"known outage, ticket 12\"}");
    QJsonParseError perr {};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &perr);
    if (perr.error != QJsonParseError::NoError || !doc.isObject())
        return FieldError { {}, QStringLiteral("the body is ") + example };
    const QJsonObject o = doc.object();
    for (auto it = o.begin(); it != o.end(); ++it)
        if (it.key() != u"for_s" && it.key() != u"reason")
            return FieldError { it.key(), QStringLiteral("unknown field; a silence takes for_s and reason") };
    const QJsonValue length = o.value(QLatin1StringView("for_s"));
    if (!length.isDouble())
        return FieldError { QStringLiteral("for_s"), QStringLiteral("required: one of %1 seconds").arg(AlertBoard::silenceLengthsText()) };
    const QJsonValue reason = o.value(QLatin1StringView("reason"));
    if (!reason.isString() || reason.toString().trimmed().isEmpty())
        return FieldError { QStringLiteral("reason"),
                            QStringLiteral("required: why it is silenced, for the audit and the other operators") };
    if (std::optional<FieldError> refused = BreakerJson::reasonRefusal(reason.toString()))
        return *refused;
    return SilenceRequest { rule, std::chrono::seconds(qint64(length.toDouble())), reason.toString().trimmed() };
}

} // namespace

AlertHandlers::AlertHandlers(ServiceContext &context, QObject *owner)
    : m_context(context)
{
    // The shipped alert rules, evaluated by the engine every few seconds as a scrape would see them
    // (docs/api.md, "Alerts"): each change goes on the event stream.
    QObject::connect(&m_context.setup, &EngineSetup::alertChanged, owner, [this](const QJsonObject &alert) { publish(alert); });
}

// The store did not keep a silence or its end: nothing changed, try again (as a drain's refusal).
ApiReply AlertHandlers::storeRefusal(const QString &message)
{
    ApiReply r = ApiReply::error(503, message);
    r.headers.append({ QByteArray("Retry-After"), QByteArray("5") });
    return r;
}

void AlertHandlers::publish(QJsonObject alert)
{
    const QString type = QStringLiteral("alert_") + alert.value(QLatin1StringView("state")).toString();
    alert.insert(QStringLiteral("type"), type);
    alert.insert(QStringLiteral("instance"), m_context.options.instance);
    m_context.events.publishNotice(type, QJsonDocument(alert).toJson(QJsonDocument::Compact));
}

ApiReply AlertHandlers::alerts()
{
    m_context.setup.syncSilences(); // every engine's silences, at most a second old
    return ApiReply::json(200, m_context.setup.alertsJson(m_context.options.instance));
}

ApiReply AlertHandlers::silence(const QHttpServerRequest &request, const QString &rule, const ApiToken &token)
{
    if (!AlertBoard::knownRule(rule))
        return ApiReply::error(404, QStringLiteral("no alert rule \"%1\"; GET /v1/alerts lists the rules").arg(rule.left(64)));
    auto parsed = silenceFromJson(rule, request.body());
    if (const auto *e = std::get_if<FieldError>(&parsed))
        return ApiReply::error(400, e->toString(), e->field);
    const SilenceRequest asked = std::get<SilenceRequest>(parsed);
    QString why;
    std::optional<Silence> s = AlertBoard::makeSilence(asked.rule, token.name, asked.reason, asked.length,
                                                       m_context.setup.alertClock().now(), QDateTime::currentDateTimeUtc(), &why);
    if (!s) // the rule is known: the length is not one offered
        return ApiReply::error(400, why, QStringLiteral("for_s"));
    if (s = m_context.setup.putSilence(*s, &why); !s)
        return storeRefusal(why);
    const QJsonObject answer = s->toJson();
    m_context.audit.record(token.name, QStringLiteral("silence"),
                           QStringLiteral("%1 until %2 (%3)").arg(s->rule, isoUtcWithMs(s->until.toMSecsSinceEpoch()), s->reason.left(200)),
                           QString::fromUtf8(QJsonDocument(answer).toJson(QJsonDocument::Compact)));
    return ApiReply::json(200, answer);
}

ApiReply AlertHandlers::endSilence(const QString &rule, const ApiToken &token)
{
    QString why;
    const auto ended = m_context.setup.liftSilence(rule, token.name, &why);
    if (!ended && !why.isEmpty())
        return storeRefusal(why);
    if (!ended)
        return ApiReply::error(404,
                               QStringLiteral("alert rule \"%1\" is not silenced; GET /v1/alerts lists the silences").arg(rule.left(64)));
    const QJsonObject answer = ended->toJson();
    m_context.audit.record(token.name, QStringLiteral("unsilence"), rule,
                           QString::fromUtf8(QJsonDocument(answer).toJson(QJsonDocument::Compact)));
    return ApiReply::json(200, answer);
}

} // namespace bullpen
