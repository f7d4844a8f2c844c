// SPDX-License-Identifier: MIT
#include "storewriter.h"

#include "aggregates.h"
#include "engine/backgroundthread.h"
#include "owner.h"
#include "primarywait.h"
#include "retention.h"
#include "storedatabase.h"
#include "walcheckpointer.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>

namespace bullpen {

namespace {

QVariant nullable(const QString &s)
{
    return s.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(s);
}
QVariant nullable(qint64 n)
{
    return n < 0 ? QVariant(QMetaType::fromType<qint64>()) : QVariant(n);
}
double ms(std::chrono::microseconds us)
{
    return static_cast<double>(us.count()) / 1000.0;
}

} // namespace

// The prepared statements of one connection.
struct StoreWriter::Statements
{
    explicit Statements(const QSqlDatabase &database)
        : db(database)
        , event(db)
        , generation(db)
        , attempt(db)
        , finish(db)
        , comparison(db)
        , exists(db)
        , comic(db)
        , comicKnown(db)
        , attemptsOf(db)
    {
        attemptsOf.prepare(PrimaryWaits::attemptsOfSql());
        comicKnown.prepare(QStringLiteral("SELECT 1 FROM images WHERE sha256 = ?"));
        comic.prepare(
            QStringLiteral("INSERT INTO images (sha256, mime, bytes, created_at_ms) VALUES (?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING"));
        exists.prepare(QStringLiteral("SELECT 1 FROM generations WHERE id = ?"));
        comparison.prepare(QStringLiteral("INSERT INTO comparisons (id, created_at_ms, primary_provider, fallback_provider, "
                                          "primary_generation_id, fallback_generation_id, body) VALUES (?, ?, ?, ?, ?, ?, ?)"));
        event.prepare(QStringLiteral("INSERT INTO events (generation_id, seq, type, at_ms, body, instance) VALUES (?, ?, ?, ?, ?, ?)"));
        generation.prepare(
            QStringLiteral("INSERT INTO generations (id, created_at_ms, policy, primary_provider, fallback_provider, state, owner, "
                           "instance, lease_until_ms, synthetic, probe, replay_of) VALUES (?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?)"));
        attempt.prepare(QStringLiteral(
            "INSERT INTO attempts (generation_id, attempt_id, at_ms, stage, provider, model, role, round, success, kind, public_code, "
            "http_status, duration_ms, fallback_eligible, requests_sent, tokens_in, tokens_out, aborted_by, detail, instance, synthetic, "
            "cost, currency, primary_wait_ms, primary_provider) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
            "?, ?, ?)"));
        finish.prepare(QStringLiteral(
            "UPDATE generations SET finished_at_ms = ?, user_key = ?, user_mask = ?, state = ?, public_code = ?, kind = ?, stage = ?, "
            "detail = ?, decision = ?, fallback_applied = ?, fallback_reason = ?, final_provider = ?, final_model = ?, tokens_in = ?, "
            "tokens_out = ?, elapsed_ms = ?, result_json = ?, cache_key = ?, degraded = ?, from_cache = ?, image_path = ?, image_sha256 = "
            "?, "
            "next_step = ? WHERE id = ? AND state = 'running'"));
    }
    // Qt reports a statement whose table went away as "Parameter count mismatch": preparing it
    // afresh gives SQLite's own reason ("no such table: events").
    QString why(const QSqlQuery &q) const
    {
        QSqlQuery fresh(db);
        if (!fresh.prepare(q.lastQuery()))
            return fresh.lastError().text();
        return q.lastError().text();
    }
    QSqlDatabase db;
    QSqlQuery event, generation, attempt, finish, comparison, exists, comic, comicKnown;
    QSqlQuery attemptsOf; // a generation's attempts: a fallback attempt's primary wait (primarywait.h)
    bool onPostgres = false; // comics go into the store
    QSet<QString> comicsKnown; // in the store already (at most 4096 remembered, for at most kComicsKnown)
    std::chrono::steady_clock::time_point comicsKnownSince; // monotonic: a wall-clock step never keeps them longer
    // Shorter than the shortest retention (retention.h): a comic remembered here was referred to by a
    // generation committed since, which a purge does not remove yet, so a purge never removes it.
    static constexpr std::chrono::minutes kComicsKnown { 10 };
    AggregateDeltas aggregates; // this transaction's changes to the hourly aggregates
    // Probes and replays (docs/contract.md §13, §14) started through this connection and not finished:
    // their attempts are marked synthetic and left out of the aggregates.
    QSet<QString> probes;
    QString instance; // stamped on the rows of this batch
    qint64 leaseMs = 0;
};

namespace {

using Statements = StoreWriter::Statements;

bool writeEvent(Statements &s, const Event &e, QString *error)
{
    const qint64 wall = e.wallTime.isValid() ? e.wallTime.toMSecsSinceEpoch() : QDateTime::currentMSecsSinceEpoch();
    s.event.addBindValue(e.generationId);
    s.event.addBindValue(static_cast<qint64>(e.sequence));
    s.event.addBindValue(e.type());
    s.event.addBindValue(wall);
    s.event.addBindValue(QString::fromUtf8(e.compactJson()));
    s.event.addBindValue(nullable(s.instance));
    if (!s.event.exec()) {
        *error = s.why(s.event);
        return false;
    }
    if (const auto *g = std::get_if<GenerationStarted>(&e.body)) {
        s.generation.addBindValue(e.generationId);
        s.generation.addBindValue(wall);
        s.generation.addBindValue(g->preset);
        s.generation.addBindValue(toId(g->primary));
        s.generation.addBindValue(g->fallback ? QVariant(toId(*g->fallback)) : QVariant(QMetaType::fromType<QString>()));
        s.generation.addBindValue(Owner::thisProcess());
        s.generation.addBindValue(nullable(s.instance));
        s.generation.addBindValue(QDateTime::currentMSecsSinceEpoch() + s.leaseMs);
        const bool synthetic = g->probe || !g->replayOf.isEmpty();
        s.generation.addBindValue(synthetic ? 1 : 0);
        s.generation.addBindValue(g->probe ? QVariant(g->probe->toString()) : QVariant(QMetaType::fromType<QString>()));
        s.generation.addBindValue(nullable(g->replayOf));
        if (synthetic)
            s.probes.insert(e.generationId);
        if (!s.generation.exec()) {
            *error = s.why(s.generation);
            return false;
        }
    } else if (const auto *a = std::get_if<AttemptCompleted>(&e.body)) {
        const QVariant nullInt(QMetaType::fromType<int>());
        PrimaryWait wait; // read before the row is written: this transaction holds the primary attempts before it
        if (a->role == Role::Fallback) {
            const auto found = PrimaryWaits::of(s.attemptsOf, e.generationId, toId(a->stage), wall, error);
            if (!found)
                return false;
            wait = *found;
        }
        s.attempt.addBindValue(e.generationId);
        s.attempt.addBindValue(static_cast<qint64>(a->attemptId));
        s.attempt.addBindValue(wall);
        s.attempt.addBindValue(toId(a->stage));
        s.attempt.addBindValue(toId(a->provider));
        s.attempt.addBindValue(a->model);
        s.attempt.addBindValue(toId(a->role));
        s.attempt.addBindValue(a->round);
        s.attempt.addBindValue(a->success ? 1 : 0);
        s.attempt.addBindValue(a->failure ? QVariant(enumName(a->failure->kind)) : QVariant(QMetaType::fromType<QString>()));
        s.attempt.addBindValue(a->failure ? QVariant(enumName(a->failure->publicCode())) : QVariant(QMetaType::fromType<QString>()));
        s.attempt.addBindValue(a->httpStatus ? QVariant(*a->httpStatus) : nullInt);
        s.attempt.addBindValue(ms(a->duration));
        s.attempt.addBindValue(a->fallbackEligible ? 1 : 0);
        s.attempt.addBindValue(a->requestsSent);
        s.attempt.addBindValue(nullable(a->tokens.input));
        s.attempt.addBindValue(nullable(a->tokens.output));
        s.attempt.addBindValue(toId(a->abortedBy));
        s.attempt.addBindValue(nullable(a->failure ? a->failure->detail : QString()));
        s.attempt.addBindValue(nullable(s.instance));
        const bool synthetic = s.probes.contains(e.generationId);
        s.attempt.addBindValue(synthetic ? 1 : 0);
        s.attempt.addBindValue(a->cost ? QVariant(*a->cost) : QVariant(QMetaType::fromType<double>()));
        s.attempt.addBindValue(a->cost ? QVariant(a->currency) : QVariant(QMetaType::fromType<QString>()));
        s.attempt.addBindValue(wait.known() ? QVariant(wait.ms) : QVariant(QMetaType::fromType<double>()));
        s.attempt.addBindValue(wait.known() ? QVariant(wait.provider) : QVariant(QMetaType::fromType<QString>()));
        if (!s.attempt.exec()) {
            *error = s.why(s.attempt);
            return false;
        }
        if (synthetic)
            return true; // users' figures only
        s.aggregates.addAttempt(wall, toId(a->provider), toId(a->role), toId(a->stage), s.instance, a->success, ms(a->duration));
        s.aggregates.addSpend(wall, toId(a->provider), toId(a->stage), toId(a->role), a->currency, a->cost);
        if (wait.known())
            s.aggregates.addFallbackWait(toId(a->stage), wall, wait.provider, toId(a->provider), wait.ms + ms(a->duration));
    }
    return true;
}

bool writeComparison(Statements &s, const StoreWriter::Comparison &c, QString *error)
{
    s.comparison.addBindValue(c.id);
    s.comparison.addBindValue(c.createdAtMs);
    s.comparison.addBindValue(c.primaryProvider);
    s.comparison.addBindValue(c.fallbackProvider);
    s.comparison.addBindValue(nullable(c.primaryGenerationId));
    s.comparison.addBindValue(nullable(c.fallbackGenerationId));
    s.comparison.addBindValue(QString::fromUtf8(c.body));
    if (!s.comparison.exec()) {
        *error = s.why(s.comparison);
        return false;
    }
    return true;
}

// A finished generation's comic into the store (content-addressed: a comic made twice is kept once).
// A file that cannot be read is said and skipped: the final state matters more than the copy.
bool writeComic(Statements &s, const QString &path, QString *error)
{
    const QFileInfo info(path);
    const QString sha256 = comicDigestOf(path);
    QFile file(path);
    if (sha256.isEmpty() || info.size() > 64 * 1024 * 1024 || !file.open(QIODevice::ReadOnly)) {
        qWarning("bullpen: the comic %s is not copied into the store (%s); this engine serves it from its data folder only",
                 qUtf8Printable(path), qUtf8Printable(file.errorString()));
        return true;
    }
    // Most comics a busy deployment makes again are already there: their bytes are not sent twice.
    if (const auto now = std::chrono::steady_clock::now(); now - s.comicsKnownSince > Statements::kComicsKnown) {
        s.comicsKnown.clear();
        s.comicsKnownSince = now;
    }
    if (s.comicsKnown.contains(sha256))
        return true;
    s.comicKnown.addBindValue(sha256);
    if (!s.comicKnown.exec()) {
        *error = s.why(s.comicKnown);
        return false;
    }
    const bool stored = s.comicKnown.next();
    s.comicKnown.finish();
    if (stored) { // (possibly by this very transaction: the set is emptied when one rolls back)
        if (s.comicsKnown.size() >= 4096)
            s.comicsKnown.clear();
        s.comicsKnown.insert(sha256);
        return true;
    }
    const QString suffix = info.suffix();
    s.comic.addBindValue(sha256);
    s.comic.addBindValue(suffix == u"jpg"        ? QStringLiteral("image/jpeg")
                             : suffix == u"webp" ? QStringLiteral("image/webp")
                                                 : QStringLiteral("image/png"));
    s.comic.addBindValue(file.readAll());
    s.comic.addBindValue(QDateTime::currentMSecsSinceEpoch());
    if (!s.comic.exec()) {
        *error = s.why(s.comic);
        return false;
    }
    return true;
}

// Returns false on a database error; *conflict is set when the generation already had a final state.
bool writeFinished(Statements &s, const StoreWriter::Finished &f, bool *conflict, QString *error)
{
    const StageResult &r = f.result;
    const QVariant noText(QMetaType::fromType<QString>());
    QJsonObject json = r.toJson();
    s.finish.addBindValue(QDateTime::currentMSecsSinceEpoch());
    s.finish.addBindValue(nullable(f.userKey));
    s.finish.addBindValue(nullable(f.userMask));
    s.finish.addBindValue(toId(r.state));
    s.finish.addBindValue(r.failure ? QVariant(enumName(r.failure->publicCode())) : noText);
    s.finish.addBindValue(r.failure ? QVariant(enumName(r.failure->kind)) : noText);
    s.finish.addBindValue(r.failure ? QVariant(toId(r.failedStage)) : noText);
    s.finish.addBindValue(r.failure ? QVariant(r.failure->detail) : noText);
    s.finish.addBindValue(nullable(r.decision));
    s.finish.addBindValue(r.fallback.applied ? 1 : 0);
    s.finish.addBindValue(nullable(r.fallback.reason));
    s.finish.addBindValue(r.fallback.finalProvider ? QVariant(toId(*r.fallback.finalProvider)) : noText);
    s.finish.addBindValue(nullable(r.fallback.finalModelId));
    s.finish.addBindValue(nullable(r.tokens.input));
    s.finish.addBindValue(nullable(r.tokens.output));
    s.finish.addBindValue(ms(r.elapsed));
    const FinishedExtras &x = f.extras;
    s.finish.addBindValue(QString::fromUtf8(QJsonDocument(x.resultJson.isEmpty() ? json : x.resultJson).toJson(QJsonDocument::Compact)));
    s.finish.addBindValue(nullable(x.cacheKey));
    s.finish.addBindValue(x.degraded ? 1 : 0);
    s.finish.addBindValue(x.fromCache ? 1 : 0);
    s.finish.addBindValue(nullable(x.imagePath));
    s.finish.addBindValue(nullable(comicDigestOf(x.imagePath)));
    s.finish.addBindValue(nullable(x.nextStep));
    s.finish.addBindValue(r.generationId);
    if (!s.finish.exec()) {
        *error = s.why(s.finish);
        return false;
    }
    s.probes.remove(r.generationId);
    if (s.finish.numRowsAffected() == 1) {
        if (s.onPostgres && !x.imagePath.isEmpty() && !writeComic(s, x.imagePath, error))
            return false;
        return s.aggregates.addFinished(s.db, r.generationId, error);
    }
    // Nothing updated: either the generation already had its final state (a conflict, counted), or
    // its row was never written, and then this record is not durable either: a failure, not success.
    s.exists.addBindValue(r.generationId);
    if (!s.exists.exec()) {
        *error = s.why(s.exists);
        return false;
    }
    const bool rowExists = s.exists.next();
    s.exists.finish();
    if (!rowExists) {
        *error = QStringLiteral("generation %1 has no row to finish (its start was not recorded)").arg(r.generationId);
        return false;
    }
    *conflict = true;
    return true;
}

} // namespace

StoreWriter::StoreWriter(StoreLocation location, std::function<void(const QString &)> onFailure,
                         std::function<void(const QStringList &)> onFinalCommitted,
                         std::function<void(bool, const QString &)> onReachability)
    : m_location(std::move(location))
    , m_onFailure(std::move(onFailure))
    , m_onFinalCommitted(std::move(onFinalCommitted))
    , m_onReachability(std::move(onReachability))
{
}

StoreWriter::~StoreWriter()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void StoreWriter::setIdentity(const Identity &identity)
{
    {
        std::lock_guard lock(m_mutex);
        m_identity = identity;
        m_upkeepNow = true; // the heartbeat row under the new name at once
    }
    m_wake.notify_all();
}

void StoreWriter::setRetention(const RetentionPolicy &policy, const QString &imagesDir)
{
    {
        std::lock_guard lock(m_mutex);
        m_retention = policy;
        m_imagesDir = imagesDir;
        m_nextPurge = std::chrono::steady_clock::now() + std::min<std::chrono::milliseconds>(std::chrono::minutes(1), policy.interval);
        m_upkeepNow = true;
    }
    m_wake.notify_all();
}

bool StoreWriter::purgeWhenDue(QSqlDatabase &db)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    std::optional<RetentionPolicy> policy;
    QString imagesDir;
    {
        std::lock_guard lock(m_mutex);
        if (!m_retention || m_retention->isOff() || (!m_purger && std::chrono::steady_clock::now() < m_nextPurge))
            return true;
        policy = m_retention;
        imagesDir = m_imagesDir;
    }
    if (!m_purger)
        m_purger = std::make_unique<Purger>(db, *policy, now, imagesDir);
    QString failure;
    const Purger::Step step = m_purger->step(&failure);
    if (step == Purger::Step::More)
        return true;
    const PurgeCounts counts = m_purger->counts();
    const double longest = m_purger->longestStepMs();
    m_purger.reset();
    if (step == Purger::Step::Failed) {
        QSqlQuery ping(db);
        if (!ping.exec(QStringLiteral("SELECT 1"))) {
            noteUnreachable(failure);
            return false;
        }
        if (failure != m_purgeFailure)
            qWarning("bullpen: retention could not purge %s: %s; it tries again in %lld s", qUtf8Printable(m_location.display()),
                     qUtf8Printable(failure), static_cast<long long>(policy->interval.count() / 1000));
        m_purgeFailure = failure;
    } else {
        m_purgeFailure.clear();
    }
    std::lock_guard lock(m_mutex);
    // Busy: another engine is purging this store; this one looks again at its next interval.
    m_nextPurge = std::chrono::steady_clock::now() + policy->interval;
    m_counters.retention.purged += counts;
    m_counters.retention.longestStepMs = std::max(m_counters.retention.longestStepMs, longest);
    if (step == Purger::Step::Done)
        m_counters.retention.lastPassDoneMs = QDateTime::currentMSecsSinceEpoch();
    return true;
}

void StoreWriter::setLease(std::chrono::milliseconds lease)
{
    {
        std::lock_guard lock(m_mutex);
        m_lease = std::max(lease, std::chrono::milliseconds(300));
        m_upkeepNow = true; // a wait begun under the old lease must not outlast the new one
    }
    m_wake.notify_all();
}

bool StoreWriter::start(QString *error)
{
    m_startedAtMs = QDateTime::currentMSecsSinceEpoch();
    m_thread = std::thread([this] { run(); });
    std::unique_lock lock(m_mutex);
    m_done.wait(lock, [this] { return m_ready || !m_startError.isEmpty(); });
    if (!m_startError.isEmpty()) {
        *error = m_startError;
        lock.unlock();
        m_thread.join();
        return false;
    }
    return true;
}

void StoreWriter::enqueue(Item item)
{
    bool dropped = false;
    qint64 since = 0;
    {
        std::lock_guard lock(m_mutex);
        ++m_counters.queued;
        if (m_queue.size() >= kMaxQueued) {
            // The store has been unreachable (or far too slow) for long: the engine must not wait, and
            // memory must stay bounded. This record is lost, counted and said; none reported durable is.
            dropped = ++m_counters.dropped % 1000 == 1; // said at the first drop and every thousandth
            ++m_counters.failed;
            m_counters.lastError = QStringLiteral("%1 records waiting for the store; newer ones are dropped").arg(kMaxQueued);
            since = m_counters.unreachableSinceMs;
        } else {
            m_queue.push_back(std::move(item));
        }
    }
    if (dropped && m_onFailure) {
        m_onFailure(
            QStringLiteral("records not written to %1: %2 were already waiting for it%3, so newer ones are dropped")
                .arg(m_location.display())
                .arg(kMaxQueued)
                .arg(since ? QStringLiteral(" (unreachable since %1)").arg(QDateTime::fromMSecsSinceEpoch(since).toString(Qt::ISODate))
                           : QString()));
    }
    m_wake.notify_one();
}

bool StoreWriter::flush(std::chrono::milliseconds timeout)
{
    std::unique_lock lock(m_mutex);
    const quint64 target = m_counters.queued;
    return m_done.wait_for(lock, timeout, [&] { return m_counters.written + m_counters.failed >= target; });
}

StoreWriter::Counters StoreWriter::counters() const
{
    std::lock_guard lock(m_mutex);
    return m_counters;
}

void StoreWriter::run()
{
    becomeBackgroundThread("bullpen-writer");
    const QString name = QStringLiteral("bullpen-writer-") + QUuid::createUuid().toString(QUuid::Id128);
    QString error;
    const bool connected = m_location.connect(name, StoreLocation::Access::ReadWrite, &error).isOpen();
    {
        std::lock_guard lock(m_mutex);
        if (connected)
            m_ready = true;
        else
            m_startError = error;
    }
    m_done.notify_all();
    if (!connected)
        return; // connect() removed the connection

    // SQLite: this writer's commits leave the WAL's checkpoints to a thread of their own (walcheckpointer.h).
    WalCheckpointer checkpointer(m_location);
    for (;;) {
        {
            QSqlDatabase db = QSqlDatabase::database(name, false);
            checkpointer.takeOver(db);
            Statements statements(db);
            statements.onPostgres = m_location.isPostgres();
            if (writeUntilLost(db, statements))
                break; // stopped, everything written
        } // statements end before the connection closes
        // The connection is gone (PostgreSQL restarted, the network dropped): nothing is lost while the
        // queue holds; reconnect with backoff, jittered so that engines sharing a server do not retry
        // in step.
        StoreLocation::disconnect(name);
        std::chrono::milliseconds backoff { 250 };
        for (bool stopping = false;;) {
            {
                std::unique_lock lock(m_mutex);
                const auto jittered =
                    backoff / 2 + std::chrono::milliseconds(QRandomGenerator::global()->bounded(static_cast<int>(backoff.count() / 2) + 1));
                m_wake.wait_for(lock, jittered, [this] { return m_stop; });
                stopping = m_stop;
            }
            QString why;
            if (m_location.connect(name, StoreLocation::Access::ReadWrite, &why).isOpen()) {
                qint64 lastedMs = 0;
                std::size_t held = 0;
                {
                    std::lock_guard lock(m_mutex);
                    lastedMs = m_unreachableFor.isValid() ? m_unreachableFor.elapsed() : 0;
                    m_counters.unreachableSinceMs = 0;
                    held = m_queue.size();
                }
                if (m_onReachability)
                    m_onReachability(true,
                                     QStringLiteral("the store at %1 is reachable again after %2 s; writing the %3 record(s) it held")
                                         .arg(m_location.display())
                                         .arg(static_cast<double>(lastedMs) / 1000.0, 0, 'f', 1)
                                         .arg(held));
                break;
            }
            if (stopping) {
                // Shutting down with the store still unreachable: what is held cannot be written.
                quint64 lost = 0;
                {
                    std::lock_guard lock(m_mutex);
                    lost = m_queue.size();
                    m_queue.clear();
                    m_counters.failed += lost;
                    m_counters.lastError = QStringLiteral("the store was unreachable at shutdown (%1)").arg(why);
                }
                m_done.notify_all();
                if (lost && m_onFailure)
                    m_onFailure(QStringLiteral("%1 record(s) not written to %2: it was unreachable at shutdown (%3)")
                                    .arg(lost)
                                    .arg(m_location.display(), why));
                return;
            }
            {
                std::lock_guard lock(m_mutex);
                m_counters.lastError = why;
            }
            backoff = std::min(backoff * 2, std::chrono::milliseconds(5000));
        }
    }
    StoreLocation::disconnect(name);
}

void StoreWriter::noteUnreachable(const QString &failure)
{
    qint64 since = 0;
    std::size_t held = 0;
    {
        std::lock_guard lock(m_mutex);
        if (m_counters.unreachableSinceMs == 0) {
            m_counters.unreachableSinceMs = QDateTime::currentMSecsSinceEpoch();
            m_unreachableFor.start(); // the outage's length, on the monotonic clock
        }
        since = m_counters.unreachableSinceMs;
        m_counters.lastError = failure;
        held = m_queue.size();
    }
    if (m_onReachability)
        m_onReachability(false,
                         QStringLiteral("the store at %1 is unreachable since %2 (%3); %4 record(s) held, retrying")
                             .arg(m_location.display(), QDateTime::fromMSecsSinceEpoch(since).toString(Qt::ISODate), failure.trimmed())
                             .arg(held));
}

bool StoreWriter::keepLeases(QSqlDatabase &db)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    Identity me;
    std::chrono::milliseconds lease {};
    {
        std::lock_guard lock(m_mutex);
        if (now - m_leasesKeptAtMs < (m_lease / 3).count() && !m_upkeepNow)
            return true;
        m_upkeepNow = false;
        me = m_identity;
        lease = m_lease;
    }
    // Renew this process's leases first (after an outage they may have run out), then finish everyone
    // else's expired ones, once each: the UPDATE's condition is the arbiter between instances racing.
    // Then the heartbeat row of /v1/instances.
    QString failure;
    int abandoned = 0;
    bool ok = db.transaction();
    const auto step = [&](QSqlQuery &q, const QString &sql, const QVariantList &binds) {
        if (!ok)
            return;
        ok = StoreDatabase::run(q, sql, binds, &failure);
    };
    QSqlQuery q(db);
    step(q, QStringLiteral("UPDATE generations SET lease_until_ms = ? WHERE state = 'running' AND owner = ?"),
         { static_cast<qint64>(now + lease.count()), Owner::thisProcess() });
    // Each expired generation on its own, in id order (engines racing take the rows' locks in one order),
    // so that the hourly aggregates count exactly the ones this UPDATE finished.
    step(q, QStringLiteral("SELECT id FROM generations WHERE state = 'running' AND lease_until_ms < ? ORDER BY id"), { now });
    QStringList expired;
    while (ok && q.next())
        expired << q.value(0).toString();
    q.finish();
    AggregateDeltas aggregates;
    for (const QString &id : std::as_const(expired)) {
        step(q,
             QStringLiteral(
                 "UPDATE generations SET state = 'abandoned', public_code = 'INTERNAL_ERROR', kind = 'INTERNAL', finished_at_ms = ?, "
                 "detail = 'its instance (' || COALESCE(instance, 'unnamed') || ') stopped renewing its lease; recorded as abandoned by ' "
                 "|| CAST(? AS TEXT) WHERE id = ? AND state = 'running' AND lease_until_ms < ?"),
             { now, me.instance.isEmpty() ? Owner::thisProcess() : me.instance, id, now });
        if (ok && q.numRowsAffected() == 1) {
            ++abandoned;
            ok = aggregates.addFinished(db, id, &failure) && StoreDatabase::recordAbandonedEvent(db, id, now, &failure);
        }
    }
    ok = ok && aggregates.apply(db, &failure) && (abandoned == 0 || StoreDatabase::notifyEvents(db, &failure));
    if (!me.instance.isEmpty() && !me.url.isEmpty()) { // a serving engine (the console and the CLI name their rows only)
        step(q, QStringLiteral("SELECT COUNT(*) FROM generations WHERE state = 'running' AND owner = ?"), { Owner::thisProcess() });
        const int inFlight = ok && q.next() ? q.value(0).toInt() : 0;
        q.finish();
        const QVariantList row {
            me.version, nullable(me.url), Owner::thisProcess(), m_startedAtMs, now, inFlight, static_cast<qint64>(lease.count()),
            me.instance
        };
        step(q,
             QStringLiteral("UPDATE instances SET version = ?, url = ?, owner = ?, started_at_ms = ?, heartbeat_ms = ?, in_flight = ?, "
                            "lease_ms = ? WHERE name = ?"),
             row);
        if (ok && q.numRowsAffected() == 0)
            step(q,
                 QStringLiteral("INSERT INTO instances (version, url, owner, started_at_ms, heartbeat_ms, in_flight, lease_ms, name) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
                 row);
    }
    if (ok && !db.commit()) {
        ok = false;
        failure = db.lastError().text();
    }
    if (!ok) {
        db.rollback();
        QSqlQuery ping(db);
        if (!ping.exec(QStringLiteral("SELECT 1"))) {
            noteUnreachable(failure); // an idle writer learns of an outage here first
            return false; // the connection is gone: run() re-makes it
        }
        if (failure != m_leaseFailure) // said once per cause, not every third of a lease
            qWarning("bullpen: the store's leases could not be kept: %s", qUtf8Printable(failure));
        m_leaseFailure = failure;
    } else {
        m_leaseFailure.clear();
    }
    std::lock_guard lock(m_mutex);
    m_leasesKeptAtMs = now;
    m_counters.abandonedByLease += static_cast<quint64>(std::max(abandoned, 0));
    return true;
}

// Waits for records (or stop, or upkeep due) and takes the next batch off the queue.
StoreWriter::Take StoreWriter::takeBatch(Statements &statements, std::deque<Item> *batch)
{
    std::unique_lock lock(m_mutex);
    // Woken by records, by stop, or when the leases are due for renewal or a purge is; a purge
    // under way takes its next step between batches.
    std::chrono::milliseconds wait = m_lease / 3;
    if (m_purger)
        wait = m_purger->pause(); // records arriving meanwhile are written at once
    else if (m_retention && !m_retention->isOff())
        wait = std::clamp(std::chrono::duration_cast<std::chrono::milliseconds>(m_nextPurge - std::chrono::steady_clock::now()),
                          std::chrono::milliseconds::zero(), wait);
    m_wake.wait_for(lock, wait, [this] { return m_stop || !m_queue.empty() || m_upkeepNow; });
    if (m_queue.empty())
        return m_stop ? Take::Stopped : Take::Nothing;
    statements.instance = m_identity.instance;
    statements.leaseMs = static_cast<qint64>(m_lease.count());
    const std::size_t n = std::min(m_queue.size(), kMaxBatch);
    batch->assign(std::make_move_iterator(m_queue.begin()), std::make_move_iterator(m_queue.begin() + static_cast<std::ptrdiff_t>(n)));
    m_queue.erase(m_queue.begin(), m_queue.begin() + static_cast<std::ptrdiff_t>(n));
    return Take::Batch;
}

// Records [from, to) of a batch in one transaction; false (rolled back) with the failure.
bool StoreWriter::writeRange(QSqlDatabase &db, Statements &statements, const std::deque<Item> &batch, std::size_t from, std::size_t to,
                             quint64 *conflicts, QString *failure)
{
    bool ok = db.transaction();
    if (!ok)
        *failure = db.lastError().text();
    statements.aggregates.clear();
    bool events = false;
    for (std::size_t i = from; ok && i < to; ++i) {
        if (const auto *e = std::get_if<Event>(&batch[i])) {
            ok = writeEvent(statements, *e, failure);
            events = true;
        } else if (const auto *c = std::get_if<Comparison>(&batch[i])) {
            ok = writeComparison(statements, *c, failure);
        } else {
            bool conflict = false;
            ok = writeFinished(statements, std::get<Finished>(batch[i]), &conflict, failure);
            *conflicts += conflict ? 1 : 0;
        }
    }
    ok = ok && statements.aggregates.apply(db, failure);
    // PostgreSQL: the engines' relays read the new events once this commits (the notification
    // is delivered at commit, and not at all on rollback).
    if (ok && events)
        ok = StoreDatabase::notifyEvents(db, failure);
    if (ok && !db.commit()) {
        ok = false;
        *failure = db.lastError().text();
    }
    if (!ok) {
        db.rollback();
        statements.comicsKnown.clear();
    }
    return ok;
}

// A failure may be the connection's rather than a record's: then records [from, end) go back to the
// head of the queue, in order, none counted as failed, and this says true.
bool StoreWriter::requeueIfLost(QSqlDatabase &db, std::deque<Item> &batch, std::size_t from, const QString &failure)
{
    QSqlQuery ping(db);
    if (ping.exec(QStringLiteral("SELECT 1")))
        return false;
    {
        std::lock_guard lock(m_mutex);
        m_queue.insert(m_queue.begin(), std::make_move_iterator(batch.begin() + static_cast<std::ptrdiff_t>(from)),
                       std::make_move_iterator(batch.end()));
    }
    noteUnreachable(failure);
    return true;
}

// One batch in one transaction; if that fails, each record on its own, so that one bad record (or a
// full disk that frees up) costs that record alone.
StoreWriter::BatchOutcome StoreWriter::writeBatch(QSqlDatabase &db, Statements &statements, std::deque<Item> &batch)
{
    BatchOutcome out;
    auto noteFinals = [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i) {
            if (const auto *f = std::get_if<Finished>(&batch[i]))
                out.finals << f->result.generationId;
        }
    };
    if (writeRange(db, statements, batch, 0, batch.size(), &out.conflicts, &out.failure)) {
        out.written = batch.size();
        noteFinals(0, batch.size());
        return out;
    }
    if (requeueIfLost(db, batch, 0, out.failure)) {
        out.lostBeforeWriting = true;
        return out;
    }
    out.conflicts = 0;
    for (std::size_t i = 0; i < batch.size(); ++i) {
        QString one;
        quint64 c = 0;
        if (writeRange(db, statements, batch, i, i + 1, &c, &one)) {
            ++out.written;
            out.conflicts += c;
            noteFinals(i, i + 1);
        } else if (requeueIfLost(db, batch, i, one)) {
            out.lost = true;
            break;
        } else if (out.failed++ == 0) {
            out.failure = one; // the first cause is the telling one (a missing table, a full disk)
        }
    }
    return out;
}

bool StoreWriter::writeUntilLost(QSqlDatabase &db, Statements &statements)
{
    for (;;) {
        if (!keepLeases(db) || !purgeWhenDue(db))
            return false;
        std::deque<Item> batch;
        const Take take = takeBatch(statements, &batch);
        if (take == Take::Stopped)
            return true;
        if (take == Take::Nothing)
            continue;
        const BatchOutcome out = writeBatch(db, statements, batch);
        if (out.lostBeforeWriting)
            return false;
        // Reported before flush() can see the counters move, so that whoever flushed and then
        // turns its event loop once has every "committed" and "failed" notice of this batch.
        if (out.failed && m_onFailure)
            m_onFailure(QStringLiteral("%1 record(s) not written to %2: %3").arg(out.failed).arg(m_location.display(), out.failure));
        if (!out.finals.isEmpty() && m_onFinalCommitted)
            m_onFinalCommitted(out.finals);
        {
            std::lock_guard lock(m_mutex);
            m_counters.written += out.written;
            m_counters.failed += out.failed;
            m_counters.finalStateConflicts += out.conflicts;
            if (out.failed) {
                m_counters.lastError = out.failure;
                if (m_counters.firstError.isEmpty())
                    m_counters.firstError = out.failure;
            }
        }
        m_done.notify_all();
        if (out.lost)
            return false;
    }
}

} // namespace bullpen
