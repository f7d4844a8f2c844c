// SPDX-License-Identifier: MIT
// EngineService's handlers under /v1/providers (docs/api.md, "Providers"): breakers and drains.
#include "api/auditjson.h"
#include "api/breakerjson.h"
#include "contract/isotime.h"
#include "engine/breakeraudit.h"
#include "engineservice.h"
#include "prober.h"
#include "runtime/enginesetup.h"
#include "store/apitokens.h"
#include "store/drainrecords.h"
#include "wire/drainrowjson.h"
#include "wire/providersjson.h"

#include <QHttpServerRequest>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QUrlQuery>

Q_DECLARE_LOGGING_CATEGORY(lcApi)

namespace bullpen {

EngineService::Reply EngineService::providers() const
{
    BreakerBoard &board = m_setup.engine().breakers();
    QJsonObject o = ProvidersJson::toJson(board.breakers(SteadyClock::instance().now()), board.drains(), m_options.instance);
    const BreakerSettings &b = board.settings();
    o.insert(QStringLiteral("breaker"),
             QJsonObject { { QStringLiteral("enabled"), b.enabled },
                           { QStringLiteral("window_ms"), static_cast<double>(b.window.count()) },
                           { QStringLiteral("min_attempts"), b.minAttempts },
                           { QStringLiteral("failure_ratio"), b.failureRatio },
                           { QStringLiteral("cooldown_ms"), static_cast<double>(b.cooldown.count()) },
                           { QStringLiteral("max_cooldown_ms"), static_cast<double>(b.maxCooldown.count()) } });
    // The prober's targets (docs/contract.md §15: probes only where a prober runs); null without --probe-every.
    o.insert(QStringLiteral("probes"),
             m_prober ? QJsonValue(probesJson(m_prober->every(), m_prober->leads(), m_prober->status())) : QJsonValue());
    return json(200, o);
}

EngineService::Reply EngineService::drainProvider(const QHttpServerRequest &request, const QString &id, const ApiToken &token)
{
    const auto provider = providerFromId(id);
    if (!provider)
        return error(404, QStringLiteral("no provider \"%1\"; GET /v1/providers lists them").arg(id.left(64)));
    auto parsed = BreakerJson::drainFromJson(request.body(), *provider, token.name, QDateTime::currentDateTimeUtc());
    if (const auto *e = std::get_if<FieldError>(&parsed))
        return error(400, e->toString(), e->field);
    const Drain asked = std::get<Drain>(std::move(parsed));
    QString why;
    if (m_drainRecords && !m_drainRecords->save(asked, m_options.instance, &why)) {
        qCWarning(lcApi).noquote() << "a drain could not be stored:" << why;
        Reply r = error(503,
                        QStringLiteral("the drain could not be stored (the engine's log says why); nothing was changed. Try again when "
                                       "the store answers"));
        r.headers.append({ QByteArray("Retry-After"), QByteArray("5") });
        return r;
    }
    const Drain d = m_setup.engine().breakers().drain(asked);
    // The row's detail is the drain as the API answers it: role, stage, reason, since and until.
    m_audit.record(token.name, QStringLiteral("drain"), QStringLiteral("%1 (%2)").arg(toId(d.provider), d.reason.left(200)),
                   QString::fromUtf8(QJsonDocument(DrainRowJson::toJson(d)).toJson(QJsonDocument::Compact)));
    return json(200, DrainRowJson::toJson(d));
}

EngineService::Reply EngineService::restoreProvider(const QHttpServerRequest &request, const QString &id, const ApiToken &token)
{
    const auto provider = providerFromId(id);
    if (!provider)
        return error(404, QStringLiteral("no provider \"%1\"; GET /v1/providers lists them").arg(id.left(64)));
    auto parsed = BreakerJson::restoreFromJson(request.body());
    if (const auto *e = std::get_if<FieldError>(&parsed))
        return error(400, e->toString(), e->field);
    const BreakerJson::Restore asked = std::get<BreakerJson::Restore>(parsed);
    const QString &reason = asked.reason;
    QString why;
    if (m_drainRecords && m_drainRecords->remove(*provider, asked.scope, &why) < 0) {
        qCWarning(lcApi).noquote() << "a restore could not be stored:" << why;
        Reply r = error(503,
                        QStringLiteral("the restore could not be stored (the engine's log says why); nothing was changed. Try again when "
                                       "the store answers"));
        r.headers.append({ QByteArray("Retry-After"), QByteArray("5") });
        return r;
    }
    const int restored = m_setup.engine().breakers().restore(*provider, token.name, reason, asked.scope);
    const QJsonObject scope { { QStringLiteral("role"), asked.scope.role ? QJsonValue(toId(*asked.scope.role)) : QJsonValue() },
                              { QStringLiteral("stage"), asked.scope.stage ? QJsonValue(toId(*asked.scope.stage)) : QJsonValue() },
                              { QStringLiteral("restored"), restored } };
    m_audit.record(token.name, QStringLiteral("restore"),
                   reason.isEmpty() ? toId(*provider) : QStringLiteral("%1 (%2)").arg(toId(*provider), reason.left(200)),
                   QString::fromUtf8(QJsonDocument(scope).toJson(QJsonDocument::Compact)));
    return json(200, QJsonObject { { QStringLiteral("provider"), toId(*provider) }, { QStringLiteral("restored"), restored } });
}

EngineService::Reply EngineService::resetBreaker(const QHttpServerRequest &request, const QString &id, const ApiToken &token)
{
    const auto provider = providerFromId(id);
    if (!provider)
        return error(404, QStringLiteral("no provider \"%1\"; GET /v1/providers lists them").arg(id.left(64)));
    auto parsed = BreakerJson::resetFromJson(request.body());
    if (const auto *e = std::get_if<FieldError>(&parsed))
        return error(400, e->toString(), e->field);
    const BreakerJson::Reset asked = std::get<BreakerJson::Reset>(parsed);
    const BreakerKey key { *provider, asked.role, asked.stage };
    const bool wasOpen = m_setup.engine().breakers().reset(key, token.name, asked.reason, SteadyClock::instance().now());
    m_audit.record(token.name, QStringLiteral("reset"),
                   asked.reason.isEmpty() ? key.toString() : QStringLiteral("%1 (%2)").arg(key.toString(), asked.reason.left(200)));
    return json(200,
                QJsonObject { { QStringLiteral("provider"), toId(*provider) },
                              { QStringLiteral("role"), toId(asked.role) },
                              { QStringLiteral("stage"), toId(asked.stage) },
                              { QStringLiteral("was_open"), wasOpen } });
}

EngineService::Reply EngineService::auditLog(const QHttpServerRequest &request)
{
    const QUrlQuery query(request.url());
    int limit = 200;
    if (const QString l = query.queryItemValue(QStringLiteral("limit")); !l.isEmpty()) {
        bool ok = false;
        limit = l.toInt(&ok);
        if (!ok || limit < 1 || limit > 1000)
            return error(400, QStringLiteral("limit: a whole number from 1 to 1000"), QStringLiteral("limit"));
    }
    const QString action = query.queryItemValue(QStringLiteral("action")).left(32);
    m_audit.flush(); // what this engine was asked a moment ago is in the answer
    QString why;
    const QList<AuditEntry> rows = m_tokens.auditLog(limit, &why);
    if (!why.isEmpty())
        return error(503, QStringLiteral("the audit could not be read (%1); try again when the store answers").arg(why.left(200)));
    return json(200, AuditJson::entries(rows, action));
}

void EngineService::announce(const BreakerChange &change)
{
    std::optional<BreakerView> view;
    if (!change.drain) {
        for (const BreakerView &v : m_setup.engine().breakers().breakers(SteadyClock::instance().now()))
            if (v.key == change.key)
                view = v;
    }
    m_events.publishNotice(change.type,
                           QJsonDocument(BreakerJson::change(change, view, m_options.instance)).toJson(QJsonDocument::Compact));
    if (const auto line = engineAuditLine(change)) // breaker transitions over time: the charts' annotations read them
        m_audit.record(QString::fromLatin1(kEngineAuditor), line->action, line->target);
}

void EngineService::syncDrains()
{
    QString why;
    std::vector<Drain> drains = m_drainRecords->load(QDateTime::currentDateTimeUtc(), &why);
    if (!why.isEmpty()) {
        if (why != m_drainSyncError) // said once per distinct failure; the drains in force stay as they were
            qCWarning(lcApi).noquote() << "could not read the drains from the store:" << why;
        m_drainSyncError = why;
        return;
    }
    m_drainSyncError.clear();
    m_setup.engine().breakers().replaceDrains(std::move(drains));
}

} // namespace bullpen
