// SPDX-License-Identifier: MIT
#include "historyfiller.h"

#include "contract/enums.h"
#include "contract/recordtext.h"
#include "engine/stageresult.h"
#include "failure/failure.h"
#include "pipeline/nextstep.h"
#include "store/aggregates.h"

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
    a.addBindValue(failure ? QVariant() : QVariant(600 + static_cast<int>(rng.bounded(300))));
    a.addBindValue(failure ? QVariant() : QVariant(900 + static_cast<int>(rng.bounded(600))));
    a.addBindValue(failure && failure->kind == FailureKind::TIMEOUT ? QStringLiteral("deadline") : QStringLiteral("none"));
    a.addBindValue(failure ? QVariant(QStringLiteral("synthetic %1").arg(enumName(failure->kind))) : noText);
    a.addBindValue(at.instance);
}

} // namespace

HistoryFillResult HistoryFiller::fill(const StoreLocation &location, const HistoryFillOptions &options)
{
    HistoryFillResult out;
    const QString name = QStringLiteral("bullpen-fill-") + QUuid::createUuid().toString(QUuid::Id128);
    {
        QSqlDatabase db = location.connect(name, StoreLocation::Access::ReadWrite, &out.error);
        if (out.error.isEmpty()) {
            QSqlQuery g(db), a(db), e(db);
            e.prepare(QStringLiteral("INSERT INTO events (generation_id, seq, type, at_ms, body, instance) VALUES (?,?,?,?,?,?)"));
            g.prepare(QStringLiteral(
                "INSERT INTO generations (id, created_at_ms, finished_at_ms, user_key, user_mask, policy, primary_provider, "
                "fallback_provider, "
                "state, public_code, kind, stage, detail, decision, fallback_applied, fallback_reason, final_provider, final_model, "
                "tokens_in, tokens_out, elapsed_ms, next_step, instance) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
            a.prepare(QStringLiteral(
                "INSERT INTO attempts (generation_id, attempt_id, at_ms, stage, provider, model, role, round, success, kind, "
                "public_code, http_status, duration_ms, fallback_eligible, requests_sent, tokens_in, tokens_out, "
                "aborted_by, detail, instance) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
            QRandomGenerator rng(options.seed);
            db.transaction();
            const qint64 span = std::max<qint64>(options.toMs - options.fromMs, 1);
            const QVariant noText(QMetaType::fromType<QString>());
            qint64 attemptId = 0;
            while (attemptId < options.attempts && out.error.isEmpty()) {
                const QString id =
                    QStringLiteral("gen_%1").arg(QString::fromLatin1(QByteArray::number(rng.generate64(), 16).rightJustified(16, '0')
                                                                     + QByteArray::number(rng.generate64(), 16).rightJustified(16, '0')));
                const qint64 created = options.fromMs + static_cast<qint64>(rng.bounded(static_cast<quint64>(span)));
                double clock = 0; // ms since the generation started
                std::optional<Failure> finalFailure;
                Stage finalStage = Stage::Storyboard;
                bool handedToFallback = false;
                QString whyFallback;
                // Round robin over the instances (no draw from the generator: the rows stay the same).
                const QVariant instance = options.instances.isEmpty()
                    ? noText
                    : QVariant(options.instances.at(static_cast<qsizetype>(out.generations % options.instances.size())));
                QString finalProvider = QStringLiteral("gemini");
                QString finalModel = QStringLiteral("gemini-2.5-flash");

                auto attempt = [&](Stage stage, const char *provider, const char *model, Role role, std::optional<KindWeight> failure,
                                   double duration) {
                    clock += duration;
                    bindAttempt(a, { id, ++attemptId, created + static_cast<qint64>(clock), instance }, { stage, provider, model, role },
                                failure, duration, rng);
                    if (!a.exec())
                        out.error = a.lastError().text();
                };

                // Storyboard: gemini primary, qwen fallback.
                const bool primaryFails = rng.bounded(100) < 35;
                QString decision = recordText(RecordText::PrimarySucceeded); // as the engine words it
                if (!primaryFails) {
                    attempt(Stage::Storyboard, "gemini", "gemini-2.5-flash", Role::Primary, std::nullopt, latency(rng, 4200, 0.35));
                } else {
                    const KindWeight k = pick(rng);
                    const double d = k.kind == FailureKind::TIMEOUT ? 60000.0 + rng.bounded(4000) / 1000.0 : latency(rng, 900, 0.6);
                    attempt(Stage::Storyboard, "gemini", "gemini-2.5-flash", Role::Primary, k, d);
                    if (goesToFallback(k.kind)) {
                        handedToFallback = true;
                        whyFallback = fallbackReason(Provider::Gemini, Failure { k.kind, {}, k.kind == FailureKind::TRANSIENT_SERVER, {} });
                        clock += 1.5; // handoff
                        if (rng.bounded(100) < 12) {
                            const KindWeight f = kPrimaryFailures[rng.bounded(3)];
                            const double fd = f.kind == FailureKind::TIMEOUT ? 60000.0 : latency(rng, 1200, 0.5);
                            attempt(Stage::Storyboard, "qwen", "qwen-plus", Role::Fallback, f, fd);
                            finalFailure = Failure { f.kind, QStringLiteral("synthetic %1").arg(enumName(f.kind)), false, {} };
                            decision = recordText(RecordText::FallbackFailedToo, { QStringLiteral("qwen") });
                        } else {
                            decision = recordText(RecordText::FallbackSucceeded, { enumName(k.kind), QStringLiteral("qwen") });
                            attempt(Stage::Storyboard, "qwen", "qwen-plus", Role::Fallback, std::nullopt, latency(rng, 5200, 0.3));
                        }
                        finalProvider = QStringLiteral("qwen");
                        finalModel = QStringLiteral("qwen-plus");
                    } else {
                        finalFailure = Failure { k.kind, QStringLiteral("synthetic %1").arg(enumName(k.kind)), false, {} };
                        decision = recordText(RecordText::NoFallbackBecause,
                                              { recordText(RecordText::KindNotHandedOn, { enumName(k.kind), QStringLiteral("relief") }) });
                    }
                }
                // Image: one attempt (rarely a failure) once there is a storyboard.
                if (!finalFailure && attemptId < options.attempts) {
                    if (rng.bounded(100) < 3) {
                        const KindWeight k { FailureKind::TRANSIENT_SERVER, 1, 503 };
                        attempt(Stage::Image, "gemini", "gemini-2.5-flash-image", Role::Primary, k, latency(rng, 700, 0.5));
                        finalFailure = Failure { k.kind, QStringLiteral("synthetic image failure"), true, {} };
                        finalStage = Stage::Image;
                    } else {
                        attempt(Stage::Image, "gemini", "gemini-2.5-flash-image", Role::Primary, std::nullopt, latency(rng, 6500, 0.3));
                    }
                }
                const QString state = finalFailure ? QStringLiteral("failed") : QStringLiteral("succeeded");
                const int user = static_cast<int>(rng.bounded(5000));
                g.addBindValue(id);
                g.addBindValue(created);
                g.addBindValue(created + static_cast<qint64>(clock));
                g.addBindValue(QStringLiteral("synthetic-user-%1").arg(user));
                g.addBindValue(QStringLiteral("us****%1").arg(user % 100, 2, 10, QLatin1Char('0')));
                g.addBindValue(QStringLiteral("relief"));
                g.addBindValue(QStringLiteral("gemini"));
                g.addBindValue(QStringLiteral("qwen"));
                g.addBindValue(state);
                g.addBindValue(finalFailure ? QVariant(enumName(finalFailure->publicCode())) : noText);
                g.addBindValue(finalFailure ? QVariant(enumName(finalFailure->kind)) : noText);
                g.addBindValue(finalFailure ? QVariant(toId(finalStage)) : noText);
                g.addBindValue(finalFailure ? QVariant(finalFailure->detail) : noText);
                g.addBindValue(decision);
                g.addBindValue(handedToFallback && (!finalFailure || finalStage == Stage::Image) ? 1 : 0);
                g.addBindValue(handedToFallback ? QVariant(whyFallback) : noText);
                g.addBindValue(finalProvider);
                g.addBindValue(finalModel);
                g.addBindValue(finalFailure ? QVariant() : QVariant(700));
                g.addBindValue(finalFailure ? QVariant() : QVariant(1100));
                g.addBindValue(clock);
                g.addBindValue(finalFailure
                                   ? QVariant(NextStep::forFailure(*finalFailure,
                                                                   finalProvider == u"qwen" ? Provider::Qwen : Provider::Gemini, finalStage)
                                                  .message)
                                   : noText);
                g.addBindValue(instance);
                if (!g.exec())
                    out.error = g.lastError().text();
                for (int seq = 0; seq < options.eventsPerGeneration && out.error.isEmpty(); ++seq) {
                    const qint64 at = created + static_cast<qint64>(clock * seq / std::max(options.eventsPerGeneration, 1));
                    e.addBindValue(id);
                    e.addBindValue(seq);
                    e.addBindValue(QStringLiteral("AttemptFinished"));
                    e.addBindValue(at);
                    e.addBindValue(QStringLiteral("{\"type\":\"AttemptFinished\",\"generation_id\":\"%1\",\"seq\":%2,\"at_ms\":%3,"
                                                  "\"provider\":\"gemini\",\"role\":\"primary\",\"stage\":\"storyboard\",\"success\":true}")
                                       .arg(id)
                                       .arg(seq)
                                       .arg(at));
                    e.addBindValue(instance);
                    if (!e.exec())
                        out.error = e.lastError().text();
                }
                ++out.generations;
            }
            out.attempts = attemptId;
            // The hourly aggregates, as the writer would have kept them (recomputed from every row).
            if (out.error.isEmpty() && options.aggregates)
                AggregateDeltas::rebuild(db, &out.error);
            if (out.error.isEmpty() && !db.commit())
                out.error = db.lastError().text();
            else if (!out.error.isEmpty())
                db.rollback();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return out;
}

} // namespace bullpen
