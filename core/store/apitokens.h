// SPDX-License-Identifier: MIT
#pragma once

#include "storelocation.h"

#include <QByteArrayView>
#include <QElapsedTimer>
#include <QList>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>

#include <memory>
#include <optional>

namespace bullpen {

// What a bearer of an API token may do (docs/contract.md §12.1): a viewer reads; an operator may also start,
// cancel and compare.
enum class ApiRole { Viewer, Operator };
QString toId(ApiRole role);
std::optional<ApiRole> apiRoleFromId(QStringView id);

struct ApiToken
{
    QString name;
    ApiRole role = ApiRole::Viewer;
    qint64 createdAtMs = 0;
    std::optional<qint64> revokedAtMs;
};

struct AuditEntry
{
    qint64 atMs = 0;
    QString tokenName;
    QString action; // start, cancel, compare, token_add, token_revoke
    QString target; // a generation or comparison id, a token name
    QString detail;
    QString instance; // the engine instance that answered (empty: the token command)
};

// bullpen-engine's API tokens and audit table, in the store's database. A token is shown once, when it
// is made; only its SHA-256 is kept, so a copy of the database lets nobody in. Each instance opens its
// own connection on the calling thread; a token revoked by `bullpen-engine token revoke` in another
// process is refused from the next request on (every check reads the table).
class ApiTokens final
{
public:
    // The store must exist and be migrated (StoreDatabase::open).
    static std::unique_ptr<ApiTokens> open(const StoreLocation &location, QString *error);
    ~ApiTokens();
    ApiTokens(const ApiTokens &) = delete;
    ApiTokens &operator=(const ApiTokens &) = delete;

    // A new token: "bp_" and 43 characters of base64url (256 random bits). The value is returned here
    // and nowhere else. Refuses a name in use (revoked ones included: names stay unique in the audit).
    std::optional<QString> add(const QString &name, ApiRole role, QString *error);
    bool revoke(const QString &name, QString *error);
    QList<ApiToken> list(QString *error = nullptr);
    // The live token whose SHA-256 matches, or nothing (unknown, revoked, or the store unreadable).
    // When the store cannot be read (PostgreSQL restarting, the network cut), nothing too, and `storeError`
    // says why: the token was not judged, and the caller answers 503, not 401. A lost connection is made
    // again at once and the read tried once more, so a PostgreSQL restart costs no request once it is up.
    std::optional<ApiToken> check(QByteArrayView presented, QString *storeError = nullptr);

    bool audit(const QString &tokenName, const QString &action, const QString &target, const QString &detail, QString *error = nullptr);
    // Several rows in one transaction (all or none).
    bool audit(const QList<AuditEntry> &entries, QString *error = nullptr);
    QList<AuditEntry> auditLog(int limit, QString *error = nullptr);

    const StoreLocation &location() const { return m_location; }

    static QString hashOf(QByteArrayView token);
    // Names: 1–64 of letters, digits, '.', '_', '-'.
    static bool validName(const QString &name);

private:
    ApiTokens(StoreLocation location, QString connectionName);
    // The connection, made again first when the last statement on it failed.
    QSqlDatabase db();
    std::optional<ApiToken> checkOnce(const QString &hash, QString *storeError);
    StoreLocation m_location;
    QString m_connection;
    std::unique_ptr<QSqlQuery> m_check; // check()'s statement, prepared once
    bool m_lost = false; // a statement failed: the next db() connects again
    QElapsedTimer m_lastConnect; // the last time db() connected again (steady clock)
};

} // namespace bullpen
