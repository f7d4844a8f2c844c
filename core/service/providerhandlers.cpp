// SPDX-License-Identifier: MIT
#include "providerhandlers.h"

#include "api/breakerjson.h"
#include "audittrail.h"
#include "contract/isotime.h"
#include "engine/breakeraudit.h"
#include "eventstream.h"
#include "prober.h"
#include "runtime/enginesetup.h"
#include "servicecontext.h"
#include "store/apitokens.h"
#include "store/drainrecords.h"
#include "store/proberecords.h"
#include "store/store.h"
#include "wire/drainrowjson.h"
#include "wire/providersjson.h"

#include <QHttpServerRequest>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcApi)

namespace bullpen {

ProviderHandlers::ProviderHandlers(ServiceContext &context, const StoreLocation &store, QObject *owner)
    : m_context(context)
{
    // Drains live in the store: every engine on it obeys them within two seconds (docs/contract.md §13).
    QString why;
    m_drainRecords = DrainRecords::open(store, &why);
    if (m_drainRecords) {
        // On PostgreSQL a drain made through any engine is announced (LISTEN/NOTIFY) and read at once;
        // the periodic read stays for a notification lost with a connection, and for `until`.
        const bool told = m_drainRecords->listen([this] { syncDrains(); });
        m_drainSync.setInterval(told ? 1000 : 500); // without: read twice a second, well within 2 s
        QObject::connect(&m_drainSync, &QTimer::timeout, owner, [this] { syncDrains(); });
        m_drainSync.start();
        syncDrains();
    } else {
        qCWarning(lcApi).noquote() << "drains are kept by this engine alone (the store has none:" << why << ")";
    }
    // Breakers opening and closing, and drains this engine learns of, go on its event stream as notices.
    QObject::connect(&m_context.setup.engine().breakers(), &BreakerBoard::changed, owner,
                     [this](const BreakerChange &change) { announce(change); });
}

ProviderHandlers::~ProviderHandlers() = default;

void ProviderHandlers::startProbes()
{
    const ServiceOptions &options = m_context.options;
    if (options.probeEvery <= std::chrono::milliseconds::zero())
        return;
    EngineSetup &setup = m_context.setup;
    QString why;
    std::unique_ptr<ProbeRecords> records = setup.store() ? ProbeRecords::open(setup.store()->storeLocation(), &why) : nullptr;
    if (!records) {
        qCWarning(lcApi).noquote() << "probes are off: they need the store to know which provider had traffic (" << why << ")";
        return;
    }
    m_prober = std::make_unique<Prober>(setup.engine(), setup.engine().breakers(), *setup.context().clock, setup.pipelineOptions(),
                                        std::move(records), options.probeEvery);
    qCInfo(lcApi) << "probes: every provider, role and stage without traffic for" << options.probeEvery.count() << "ms gets one";
    m_prober->start();
}

void ProviderHandlers::stopProbes()
{
    if (m_prober)
        m_prober->stop();
}

ApiReply ProviderHandlers::providers() const
{
    BreakerBoard &board = m_context.setup.engine().breakers();
    QJsonObject o = ProvidersJson::toJson(m_context.setup.providers().all(), board.breakers(m_context.setup.context().clock->now()),
                                          board.drains(), m_context.options.instance);
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
    return ApiReply::json(200, o);
}

ApiReply ProviderHandlers::drain(const QHttpServerRequest &request, const QString &id, const ApiToken &token)
{
    const auto provider = m_context.setup.providers().find(id); // one this engine lists
    if (!provider)
        return ApiReply::error(404, QStringLiteral("no provider \"%1\"; GET /v1/providers lists them").arg(id.left(64)));
    auto parsed = BreakerJson::drainFromJson(request.body(), *provider, token.name, QDateTime::currentDateTimeUtc());
    if (const auto *e = std::get_if<FieldError>(&parsed))
        return ApiReply::error(400, e->toString(), e->field);
    const Drain asked = std::get<Drain>(std::move(parsed));
    QString why;
    if (m_drainRecords && !m_drainRecords->save(asked, m_context.options.instance, &why)) {
        qCWarning(lcApi).noquote() << "a drain could not be stored:" << why;
        ApiReply r =
            ApiReply::error(503,
                            QStringLiteral("the drain could not be stored (the engine's log says why); nothing was changed. Try again when "
                                           "the store answers"));
        r.headers.append({ QByteArray("Retry-After"), QByteArray("5") });
        return r;
    }
    const Drain d = m_context.setup.engine().breakers().drain(asked);
    // The row's detail is the drain as the API answers it: role, stage, reason, since and until.
    m_context.audit.record(token.name, QStringLiteral("drain"), QStringLiteral("%1 (%2)").arg(toId(d.provider), d.reason.left(200)),
                           QString::fromUtf8(QJsonDocument(DrainRowJson::toJson(d)).toJson(QJsonDocument::Compact)));
    return ApiReply::json(200, DrainRowJson::toJson(d));
}

ApiReply ProviderHandlers::restore(const QHttpServerRequest &request, const QString &id, const ApiToken &token)
{
    // Any provider the process has met: a drain another engine stored for one this engine does not list can still be lifted.
    const auto provider = providerFromId(id);
    if (!provider)
        return ApiReply::error(404, QStringLiteral("no provider \"%1\"; GET /v1/providers lists them").arg(id.left(64)));
    auto parsed = BreakerJson::restoreFromJson(request.body());
    if (const auto *e = std::get_if<FieldError>(&parsed))
        return ApiReply::error(400, e->toString(), e->field);
    const BreakerJson::Restore asked = std::get<BreakerJson::Restore>(parsed);
    const QString &reason = asked.reason;
    QString why;
    if (m_drainRecords && m_drainRecords->remove(*provider, asked.scope, &why) < 0) {
        qCWarning(lcApi).noquote() << "a restore could not be stored:" << why;
        ApiReply r = ApiReply::error(
            503,
            QStringLiteral("the restore could not be stored (the engine's log says why); nothing was changed. Try again when "
                           "the store answers"));
        r.headers.append({ QByteArray("Retry-After"), QByteArray("5") });
        return r;
    }
    const int restored = m_context.setup.engine().breakers().restore(*provider, token.name, reason, asked.scope);
    const QJsonObject scope { { QStringLiteral("role"), asked.scope.role ? QJsonValue(toId(*asked.scope.role)) : QJsonValue() },
                              { QStringLiteral("stage"), asked.scope.stage ? QJsonValue(toId(*asked.scope.stage)) : QJsonValue() },
                              { QStringLiteral("restored"), restored } };
    m_context.audit.record(token.name, QStringLiteral("restore"),
                           reason.isEmpty() ? toId(*provider) : QStringLiteral("%1 (%2)").arg(toId(*provider), reason.left(200)),
                           QString::fromUtf8(QJsonDocument(scope).toJson(QJsonDocument::Compact)));
    return ApiReply::json(200, QJsonObject { { QStringLiteral("provider"), toId(*provider) }, { QStringLiteral("restored"), restored } });
}

ApiReply ProviderHandlers::resetBreaker(const QHttpServerRequest &request, const QString &id, const ApiToken &token)
{
    const auto provider = m_context.setup.providers().find(id);
    if (!provider)
        return ApiReply::error(404, QStringLiteral("no provider \"%1\"; GET /v1/providers lists them").arg(id.left(64)));
    auto parsed = BreakerJson::resetFromJson(request.body());
    if (const auto *e = std::get_if<FieldError>(&parsed))
        return ApiReply::error(400, e->toString(), e->field);
    const BreakerJson::Reset asked = std::get<BreakerJson::Reset>(parsed);
    const BreakerKey key { *provider, asked.role, asked.stage };
    const bool wasOpen = m_context.setup.engine().breakers().reset(key, token.name, asked.reason, m_context.setup.context().clock->now());
    m_context.audit.record(token.name, QStringLiteral("reset"),
                           asked.reason.isEmpty() ? key.toString() : QStringLiteral("%1 (%2)").arg(key.toString(), asked.reason.left(200)));
    return ApiReply::json(200,
                          QJsonObject { { QStringLiteral("provider"), toId(*provider) },
                                        { QStringLiteral("role"), toId(asked.role) },
                                        { QStringLiteral("stage"), toId(asked.stage) },
                                        { QStringLiteral("was_open"), wasOpen } });
}

void ProviderHandlers::announce(const BreakerChange &change)
{
    std::optional<BreakerView> view;
    if (!change.drain) {
        for (const BreakerView &v : m_context.setup.engine().breakers().breakers(m_context.setup.context().clock->now()))
            if (v.key == change.key)
                view = v;
    }
    m_context.events.publishNotice(
        change.type, QJsonDocument(BreakerJson::change(change, view, m_context.options.instance)).toJson(QJsonDocument::Compact));
    if (const auto line = engineAuditLine(change)) // breaker transitions over time: the charts' annotations read them
        m_context.audit.record(QString::fromLatin1(kEngineAuditor), line->action, line->target);
}

void ProviderHandlers::syncDrains()
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
    m_context.setup.engine().breakers().replaceDrains(std::move(drains));
}

} // namespace bullpen
