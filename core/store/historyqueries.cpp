// SPDX-License-Identifier: MIT
#include "historyqueries.h"

#include "storedatabase.h"

#include <QHash>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QSqlRecord>

namespace bullpen {

namespace {

GenerationRow rowFrom(const QSqlQuery &q)
{
    const QSqlRecord rec = q.record();
    auto text = [&](const char *c) { return q.value(rec.indexOf(QLatin1StringView(c))).toString(); };
    auto num = [&](const char *c, qint64 missing) {
        const QVariant v = q.value(rec.indexOf(QLatin1StringView(c)));
        return v.isNull() ? missing : v.toLongLong();
    };
    GenerationRow r;
    r.id = text("id");
    r.createdAtMs = num("created_at_ms", 0);
    if (const qint64 f = num("finished_at_ms", -1); f >= 0)
        r.finishedAtMs = f;
    r.userMask = text("user_mask");
    r.userKey = text("user_key");
    r.policy = text("policy");
    r.state = text("state");
    r.publicCode = text("public_code");
    r.kind = text("kind");
    r.stage = text("stage");
    r.detail = text("detail");
    r.decision = text("decision");
    r.fallbackApplied = num("fallback_applied", 0) != 0;
    r.fallbackReason = text("fallback_reason");
    r.primaryProvider = text("primary_provider");
    r.finalProvider = text("final_provider");
    r.finalModel = text("final_model");
    r.tokensIn = num("tokens_in", -1);
    r.tokensOut = num("tokens_out", -1);
    r.elapsedMs = q.value(rec.indexOf(QLatin1StringView("elapsed_ms"))).toDouble();
    r.fallbackProvider = text("fallback_provider");
    r.instance = text("instance");
    r.nextStep = text("next_step");
    r.imagePath = text("image_path");
    return r;
}

// WHERE clause and bound values for a history filter (portable SQL).
QString whereFor(const HistoryFilter &f, QVariantList &binds)
{
    QStringList where;
    if (f.fromMs) {
        where << QStringLiteral("created_at_ms >= ?");
        binds << *f.fromMs;
    }
    if (f.toMs) {
        where << QStringLiteral("created_at_ms < ?");
        binds << *f.toMs;
    }
    if (!f.states.isEmpty()) {
        QStringList marks;
        for (HistoryState s : f.states) {
            marks << QStringLiteral("?");
            binds << toId(s);
        }
        where << QStringLiteral("state IN (%1)").arg(marks.join(QLatin1Char(',')));
    }
    // Stored as the SPEC spells them: kinds and codes upper case, stages and providers as ids.
    const std::pair<QString, const char *> exact[] = {{f.publicCode ? enumName(*f.publicCode) : QString(), "public_code"},
                                                      {f.kind ? enumName(*f.kind) : QString(), "kind"},
                                                      {f.stage ? toId(*f.stage) : QString(), "stage"},
                                                      {f.userKey, "user_key"},
                                                      {f.instance, "instance"}};
    for (const auto &[value, column] : exact) {
        if (!value.isEmpty()) {
            where << QLatin1StringView(column) + QStringLiteral(" = ?");
            binds << value;
        }
    }
    if (f.provider) {
        where << QStringLiteral("(primary_provider = ? OR final_provider = ?)");
        binds << toId(*f.provider) << toId(*f.provider);
    }
    if (f.fallbackApplied) {
        where << QStringLiteral("fallback_applied = ?");
        binds << (*f.fallbackApplied ? 1 : 0);
    }
    if (f.beforeMs) {
        where << QStringLiteral("(created_at_ms < ? OR (created_at_ms = ? AND id < ?))");
        binds << *f.beforeMs << *f.beforeMs << f.beforeId;
    }
    return where.isEmpty() ? QString() : QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
}

ComparisonRow comparisonFrom(const QSqlQuery &q)
{
    return ComparisonRow{q.value(0).toString(), q.value(1).toLongLong(), q.value(2).toString(), q.value(3).toString(),
                         QJsonDocument::fromJson(q.value(4).toString().toUtf8()).object()};
}

} // namespace

HistoryQueries::HistoryQueries(StoreDatabase &db)
    : m_db(db)
{
}

QString HistoryQueries::location() const { return m_db.path(); }

QList<GenerationRow> HistoryQueries::generations(const HistoryFilter &filter, int limit, QString *error)
{
    QVariantList binds;
    const QString sql = QStringLiteral("SELECT * FROM generations") + whereFor(filter, binds)
                        + QStringLiteral(" ORDER BY created_at_ms DESC, id DESC LIMIT %1").arg(std::max(limit, 1));
    QSqlQuery q;
    QList<GenerationRow> out;
    if (!m_db.read(q, sql, binds, error))
        return out;
    while (q.next())
        out << rowFrom(q);
    return out;
}

std::optional<GenerationRow> HistoryQueries::generation(const QString &id, QString *error)
{
    QSqlQuery q;
    if (!m_db.read(q, QStringLiteral("SELECT * FROM generations WHERE id = ?"), {id}, error) || !q.next())
        return std::nullopt;
    return rowFrom(q);
}

QList<QJsonObject> HistoryQueries::events(const QString &generationId, QString *error)
{
    QSqlQuery q;
    QList<QJsonObject> out;
    if (!m_db.read(q, QStringLiteral("SELECT body FROM events WHERE generation_id = ? ORDER BY seq"), {generationId}, error))
        return out;
    while (q.next())
        out << QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object();
    return out;
}

QList<QJsonObject> HistoryQueries::attempts(const QString &generationId, QString *error)
{
    QSqlQuery q;
    QList<QJsonObject> out;
    if (!m_db.read(q, QStringLiteral("SELECT * FROM attempts WHERE generation_id = ? ORDER BY attempt_id"), {generationId}, error))
        return out;
    while (q.next()) {
        QJsonObject o;
        const QSqlRecord rec = q.record();
        for (int i = 0; i < rec.count(); ++i)
            o.insert(rec.fieldName(i), QJsonValue::fromVariant(q.value(i)));
        out << o;
    }
    return out;
}

QList<LatencySample> HistoryQueries::latencySamples(Provider provider, Role role, qint64 fromMs, qint64 toMs, QString *error,
                                                    std::optional<Stage> stage)
{
    QSqlQuery q;
    QList<LatencySample> out;
    const bool ok = !stage
                        ? m_db.read(q,
                              QStringLiteral("SELECT at_ms, duration_ms, success FROM attempts WHERE provider = ? AND role = ? AND at_ms >= ? "
                                             "AND at_ms < ? ORDER BY at_ms"),
                              {toId(provider), toId(role), fromMs, toMs}, error)
                        : m_db.read(q,
                              QStringLiteral("SELECT at_ms, duration_ms, success FROM attempts WHERE provider = ? AND role = ? AND stage = ? "
                                             "AND at_ms >= ? AND at_ms < ? ORDER BY at_ms"),
                              {toId(provider), toId(role), toId(*stage), fromMs, toMs}, error);
    if (!ok)
        return out;
    while (q.next())
        out << LatencySample{q.value(0).toLongLong(), q.value(1).toDouble(), q.value(2).toInt() != 0};
    return out;
}

std::optional<qint64> HistoryQueries::oldestGenerationMs(QString *error)
{
    const qint64 oldest = m_db.scalar(QStringLiteral("SELECT MIN(created_at_ms) FROM generations"), error);
    return oldest > 0 ? std::optional<qint64>(oldest) : std::nullopt;
}

QList<std::pair<QString, qint64>> HistoryQueries::countBy(HistoryGroup group, const HistoryFilter &filter, QString *error)
{
    const QLatin1StringView column = group == HistoryGroup::PublicCode ? QLatin1StringView("public_code")
                                     : group == HistoryGroup::Kind     ? QLatin1StringView("kind")
                                                                       : QLatin1StringView("state");
    QList<std::pair<QString, qint64>> out;
    QVariantList binds;
    const QString sql = QStringLiteral("SELECT %1, COUNT(*) FROM generations").arg(column) + whereFor(filter, binds)
                        + QStringLiteral(" GROUP BY %1 ORDER BY COUNT(*) DESC").arg(column);
    QSqlQuery q;
    if (!m_db.read(q, sql, binds, error))
        return out;
    while (q.next())
        out.append({q.value(0).toString(), q.value(1).toLongLong()});
    return out;
}

QList<RateBucket> HistoryQueries::fallbackRate(qint64 fromMs, qint64 toMs, qint64 bucketMs, QString *error)
{
    QList<RateBucket> out;
    if (bucketMs <= 0)
        return out;
    // Integer division is portable (SQLite and PostgreSQL both truncate BIGINT / BIGINT).
    QSqlQuery q;
    if (!m_db.read(q,
             QStringLiteral("SELECT (created_at_ms - ?) / ?, COUNT(*), SUM(fallback_applied) FROM generations "
                            "WHERE created_at_ms >= ? AND created_at_ms < ? GROUP BY (created_at_ms - ?) / ? ORDER BY 1"),
             {fromMs, bucketMs, fromMs, toMs, fromMs, bucketMs}, error))
        return out;
    while (q.next())
        out << RateBucket{fromMs + q.value(0).toLongLong() * bucketMs, q.value(1).toLongLong(), q.value(2).toLongLong()};
    return out;
}

QList<FallbackWait> HistoryQueries::fallbackWaits(Stage stage, qint64 fromMs, qint64 toMs, QString *error)
{
    // Two range scans of one covering index (relief attempts in the range, then the primary attempts
    // that can precede them) joined here by generation: at a million attempts this is several times
    // quicker than a join in SQL, whose per-row lookups land on random pages.
    QList<FallbackWait> out;
    QSqlQuery q;
    const QString sql = QStringLiteral("SELECT at_ms, generation_id, provider, duration_ms, success FROM attempts "
                                       "WHERE role = ? AND stage = ? AND at_ms >= ? AND at_ms < ? ORDER BY role, stage, at_ms");
    if (!m_db.read(q, sql, {QStringLiteral("fallback"), toId(stage), fromMs, toMs}, error))
        return out;
    QHash<QString, qsizetype> waiting; // generation → index in out
    while (q.next()) {
        FallbackWait w;
        w.atMs = q.value(0).toLongLong();
        w.fallbackProvider = q.value(2).toString();
        w.fallbackMs = q.value(3).toDouble();
        w.fallbackSucceeded = q.value(4).toInt() != 0;
        waiting.insert(q.value(1).toString(), out.size());
        out << w;
    }
    if (out.isEmpty())
        return out;
    // A primary attempt ends before its relief starts: no stage runs longer than an hour.
    QSqlQuery p;
    if (!m_db.read(p, sql, {QStringLiteral("primary"), toId(stage), fromMs - 3'600'000, toMs}, error))
        return {};
    while (p.next()) {
        const auto it = waiting.constFind(p.value(1).toString());
        if (it == waiting.constEnd())
            continue;
        FallbackWait &w = out[*it];
        if (p.value(0).toLongLong() > w.atMs)
            continue;
        w.primaryMs += p.value(3).toDouble();
        if (w.primaryProvider.isEmpty())
            w.primaryProvider = p.value(2).toString();
    }
    return out;
}

qint64 HistoryQueries::count(const HistoryFilter &filter, QString *error)
{
    QVariantList binds;
    QSqlQuery q;
    if (!m_db.read(q, QStringLiteral("SELECT COUNT(*) FROM generations") + whereFor(filter, binds), binds, error) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

QList<ComparisonRow> HistoryQueries::comparisons(int limit, std::optional<qint64> beforeMs, const QString &beforeId, QString *error)
{
    QList<ComparisonRow> out;
    QSqlQuery q;
    QVariantList binds;
    QString where;
    if (beforeMs) {
        where = QStringLiteral(" WHERE (created_at_ms < ? OR (created_at_ms = ? AND id < ?))");
        binds << *beforeMs << *beforeMs << beforeId;
    }
    if (!m_db.read(q,
             QStringLiteral("SELECT id, created_at_ms, primary_provider, fallback_provider, body FROM comparisons") + where
                 + QStringLiteral(" ORDER BY created_at_ms DESC, id DESC LIMIT %1").arg(std::max(limit, 1)),
             binds, error))
        return out;
    while (q.next())
        out << comparisonFrom(q);
    return out;
}

std::optional<ComparisonRow> HistoryQueries::comparison(const QString &id, QString *error)
{
    QSqlQuery q;
    if (!m_db.read(q, QStringLiteral("SELECT id, created_at_ms, primary_provider, fallback_provider, body FROM comparisons WHERE id = ?"), {id},
             error)
        || !q.next())
        return std::nullopt;
    return comparisonFrom(q);
}

QList<HistoryQueries::InstanceRow> HistoryQueries::instances(QString *error)
{
    QSqlQuery q;
    QList<InstanceRow> out;
    if (!m_db.read(q, QStringLiteral("SELECT name, version, url, started_at_ms, heartbeat_ms, in_flight, lease_ms FROM instances ORDER BY name"), {},
                   error))
        return out;
    while (q.next())
        out << InstanceRow{q.value(0).toString(),     q.value(1).toString(), q.value(2).toString(), q.value(3).toLongLong(),
                           q.value(4).toLongLong(),   q.value(5).toInt(),    q.value(6).toLongLong()};
    return out;
}

void HistoryQueries::releaseThreadConnection() { m_db.releaseThreadConnection(); }

} // namespace bullpen
