// SPDX-License-Identifier: MIT
#include "storeschema.h"

#include "aggregates.h"
#include "primarywait.h"
#include "storelocation.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>

namespace bullpen {

namespace {

const char *const kVersion1[] = {
    "CREATE TABLE bullpen_schema (version INTEGER NOT NULL)",
    "INSERT INTO bullpen_schema (version) VALUES (1)",
    // One row per generation: inserted when it starts, its final state written once.
    "CREATE TABLE generations ("
    " id TEXT PRIMARY KEY,"
    " created_at_ms BIGINT NOT NULL,"
    " finished_at_ms BIGINT,"
    " user_key TEXT,"
    " user_mask TEXT,"
    " policy TEXT,"
    " primary_provider TEXT,"
    " fallback_provider TEXT,"
    " state TEXT NOT NULL,"
    " public_code TEXT,"
    " kind TEXT,"
    " stage TEXT,"
    " detail TEXT,"
    " decision TEXT,"
    " fallback_applied INTEGER NOT NULL DEFAULT 0,"
    " fallback_reason TEXT,"
    " final_provider TEXT,"
    " final_model TEXT,"
    " tokens_in BIGINT,"
    " tokens_out BIGINT,"
    " elapsed_ms DOUBLE PRECISION,"
    " result_json TEXT)",
    "CREATE INDEX generations_created ON generations (created_at_ms)",
    "CREATE INDEX generations_state_created ON generations (state, created_at_ms)",
    "CREATE INDEX generations_code_created ON generations (public_code, created_at_ms)",
    "CREATE INDEX generations_kind_created ON generations (kind, created_at_ms)",
    "CREATE INDEX generations_user ON generations (user_key, created_at_ms)",
    // One row per completed attempt (docs/contract.md §11.7: exactly one per started attempt).
    "CREATE TABLE attempts ("
    " generation_id TEXT NOT NULL,"
    " attempt_id BIGINT NOT NULL,"
    " at_ms BIGINT NOT NULL,"
    " stage TEXT NOT NULL,"
    " provider TEXT NOT NULL,"
    " model TEXT,"
    " role TEXT NOT NULL,"
    " round INTEGER NOT NULL,"
    " success INTEGER NOT NULL,"
    " kind TEXT,"
    " public_code TEXT,"
    " http_status INTEGER,"
    " duration_ms DOUBLE PRECISION NOT NULL,"
    " fallback_eligible INTEGER NOT NULL,"
    " requests_sent INTEGER NOT NULL,"
    " tokens_in BIGINT,"
    " tokens_out BIGINT,"
    " aborted_by TEXT,"
    " detail TEXT,"
    " PRIMARY KEY (generation_id, attempt_id))",
    "CREATE INDEX attempts_at ON attempts (at_ms)",
    "CREATE INDEX attempts_provider_role_at ON attempts (provider, role, at_ms)",
    "CREATE INDEX attempts_kind_at ON attempts (kind, at_ms)",
    // Every event, as the JSON it is on the wire.
    "CREATE TABLE events ("
    " generation_id TEXT NOT NULL,"
    " seq INTEGER NOT NULL,"
    " type TEXT NOT NULL,"
    " at_ms BIGINT NOT NULL,"
    " body TEXT NOT NULL,"
    " PRIMARY KEY (generation_id, seq))",
    "CREATE INDEX events_at ON events (at_ms)",
};

// Version 2: the whole pipeline (image, captions, cache, next step).
const char *const kVersion2[] = {
    "ALTER TABLE generations ADD COLUMN cache_key TEXT",
    "ALTER TABLE generations ADD COLUMN degraded INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE generations ADD COLUMN from_cache INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE generations ADD COLUMN image_path TEXT",
    "ALTER TABLE generations ADD COLUMN next_step TEXT",
    "CREATE INDEX generations_cache ON generations (cache_key, created_at_ms)",
    // Covering indexes for the dashboards' aggregates (fallback rate, counts by code, latency).
    "CREATE INDEX generations_created_fallback ON generations (created_at_ms, fallback_applied)",
    "CREATE INDEX generations_state_created_code ON generations (state, created_at_ms, public_code, kind)",
    "CREATE INDEX attempts_latency ON attempts (provider, role, at_ms, duration_ms, success)",
    "UPDATE bullpen_schema SET version = 2",
};

// Version 3: side-by-side comparisons (docs/contract.md §9.6), kept so they can be reopened.
const char *const kVersion3[] = {
    "CREATE TABLE comparisons ("
    " id TEXT PRIMARY KEY,"
    " created_at_ms BIGINT NOT NULL,"
    " primary_provider TEXT NOT NULL,"
    " fallback_provider TEXT NOT NULL,"
    " primary_generation_id TEXT,"
    " fallback_generation_id TEXT,"
    " body TEXT NOT NULL)",
    "CREATE INDEX comparisons_created ON comparisons (created_at_ms)",
    // Fallback and primary attempts by time, covering the latency view's extra-wait query.
    "CREATE INDEX attempts_role_stage_at ON attempts (role, stage, at_ms, generation_id, provider, duration_ms, success)",
    "CREATE INDEX attempts_latency_stage ON attempts (provider, role, stage, at_ms, duration_ms, success)",
    "UPDATE bullpen_schema SET version = 3",
};

// Version 4: who holds a running generation (owner.h), so that the work of a process that died is
// finished as ABANDONED instead of staying `running` for ever. Rows left running by earlier builds
// have no owner to ask: they are abandoned here, once.
const char *const kVersion4[] = {
    "ALTER TABLE generations ADD COLUMN owner TEXT",
    "UPDATE generations SET state = 'abandoned', public_code = 'INTERNAL_ERROR', kind = 'INTERNAL', "
    "detail = 'left running by an earlier Bullpen that ended before it finished; recorded as abandoned by the schema upgrade', "
    "finished_at_ms = created_at_ms WHERE state = 'running'",
    "UPDATE bullpen_schema SET version = 4",
};

// Version 5: bullpen-engine's API tokens (only a SHA-256 of each token is kept) and who did what with
// them (docs/contract.md §12.1): token names, never user ids.
const char *const kVersion5[] = {
    "CREATE TABLE api_tokens ("
    " name TEXT PRIMARY KEY,"
    " role TEXT NOT NULL,"
    " token_sha256 TEXT NOT NULL UNIQUE,"
    " created_at_ms BIGINT NOT NULL,"
    " revoked_at_ms BIGINT)",
    "CREATE TABLE audit ("
    " at_ms BIGINT NOT NULL,"
    " token_name TEXT NOT NULL,"
    " action TEXT NOT NULL,"
    " target TEXT,"
    " detail TEXT)",
    "CREATE INDEX audit_at ON audit (at_ms)",
    "UPDATE bullpen_schema SET version = 5",
};

// Version 6: many engines on one store (docs/contract.md §12.2). Each row says which instance wrote it; a running
// generation holds a lease its instance renews, and any instance finishes an expired one as ABANDONED;
// each instance keeps a heartbeat row.
const char *const kVersion6[] = {
    "ALTER TABLE generations ADD COLUMN instance TEXT",
    "ALTER TABLE generations ADD COLUMN lease_until_ms BIGINT",
    "ALTER TABLE attempts ADD COLUMN instance TEXT",
    "ALTER TABLE audit ADD COLUMN instance TEXT",
    "CREATE INDEX generations_running_lease ON generations (state, lease_until_ms)",
    "CREATE INDEX generations_instance_created ON generations (instance, created_at_ms)",
    "CREATE TABLE instances ("
    " name TEXT PRIMARY KEY,"
    " version TEXT,"
    " url TEXT,"
    " owner TEXT,"
    " started_at_ms BIGINT NOT NULL,"
    " heartbeat_ms BIGINT NOT NULL,"
    " in_flight INTEGER NOT NULL DEFAULT 0,"
    " lease_ms BIGINT NOT NULL)",
    "UPDATE bullpen_schema SET version = 6",
};

// Version 7: facts about the store itself; first, the fingerprint of the masking key its user keys were
// made with (one key per deployment: docs/contract.md §12.2). Events name their instance too.
const char *const kVersion7[] = {
    "CREATE TABLE store_facts (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "ALTER TABLE events ADD COLUMN instance TEXT", // the events of version 6 are the generation's
    "UPDATE bullpen_schema SET version = 7",
};

// Version 8: hourly aggregates (aggregates.h), filled from the rows already there; comics in the store. Dimensions are
// NOT NULL ('' for none) so that each combination is one row that upserts find.
const char *const kVersion8[] = {
    "CREATE TABLE agg_generations ("
    " hour_ms BIGINT NOT NULL,"
    " state TEXT NOT NULL,"
    " public_code TEXT NOT NULL,"
    " kind TEXT NOT NULL,"
    " stage TEXT NOT NULL,"
    " primary_provider TEXT NOT NULL,"
    " final_provider TEXT NOT NULL,"
    " instance TEXT NOT NULL,"
    " fallback_applied INTEGER NOT NULL,"
    " n BIGINT NOT NULL,"
    " PRIMARY KEY (hour_ms, state, public_code, kind, stage, primary_provider, final_provider, instance, fallback_applied))",
    "CREATE TABLE agg_attempts ("
    " provider TEXT NOT NULL,"
    " role TEXT NOT NULL,"
    " stage TEXT NOT NULL,"
    " hour_ms BIGINT NOT NULL,"
    " instance TEXT NOT NULL,"
    " success INTEGER NOT NULL,"
    " bin INTEGER NOT NULL,"
    " n BIGINT NOT NULL,"
    " PRIMARY KEY (provider, role, stage, hour_ms, instance, success, bin))",
    "CREATE TABLE agg_relief ("
    " stage TEXT NOT NULL,"
    " hour_ms BIGINT NOT NULL,"
    " primary_provider TEXT NOT NULL,"
    " fallback_provider TEXT NOT NULL,"
    " bin INTEGER NOT NULL,"
    " n BIGINT NOT NULL,"
    " PRIMARY KEY (stage, hour_ms, primary_provider, fallback_provider, bin))",
    // Comics by their SHA-256, once each, for engines sharing a PostgreSQL store (SQLite keeps them as
    // files in its data folder). BYTEA is PostgreSQL's bytes; SQLite stores a bound QByteArray as a BLOB
    // whatever the declared type.
    "CREATE TABLE images ("
    " sha256 TEXT PRIMARY KEY,"
    " mime TEXT NOT NULL,"
    " bytes BYTEA NOT NULL,"
    " created_at_ms BIGINT NOT NULL)",
    "UPDATE bullpen_schema SET version = 8",
};

// Version 9: retention (retention.h). Each generation names its comic by digest, so that a purge can
// tell which comics nothing refers to any more (image_path ends in <sha256>.png, .jpg or .webp); the
// aggregates are found by hour to be dropped when they are older than their own retention.
const char *const kVersion9[] = {
    "ALTER TABLE generations ADD COLUMN image_sha256 TEXT",
    ("UPDATE generations SET image_sha256 = CASE WHEN image_path LIKE '%.webp' THEN substr(image_path, length(image_path) - 68, 64) "
     "ELSE substr(image_path, length(image_path) - 67, 64) END WHERE image_path IS NOT NULL AND length(image_path) > 68"),
    "CREATE INDEX generations_image ON generations (image_sha256)",
    "CREATE INDEX agg_attempts_hour ON agg_attempts (hour_ms)",
    "CREATE INDEX agg_relief_hour ON agg_relief (hour_ms)",
    "UPDATE bullpen_schema SET version = 9",
};

// Version 10: drains (docs/contract.md §13), kept in the store so that every engine sharing it obeys
// them and a restart keeps them. `role` and `stage` are 'any' when the drain covers them all.
const char *const kVersion10[] = {
    "CREATE TABLE drains ("
    " provider TEXT NOT NULL,"
    " role TEXT NOT NULL,"
    " stage TEXT NOT NULL,"
    " reason TEXT NOT NULL,"
    " by_token TEXT NOT NULL,"
    " instance TEXT,"
    " since_ms BIGINT NOT NULL,"
    " until_ms BIGINT,"
    " PRIMARY KEY (provider, role, stage))",
    "UPDATE bullpen_schema SET version = 10",
};

// Version 11: synthetic generations (probes, docs/contract.md §13), kept apart from users' figures.
// `probe` names what was probed ("openai/fallback/storyboard"); attempts carry the flag so that the
// health and latency reads need no join.
const char *const kVersion11[] = {
    "ALTER TABLE generations ADD COLUMN synthetic INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE generations ADD COLUMN probe TEXT",
    "ALTER TABLE attempts ADD COLUMN synthetic INTEGER NOT NULL DEFAULT 0",
    "CREATE INDEX attempts_synthetic ON attempts (synthetic, at_ms)",
    "UPDATE bullpen_schema SET version = 11",
};

// Version 12: replays (docs/contract.md §14) are synthetic generations linked to the one they play.
const char *const kVersion12[] = {
    "ALTER TABLE generations ADD COLUMN replay_of TEXT",
    "UPDATE bullpen_schema SET version = 12",
};

// Version 13: the indexes behind users' figures carry `synthetic`, so that leaving probes and replays
// out (synthetic = 0) is read from the index, not from every row: the fallback rate's rows, the
// failures' counts and the latency samples had become 2 to 15 times slower with version 11
// (bench_store, docs/performance.md).
const char *const kVersion13[] = {
    "DROP INDEX generations_created_fallback",
    "CREATE INDEX generations_created_fallback ON generations (created_at_ms, fallback_applied, synthetic)",
    "DROP INDEX generations_state_created_code",
    "CREATE INDEX generations_state_created_code ON generations (state, created_at_ms, public_code, kind, synthetic)",
    "DROP INDEX attempts_latency",
    "CREATE INDEX attempts_latency ON attempts (provider, role, at_ms, duration_ms, success, synthetic)",
    "DROP INDEX attempts_latency_stage",
    "CREATE INDEX attempts_latency_stage ON attempts (provider, role, stage, at_ms, duration_ms, success, synthetic)",
    "UPDATE bullpen_schema SET version = 13",
};

// Version 14: what each attempt cost (docs/contract.md §16): NULL when the provider reported no tokens
// (unknown, never 0) or no price was known when it was recorded; rows from before have NULL.
const char *const kVersion14[] = {
    "ALTER TABLE attempts ADD COLUMN cost DOUBLE PRECISION",
    "ALTER TABLE attempts ADD COLUMN currency TEXT",
    "UPDATE bullpen_schema SET version = 14",
};

// Version 15: spend over a range read from the index alone. The Spend panel asks for a week and its 12
// slices; from the table each attempt in the range was a row lookup (12.7 s for 1M attempts, bench_tune).
const char *const kVersion15[] = {
    "CREATE INDEX attempts_spend ON attempts (at_ms, synthetic, provider, stage, role, currency, cost)",
    "UPDATE bullpen_schema SET version = 15",
};

// Version 16: the tuner's read (docs/contract.md §17) from the index alone, in the order it needs. It
// takes a stage's attempts a generation at a time and in attempt order; from `attempts_synthetic` that
// was a row lookup per attempt and a sort of the whole range by generation (6.6 s for 1M attempts,
// bench_tune). This index gives that order and every column read, so the rows stream as the index holds
// them; the time range is checked on each entry.
const char *const kVersion16[] = {
    "CREATE INDEX attempts_tune ON attempts (stage, synthetic, generation_id, attempt_id, at_ms, role, success, kind, duration_ms, cost)",
    "UPDATE bullpen_schema SET version = 16",
};

// Version 17: spend by hour (aggregates.h, `agg_spend`), kept by the writer in the attempts' own
// transactions and subtracted by the purge of attempts, filled here from the rows. The Spend panel reads
// whole hours from it and only the partial hours at a range's and its slices' edges from `attempts_spend`:
// grouping a week's 1M attempts took 0.9 s (bench_tune).
const char *const kVersion17[] = {
    "CREATE TABLE agg_spend ("
    " hour_ms BIGINT NOT NULL,"
    " provider TEXT NOT NULL,"
    " stage TEXT NOT NULL,"
    " role TEXT NOT NULL,"
    " currency TEXT NOT NULL," // '': the attempts whose cost is unknown
    " cost DOUBLE PRECISION NOT NULL,"
    " attempts BIGINT NOT NULL,"
    " unknown_cost BIGINT NOT NULL," // of `attempts`: cost unknown
    " PRIMARY KEY (hour_ms, provider, stage, role, currency))",
    "UPDATE bullpen_schema SET version = 17",
};

// Version 18: alert silences (docs/api.md, "Alerts"), kept in the store so that every engine sharing it
// shows and obeys the same ones and a restart keeps them (core/store/silencerecords.h). A row stays
// once it is over (`is_open` 0): `ended_by` and `ended_at_ms` say who ended it early and when, and are
// NULL when it ran out on its own. `since_ms` and `until_ms` are wall-clock times, for display; each
// engine judges the end on its steady clock (AlertBoard::adoptSilences).
const char *const kVersion18[] = {
    "CREATE TABLE alert_silences ("
    " id TEXT PRIMARY KEY,"
    " rule TEXT NOT NULL,"
    " by_token TEXT NOT NULL,"
    " reason TEXT NOT NULL,"
    " instance TEXT,"
    " since_ms BIGINT NOT NULL,"
    " until_ms BIGINT NOT NULL,"
    " is_open INTEGER NOT NULL,"
    " ended_by TEXT,"
    " ended_at_ms BIGINT)",
    "CREATE INDEX alert_silences_open ON alert_silences (is_open, since_ms)",
    "UPDATE bullpen_schema SET version = 18",
};

// Version 19: each fallback attempt's primary wait on its row (primarywait.h), written with the row, and
// an index of fallback attempts alone that holds every column the raw read of fallback waits needs. That
// read was two scans, every primary attempt of the range joined by generation (637 ms for a week of 1M
// attempts, bench_store); it is now one scan of the fallback attempts. The upgrade fills the old rows.
// Schema 3's index for those two scans has no other reader: every attempt written paid for it.
const char *const kVersion19[] = {
    "DROP INDEX attempts_role_stage_at",
    "ALTER TABLE attempts ADD COLUMN primary_wait_ms DOUBLE PRECISION",
    "ALTER TABLE attempts ADD COLUMN primary_provider TEXT",
    "UPDATE bullpen_schema SET version = 19",
};

bool exec(QSqlDatabase &db, const QString &sql, QString *error)
{
    QSqlQuery q(db);
    if (!q.exec(sql)) {
        *error = q.lastError().text();
        return false;
    }
    return true;
}

// Version 8's steps beyond SQL both backends share: the aggregates filled from the rows; and, on
// PostgreSQL, the events' store order (a sequence), which the engines' relay reads to stream one
// another's events (docs/store.md, "Live events across instances"). SQLite has one writer machine.
bool version8Extras(QSqlDatabase &db, QString *error)
{
    if (StoreLocation::isPostgres(db)) {
        for (const char *sql : { "CREATE SEQUENCE events_store_order",
                                 "ALTER TABLE events ADD COLUMN store_order BIGINT DEFAULT nextval('events_store_order')",
                                 "CREATE INDEX events_by_store_order ON events (store_order)" }) {
            if (!exec(db, QString::fromLatin1(sql), error))
                return false;
        }
    }
    return AggregateDeltas::rebuild(db, error);
}

// Version 19's rows filled before its index is made: the index is then written once, not at each update.
bool version19Extras(QSqlDatabase &db, QString *error)
{
    return PrimaryWaits::fill(db, error)
        && exec(db,
                QStringLiteral("CREATE INDEX attempts_relief ON attempts (stage, synthetic, at_ms, provider, duration_ms, success, "
                               "primary_wait_ms, primary_provider) WHERE role = 'fallback'"),
                error);
}

} // namespace

int StoreSchema::version(QSqlDatabase &db, QString *error)
{
    const QStringList tables = db.tables();
    if (!tables.contains(QStringLiteral("bullpen_schema")))
        return tables.isEmpty() ? 0 : -1;
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT version FROM bullpen_schema")) || !q.next()) {
        *error = q.lastError().text();
        return -1;
    }
    bool ok = false;
    const int v = q.value(0).toString().toInt(&ok);
    if (!ok || v < 1) {
        *error = QStringLiteral("bullpen_schema.version is \"%1\", not a schema version").arg(q.value(0).toString().left(40));
        return -1;
    }
    return v;
}

bool StoreSchema::check(QSqlDatabase &db, QString *error)
{
    QString why;
    const int v = version(db, &why);
    if (v < 0) {
        *error = why.isEmpty()
            ? QStringLiteral("this database holds tables but is not a Bullpen store; point Bullpen at another data folder")
            : QStringLiteral("cannot read the schema version (%1); the file may be damaged: move it aside and restart").arg(why);
        return false;
    }
    if (v > kCurrentVersion) {
        *error = QStringLiteral("written by a newer Bullpen (schema %1, this build knows %2); upgrade Bullpen, or move the file aside to "
                                "start a new store. Nothing was changed.")
                     .arg(v)
                     .arg(kCurrentVersion);
        return false;
    }
    return true;
}

bool StoreSchema::migrate(QSqlDatabase &db, QString *error)
{
    if (!check(db, error))
        return false;
    QString why;
    const int v = version(db, &why);
    // One transaction per step: an interrupted upgrade leaves the store at the last whole version.
    auto step = [&](const auto &statements, int to, bool (*andThen)(QSqlDatabase &, QString *) = nullptr) {
        if (!db.transaction()) {
            *error = db.lastError().text();
            return false;
        }
        for (const char *statement : statements) {
            if (!exec(db, QString::fromLatin1(statement), &why)) {
                db.rollback();
                *error = QStringLiteral("upgrading the schema to version %1 failed: %2; nothing was changed").arg(to).arg(why);
                return false;
            }
        }
        if (andThen && !andThen(db, &why)) {
            db.rollback();
            *error = QStringLiteral("upgrading the schema to version %1 failed: %2; nothing was changed").arg(to).arg(why);
            return false;
        }
        if (!db.commit()) {
            *error = db.lastError().text();
            return false;
        }
        return true;
    };
    if (v < 1 && !step(kVersion1, 1))
        return false;
    if (v < 2 && !step(kVersion2, 2))
        return false;
    if (v < 3 && !step(kVersion3, 3))
        return false;
    if (v < 4 && !step(kVersion4, 4))
        return false;
    if (v < 5 && !step(kVersion5, 5))
        return false;
    if (v < 6 && !step(kVersion6, 6))
        return false;
    if (v < 7 && !step(kVersion7, 7))
        return false;
    if (v < 8 && !step(kVersion8, 8, &version8Extras))
        return false;
    if (v < 9 && !step(kVersion9, 9))
        return false;
    if (v < 10 && !step(kVersion10, 10))
        return false;
    if (v < 11 && !step(kVersion11, 11))
        return false;
    if (v < 12 && !step(kVersion12, 12))
        return false;
    if (v < 13 && !step(kVersion13, 13))
        return false;
    if (v < 14 && !step(kVersion14, 14))
        return false;
    if (v < 15 && !step(kVersion15, 15))
        return false;
    if (v < 16 && !step(kVersion16, 16))
        return false;
    if (v < 17 && !step(kVersion17, 17, &AggregateDeltas::rebuildSpend))
        return false;
    if (v < 18 && !step(kVersion18, 18))
        return false;
    if (v < 19 && !step(kVersion19, 19, &version19Extras))
        return false;
    return true;
}

} // namespace bullpen
