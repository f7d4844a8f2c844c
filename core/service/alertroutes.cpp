// SPDX-License-Identifier: MIT
// EngineService's alerts (docs/api.md, "Alerts"): the shipped rules as its EngineSetup evaluates them,
// their changes on the event stream, GET /v1/alerts, and an operator's silence of a rule.
#include "api/breakerjson.h"
#include "contract/isotime.h"
#include "engineservice.h"
#include "runtime/enginesetup.h"
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

// The store did not keep a silence or its end: nothing changed, try again (as a drain's refusal).
EngineService::Reply EngineService::storeRefusal(const QString &message)
{
    Reply r = error(503, message);
    r.headers.append({ QByteArray("Retry-After"), QByteArray("5") });
    return r;
}

void EngineService::publishAlert(QJsonObject alert)
{
    const QString type = QStringLiteral("alert_") + alert.value(QLatin1StringView("state")).toString();
    alert.insert(QStringLiteral("type"), type);
    alert.insert(QStringLiteral("instance"), m_options.instance);
    m_events.publishNotice(type, QJsonDocument(alert).toJson(QJsonDocument::Compact));
}

EngineService::Reply EngineService::alerts()
{
    m_setup.syncSilences(); // every engine's silences, at most a second old
    return json(200, m_setup.alertsJson(m_options.instance));
}

EngineService::Reply EngineService::silenceAlert(const QHttpServerRequest &request, const QString &rule, const ApiToken &token)
{
    if (!AlertBoard::knownRule(rule))
        return error(404, QStringLiteral("no alert rule \"%1\"; GET /v1/alerts lists the rules").arg(rule.left(64)));
    auto parsed = silenceFromJson(rule, request.body());
    if (const auto *e = std::get_if<FieldError>(&parsed))
        return error(400, e->toString(), e->field);
    const SilenceRequest asked = std::get<SilenceRequest>(parsed);
    QString why;
    std::optional<Silence> s = AlertBoard::makeSilence(asked.rule, token.name, asked.reason, asked.length, m_setup.alertClock().now(),
                                                       QDateTime::currentDateTimeUtc(), &why);
    if (!s) // the rule is known: the length is not one offered
        return error(400, why, QStringLiteral("for_s"));
    if (s = m_setup.putSilence(*s, &why); !s)
        return storeRefusal(why);
    const QJsonObject answer = s->toJson();
    m_audit.record(token.name, QStringLiteral("silence"),
                   QStringLiteral("%1 until %2 (%3)").arg(s->rule, isoUtcWithMs(s->until.toMSecsSinceEpoch()), s->reason.left(200)),
                   QString::fromUtf8(QJsonDocument(answer).toJson(QJsonDocument::Compact)));
    return json(200, answer);
}

EngineService::Reply EngineService::endSilence(const QString &rule, const ApiToken &token)
{
    QString why;
    const auto ended = m_setup.liftSilence(rule, token.name, &why);
    if (!ended && !why.isEmpty())
        return storeRefusal(why);
    if (!ended)
        return error(404, QStringLiteral("alert rule \"%1\" is not silenced; GET /v1/alerts lists the silences").arg(rule.left(64)));
    const QJsonObject answer = ended->toJson();
    m_audit.record(token.name, QStringLiteral("unsilence"), rule, QString::fromUtf8(QJsonDocument(answer).toJson(QJsonDocument::Compact)));
    return json(200, answer);
}

} // namespace bullpen
