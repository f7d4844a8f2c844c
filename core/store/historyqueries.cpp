// SPDX-License-Identifier: MIT
#include "historyqueries.h"

#include "aggregates.h"
#include "cellsums.h"
#include "history/durationhistogram.h"
#include "masking.h"
#include "sqliterows.h"
#include "storedatabase.h"

#include <QDateTime>
#include <QHash>
#include <QJsonDocument>
#include <QMetaEnum>
#include <QSqlQuery>
#include <QSqlRecord>

#include <limits>
#include <map>

namespace bullpen {

namespace {

GenerationRow rowFrom(const QSqlQuery &q)
{
    const QSqlRecord rec = q.record();
    auto text = [&](const char *c) {
        return q.value(rec.indexOf(QLatin1StringView(c))).toString();
    };
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
    r.probe = text("probe");
    r.replayOf = text("replay_of");
    return r;
}

// The conditions on a generation's own columns, which the rows and `agg_generations` name alike:
// states, code, kind, failed stage, instance, provider (primary or final) and fallback.
void dimensionClauses(const HistoryFilter &f, QStringList &where, QVariantList &binds)
{
    if (!f.states.isEmpty()) {
        QStringList marks;
        for (HistoryState s : f.states) {
            marks << QStringLiteral("?");
            binds << toId(s);
        }
        where << QStringLiteral("state IN (%1)").arg(marks.join(QLatin1Char(',')));
    }
    // Stored as docs/contract.md spells them: kinds and codes upper case, stages and providers as ids.
    const std::pair<QString, const char *> exact[] = { { f.publicCode ? enumName(*f.publicCode) : QString(), "public_code" },
                                                       { f.kind ? enumName(*f.kind) : QString(), "kind" },
                                                       { f.stage ? toId(*f.stage) : QString(), "stage" },
                                                       { f.instance, "instance" } };
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
}

// The conditions only the rows can answer (the aggregates have neither attempts nor reasons, and hold
// users' generations only).
void rowOnlyClauses(const HistoryFilter &f, QStringList &where, QVariantList &binds)
{
    if (f.synthetic != HistoryFilter::Synthetic::Include)
        where << (f.synthetic == HistoryFilter::Synthetic::Only ? QStringLiteral("synthetic = 1") : QStringLiteral("synthetic = 0"));
    if (f.failedAttempt) {
        where << QStringLiteral("EXISTS (SELECT 1 FROM attempts a WHERE a.generation_id = generations.id AND a.provider = ? AND a.role = ? "
                                "AND a.stage = ? AND a.success = 0 AND COALESCE(a.kind, '') NOT IN ('NOT_SENT', 'CANCELLED'))");
        binds << toId(f.failedAttempt->provider) << toId(f.failedAttempt->role) << toId(f.failedAttempt->stage);
    }
    if (!f.fallbackReason.isEmpty()) {
        const qsizetype cut = f.fallbackReason.indexOf(QLatin1Char('_'));
        if (cut > 0 && providerFromId(f.fallbackReason.left(cut))) {
            where << QStringLiteral("fallback_reason = ?");
            binds << f.fallbackReason;
        } else { // an ending: every provider's
            QString ending = f.fallbackReason;
            ending.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
                .replace(QLatin1Char('%'), QStringLiteral("\\%"))
                .replace(QLatin1Char('_'), QStringLiteral("\\_"));
            where << QStringLiteral("fallback_reason LIKE ? ESCAPE '\\'");
            binds << QString(QStringLiteral("%\\_") + ending);
        }
    }
}

// WHERE clause and bound values for a history filter over the rows (portable SQL).
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
    dimensionClauses(f, where, binds);
    rowOnlyClauses(f, where, binds);
    if (!f.userKey.isEmpty()) {
        where << QStringLiteral("user_key = ?");
        binds << f.userKey;
    }
    if (!f.idPrefix.isEmpty()) {
        QString pattern = f.idPrefix;
        pattern.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
            .replace(QLatin1Char('%'), QStringLiteral("\\%"))
            .replace(QLatin1Char('_'), QStringLiteral("\\_"));
        where << QStringLiteral("id LIKE ? ESCAPE '\\'");
        binds << QString(pattern + QLatin1Char('%'));
    }
    if (f.beforeMs) {
        where << QStringLiteral("(created_at_ms < ? OR (created_at_ms = ? AND id < ?))");
        binds << *f.beforeMs << *f.beforeMs << f.beforeId;
    }
    return where.isEmpty() ? QString() : QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
}

ComparisonRow comparisonFrom(const QSqlQuery &q)
{
    return ComparisonRow { q.value(0).toString(), q.value(1).toLongLong(), q.value(2).toString(), q.value(3).toString(),
                           QJsonDocument::fromJson(q.value(4).toString().toUtf8()).object() };
}

constexpr qint64 kHour = AggregateDeltas::kHourMs;
qint64 ceilHour(qint64 ms)
{
    return AggregateDeltas::hourOf(ms) == ms ? ms : AggregateDeltas::hourOf(ms) + kHour;
}

// A time range cut where the hourly aggregates answer (docs/store.md): whole hours, [aggFrom, aggTo),
// from the aggregates; the partial hours at either edge from the rows. Unbounded ends stay unbounded.
struct Cut
{
    qint64 aggFrom = 0;
    qint64 aggTo = 0;
    bool useAggregates() const { return aggFrom < aggTo; }
};

Cut cutRange(std::optional<qint64> from, std::optional<qint64> to, bool toIsThePresent)
{
    const qint64 a = from ? ceilHour(*from) : std::numeric_limits<qint64>::min();
    const qint64 b = !to ? std::numeric_limits<qint64>::max() : toIsThePresent ? ceilHour(*to) : AggregateDeltas::hourOf(*to);
    return a < b ? Cut { a, b } : Cut {};
}

// Buckets that whole hours fall into whole: hour-aligned start, a whole number of hours each.
bool hourBuckets(qint64 fromMs, qint64 bucketMs)
{
    return bucketMs % kHour == 0 && AggregateDeltas::hourOf(fromMs) == fromMs;
}

// The aggregates hold finished generations by dimensions a filter can name; a user or a page cannot be
// answered from them.
bool aggregatable(const HistoryFilter &f)
{
    return f.userKey.isEmpty() && f.idPrefix.isEmpty() && !f.beforeMs && !f.failedAttempt && f.fallbackReason.isEmpty()
        && f.synthetic == HistoryFilter::Synthetic::Exclude;
}

QString aggregateWhere(const HistoryFilter &f, const Cut &cut, QVariantList &binds)
{
    QStringList where { QStringLiteral("hour_ms >= ?"), QStringLiteral("hour_ms < ?") };
    binds << cut.aggFrom << cut.aggTo;
    dimensionClauses(f, where, binds);
    return QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
}

// A filter that names every state where it named none: the same rows, counted through the index that
// leads with the state and holds the code, kind and synthetic flag (generations_state_created_code)
// instead of the time index, whose every row needs a look-up in the table. For an edge hour of a busy
// store that is about ten times quicker (docs/store.md, "Reading"). Only for a time range and nothing
// else, as whereFor renders it: a filter on anything that index does not hold (a code or kind, which have
// indexes of their own, a provider, a fallback, a user, ...) keeps the plan it had.
HistoryFilter everyStateNamed(HistoryFilter f)
{
    HistoryFilter timeOnly;
    timeOnly.fromMs = f.fromMs;
    timeOnly.toMs = f.toMs;
    timeOnly.synthetic = f.synthetic;
    QVariantList asGiven, asTimeOnly;
    if (!f.states.isEmpty() || (!f.fromMs && !f.toMs) || whereFor(f, asGiven) != whereFor(timeOnly, asTimeOnly) || asGiven != asTimeOnly)
        return f;
    const QMetaEnum states = QMetaEnum::fromType<HistoryState>();
    for (int i = 0; i < states.keyCount(); ++i)
        f.states << static_cast<HistoryState>(states.value(i));
    return f;
}

// The parts of a filter's range the rows answer when the aggregates answer [cut.aggFrom, cut.aggTo):
// the two edges, and the generations still running inside (the aggregates count final states only).
QList<HistoryFilter> rowParts(const HistoryFilter &filter, const Cut &cut)
{
    QList<HistoryFilter> parts;
    if (filter.fromMs && *filter.fromMs < cut.aggFrom) {
        HistoryFilter left = filter;
        left.toMs = cut.aggFrom;
        parts << left;
    }
    if (filter.toMs && cut.aggTo < *filter.toMs) {
        HistoryFilter right = filter;
        right.fromMs = cut.aggTo;
        parts << right;
    }
    if (filter.states.isEmpty() || filter.states.contains(HistoryState::Running)) {
        HistoryFilter running = filter;
        running.fromMs = filter.fromMs ? std::optional(cut.aggFrom) : std::nullopt;
        running.toMs = filter.toMs ? std::optional(std::min(cut.aggTo, *filter.toMs)) : std::nullopt; // a present hour ends at `to`
        running.states = { HistoryState::Running };
        parts << running;
    }
    return parts;
}

} // namespace

HistoryQueries::HistoryQueries(StoreDatabase &db)
    : m_db(db)
{
}

QString HistoryQueries::location() const
{
    return m_db.path();
}

// A range that reaches the present ("the last 7 days", to now) takes its last hour from the
// aggregates too: they change in the rows' transaction, so when no row they count is at or after `to`,
// the hour's aggregate row holds what the rows before `to` would. That is the case for a `to` still
// ahead of the clock, and for the "now" a view took before its read ran, on a store nothing wrote in
// between: one look at the two time indexes says (an attempt's at_ms is when it ended). Only for a `to`
// within the last hour: rows younger than an hour (the shortest retention) are never purged, while the
// aggregates outlive purged rows, so an idle, purged store would pass the look for any older `to`. Read from the rows, that partial hour
// grows with the traffic (up to an hour of it, depending on the minute); on a store engines write to every few milliseconds, the look
// mostly fails and it still does. The look and the reads are separate statements: a generation that finishes between the running rows' read
// and the aggregates' is counted twice, as with a `to` ahead of the clock.
bool HistoryQueries::reachesThePresent(qint64 to)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (to >= now)
        return true;
    if (to < now - kHour)
        return false;
    QSqlQuery q;
    if (!m_db.read(q, QStringLiteral("SELECT (SELECT MAX(at_ms) FROM attempts), (SELECT MAX(created_at_ms) FROM generations)"), {}, nullptr)
        || !q.next())
        return false; // the rows answer; they say what went wrong
    return q.value(0).toLongLong() < to && q.value(1).toLongLong() < to;
}

HistoryFilter HistoryQueries::resolved(const HistoryFilter &filter) const
{
    if (filter.userId.isEmpty())
        return filter;
    HistoryFilter f = filter;
    // Keys are lower-case hex: "-" matches no row, which is the honest answer without the key.
    f.userKey = m_masking ? m_masking->userKey(filter.userId) : QStringLiteral("-");
    f.userId.clear();
    return f;
}

QList<GenerationRow> HistoryQueries::generations(const HistoryFilter &requested, int limit, QString *error)
{
    const HistoryFilter filter = resolved(requested);
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
    if (!m_db.read(q, QStringLiteral("SELECT * FROM generations WHERE id = ?"), { id }, error) || !q.next())
        return std::nullopt;
    return rowFrom(q);
}

std::optional<QJsonObject> HistoryQueries::storedResult(const QString &id, QString *error)
{
    QSqlQuery q;
    if (!m_db.read(q, QStringLiteral("SELECT result_json FROM generations WHERE id = ? AND result_json IS NOT NULL"), { id }, error)
        || !q.next())
        return std::nullopt;
    const QJsonDocument doc = QJsonDocument::fromJson(q.value(0).toByteArray());
    return doc.isObject() ? std::optional(doc.object()) : std::nullopt;
}

QList<QJsonObject> HistoryQueries::events(const QString &generationId, QString *error)
{
    QSqlQuery q;
    QList<QJsonObject> out;
    if (!m_db.read(q, QStringLiteral("SELECT body FROM events WHERE generation_id = ? ORDER BY seq"), { generationId }, error))
        return out;
    while (q.next())
        out << QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object();
    return out;
}

QList<QJsonObject> HistoryQueries::attempts(const QString &generationId, QString *error)
{
    QSqlQuery q;
    QList<QJsonObject> out;
    if (!m_db.read(q, QStringLiteral("SELECT * FROM attempts WHERE generation_id = ? ORDER BY attempt_id"), { generationId }, error))
        return out;
    while (q.next()) {
        QJsonObject o;
        const QSqlRecord rec = q.record();
        for (int i = 0; i < rec.count(); ++i) // SQL's NULL as JSON's null (QSQLite hands it over as an empty text)
            o.insert(rec.fieldName(i), q.isNull(i) ? QJsonValue(QJsonValue::Null) : QJsonValue::fromVariant(q.value(i)));
        out << o;
    }
    return out;
}

QString HistoryQueries::tuneReadSql()
{
    // Every column is in `attempts_tune` (schema 16), which holds (stage, synthetic) and then the order
    // asked for: the read streams the index and sorts nothing.
    // at_ms: the tuner replays a breaker in the order the generations started (tunebreaker.cpp).
    return QStringLiteral(
        "SELECT generation_id, role, success, kind, duration_ms, cost, at_ms FROM attempts WHERE stage = ? AND synthetic = 0 "
        "AND at_ms >= ? AND at_ms < ? ORDER BY generation_id, attempt_id");
}

bool HistoryQueries::forEachAttempt(Stage stage, qint64 fromMs, qint64 toMs, const std::function<void(const TraceAttempt &)> &visit,
                                    QString *error)
{
    QSqlQuery q; // forward only: rows are read as they come, never held
    if (!m_db.read(q, tuneReadSql(), { toId(stage), fromMs, toMs }, error))
        return false;
    // A column holds a few spellings over a million rows: each is parsed once.
    QHash<QString, std::optional<Role>> roles;
    QHash<QString, std::optional<FailureKind>> kinds;
    const auto parsed = [](auto &seen, const QString &text, auto parse) {
        auto at = seen.constFind(text);
        return at != seen.cend() ? *at : *seen.insert(text, parse(text));
    };
    TraceAttempt a;
    while (q.next()) {
        const auto role = parsed(roles, q.value(1).toString(), [](const QString &s) { return roleFromId(s); });
        if (!role)
            continue;
        a.generationId = q.value(0).toString();
        a.role = *role;
        a.success = q.value(2).toInt() != 0;
        a.kind = parsed(kinds, q.value(3).toString(), [](const QString &s) { return enumFromName<FailureKind>(s); });
        a.durationMs = q.value(4).toDouble();
        a.cost = q.value(5).isNull() ? std::nullopt : std::optional<double>(q.value(5).toDouble());
        a.atMs = q.value(6).toLongLong();
        visit(a);
    }
    return true;
}

namespace {

// Rows of (generation_id, stage, provider, role, success, kind, duration_ms[, at_ms]).
// `atMs`: column 7's time of each row kept; `flag`: column 8 of each, as a truth value.
QList<CompletedAttempt> completedAttempts(QSqlQuery &q, QList<qint64> *atMs = nullptr, QList<bool> *flag = nullptr)
{
    QList<CompletedAttempt> rows;
    while (q.next()) {
        const auto stage = stageFromId(q.value(1).toString());
        const auto provider = providerFromStored(q.value(2).toString());
        const auto role = roleFromId(q.value(3).toString());
        if (!stage || !provider || !role)
            continue; // written by a newer Bullpen: not this one's to summarise
        rows << CompletedAttempt {
            q.value(0).toString(), *stage, *provider, *role, q.value(4).toInt() != 0, enumFromName<FailureKind>(q.value(5).toString()),
            q.value(6).toDouble()
        };
        if (atMs)
            *atMs << q.value(7).toLongLong();
        if (flag)
            *flag << (q.value(8).toInt() != 0);
    }
    return rows;
}

} // namespace

QList<ProviderHealth> HistoryQueries::providerHealth(qint64 fromMs, qint64 toMs, QString *error)
{
    QSqlQuery q;
    if (!m_db.read(q,
                   QStringLiteral("SELECT generation_id, stage, provider, role, success, kind, duration_ms FROM attempts "
                                  "WHERE at_ms >= ? AND at_ms < ?"),
                   { fromMs, toMs }, error))
        return {};
    QList<CompletedAttempt> rows = completedAttempts(q);
    // Synthetic attempts are not users' (docs/contract.md §13, §14): read apart, through their own
    // index, and left out of every figure. Of them only a prober's are probes, shown as each card's
    // last probe (the last day's, so that a quiet provider's card still has one); a replay is none.
    QSqlQuery p;
    if (!m_db.read(p,
                   QStringLiteral("SELECT a.generation_id, a.stage, a.provider, a.role, a.success, a.kind, a.duration_ms, a.at_ms, "
                                  "(SELECT COUNT(*) FROM generations g WHERE g.id = a.generation_id AND g.probe IS NOT NULL) "
                                  "FROM attempts a WHERE a.synthetic = 1 AND a.at_ms >= ? AND a.at_ms < ?"),
                   { std::min(fromMs, toMs - 24 * 3'600'000LL), toMs }, error))
        return {};
    QList<qint64> syntheticTimes;
    QList<bool> isProbe;
    const QList<CompletedAttempt> synthetic = completedAttempts(p, &syntheticTimes, &isProbe);
    QList<CompletedAttempt> probes;
    QList<qint64> probeTimes;
    if (!synthetic.isEmpty()) {
        QSet<QString> ids;
        for (qsizetype i = 0; i < synthetic.size(); ++i) {
            ids.insert(synthetic[i].generationId);
            if (isProbe[i]) {
                probes << synthetic[i];
                probeTimes << syntheticTimes[i];
            }
        }
        rows.removeIf([&](const CompletedAttempt &a) { return ids.contains(a.generationId); });
    }
    QList<ProviderHealth> health = ProviderHealth::summarise(rows);
    ProviderHealth::addProbes(health, probes, probeTimes);
    return health;
}

QList<LatencySample> HistoryQueries::latencySamples(Provider provider, Role role, qint64 fromMs, qint64 toMs, QString *error,
                                                    std::optional<Stage> stage)
{
    // Probes and replays are not users' latency: left out through the index (schema version 13).
    QSqlQuery q;
    QList<LatencySample> out;
    const bool ok = !stage
        ? m_db.read(q,
                    QStringLiteral("SELECT at_ms, duration_ms, success FROM attempts WHERE provider = ? AND role = ? AND at_ms >= ? "
                                   "AND at_ms < ? AND synthetic = 0 ORDER BY at_ms"),
                    { toId(provider), toId(role), fromMs, toMs }, error)
        : m_db.read(q,
                    QStringLiteral("SELECT at_ms, duration_ms, success FROM attempts WHERE provider = ? AND role = ? AND stage = ? "
                                   "AND at_ms >= ? AND at_ms < ? AND synthetic = 0 ORDER BY at_ms"),
                    { toId(provider), toId(role), toId(*stage), fromMs, toMs }, error);
    if (!ok)
        return out;
    while (q.next())
        out << LatencySample { q.value(0).toLongLong(), q.value(1).toDouble(), q.value(2).toInt() != 0 };
    return out;
}

std::optional<qint64> HistoryQueries::oldestGenerationMs(QString *error)
{
    const qint64 oldest = m_db.scalar(QStringLiteral("SELECT MIN(created_at_ms) FROM generations"), error);
    return oldest > 0 ? std::optional<qint64>(oldest) : std::nullopt;
}

QList<std::pair<QString, qint64>> HistoryQueries::countBy(HistoryGroup group, const HistoryFilter &requested, QString *error)
{
    const HistoryFilter filter = resolved(requested);
    const QLatin1StringView column = group == HistoryGroup::PublicCode ? QLatin1StringView("public_code")
        : group == HistoryGroup::Kind                                  ? QLatin1StringView("kind")
                                                                       : QLatin1StringView("state");
    std::map<QString, qint64> sums;
    auto fromRows = [&](const HistoryFilter &f) {
        QVariantList binds;
        const QString sql = QStringLiteral("SELECT %1, COUNT(*) FROM generations").arg(column) + whereFor(everyStateNamed(f), binds)
            + QStringLiteral(" GROUP BY %1").arg(column);
        QSqlQuery q;
        if (!m_db.read(q, sql, binds, error))
            return false;
        while (q.next())
            sums[q.value(0).toString()] += q.value(1).toLongLong();
        return true;
    };
    const Cut cut = aggregatable(filter) ? cutRange(filter.fromMs, filter.toMs, filter.toMs && reachesThePresent(*filter.toMs)) : Cut {};
    if (!cut.useAggregates()) {
        if (!fromRows(filter))
            return {};
    } else {
        for (const HistoryFilter &part : rowParts(filter, cut)) {
            if (!fromRows(part))
                return {};
        }
        QVariantList binds;
        const QString sql = QStringLiteral("SELECT %1, SUM(n) FROM agg_generations").arg(column) + aggregateWhere(filter, cut, binds)
            + QStringLiteral(" GROUP BY %1").arg(column);
        QSqlQuery q;
        if (!m_db.read(q, sql, binds, error))
            return {};
        while (q.next())
            sums[q.value(0).toString()] += q.value(1).toLongLong();
    }
    QList<std::pair<QString, qint64>> out;
    for (const auto &[key, n] : sums) {
        if (n > 0)
            out.append({ key, n });
    }
    std::stable_sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
    return out;
}

QList<RateBucket> HistoryQueries::fallbackRate(qint64 fromMs, qint64 toMs, qint64 bucketMs, QString *error, const HistoryFilter &requested)
{
    if (bucketMs <= 0)
        return {};
    // The scope's provider, instance, user and id; not its time, outcome, code, kind or stage.
    HistoryFilter scope;
    {
        const HistoryFilter r = resolved(requested);
        scope.provider = r.provider;
        scope.instance = r.instance;
        scope.userKey = r.userKey;
        scope.idPrefix = r.idPrefix;
    }
    QVariantList scopeBinds;
    const QString scopeWhere = [&] {
        const QString w = whereFor(scope, scopeBinds);
        return w.isEmpty() ? QString() : QStringLiteral(" AND ") + w.mid(7); // without " WHERE "
    }();
    std::map<qint64, std::pair<qint64, qint64>> buckets; // index → generations, handed to the fallback
    // Integer division is portable (SQLite and PostgreSQL both truncate BIGINT / BIGINT). Groups are
    // named by position: PostgreSQL takes two parameterised expressions for different ones.
    auto fromRows = [&](qint64 from, qint64 to, bool runningOnly) {
        QSqlQuery q;
        if (!m_db.read(q,
                       QStringLiteral("SELECT (created_at_ms - ?) / ?, COUNT(*), SUM(fallback_applied) FROM generations "
                                      "WHERE created_at_ms >= ? AND created_at_ms < ?%1%2 GROUP BY 1")
                           .arg(runningOnly ? QStringLiteral(" AND state = 'running'") : QString(), scopeWhere),
                       QVariantList { fromMs, bucketMs, from, to } + scopeBinds, error))
            return false;
        while (q.next()) {
            auto &b = buckets[q.value(0).toLongLong()];
            b.first += q.value(1).toLongLong();
            b.second += q.value(2).toLongLong();
        }
        return true;
    };
    const Cut cut = hourBuckets(fromMs, bucketMs) && aggregatable(scope) ? cutRange(fromMs, toMs, reachesThePresent(toMs)) : Cut {};
    if (!cut.useAggregates()) {
        if (!fromRows(fromMs, toMs, false))
            return {};
    } else {
        QSqlQuery q;
        QVariantList binds { fromMs, bucketMs };
        const QString where = aggregateWhere(scope, cut, binds);
        if (!fromRows(cut.aggTo, toMs, false) || !fromRows(cut.aggFrom, std::min(cut.aggTo, toMs), true)
            || !m_db.read(q,
                          QStringLiteral("SELECT (hour_ms - ?) / ?, SUM(n), SUM(n * fallback_applied) FROM agg_generations") + where
                              + QStringLiteral(" GROUP BY 1"),
                          binds, error))
            return {};
        while (q.next()) {
            auto &b = buckets[q.value(0).toLongLong()];
            b.first += q.value(1).toLongLong();
            b.second += q.value(2).toLongLong();
        }
    }
    QList<RateBucket> out;
    for (const auto &[index, n] : buckets)
        out << RateBucket { fromMs + index * bucketMs, n.first, n.second };
    return out;
}

QList<FallbackWait> HistoryQueries::fallbackWaits(Stage stage, qint64 fromMs, qint64 toMs, QString *error)
{
    // One scan of `attempts_relief` (schema 19), which holds the fallback attempts alone with their
    // primary wait. A fallback with no primary attempt before it had its primary skipped (docs/contract.md
    // §13): it added no wait, and a zero would pull the figures down. Probes and replays waited for nothing.
    static constexpr char kSql[] = "SELECT at_ms, provider, duration_ms, success, primary_wait_ms, primary_provider FROM attempts "
                                   "WHERE role = 'fallback' AND stage = ? AND synthetic = 0 AND at_ms >= ? AND at_ms < ? "
                                   "AND primary_provider IS NOT NULL ORDER BY stage, synthetic, at_ms";
    QList<FallbackWait> out;
    if (!m_db.location().isPostgres()) {
        // A week is a hundred thousand rows and more: read through SQLite itself (sqliterows.h).
        QString why;
        SqliteRows rows(m_db.readConnection(&why), kSql);
        if (rows.available()) {
            rows.bind(1, toId(stage).toUtf8());
            rows.bind(2, fromMs);
            rows.bind(3, toMs);
            while (rows.next()) {
                FallbackWait w;
                w.atMs = rows.int64(0);
                w.fallbackProvider = rows.text(1);
                w.fallbackMs = rows.real(2);
                w.fallbackSucceeded = rows.int64(3) != 0;
                w.primaryMs = rows.real(4);
                w.primaryProvider = rows.text(5);
                out << w;
            }
            if (!rows.error().isEmpty() && error)
                *error = rows.error();
            return out;
        }
    }
    QSqlQuery q;
    if (!m_db.read(q, QString::fromLatin1(kSql), { toId(stage), fromMs, toMs }, error))
        return out;
    while (q.next()) {
        FallbackWait w;
        w.atMs = q.value(0).toLongLong();
        w.fallbackProvider = q.value(1).toString();
        w.fallbackMs = q.value(2).toDouble();
        w.fallbackSucceeded = q.value(3).toInt() != 0;
        w.primaryMs = q.value(4).toDouble();
        w.primaryProvider = q.value(5).toString();
        out << w;
    }
    return out;
}

qint64 HistoryQueries::count(const HistoryFilter &requested, QString *error)
{
    const HistoryFilter filter = resolved(requested);
    qint64 total = 0;
    auto fromRows = [&](const HistoryFilter &f) {
        QVariantList binds;
        QSqlQuery q;
        if (!m_db.read(q, QStringLiteral("SELECT COUNT(*) FROM generations") + whereFor(everyStateNamed(f), binds), binds, error)
            || !q.next())
            return false;
        total += q.value(0).toLongLong();
        return true;
    };
    const Cut cut = aggregatable(filter) ? cutRange(filter.fromMs, filter.toMs, filter.toMs && reachesThePresent(*filter.toMs)) : Cut {};
    if (!cut.useAggregates())
        return fromRows(filter) ? total : -1;
    for (const HistoryFilter &part : rowParts(filter, cut)) {
        if (!fromRows(part))
            return -1;
    }
    QVariantList binds;
    QSqlQuery q;
    if (!m_db.read(q, QStringLiteral("SELECT SUM(n) FROM agg_generations") + aggregateWhere(filter, cut, binds), binds, error) || !q.next())
        return -1;
    return total + q.value(0).toLongLong();
}

QList<DurationCell> HistoryQueries::latencyHistogram(Provider provider, Role role, Stage stage, qint64 fromMs, qint64 toMs, qint64 bucketMs,
                                                     QString *error)
{
    if (bucketMs <= 0 || toMs <= fromMs)
        return {};
    DurationCellSums cells;
    const Cut cut = hourBuckets(fromMs, bucketMs) ? cutRange(fromMs, toMs, reachesThePresent(toMs)) : Cut {};
    auto fromRows = [&](qint64 from, qint64 to) {
        if (from >= to)
            return true;
        QString why;
        const QList<LatencySample> samples = latencySamples(provider, role, from, to, &why, stage);
        if (!why.isEmpty()) {
            if (error)
                *error = why;
            return false;
        }
        for (const LatencySample &s : samples)
            cells.add((s.atMs - fromMs) / bucketMs, s.success, DurationHistogram::binOf(s.durationMs), 1);
        return true;
    };
    if (!cut.useAggregates()) {
        if (!fromRows(fromMs, toMs))
            return {};
    } else {
        // The aggregate rows as they are, summed into the cells here: a GROUP BY in SQL sorted them in a
        // temporary b-tree first, four fifths of the read at a million attempts (docs/store.md).
        QSqlQuery q;
        if (!fromRows(fromMs, cut.aggFrom) || !fromRows(cut.aggTo, toMs)
            || !m_db.read(q,
                          QStringLiteral("SELECT hour_ms, success, bin, n FROM agg_attempts WHERE provider = ? AND role = ? AND "
                                         "stage = ? AND hour_ms >= ? AND hour_ms < ?"),
                          { toId(provider), toId(role), toId(stage), cut.aggFrom, cut.aggTo }, error))
            return {};
        while (q.next())
            cells.add((q.value(0).toLongLong() - fromMs) / bucketMs, q.value(1).toInt() != 0, q.value(2).toInt(), q.value(3).toLongLong());
    }
    return cells.cells(fromMs, bucketMs);
}

QList<FallbackWaitCell> HistoryQueries::fallbackWaitHistogram(Stage stage, qint64 fromMs, qint64 toMs, qint64 bucketMs, QString *error)
{
    if (bucketMs <= 0 || toMs <= fromMs)
        return {};
    FallbackWaitCellSums cells; // stages handed to the fallback
    const Cut cut = hourBuckets(fromMs, bucketMs) ? cutRange(fromMs, toMs, reachesThePresent(toMs)) : Cut {};
    auto fromRows = [&](qint64 from, qint64 to) {
        if (from >= to)
            return true;
        QString why;
        const QList<FallbackWait> waits = fallbackWaits(stage, from, to, &why);
        if (!why.isEmpty()) {
            if (error)
                *error = why;
            return false;
        }
        for (const FallbackWait &w : waits)
            cells.add((w.atMs - fromMs) / bucketMs, w.primaryProvider, w.fallbackProvider,
                      DurationHistogram::binOf(w.primaryMs + w.fallbackMs), 1);
        return true;
    };
    if (!cut.useAggregates()) {
        if (!fromRows(fromMs, toMs))
            return {};
    } else {
        QSqlQuery q; // summed here, not by a GROUP BY (latencyHistogram says why)
        if (!fromRows(fromMs, cut.aggFrom) || !fromRows(cut.aggTo, toMs)
            || !m_db.read(q,
                          QStringLiteral("SELECT hour_ms, primary_provider, fallback_provider, bin, n FROM agg_relief WHERE "
                                         "stage = ? AND hour_ms >= ? AND hour_ms < ?"),
                          { toId(stage), cut.aggFrom, cut.aggTo }, error))
            return {};
        while (q.next())
            cells.add((q.value(0).toLongLong() - fromMs) / bucketMs, q.value(1).toString(), q.value(2).toString(), q.value(3).toInt(),
                      q.value(4).toLongLong());
    }
    return cells.cells(fromMs, bucketMs);
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
    if (!m_db.read(q, QStringLiteral("SELECT id, created_at_ms, primary_provider, fallback_provider, body FROM comparisons WHERE id = ?"),
                   { id }, error)
        || !q.next())
        return std::nullopt;
    return comparisonFrom(q);
}

QList<HistoryQueries::InstanceRow> HistoryQueries::instances(QString *error)
{
    QSqlQuery q;
    QList<InstanceRow> out;
    if (!m_db.read(
            q, QStringLiteral("SELECT name, version, url, started_at_ms, heartbeat_ms, in_flight, lease_ms FROM instances ORDER BY name"),
            {}, error))
        return out;
    while (q.next())
        out << InstanceRow { q.value(0).toString(),   q.value(1).toString(), q.value(2).toString(),  q.value(3).toLongLong(),
                             q.value(4).toLongLong(), q.value(5).toInt(),    q.value(6).toLongLong() };
    return out;
}

std::optional<HistoryQueries::Comic> HistoryQueries::comic(const QString &sha256, QString *error)
{
    QSqlQuery q;
    if (!m_db.read(q, QStringLiteral("SELECT bytes, mime FROM images WHERE sha256 = ?"), { sha256 }, error) || !q.next())
        return std::nullopt;
    return Comic { q.value(0).toByteArray(), q.value(1).toString() };
}

void HistoryQueries::releaseThreadConnection()
{
    m_db.releaseThreadConnection();
}

} // namespace bullpen
