// SPDX-License-Identifier: MIT
// The wire values' codecs (core/wire): each value read back from what it writes is the value it was
// (toJson then fromJson is the identity), and a wrong field is refused by its name. The route table's
// paths are filled in for a client the way the service matches them.
#include "api/breakerjson.h"
#include "config/providerentries.h"
#include "wire/apiroutes.h"
#include "wire/breakerrowjson.h"
#include "wire/drainrowjson.h"
#include "wire/engineconfigjson.h"
#include "wire/providerlisting.h"
#include "wire/providersjson.h"
#include "wire/statsjson.h"
#include "wire/statsquery.h"
#include "wire/storyboardpolicyjson.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <functional>
#include <set>
#include <tuple>

using namespace bullpen;
using namespace std::chrono_literals;

namespace {

StagePolicy policy(const char *preset, Provider primary, std::optional<Provider> fallback)
{
    return *StagePolicy::fromPreset(QString::fromLatin1(preset), primary, fallback);
}

QJsonObject object(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

QString refusal(const std::variant<StagePolicy, FieldError> &read)
{
    const auto *e = std::get_if<FieldError>(&read);
    return e ? e->toString() : QString();
}

// What one of the wire codecs writes, through text and back, read by its reader; the refusal if any.
template<typename T>
std::variant<T, FieldError> throughWire(const QJsonObject &written, std::variant<T, FieldError> (*read)(const QJsonObject &))
{
    return read(QJsonDocument::fromJson(QJsonDocument(written).toJson()).object());
}

template<typename T> T readOrFail(const std::variant<T, FieldError> &read, bool *ok)
{
    if (const auto *e = std::get_if<FieldError>(&read)) {
        qWarning().noquote() << "refused:" << e->toString();
        *ok = false;
        return T();
    }
    *ok = true;
    return std::get<T>(read);
}

// The statistics' rows as tuples: every field compared (the row structs have no operator==).
auto fields(const RateBucket &b)
{
    return std::tuple(b.startMs, b.generations, b.fallbacks);
}
auto fields(const LatencySample &s)
{
    return std::tuple(s.atMs, s.durationMs, s.success);
}
auto fields(const DurationCell &c)
{
    return std::tuple(c.startMs, c.success, c.bin, c.count);
}
auto fields(const FallbackWaitCell &c)
{
    return std::tuple(c.startMs, c.primaryProvider, c.fallbackProvider, c.bin, c.count);
}
auto fields(const FallbackWait &w)
{
    return std::tuple(w.atMs, w.primaryProvider, w.fallbackProvider, w.primaryMs, w.fallbackMs, w.fallbackSucceeded);
}
auto fields(const ProviderHealth &h)
{
    return std::tuple(h.provider, h.role, h.stage, h.attempts, h.failures, h.notProviders, h.topKind, h.topKindCount, h.primaryFailures,
                      h.handedToFallback, h.p50Ms, h.p90Ms, h.lastProbe);
}
auto fields(const BreakerView &v)
{
    return std::tuple(v.key, v.state, v.since, v.cooldown, v.retryAt, v.attempts, v.failures, v.opened, v.reason);
}

// A list of rows read back as written, field by field.
template<typename T> bool sameRows(const QList<T> &a, const QList<T> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i)
        if (fields(a.at(i)) != fields(b.at(i)))
            return false;
    return true;
}

// A list of rows, written by `write` and read by `read`, is what it was.
template<typename T>
bool rowsRoundTrip(const QList<T> &rows, QJsonObject (*write)(const QList<T> &),
                   std::variant<QList<T>, FieldError> (*read)(const QJsonObject &))
{
    bool ok = false;
    const QList<T> back = readOrFail(throughWire(write(rows), read), &ok);
    return ok && sameRows(rows, back);
}

BreakerView breakerView(BreakerState state)
{
    BreakerView v;
    v.key = BreakerKey { Provider::Qwen, Role::Fallback, Stage::Captions };
    v.state = state;
    v.since = QDateTime::fromMSecsSinceEpoch(1'700'000'000'123, Qt::UTC);
    if (state != BreakerState::Closed) {
        v.cooldown = 30'000ms;
        v.retryAt = v.since.addMSecs(30'000);
        v.reason = QStringLiteral("3 of 4 failed (timeout)");
    }
    v.attempts = 4;
    v.failures = 3;
    v.opened = 2;
    return v;
}

} // namespace

class TestWireCodecs final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void policyRoundTrip_data()
    {
        QTest::addColumn<StagePolicy>("policy");
        QTest::addRow("relief, gemini then qwen") << policy("relief", Provider::Gemini, Provider::Qwen);
        QTest::addRow("relief, no fallback") << policy("relief", Provider::Qwen, std::nullopt);
        StagePolicy timed = policy("capacity", Provider::Qwen, Provider::Gemini);
        timed.primaryTimeout = 12'345ms;
        timed.fallbackTimeout = 6'789ms;
        timed.totalBudget = 20'000ms;
        QTest::addRow("capacity, timeouts and a budget") << timed;
        StagePolicy rounds = policy("rounds", Provider::Gemini, std::nullopt);
        rounds.primaryTimeout = 1ms;
        QTest::addRow("rounds, 1 ms") << rounds;
    }
    // GET /v1/config's "storyboard_policy", and a request's policy fields over other defaults.
    void policyRoundTrip()
    {
        QFETCH(StagePolicy, policy);
        const auto read = StoryboardPolicyJson::fromJson(StoryboardPolicyJson::toJson(policy));
        QVERIFY2(std::holds_alternative<StagePolicy>(read), qPrintable(refusal(read)));
        QCOMPARE(std::get<StagePolicy>(read), policy);

        QJsonObject body;
        StoryboardPolicyJson::writeRequest(policy, &body);
        StagePolicy over = StagePolicy::capacity(Provider::Qwen, Provider::Gemini); // the engine's own, other in every field
        over.primaryTimeout = 99ms;
        over.fallbackTimeout = 98ms;
        over.totalBudget = 97ms;
        const std::optional<FieldError> refused = StoryboardPolicyJson::readRequest(body, 10min, &over, ProviderTable());
        QVERIFY2(!refused, qPrintable(refused ? refused->toString() : QString()));
        if (!policy.totalBudget)
            over.totalBudget.reset(); // a request without a budget leaves the engine's (the request's shape)
        QCOMPARE(over.routed().value(), policy);
    }

    void policyRefusedByField_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("named");
        QTest::addRow("unknown preset") << QStringLiteral("policy") << QJsonValue(QStringLiteral("fastest")) << QStringLiteral("policy");
        QTest::addRow("preset not a string") << QStringLiteral("policy") << QJsonValue(3) << QStringLiteral("policy");
        QTest::addRow("primary not an id") << QStringLiteral("primary") << QJsonValue(QStringLiteral("not an id!"))
                                           << QStringLiteral("primary");
        QTest::addRow("primary missing") << QStringLiteral("primary") << QJsonValue(QJsonValue::Undefined) << QStringLiteral("primary");
        QTest::addRow("fallback a number") << QStringLiteral("fallback") << QJsonValue(1) << QStringLiteral("fallback");
        QTest::addRow("primary_ms negative") << QStringLiteral("primary_ms") << QJsonValue(-5) << QStringLiteral("primary_ms");
        QTest::addRow("fallback_ms a fraction") << QStringLiteral("fallback_ms") << QJsonValue(1.5) << QStringLiteral("fallback_ms");
        QTest::addRow("fallback_ms missing") << QStringLiteral("fallback_ms") << QJsonValue(QJsonValue::Undefined)
                                             << QStringLiteral("fallback_ms");
        QTest::addRow("budget_ms a string") << QStringLiteral("budget_ms") << QJsonValue(QStringLiteral("60s"))
                                            << QStringLiteral("budget_ms");
    }
    void policyRefusedByField()
    {
        QFETCH(QString, field);
        QFETCH(QJsonValue, value);
        QFETCH(QString, named);
        QJsonObject o = StoryboardPolicyJson::toJson(policy("relief", Provider::Gemini, Provider::Qwen));
        if (value.isUndefined())
            o.remove(field);
        else
            o.insert(field, value);
        const auto read = StoryboardPolicyJson::fromJson(o);
        QVERIFY2(std::holds_alternative<FieldError>(read), qPrintable(field));
        QCOMPARE(std::get<FieldError>(read).field, named);
        QVERIFY(!std::get<FieldError>(read).message.isEmpty());
    }

    void requestRefusedByField_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("named");
        QTest::addRow("fallback is the primary") << object(R"({"primary": "qwen", "fallback": "qwen"})") << QStringLiteral("fallback");
        QTest::addRow("timeouts not an object") << object(R"({"timeouts": 5})") << QStringLiteral("timeouts");
        QTest::addRow("unknown timeout") << object(R"({"timeouts": {"total_ms": 5}})") << QStringLiteral("timeouts.total_ms");
        QTest::addRow("timeout over the limit") << object(R"({"timeouts": {"budget_ms": 600001}})") << QStringLiteral("timeouts.budget_ms");
        QTest::addRow("unknown fallback") << object(R"({"fallback": "nobody"})") << QStringLiteral("fallback");
    }
    void requestRefusedByField()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, named);
        StagePolicy p = policy("relief", Provider::Gemini, std::nullopt);
        const std::optional<FieldError> refused = StoryboardPolicyJson::readRequest(body, 10min, &p, ProviderTable());
        QVERIFY(refused);
        QCOMPARE(refused->field, named);
    }

    // A request's fallback "none" and null both mean no fallback; the field left out keeps the engine's.
    void requestFallbackNone()
    {
        for (const QJsonValue &none : { QJsonValue(QStringLiteral("none")), QJsonValue() }) {
            StagePolicy p = policy("relief", Provider::Gemini, Provider::Qwen);
            QVERIFY(!StoryboardPolicyJson::readRequest(QJsonObject { { QStringLiteral("fallback"), none } }, 10min, &p, ProviderTable()));
            QCOMPARE(p.fallback, std::nullopt);
        }
        StagePolicy kept = policy("relief", Provider::Gemini, Provider::Qwen);
        QVERIFY(!StoryboardPolicyJson::readRequest(QJsonObject {}, 10min, &kept, ProviderTable()));
        QCOMPARE(kept, policy("relief", Provider::Gemini, Provider::Qwen));
    }

    // The settings file's section (what a replay runs with): timeouts not recorded are left out.
    void settingsSection()
    {
        const QJsonObject root =
            StoryboardPolicyJson::toSettingsJson({ QStringLiteral("relief"), Provider::Gemini, std::nullopt, 1500ms, std::nullopt, 9s });
        const QJsonObject sb = root.value(QLatin1StringView("storyboard")).toObject();
        QCOMPARE(sb.value(QLatin1StringView("policy")).toString(), QStringLiteral("relief"));
        QCOMPARE(sb.value(QLatin1StringView("provider")).toString(), QStringLiteral("gemini"));
        QCOMPARE(sb.value(QLatin1StringView("fallback_provider")).toString(), QStringLiteral("none"));
        QCOMPARE(sb.value(QLatin1StringView("primary_timeout")).toString(), QStringLiteral("1500ms"));
        QVERIFY(!sb.contains(QLatin1StringView("fallback_timeout")));
        QCOMPARE(sb.value(QLatin1StringView("total_budget")).toString(), QStringLiteral("9000ms"));
    }

    // A drain, a restore and a reset as a client sends them read back as what was asked.
    void drainRestoreResetRoundTrip()
    {
        const QDateTime now = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000, Qt::UTC);
        const DrainRequest drain { Provider::Qwen, Role::Fallback, std::nullopt, QStringLiteral(" outage, ticket 12 "), now.addSecs(600) };
        const auto d = BreakerJson::drainFromJson(QJsonDocument(BreakerJson::drainRequest(drain)).toJson(), drain.provider,
                                                  QStringLiteral("ops"), now);
        const auto *refusedDrain = std::get_if<FieldError>(&d); // (QVERIFY2 evaluates its message either way)
        QVERIFY2(!refusedDrain, qPrintable(refusedDrain ? refusedDrain->toString() : QString()));
        QCOMPARE(std::get<Drain>(d).role, drain.role);
        QCOMPARE(std::get<Drain>(d).stage, drain.stage);
        QCOMPARE(std::get<Drain>(d).reason, QStringLiteral("outage, ticket 12"));
        QCOMPARE(std::get<Drain>(d).until, drain.until);

        const RestoreRequest restore { Provider::Gemini, std::nullopt, Stage::Captions, QStringLiteral("fixed") };
        const auto r = BreakerJson::restoreFromJson(QJsonDocument(BreakerJson::restoreRequest(restore)).toJson());
        QVERIFY(std::holds_alternative<BreakerJson::Restore>(r));
        QCOMPARE(std::get<BreakerJson::Restore>(r).scope.role, restore.role);
        QCOMPARE(std::get<BreakerJson::Restore>(r).scope.stage, restore.stage);
        QCOMPARE(std::get<BreakerJson::Restore>(r).reason, restore.reason);

        const BreakerResetRequest reset { Provider::Gemini, Role::Primary, Stage::Image, QString() };
        const auto x = BreakerJson::resetFromJson(QJsonDocument(BreakerJson::resetRequest(reset)).toJson());
        QVERIFY(std::holds_alternative<BreakerJson::Reset>(x));
        QCOMPARE(std::get<BreakerJson::Reset>(x).role, reset.role);
        QCOMPARE(std::get<BreakerJson::Reset>(x).stage, reset.stage);

        // A drain without its reason is refused by name.
        const auto refused =
            BreakerJson::drainFromJson(QJsonDocument(QJsonObject { { QStringLiteral("role"), QStringLiteral("primary") } }).toJson(),
                                       Provider::Gemini, QStringLiteral("ops"), now);
        QVERIFY(std::holds_alternative<FieldError>(refused));
        QCOMPARE(std::get<FieldError>(refused).field, QStringLiteral("reason"));
    }

    // GET /v1/config's answer: every field, nested and optional ones set and not, read back as written
    // (the service writes it and the remote client reads it with this codec only).
    void engineConfigRoundTrip_data()
    {
        QTest::addColumn<bool>("full");
        QTest::addRow("every optional part") << true;
        QTest::addRow("none of them") << false;
    }
    void engineConfigRoundTrip()
    {
        QFETCH(bool, full);
        EngineConfig c;
        c.instance = QStringLiteral("engine-a");
        c.version = QStringLiteral("1.2.3");
        c.settings = object(R"({"breaker": true, "storyboard": {"policy": "relief"}})");
        c.storyboardPolicy = full ? policy("capacity", Provider::Qwen, Provider::Gemini) : policy("relief", Provider::Qwen, std::nullopt);
        c.storyboardPolicy.totalBudget = full ? std::optional(20'000ms) : std::nullopt;
        c.scenario = QStringLiteral("flaky");
        c.keys.insert(QStringLiteral("gemini"), EngineConfig::Key { QStringLiteral("environment"), QStringLiteral("9f3c") });
        c.keys.insert(QStringLiteral("qwen"), EngineConfig::Key { QStringLiteral("none"), std::nullopt });
        c.providers << EngineConfig::ProviderEntry { object(R"({"id": "gemini", "format": "gemini"})"), true }
                    << EngineConfig::ProviderEntry { object(R"({"id": "local-vllm", "format": "openai", "model": "m"})"), false };
        c.warnings << QStringLiteral("a key over plain HTTP");
        c.simulator = full;
        c.scenarios = QStringList { QStringLiteral("healthy"), QStringLiteral("flaky") };
        c.engineThreads = 2;
        c.describe = QStringLiteral("2 threads, SQLite");
        c.limits = EngineConfig::Limits { 262'144, 32'768, 16'384, 1000, 200.5, 64, 1024, 512, 10'000ms, 60'000ms };
        if (full) {
            c.probeEvery = 30'000ms;
            c.store = EngineConfig::StoreInfo { QStringLiteral("postgresql"), QStringLiteral("postgresql://bullpen@db:5432/bullpen") };
            c.tls =
                EngineConfig::Tls { QStringLiteral("engine"), QStringLiteral("Bullpen test CA"), QStringLiteral("2030-01-01T00:00:00Z") };
        }
        const QJsonObject written = EngineConfigJson::toJson(c);
        const auto read = EngineConfigJson::fromJson(QJsonDocument::fromJson(QJsonDocument(written).toJson()).object());
        QVERIFY2(std::holds_alternative<EngineConfig>(read),
                 qPrintable(std::get_if<FieldError>(&read) ? std::get<FieldError>(read).toString() : QString()));
        const EngineConfig &back = std::get<EngineConfig>(read);
        QCOMPARE(back.limits, c.limits);
        QCOMPARE(back.storyboardPolicy, c.storyboardPolicy);
        QCOMPARE(back.providers, c.providers);
        QCOMPARE(back.keys, c.keys);
        QCOMPARE(back.store, c.store);
        QCOMPARE(back.tls, c.tls);
        QVERIFY(back == c);
        // The nulls the API documents (docs/openapi.yaml): written as null, not left out.
        QVERIFY(written.contains(QStringLiteral("store")) && written.contains(QStringLiteral("tls"))
                && written.contains(QStringLiteral("probe_every_ms")));
        QCOMPARE(written.value(QStringLiteral("store")).isNull(), !full);
    }
    void engineConfigRefusedByField_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("named");
        QTest::addRow("instance a number") << QByteArray(R"({"instance": 3})") << QStringLiteral("instance");
        QTest::addRow("a limit a string") << QByteArray(R"({"limits": {"max_in_flight": "many"}})")
                                          << QStringLiteral("limits.max_in_flight");
        QTest::addRow("a key's source a number")
            << QByteArray(R"({"keys": {"qwen": {"source": 1, "last4": null}}})") << QStringLiteral("keys.qwen.source");
        QTest::addRow("the policy's preset unknown") << QByteArray(
            R"({"storyboard_policy": {"policy": "fastest", "primary": "gemini", "fallback": null, "primary_ms": 1, "fallback_ms": 1}})")
                                                     << QStringLiteral("storyboard_policy.policy");
        QTest::addRow("store an array") << QByteArray(R"({"store": []})") << QStringLiteral("store");
    }
    void engineConfigRefusedByField()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, named);
        const auto read = EngineConfigJson::fromJson(QJsonDocument::fromJson(json).object());
        QVERIFY2(std::holds_alternative<FieldError>(read), json.constData());
        QCOMPARE(std::get<FieldError>(read).field, named);
    }

    // The statistics' answers (GET /v1/stats/…): each read back from what the service writes is what it
    // was, every row field by field; the envelope's field is the codec's (wire/statsjson.h).
    void statsRoundTrip()
    {
        bool ok = false;
        QCOMPARE(readOrFail(throughWire(StatsJson::count(42), &StatsJson::countFromJson), &ok), 42);
        QVERIFY(ok);
        const StatsJson::Counts counts { { QStringLiteral("TIMEOUT"), 3 }, { QStringLiteral("RATE_LIMITED"), 1 } };
        QCOMPARE(readOrFail(throughWire(StatsJson::counts(HistoryGroup::Kind, counts), &StatsJson::countsFromJson), &ok), counts);
        QVERIFY(ok);
        QCOMPARE(StatsJson::counts(HistoryGroup::Kind, counts).value(QLatin1StringView("by")).toString(), QStringLiteral("kind"));
        QCOMPARE(readOrFail(throughWire(StatsJson::oldest(1'700'000'000'000), &StatsJson::oldestFromJson), &ok),
                 std::optional<qint64>(1'700'000'000'000));
        QVERIFY(ok);
        QCOMPARE(readOrFail(throughWire(StatsJson::oldest(std::nullopt), &StatsJson::oldestFromJson), &ok), std::optional<qint64>());
        QVERIFY(ok);
        QVERIFY(rowsRoundTrip<RateBucket>({ { 1000, 7, 2 }, { 61000, 0, 0 } }, &StatsJson::fallbackRate, &StatsJson::fallbackRateFromJson));
        QVERIFY(rowsRoundTrip<LatencySample>({ { 1000, 812.5, true }, { 2000, 30000, false } }, &StatsJson::latency,
                                             &StatsJson::latencyFromJson));
        QVERIFY(rowsRoundTrip<DurationCell>({ { 1000, true, 12, 40 }, { 1000, false, 30, 2 } }, &StatsJson::latencyHistogram,
                                            &StatsJson::latencyHistogramFromJson));
        QVERIFY(rowsRoundTrip<FallbackWait>({ { 5000, QStringLiteral("gemini"), QStringLiteral("qwen"), 30000, 1250.5, true },
                                              { 6000, QStringLiteral("gemini"), QStringLiteral("qwen"), 12.5, 40, false } },
                                            &StatsJson::fallbackWaits, &StatsJson::fallbackWaitsFromJson));
        QVERIFY(rowsRoundTrip<FallbackWaitCell>({ { 1000, QStringLiteral("gemini"), QStringLiteral("qwen"), 9, 3 } },
                                                &StatsJson::fallbackWaitHistogram, &StatsJson::fallbackWaitHistogramFromJson));
        ProviderHealth h;
        h.provider = Provider::Qwen;
        h.role = Role::Fallback;
        h.stage = Stage::Captions;
        std::tie(h.attempts, h.failures, h.notProviders, h.topKindCount, h.primaryFailures, h.handedToFallback) =
            std::tuple(9, 4, 1, 3, 0, 0);
        h.topKind = FailureKind::TIMEOUT;
        h.p50Ms = 812.5;
        h.p90Ms = 2400;
        ProviderHealth probed = h;
        probed.role = Role::Primary;
        probed.lastProbe = ProviderHealth::Probe { 1'700'000'000'000, false, FailureKind::RATE_LIMITED, 95.5 };
        QVERIFY(rowsRoundTrip<ProviderHealth>({ h, probed }, &StatsJson::health, &StatsJson::healthFromJson));
    }

    // An answer whose envelope field is missing or of the wrong type is refused by that field's name.
    void statsRefusedByField_data()
    {
        using Read = std::function<std::optional<FieldError>(const QJsonObject &)>;
        const auto refusal = []<typename T>(std::variant<T, FieldError> (*read)(const QJsonObject &)) -> Read {
            return [read](const QJsonObject &o) -> std::optional<FieldError> {
                const auto r = read(o);
                return std::holds_alternative<FieldError>(r) ? std::optional(std::get<FieldError>(r)) : std::nullopt;
            };
        };
        QTest::addColumn<Read>("read");
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("named");
        QTest::addRow("count missing") << refusal(&StatsJson::countFromJson) << QByteArray("{}") << QStringLiteral("count");
        QTest::addRow("counts an object") << refusal(&StatsJson::countsFromJson) << QByteArray(R"({"counts": {}})")
                                          << QStringLiteral("counts");
        QTest::addRow("oldest a string") << refusal(&StatsJson::oldestFromJson) << QByteArray(R"({"oldest_ms": "1"})")
                                         << QStringLiteral("oldest_ms");
        QTest::addRow("oldest missing") << refusal(&StatsJson::oldestFromJson) << QByteArray("{}") << QStringLiteral("oldest_ms");
        QTest::addRow("buckets missing") << refusal(&StatsJson::fallbackRateFromJson) << QByteArray("{}") << QStringLiteral("buckets");
        QTest::addRow("samples null") << refusal(&StatsJson::latencyFromJson) << QByteArray(R"({"samples": null})")
                                      << QStringLiteral("samples");
        QTest::addRow("cells a number") << refusal(&StatsJson::latencyHistogramFromJson) << QByteArray(R"({"cells": 3})")
                                        << QStringLiteral("cells");
        QTest::addRow("waits missing") << refusal(&StatsJson::fallbackWaitsFromJson) << QByteArray(R"({"cells": []})")
                                       << QStringLiteral("waits");
        QTest::addRow("wait cells missing") << refusal(&StatsJson::fallbackWaitHistogramFromJson) << QByteArray(R"({"waits": []})")
                                            << QStringLiteral("cells");
        QTest::addRow("providers a string") << refusal(&StatsJson::healthFromJson) << QByteArray(R"({"providers": "all"})")
                                            << QStringLiteral("providers");
        const QByteArray windows = R"({"instance": "a", "at_ms": 1, "last_5m": {"gemini": ROW}, "last_15m": {}})";
        const QByteArray row = R"({"attempts": 2, "error_percent": 0, "top_kind": null, "relief_percent": null, "p50_ms": 1, "p90_ms": 2})";
        QTest::addRow("windows' instance missing")
            << refusal(&StatsJson::providerWindowsFromJson) << QByteArray(R"({"at_ms": 1, "last_5m": {}, "last_15m": {}})")
            << QStringLiteral("instance");
        QTest::addRow("last_15m missing") << refusal(&StatsJson::providerWindowsFromJson)
                                          << QByteArray(R"({"instance": "a", "at_ms": 1, "last_5m": {}})") << QStringLiteral("last_15m");
        QTest::addRow("window attempts a string")
            << refusal(&StatsJson::providerWindowsFromJson)
            << QByteArray(windows).replace("ROW", QByteArray(row).replace("2,", "\"many\",")) << QStringLiteral("last_5m.gemini.attempts");
        QTest::addRow("window p90 missing") << refusal(&StatsJson::providerWindowsFromJson)
                                            << QByteArray(windows).replace("ROW", QByteArray(row).replace(R"(, "p90_ms": 2)", ""))
                                            << QStringLiteral("last_5m.gemini.p90_ms");
    }
    void statsRefusedByField()
    {
        using Read = std::function<std::optional<FieldError>(const QJsonObject &)>;
        QFETCH(Read, read);
        QFETCH(QByteArray, json);
        QFETCH(QString, named);
        const std::optional<FieldError> refused = read(QJsonDocument::fromJson(json).object());
        QVERIFY2(refused, json.constData());
        QCOMPARE(refused->field, named);
    }

    // GET /v1/stats/providers both ways: the answer the service writes is the value the client reads,
    // a provider this side does not know kept by its id, absent values absent.
    void providerWindowsRoundTrip()
    {
        ProviderWindow gemini { QStringLiteral("gemini"), 12, 25.0, QStringLiteral("RATE_LIMITED"), 66.5, 812.25, 1900.0 };
        ProviderWindow acme { QStringLiteral("acme"), 3, 0.0, std::nullopt, std::nullopt, 40.0, 55.5 };
        const ProviderWindows windows {
            QStringLiteral("engine-a"), 1'700'000'000'123, { gemini }, { acme, gemini }
        }; // in id order, as an object's keys
        bool ok = false;
        QCOMPARE(readOrFail(throughWire(StatsJson::providerWindows(windows), &StatsJson::providerWindowsFromJson), &ok), windows);
        QVERIFY(ok);
        const QJsonObject written = StatsJson::providerWindows(windows);
        QCOMPARE(written.value(QLatin1StringView("last_15m")).toObject().keys(),
                 (QStringList { QStringLiteral("acme"), QStringLiteral("gemini") }));
        QVERIFY(written.value(QLatin1StringView("last_15m"))
                    .toObject()
                    .value(QLatin1StringView("acme"))
                    .toObject()
                    .value(QLatin1StringView("top_kind"))
                    .isNull());
    }

    // `provider list --json`: each part written by its codec and read back (an added provider this
    // process never listed among them), and GET /v1/config's providers read as specs.
    void providerListingRoundTrip()
    {
        ProviderSpec acme;
        acme.id = QStringLiteral("acme-listing");
        acme.name = QStringLiteral("Acme");
        acme.dialect = WireDialect::OpenAI;
        acme.baseUrl = QUrl(QStringLiteral("http://10.0.0.5:8000/v1"));
        acme.model = QStringLiteral("acme-7b");
        acme.price.inputPerMillion = 1.5;
        ProviderSpec qwen = ProviderRegistry::spec(Provider::Qwen);
        qwen.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:4321/compatible-mode/v1"));
        ProviderListing q;
        q.spec = qwen;
        q.roles = { QStringLiteral("fallback") };
        q.breakers = { breakerView(BreakerState::Open) };
        Drain d;
        d.provider = Provider::Qwen;
        d.stage = Stage::Captions;
        d.reason = QStringLiteral("vendor outage");
        d.by = QStringLiteral("ops");
        d.since = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000, Qt::UTC);
        q.drains = { d };
        q.last5m = ProviderWindow { QStringLiteral("qwen"), 4, 50.0, QStringLiteral("TIMEOUT"), std::nullopt, 100, 200 };
        ProviderListing a;
        a.spec = acme;
        const auto read = throughWire(ProviderListingJson::toJson({ q, a }), &ProviderListingJson::fromJson);
        QVERIFY2(std::holds_alternative<QList<ProviderListing>>(read),
                 qPrintable(std::holds_alternative<FieldError>(read) ? std::get<FieldError>(read).toString() : QString()));
        const QList<ProviderListing> back = std::get<QList<ProviderListing>>(read);
        QCOMPARE(back.size(), 2);
        QCOMPARE(back.at(0).spec.id, QStringLiteral("qwen"));
        QVERIFY(back.at(0).spec.builtIn);
        QCOMPARE(back.at(0).spec.dialect, WireDialect::DashScope); // a built-in keeps its registry identity
        QCOMPARE(back.at(0).spec.baseUrl, qwen.baseUrl);
        QCOMPARE(back.at(0).spec.price, qwen.price);
        QCOMPARE(back.at(0).roles, q.roles);
        QVERIFY(sameRows(back.at(0).breakers, q.breakers));
        QCOMPARE(back.at(0).drains, q.drains);
        QCOMPARE(back.at(0).last5m, q.last5m);
        QCOMPARE(back.at(0).last15m, std::nullopt);
        QVERIFY(!back.at(1).spec.builtIn);
        QCOMPARE(back.at(1).spec.baseUrl, acme.baseUrl);
        QCOMPARE(back.at(1).spec.model, acme.model);
        QCOMPARE(back.at(1).spec.price.inputPerMillion, acme.price.inputPerMillion);
        QCOMPARE(back.at(1).spec.stages, acme.stages);

        EngineConfig config;
        config.providers = { { ProviderEntries::toJson(qwen), true }, { ProviderEntries::toJson(acme), false } };
        const auto specs = ProviderListingJson::specs(EngineConfigJson::toJson(config));
        QVERIFY2(std::holds_alternative<QList<ProviderSpec>>(specs),
                 qPrintable(std::holds_alternative<FieldError>(specs) ? std::get<FieldError>(specs).toString() : QString()));
        QCOMPARE(std::get<QList<ProviderSpec>>(specs).size(), 2);
        QCOMPARE(std::get<QList<ProviderSpec>>(specs).at(0).baseUrl, qwen.baseUrl);
        QCOMPARE(std::get<QList<ProviderSpec>>(specs).at(1).id, acme.id);
    }

    void providerListingRefusedByField_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("named");
        const QByteArray good =
            R"({"id": "openai", "format": "openai", "base_url": "https://api.openai.com/v1", "model": "m", "built_in": true, "roles": [], "breakers": [], "drains": [])";
        QTest::addRow("providers an object") << QByteArray(R"({"providers": {}})") << QStringLiteral("providers");
        QTest::addRow("roles a string") << QByteArray(R"({"providers": [)"
                                                      + good.chopped(0).replace(R"("roles": [])", R"("roles": "primary")") + "}]}")
                                        << QStringLiteral("providers[0].roles");
        QTest::addRow("base_url not a URL") << QByteArray(R"({"providers": [)"
                                                          + QByteArray(good).replace("https://api.openai.com/v1", "nowhere") + "}]}")
                                            << QStringLiteral("providers[0].base_url");
        QTest::addRow("built_in missing") << QByteArray(R"({"providers": [)" + QByteArray(good).replace(R"("built_in": true, )", "")
                                                        + "}]}")
                                          << QStringLiteral("providers[0].built_in");
        QTest::addRow("window attempts a string") << QByteArray(
            R"({"providers": [)" + good
            + R"(, "last_5m": {"attempts": "many", "error_percent": 0, "top_kind": null, "relief_percent": null, "p50_ms": 1, "p90_ms": 2}}]})")
                                                  << QStringLiteral("providers[0].last_5m.attempts");
        QJsonObject molten = BreakerRowJson::toJson(breakerView(BreakerState::Open));
        molten.insert(QStringLiteral("state"), QStringLiteral("molten"));
        QTest::addRow("breaker state unknown") << QByteArray(
            R"({"providers": [)"
            + QByteArray(good).replace(R"("breakers": [])",
                                       QByteArray("\"breakers\": [" + QJsonDocument(molten).toJson(QJsonDocument::Compact) + "]"))
            + "}]}") << QStringLiteral("providers[0].breakers[0].state");
    }
    void providerListingRefusedByField()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, named);
        const auto read = ProviderListingJson::fromJson(QJsonDocument::fromJson(json).object());
        QVERIFY2(std::holds_alternative<FieldError>(read), json.constData());
        QCOMPARE(std::get<FieldError>(read).field, named);
    }

    // The statistics' query: one name per parameter, each once; counts' groups read back by name.
    void statsQuery()
    {
        const QList<StatsParam> all { StatsParam::FromMs,
                                      StatsParam::ToMs,
                                      StatsParam::BucketMs,
                                      StatsParam::Provider,
                                      StatsParam::Role,
                                      StatsParam::Stage,
                                      StatsParam::By,
                                      StatsParam::TodayPrimaryTimeoutMs,
                                      StatsParam::FallbackTimeoutMs,
                                      StatsParam::PrimaryTimeoutsMs,
                                      StatsParam::FallbackTimeoutsMs };
        QCOMPARE(all.size(), int(StatsParam::FallbackTimeoutsMs) + 1);
        std::set<QString> names;
        for (const StatsParam p : all) {
            QVERIFY(!StatsQuery::name(p).isEmpty());
            QVERIFY2(names.insert(StatsQuery::name(p)).second, qPrintable(StatsQuery::name(p)));
        }
        QUrlQuery q;
        StatsQuery::addRange(&q, 1000, 2000);
        QCOMPARE(q.toString(), QStringLiteral("from_ms=1000&to_ms=2000"));
        for (const HistoryGroup g : { HistoryGroup::PublicCode, HistoryGroup::Kind, HistoryGroup::State })
            QCOMPARE(StatsQuery::groupFromName(StatsQuery::groupName(g)), std::optional(g));
        QCOMPARE(StatsQuery::groupNames(),
                 (QStringList { QStringLiteral("public_code"), QStringLiteral("kind"), QStringLiteral("state") }));
        QCOMPARE(StatsQuery::groupFromName(QStringLiteral("provider")), std::nullopt);
    }

    // A breaker and a drain as GET /v1/providers writes them read back as they were, in each state and
    // with and without their optional parts (wire/breakerrowjson.h, wire/drainrowjson.h).
    void breakerDrainRoundTrip()
    {
        for (const BreakerState state : { BreakerState::Closed, BreakerState::Open, BreakerState::HalfOpen }) {
            bool ok = false;
            const BreakerView v = breakerView(state);
            const BreakerView back = readOrFail(throughWire(BreakerRowJson::toJson(v), &BreakerRowJson::fromJson), &ok);
            QVERIFY2(ok, qPrintable(toId(state)));
            QVERIFY2(fields(back) == fields(v), qPrintable(toId(state)));
        }
        const QDateTime since = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000, Qt::UTC);
        for (const Drain &d : { Drain { Provider::Gemini, Role::Primary, Stage::Image, QStringLiteral("outage"), QStringLiteral("ops"),
                                        since, since.addSecs(3600) },
                                Drain { Provider::Qwen, std::nullopt, std::nullopt, QStringLiteral("ticket 7"), QStringLiteral("console"),
                                        since, std::nullopt } }) {
            bool ok = false;
            const Drain back = readOrFail(throughWire(DrainRowJson::toJson(d), &DrainRowJson::fromJson), &ok);
            QVERIFY(ok);
            QCOMPARE(back, d);
        }
        // GET /v1/providers' list holds them by provider and hands every one back.
        const std::vector<BreakerView> breakers { breakerView(BreakerState::Open) };
        const std::vector<Drain> drains { Drain { Provider::Gemini, std::nullopt, Stage::Captions, QStringLiteral("why"),
                                                  QStringLiteral("ops"), since, std::nullopt } };
        const QJsonObject list =
            QJsonDocument::fromJson(
                QJsonDocument(ProvidersJson::toJson(ProviderTable().all(), breakers, drains, QStringLiteral("a"))).toJson())
                .object();
        QCOMPARE(ProvidersJson::breakers(list).size(), 1);
        QVERIFY(fields(ProvidersJson::breakers(list).first()) == fields(breakers.front()));
        QCOMPARE(ProvidersJson::drains(list), QList<Drain>(drains.begin(), drains.end()));
    }

    // A breaker or a drain that this side cannot read is refused by the field's name.
    void breakerDrainRefusedByField_data()
    {
        QTest::addColumn<bool>("isBreaker");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QJsonValue>("value");
        QTest::addRow("breaker state unknown") << true << QStringLiteral("state") << QJsonValue(QStringLiteral("ajar"));
        QTest::addRow("breaker provider unknown") << true << QStringLiteral("provider") << QJsonValue(QStringLiteral("nobody"));
        QTest::addRow("breaker since a number") << true << QStringLiteral("since") << QJsonValue(3);
        QTest::addRow("breaker failures missing") << true << QStringLiteral("window_failures") << QJsonValue(QJsonValue::Undefined);
        QTest::addRow("drain role a number") << false << QStringLiteral("role") << QJsonValue(1);
        QTest::addRow("drain until no time") << false << QStringLiteral("until") << QJsonValue(QStringLiteral("tomorrow"));
        QTest::addRow("drain reason missing") << false << QStringLiteral("reason") << QJsonValue(QJsonValue::Undefined);
    }
    void breakerDrainRefusedByField()
    {
        QFETCH(bool, isBreaker);
        QFETCH(QString, field);
        QFETCH(QJsonValue, value);
        const QDateTime since = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000, Qt::UTC);
        QJsonObject o = isBreaker ? BreakerRowJson::toJson(breakerView(BreakerState::Open))
                                  : DrainRowJson::toJson(Drain { Provider::Gemini, std::nullopt, std::nullopt, QStringLiteral("why"),
                                                                 QStringLiteral("ops"), since, std::nullopt });
        if (value.isUndefined())
            o.remove(field);
        else
            o.insert(field, value);
        const std::optional<FieldError> refused = isBreaker ? (std::holds_alternative<FieldError>(BreakerRowJson::fromJson(o))
                                                                   ? std::optional(std::get<FieldError>(BreakerRowJson::fromJson(o)))
                                                                   : std::nullopt)
                                                            : (std::holds_alternative<FieldError>(DrainRowJson::fromJson(o))
                                                                   ? std::optional(std::get<FieldError>(DrainRowJson::fromJson(o)))
                                                                   : std::nullopt);
        QVERIFY2(refused, qPrintable(field));
        QCOMPARE(refused->field, field);
    }

    // Every route has one row, each path once per method; a client's path is the template filled in.
    void routeTable()
    {
        std::set<ApiRoute> routes;
        std::set<QByteArray> spelled;
        for (const ApiRouteSpec &s : ApiRoutes::all()) {
            QVERIFY2(routes.insert(s.route).second, s.path);
            QVERIFY2(spelled.insert(ApiRoutes::methodName(s.method) + ' ' + s.path).second, s.path);
            QCOMPARE(ApiRoutes::spec(s.route).path, s.path);
        }
        QCOMPARE(int(routes.size()), int(ApiRoute::Instances) + 1);
        QCOMPARE(ApiRoutes::path(ApiRoute::StatsFallbackRate), QStringLiteral("/v1/stats/fallback-rate"));
        QCOMPARE(ApiRoutes::path(ApiRoute::CancelGeneration, { QStringLiteral("gen_1") }), QStringLiteral("/v1/generations/gen_1/cancel"));
        QCOMPARE(ApiRoutes::path(ApiRoute::DrainProvider, { QStringLiteral("qwen") }), QStringLiteral("/v1/providers/qwen/drain"));
        QCOMPARE(ApiRoutes::spec(ApiRoute::StartGeneration).access, RouteAccess::Operator);
        QCOMPARE(ApiRoutes::spec(ApiRoute::Healthz).access, RouteAccess::Public);
    }
};

QTEST_GUILESS_MAIN(TestWireCodecs)
#include "tst_wirecodecs.moc"
