// SPDX-License-Identifier: MIT
#include "historyfiller.h"

#include "contract/enums.h"
#include "contract/price.h"
#include "contract/providerregistry.h"
#include "contract/recordtext.h"
#include "engine/stageresult.h"
#include "failure/failure.h"
#include "pipeline/nextstep.h"
#include "store/aggregates.h"
#include "store/primarywait.h"
#include "store/store.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>

#include <cmath>

namespace bullpen {

namespace {

struct KindWeight
{
    FailureKind kind;
    int weight;
    int httpStatus;
};

// Primary failures by kind, roughly as production write-ups report them.
constexpr KindWeight kPrimaryFailures[] = {
    { FailureKind::TRANSIENT_SERVER, 38, 503 }, { FailureKind::RATE_LIMITED, 20, 429 },    { FailureKind::TIMEOUT, 18, 0 },
    { FailureKind::OUTPUT_INVALID, 9, 200 },    { FailureKind::OUTPUT_TRUNCATED, 6, 200 }, { FailureKind::NETWORK, 4, 0 },
    { FailureKind::AUTH_CONFIG, 3, 401 },       { FailureKind::REFUSED, 2, 200 },
};

bool goesToFallback(FailureKind k)
{
    return k != FailureKind::AUTH_CONFIG && k != FailureKind::REFUSED;
}

const KindWeight &pick(QRandomGenerator &rng)
{
    int total = 0;
    for (const KindWeight &k : kPrimaryFailures)
        total += k.weight;
    int r = static_cast<int>(rng.bounded(total));
    for (const KindWeight &k : kPrimaryFailures) {
        if (r < k.weight)
            return k;
        r -= k.weight;
    }
    return kPrimaryFailures[0];
}

// Log-normal-ish latency around `median` ms.
double latency(QRandomGenerator &rng, double median, double spread)
{
    const double u1 = std::max(rng.generateDouble(), 1e-12);
    const double u2 = rng.generateDouble();
    const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    return median * std::exp(spread * z);
}

// Where an attempt row belongs: its generation, its number, when it ended, the engine instance.
struct AttemptPlace
{
    QString generationId;
    qint64 attemptId = 0;
    qint64 atMs = 0;
    QVariant instance;
};

struct AttemptWho
{
    Stage stage;
    const char *provider;
    const char *model;
    Role role;
};

// The values of one attempt row, bound in the order of the INSERT HistoryFiller::fill prepares.
void bindAttempt(QSqlQuery &a, const AttemptPlace &at, const AttemptWho &who, const std::optional<KindWeight> &failure, double duration,
                 QRandomGenerator &rng)
{
    const QVariant noText(QMetaType::fromType<QString>());
    const QVariant noInt(QMetaType::fromType<int>());
    a.addBindValue(at.generationId);
    a.addBindValue(at.attemptId);
    a.addBindValue(at.atMs);
    a.addBindValue(toId(who.stage));
    a.addBindValue(QLatin1StringView(who.provider));
    a.addBindValue(QLatin1StringView(who.model));
    a.addBindValue(toId(who.role));
    a.addBindValue(1);
    a.addBindValue(failure ? 0 : 1);
    a.addBindValue(failure ? QVariant(enumName(failure->kind)) : noText);
    a.addBindValue(failure ? QVariant(enumName(publicCodeFor(failure->kind))) : noText);
    a.addBindValue(failure ? (failure->httpStatus ? QVariant(failure->httpStatus) : noInt) : QVariant(200));
    a.addBindValue(duration);
    a.addBindValue(failure && goesToFallback(failure->kind) ? 1 : 0);
    a.addBindValue(1);
    TokenUsage tokens; // (drawn in this order: the same seed makes the same history as before costs)
    if (!failure) {
        tokens.input = 600 + static_cast<qint64>(rng.bounded(300));
        tokens.output = 900 + static_cast<qint64>(rng.bounded(600));
    }
    a.addBindValue(failure ? QVariant() : QVariant(tokens.input));
    a.addBindValue(failure ? QVariant() : QVariant(tokens.output));
    a.addBindValue(failure && failure->kind == FailureKind::TIMEOUT ? QStringLiteral("deadline") : QStringLiteral("none"));
    a.addBindValue(failure ? QVariant(QStringLiteral("synthetic %1").arg(enumName(failure->kind))) : noText);
    a.addBindValue(at.instance);
    // Its cost as the engine records it (docs/contract.md §16): the provider's list price for the tokens
    // reported; an HTTP refusal is not billed; a timeout or a reset cost an unknown amount.
    const std::optional<Provider> provider = providerFromStored(QString::fromLatin1(who.provider));
    const Price price = provider ? ProviderRegistry::spec(*provider).price : Price {};
    const std::optional<int> status = failure ? (failure->httpStatus ? std::optional(failure->httpStatus) : std::nullopt) : 200;
    const std::optional<double> cost = attemptCost(price, AttemptBill { tokens, status, !failure && who.stage == Stage::Image });
    a.addBindValue(cost ? QVariant(*cost) : QVariant(QMetaType::fromType<double>()));
    a.addBindValue(cost ? QVariant(price.currency) : noText);
}

// One synthetic generation as it is being made up: its attempts so far and how it ends.
struct Synthetic
{
    QString id;
    qint64 created = 0;
    QVariant instance;
    double clock = 0; // ms since the generation started
    std::optional<Failure> finalFailure;
    Stage finalStage = Stage::Storyboard;
    bool handedToFallback = false;
    QString whyFallback;
    QString finalProvider = QStringLiteral("gemini");
    QString finalModel = QStringLiteral("gemini-2.5-flash");
    QString decision = recordText(RecordText::PrimarySucceeded); // as the engine words it
};

// Writes synthetic generations, attempts and events through three prepared statements.
class Filler
{
public:
    Filler(QSqlDatabase &db, const HistoryFillOptions &options, HistoryFillResult &out)
        : m_g(db)
        , m_a(db)
        , m_e(db)
        , m_options(options)
        , m_out(out)
        , m_rng(options.seed)
    {
        m_e.prepare(QStringLiteral("INSERT INTO events (generation_id, seq, type, at_ms, body, instance) VALUES (?,?,?,?,?,?)"));
        m_g.prepare(QStringLiteral(
            "INSERT INTO generations (id, created_at_ms, finished_at_ms, user_key, user_mask, policy, primary_provider, "
            "fallback_provider, "
            "state, public_code, kind, stage, detail, decision, fallback_applied, fallback_reason, final_provider, final_model, "
            "tokens_in, tokens_out, elapsed_ms, next_step, instance) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
        m_a.prepare(
            QStringLiteral("INSERT INTO attempts (generation_id, attempt_id, at_ms, stage, provider, model, role, round, success, kind, "
                           "public_code, http_status, duration_ms, fallback_eligible, requests_sent, tokens_in, tokens_out, "
                           "aborted_by, detail, instance, cost, currency) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
    }

    void run()
    {
        const qint64 span = std::max<qint64>(m_options.toMs - m_options.fromMs, 1);
        while (m_attemptId < m_options.attempts && m_out.error.isEmpty()) {
            Synthetic gen;
            gen.id =
                QStringLiteral("gen_%1").arg(QString::fromLatin1(QByteArray::number(m_rng.generate64(), 16).rightJustified(16, '0')
                                                                 + QByteArray::number(m_rng.generate64(), 16).rightJustified(16, '0')));
            gen.created = m_options.fromMs + static_cast<qint64>(m_rng.bounded(static_cast<quint64>(span)));
            // Round robin over the instances (no draw from the generator: the rows stay the same).
            gen.instance = m_options.instances.isEmpty()
                ? m_noText
                : QVariant(m_options.instances.at(static_cast<qsizetype>(m_out.generations % m_options.instances.size())));
            storyboard(gen);
            if (!gen.finalFailure && m_attemptId < m_options.attempts)
                image(gen);
            insertGeneration(gen);
            insertEvents(gen);
            ++m_out.generations;
        }
        m_out.attempts = m_attemptId;
    }

private:
    void attempt(Synthetic &gen, Stage stage, const char *provider, const char *model, Role role, std::optional<KindWeight> failure,
                 double duration)
    {
        gen.clock += duration;
        bindAttempt(m_a, { gen.id, ++m_attemptId, gen.created + static_cast<qint64>(gen.clock), gen.instance },
                    { stage, provider, model, role }, failure, duration, m_rng);
        if (!m_a.exec())
            m_out.error = m_a.lastError().text();
    }

    // Storyboard: gemini primary, qwen fallback.
    void storyboard(Synthetic &gen)
    {
        if (m_rng.bounded(100) >= 35) {
            attempt(gen, Stage::Storyboard, "gemini", "gemini-2.5-flash", Role::Primary, std::nullopt, latency(m_rng, 4200, 0.35));
            return;
        }
        const KindWeight k = pick(m_rng);
        const double d = k.kind == FailureKind::TIMEOUT ? 60000.0 + m_rng.bounded(4000) / 1000.0 : latency(m_rng, 900, 0.6);
        attempt(gen, Stage::Storyboard, "gemini", "gemini-2.5-flash", Role::Primary, k, d);
        if (!goesToFallback(k.kind)) {
            gen.finalFailure = Failure { k.kind, QStringLiteral("synthetic %1").arg(enumName(k.kind)), false, {} };
            gen.decision = recordText(RecordText::NoFallbackBecause,
                                      { recordText(RecordText::KindNotHandedOn, { enumName(k.kind), QStringLiteral("relief") }) });
            return;
        }
        gen.handedToFallback = true;
        gen.whyFallback = fallbackReason(Provider::Gemini, Failure { k.kind, {}, k.kind == FailureKind::TRANSIENT_SERVER, {} });
        gen.clock += 1.5; // handoff
        if (m_rng.bounded(100) < 12) {
            const KindWeight f = kPrimaryFailures[m_rng.bounded(3)];
            const double fd = f.kind == FailureKind::TIMEOUT ? 60000.0 : latency(m_rng, 1200, 0.5);
            attempt(gen, Stage::Storyboard, "qwen", "qwen-plus", Role::Fallback, f, fd);
            gen.finalFailure = Failure { f.kind, QStringLiteral("synthetic %1").arg(enumName(f.kind)), false, {} };
            gen.decision = recordText(RecordText::FallbackFailedToo, { QStringLiteral("qwen") });
        } else {
            gen.decision = recordText(RecordText::FallbackSucceeded, { enumName(k.kind), QStringLiteral("qwen") });
            attempt(gen, Stage::Storyboard, "qwen", "qwen-plus", Role::Fallback, std::nullopt, latency(m_rng, 5200, 0.3));
        }
        gen.finalProvider = QStringLiteral("qwen");
        gen.finalModel = QStringLiteral("qwen-plus");
    }

    // Image: one attempt (rarely a failure) once there is a storyboard.
    void image(Synthetic &gen)
    {
        if (m_rng.bounded(100) < 3) {
            const KindWeight k { FailureKind::TRANSIENT_SERVER, 1, 503 };
            attempt(gen, Stage::Image, "gemini", "gemini-2.5-flash-image", Role::Primary, k, latency(m_rng, 700, 0.5));
            gen.finalFailure = Failure { k.kind, QStringLiteral("synthetic image failure"), true, {} };
            gen.finalStage = Stage::Image;
        } else {
            attempt(gen, Stage::Image, "gemini", "gemini-2.5-flash-image", Role::Primary, std::nullopt, latency(m_rng, 6500, 0.3));
        }
    }

    void insertGeneration(const Synthetic &gen)
    {
        const std::optional<Failure> &failure = gen.finalFailure;
        const int user = static_cast<int>(m_rng.bounded(5000));
        static const ProviderTable builtIns; // the synthetic history's providers
        const QVariant nextStep = failure
            ? QVariant(
                NextStep::forFailure(*failure, builtIns, gen.finalProvider == u"qwen" ? Provider::Qwen : Provider::Gemini, gen.finalStage)
                    .message)
            : m_noText;
        for (const QVariant &v : {
                 QVariant(gen.id),
                 QVariant(gen.created),
                 QVariant(gen.created + static_cast<qint64>(gen.clock)),
                 QVariant(QStringLiteral("synthetic-user-%1").arg(user)),
                 QVariant(QStringLiteral("us****%1").arg(user % 100, 2, 10, QLatin1Char('0'))),
                 QVariant(QStringLiteral("relief")),
                 QVariant(QStringLiteral("gemini")),
                 QVariant(QStringLiteral("qwen")),
                 QVariant(failure ? QStringLiteral("failed") : QStringLiteral("succeeded")),
                 failure ? QVariant(enumName(failure->publicCode())) : m_noText,
                 failure ? QVariant(enumName(failure->kind)) : m_noText,
                 failure ? QVariant(toId(gen.finalStage)) : m_noText,
                 failure ? QVariant(failure->detail) : m_noText,
                 QVariant(gen.decision),
                 QVariant(gen.handedToFallback && (!failure || gen.finalStage == Stage::Image) ? 1 : 0),
                 gen.handedToFallback ? QVariant(gen.whyFallback) : m_noText,
                 QVariant(gen.finalProvider),
                 QVariant(gen.finalModel),
                 failure ? QVariant() : QVariant(700),
                 failure ? QVariant() : QVariant(1100),
                 QVariant(gen.clock),
                 nextStep,
                 gen.instance,
             })
            m_g.addBindValue(v);
        if (!m_g.exec())
            m_out.error = m_g.lastError().text();
    }

    void insertEvents(const Synthetic &gen)
    {
        for (int seq = 0; seq < m_options.eventsPerGeneration && m_out.error.isEmpty(); ++seq) {
            const qint64 at = gen.created + static_cast<qint64>(gen.clock * seq / std::max(m_options.eventsPerGeneration, 1));
            m_e.addBindValue(gen.id);
            m_e.addBindValue(seq);
            m_e.addBindValue(QStringLiteral("AttemptFinished"));
            m_e.addBindValue(at);
            m_e.addBindValue(QStringLiteral("{\"type\":\"AttemptFinished\",\"generation_id\":\"%1\",\"seq\":%2,\"at_ms\":%3,"
                                            "\"provider\":\"gemini\",\"role\":\"primary\",\"stage\":\"storyboard\",\"success\":true}")
                                 .arg(gen.id)
                                 .arg(seq)
                                 .arg(at));
            m_e.addBindValue(gen.instance);
            if (!m_e.exec())
                m_out.error = m_e.lastError().text();
        }
    }

    QSqlQuery m_g, m_a, m_e;
    const HistoryFillOptions &m_options;
    HistoryFillResult &m_out;
    QRandomGenerator m_rng;
    qint64 m_attemptId = 0;
    const QVariant m_noText { QMetaType::fromType<QString>() };
};

} // namespace

HistoryFillResult HistoryFiller::fill(const StoreLocation &location, const HistoryFillOptions &options)
{
    HistoryFillResult out;
    QElapsedTimer timer;
    timer.start();
    const QString name = QStringLiteral("bullpen-fill-") + QUuid::createUuid().toString(QUuid::Id128);
    {
        QSqlDatabase db = location.connect(name, StoreLocation::Access::ReadWrite, &out.error);
        if (out.error.isEmpty()) {
            // The rows come in random time order, so every index takes inserts all over its tree: with
            // SQLite's default 2 MiB page cache a million-attempt week spills and rereads pages (179 s
            // in CI's gate). A cache the size of the filled store keeps it in memory for this one
            // connection; the store's own connections are untouched.
            if (!location.isPostgres())
                QSqlQuery(db).exec(QStringLiteral("PRAGMA cache_size=-1048576"));
            db.transaction();
            Filler(db, options, out).run();
            // Each fallback attempt's primary wait on its row, as the writer writes it (schema 19).
            if (out.error.isEmpty())
                PrimaryWaits::fill(db, &out.error);
            // The hourly aggregates, as the writer would have kept them (recomputed from every row).
            if (out.error.isEmpty() && options.aggregates)
                AggregateDeltas::rebuild(db, &out.error);
            if (out.error.isEmpty() && !db.commit())
                out.error = db.lastError().text();
            else if (!out.error.isEmpty())
                db.rollback();
            // Into the database file, as the store's checkpointer leaves a store at rest: reads of a
            // filled store then never depend on how the fill's pages happened to reach the WAL.
            // Its row is (busy, WAL frames, frames checkpointed): done when not busy and every frame is in.
            if (out.error.isEmpty() && !location.isPostgres()) {
                QSqlQuery q(db);
                out.checkpointed = q.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)")) && q.next() && q.value(0).toInt() == 0
                    && q.value(1).toLongLong() == q.value(2).toLongLong();
            } else {
                out.checkpointed = out.error.isEmpty();
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    out.elapsedMs = timer.elapsed();
    return out;
}

std::unique_ptr<Store> HistoryFiller::filledStore(const StoreLocation &location, const HistoryFillOptions &options,
                                                  HistoryFillResult *filled, QString *error)
{
    if (!Store::open(location, error)) // the schema, made or migrated; closed again at once
        return nullptr;
    *filled = fill(location, options);
    if (filled->error.isEmpty())
        return Store::open(location, error);
    *error = filled->error;
    return nullptr;
}

} // namespace bullpen
