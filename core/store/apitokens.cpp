// SPDX-License-Identifier: MIT
#include "apitokens.h"

#include "storedatabase.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSqlError>
#include <QSqlQuery>

#include <atomic>

namespace bullpen {

QString toId(ApiRole role)
{
    return role == ApiRole::Operator ? QStringLiteral("operator") : QStringLiteral("viewer");
}

std::optional<ApiRole> apiRoleFromId(QStringView id)
{
    if (id == u"operator")
        return ApiRole::Operator;
    if (id == u"viewer")
        return ApiRole::Viewer;
    return std::nullopt;
}

ApiTokens::ApiTokens(StoreLocation location, QString connectionName)
    : m_location(std::move(location))
    , m_connection(std::move(connectionName))
{
}

ApiTokens::~ApiTokens()
{
    m_check.reset(); // before its connection closes
    StoreLocation::disconnect(m_connection);
}

QSqlDatabase ApiTokens::db()
{
    // A server that restarted or a cut network leaves Qt's connection looking open; only a failed
    // statement tells. Connect again, at most once a second: connecting to a server that does not answer
    // waits up to its connect_timeout on the thread that answers requests, and meanwhile they get 503.
    if (m_lost && (!m_lastConnect.isValid() || m_lastConnect.hasExpired(1000))) {
        m_lastConnect.start();
        m_check.reset(); // before its connection closes
        StoreLocation::disconnect(m_connection);
        QString why;
        m_location.connect(m_connection, StoreLocation::Access::ReadWrite, &why);
        m_lost = !why.isEmpty();
    }
    return QSqlDatabase::database(m_connection, false);
}

std::unique_ptr<ApiTokens> ApiTokens::open(const StoreLocation &location, QString *error)
{
    static std::atomic<int> next { 0 };
    const QString name = QStringLiteral("bullpen-tokens-%1").arg(next++);
    QString why;
    bool ok = false;
    {
        // The store's own durability (StoreLocation::connect): on SQLite a commit is not fsynced, so an
        // audit row costs microseconds on the thread that answers requests, not a disk flush.
        QSqlDatabase d = location.connect(name, StoreLocation::Access::ReadWrite, &why);
        ok = why.isEmpty() && d.tables().contains(QStringLiteral("api_tokens"));
        if (why.isEmpty() && !ok)
            why = QStringLiteral("no token table");
    }
    if (!ok) {
        StoreLocation::disconnect(name);
        if (error)
            *error = QStringLiteral("%1: %2; start bullpen-engine once with this store to create it").arg(location.display(), why);
        return nullptr;
    }
    return std::unique_ptr<ApiTokens>(new ApiTokens(location, name));
}

QString ApiTokens::hashOf(QByteArrayView token)
{
    return QString::fromLatin1(QCryptographicHash::hash(token, QCryptographicHash::Sha256).toHex());
}

bool ApiTokens::validName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9._-]{1,64}$"));
    return pattern.match(name).hasMatch();
}

std::optional<QString> ApiTokens::add(const QString &name, ApiRole role, QString *error)
{
    if (!validName(name)) {
        if (error)
            *error = QStringLiteral("\"%1\" is not a token name: use 1-64 letters, digits, '.', '_' or '-'").arg(name.left(80));
        return std::nullopt;
    }
    for (const ApiToken &t : list()) {
        if (t.name == name) {
            if (error)
                *error = QStringLiteral("a token named \"%1\" exists already (names are never reused, so the audit stays clear); "
                                        "choose another name")
                             .arg(name);
            return std::nullopt;
        }
    }
    QByteArray raw(32, Qt::Uninitialized);
    QRandomGenerator::system()->generate(reinterpret_cast<quint32 *>(raw.data()), reinterpret_cast<quint32 *>(raw.data() + raw.size()));
    const QString token =
        QStringLiteral("bp_") + QString::fromLatin1(raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
    QSqlQuery q(db());
    QString why;
    if (!StoreDatabase::run(q, QStringLiteral("INSERT INTO api_tokens (name, role, token_sha256, created_at_ms) VALUES (?, ?, ?, ?)"),
                            { name, toId(role), hashOf(token.toLatin1()), QDateTime::currentMSecsSinceEpoch() }, &why)) {
        if (error)
            *error = QStringLiteral("cannot store the token: %1").arg(why);
        return std::nullopt;
    }
    audit(name, QStringLiteral("token_add"), name, toId(role));
    return token;
}

bool ApiTokens::revoke(const QString &name, QString *error)
{
    QSqlQuery q(db());
    QString why;
    if (!StoreDatabase::run(q, QStringLiteral("UPDATE api_tokens SET revoked_at_ms = ? WHERE name = ? AND revoked_at_ms IS NULL"),
                            { QDateTime::currentMSecsSinceEpoch(), name }, &why)) {
        if (error)
            *error = QStringLiteral("cannot revoke: %1").arg(why);
        return false;
    }
    if (q.numRowsAffected() != 1) {
        if (error)
            *error = QStringLiteral("no live token is named \"%1\"; `bullpen-engine token list` shows them").arg(name.left(80));
        return false;
    }
    audit(name, QStringLiteral("token_revoke"), name, {});
    return true;
}

QList<ApiToken> ApiTokens::list(QString *error)
{
    QList<ApiToken> out;
    QSqlQuery q(db());
    QString why;
    if (!StoreDatabase::run(
            q, QStringLiteral("SELECT name, role, created_at_ms, revoked_at_ms FROM api_tokens ORDER BY created_at_ms, name"), {}, &why)) {
        if (error)
            *error = why;
        return out;
    }
    while (q.next()) {
        ApiToken t;
        t.name = q.value(0).toString();
        t.role = apiRoleFromId(q.value(1).toString()).value_or(ApiRole::Viewer);
        t.createdAtMs = q.value(2).toLongLong();
        if (!q.value(3).isNull())
            t.revokedAtMs = q.value(3).toLongLong();
        out << t;
    }
    return out;
}

std::optional<ApiToken> ApiTokens::check(QByteArrayView presented, QString *storeError)
{
    if (presented.isEmpty() || presented.size() > 256)
        return std::nullopt;
    const QString hash = hashOf(presented);
    const bool trusted = !m_lost; // a connection that answered last time: worth one more try if it fails now
    if (m_lost)
        m_check.reset(); // prepared again on the new connection db() makes
    QString why;
    std::optional<ApiToken> token = checkOnce(hash, &why);
    if (!why.isEmpty() && trusted) {
        m_lost = true; // once more on a new connection: a restarted server refuses nobody it can read
        m_check.reset();
        why.clear();
        token = checkOnce(hash, &why);
    }
    if (!why.isEmpty()) {
        m_lost = true;
        if (storeError)
            *storeError = why;
    }
    return token;
}

std::optional<ApiToken> ApiTokens::checkOnce(const QString &hash, QString *storeError)
{
    // Every request asks: the statement is prepared once per connection and run again (parsing the SQL
    // each time was a seventh of the service thread's time under load).
    if (!m_check) {
        QSqlDatabase d = db();
        m_check = std::make_unique<QSqlQuery>(d);
        m_check->setForwardOnly(true);
        if (!m_check->prepare(
                QStringLiteral("SELECT name, role, created_at_ms FROM api_tokens WHERE token_sha256 = ? AND revoked_at_ms IS NULL"))) {
            *storeError = m_check->lastError().text();
            if (storeError->trimmed().isEmpty())
                *storeError = QStringLiteral("the token table cannot be read");
            m_check.reset();
            return std::nullopt;
        }
    }
    QSqlQuery &q = *m_check;
    q.bindValue(0, hash);
    if (!q.exec()) {
        *storeError = q.lastError().text();
        if (storeError->trimmed().isEmpty())
            *storeError = QStringLiteral("the token table cannot be read");
        q.finish();
        return std::nullopt;
    }
    const bool found = q.next();
    const auto finish = qScopeGuard([&q] { q.finish(); }); // no read transaction held open between requests
    if (!found)
        return std::nullopt;
    ApiToken t;
    t.name = q.value(0).toString();
    const std::optional<ApiRole> role = apiRoleFromId(q.value(1).toString());
    if (!role)
        return std::nullopt; // a row someone edited by hand: no role, no access
    t.role = *role;
    t.createdAtMs = q.value(2).toLongLong();
    return t;
}

bool ApiTokens::audit(const QString &tokenName, const QString &action, const QString &target, const QString &detail, QString *error)
{
    QSqlQuery q(db());
    const bool ok =
        StoreDatabase::run(q, QStringLiteral("INSERT INTO audit (at_ms, token_name, action, target, detail) VALUES (?, ?, ?, ?, ?)"),
                           { QDateTime::currentMSecsSinceEpoch(), tokenName, action, target, detail }, error);
    m_lost = m_lost || !ok;
    return ok;
}

bool ApiTokens::audit(const QList<AuditEntry> &entries, QString *error)
{
    QSqlDatabase d = db();
    if (!d.transaction()) {
        if (error)
            *error = d.lastError().text();
        m_lost = true;
        return false;
    }
    QSqlQuery q(d);
    for (const AuditEntry &e : entries) {
        if (!StoreDatabase::run(
                q, QStringLiteral("INSERT INTO audit (at_ms, token_name, action, target, detail, instance) VALUES (?, ?, ?, ?, ?, ?)"),
                { e.atMs, e.tokenName, e.action, e.target, e.detail,
                  e.instance.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(e.instance) },
                error)) {
            d.rollback();
            return false;
        }
    }
    if (!d.commit()) {
        if (error)
            *error = d.lastError().text();
        d.rollback();
        return false;
    }
    return true;
}

QList<AuditEntry> ApiTokens::auditLog(int limit, QString *error)
{
    QList<AuditEntry> out;
    QSqlQuery q(db());
    if (!StoreDatabase::run(
            q, QStringLiteral("SELECT at_ms, token_name, action, target, detail, instance FROM audit ORDER BY at_ms DESC LIMIT ?"),
            { limit }, error))
        return out;
    while (q.next())
        out << AuditEntry { q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(),
                            q.value(3).toString(),   q.value(4).toString(), q.value(5).toString() };
    return out;
}

} // namespace bullpen
