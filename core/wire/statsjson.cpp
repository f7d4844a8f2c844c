// SPDX-License-Identifier: MIT
#include "statsjson.h"

#include "contract/jsontype.h"
#include "contract/providerregistry.h"
#include "wire/statsquery.h"

#include <QJsonArray>

#include <functional>

namespace bullpen {

namespace {

// The envelopes' fields, spelled here only.
constexpr char kCount[] = "count";
constexpr char kBy[] = "by";
constexpr char kCounts[] = "counts";
constexpr char kCountKey[] = "key";
constexpr char kOldestMs[] = "oldest_ms";
constexpr char kBuckets[] = "buckets";
constexpr char kSamples[] = "samples";
constexpr char kCells[] = "cells";
constexpr char kWaits[] = "waits";
constexpr char kProviders[] = "providers";

template<typename T> using Read = std::variant<T, FieldError>;

QLatin1StringView key(const char *name)
{
    return QLatin1StringView(name);
}

QJsonObject envelope(const char *name, const QJsonValue &value)
{
    return QJsonObject { { key(name), value } };
}

FieldError refused(const char *name, const char *expected, const QJsonValue &got)
{
    return FieldError { QString::fromLatin1(name),
                        QStringLiteral("%1 expected, got %2").arg(QLatin1StringView(expected), jsonTypeName(got)) };
}

// The envelope's rows, each read by `row` (nothing: a row this side cannot read, left out).
template<typename T>
Read<QList<T>> rows(const QJsonObject &o, const char *name, const std::function<std::optional<T>(const QJsonValue &)> &row)
{
    const QJsonValue v = o.value(key(name));
    if (!v.isArray())
        return refused(name, "an array", v);
    const QJsonArray a = v.toArray();
    QList<T> out;
    out.reserve(a.size());
    for (const QJsonValue &r : a)
        if (std::optional<T> read = row(r))
            out << std::move(*read);
    return out;
}

template<typename T> QJsonObject writeRows(const char *name, const QList<T> &list, const std::function<QJsonValue(const T &)> &row)
{
    QJsonArray a;
    for (const T &r : list)
        a.append(row(r));
    return envelope(name, a);
}

double number(qint64 n)
{
    return static_cast<double>(n);
}

// A fallback wait's fields.
constexpr char kAtMs[] = "at_ms";
constexpr char kPrimaryProvider[] = "primary_provider";
constexpr char kFallbackProvider[] = "fallback_provider";
constexpr char kPrimaryMs[] = "primary_ms";
constexpr char kFallbackMs[] = "fallback_ms";
constexpr char kFallbackSucceeded[] = "fallback_succeeded";

// A rate bucket's fields.
constexpr char kStartMs[] = "start_ms";
constexpr char kGenerations[] = "generations";
constexpr char kFallbacks[] = "fallbacks";

// A provider's health row and its last probe.
constexpr char kProvider[] = "provider";
constexpr char kRole[] = "role";
constexpr char kStage[] = "stage";
constexpr char kAttempts[] = "attempts";
constexpr char kFailures[] = "failures";
constexpr char kNotProvider[] = "not_provider";
constexpr char kTopKind[] = "top_kind";
constexpr char kTopKindCount[] = "top_kind_count";
constexpr char kPrimaryFailures[] = "primary_failures";
constexpr char kRelieved[] = "relieved";
constexpr char kP50Ms[] = "p50_ms";
constexpr char kP90Ms[] = "p90_ms";
constexpr char kLastProbe[] = "last_probe";
constexpr char kOk[] = "ok";
constexpr char kKind[] = "kind";
constexpr char kDurationMs[] = "duration_ms";

QJsonValue probeJson(const std::optional<ProviderHealth::Probe> &probe)
{
    if (!probe)
        return QJsonValue();
    return QJsonObject { { key(kAtMs), number(probe->atMs) },
                         { key(kOk), probe->ok },
                         { key(kKind), probe->kind ? QJsonValue(enumName(*probe->kind)) : QJsonValue() },
                         { key(kDurationMs), probe->durationMs } };
}

std::optional<ProviderHealth::Probe> probeFromJson(const QJsonValue &v)
{
    if (!v.isObject())
        return std::nullopt;
    const QJsonObject o = v.toObject();
    return ProviderHealth::Probe { o.value(key(kAtMs)).toInteger(), o.value(key(kOk)).toBool(),
                                   enumFromName<FailureKind>(o.value(key(kKind)).toString()), o.value(key(kDurationMs)).toDouble() };
}

QJsonValue healthRow(const ProviderHealth &h)
{
    return QJsonObject { { key(kProvider), toId(h.provider) },
                         { key(kRole), toId(h.role) },
                         { key(kStage), toId(h.stage) },
                         { key(kAttempts), number(h.attempts) },
                         { key(kFailures), number(h.failures) },
                         { key(kNotProvider), number(h.notProviders) },
                         { key(kTopKind), h.topKind ? QJsonValue(enumName(*h.topKind)) : QJsonValue() },
                         { key(kTopKindCount), number(h.topKindCount) },
                         { key(kPrimaryFailures), number(h.primaryFailures) },
                         { key(kRelieved), number(h.handedToFallback) },
                         { key(kP50Ms), h.p50Ms },
                         { key(kP90Ms), h.p90Ms },
                         { key(kLastProbe), probeJson(h.lastProbe) } };
}

std::optional<ProviderHealth> healthRowFromJson(const QJsonValue &v)
{
    const QJsonObject o = v.toObject();
    const auto provider = providerFromId(o.value(key(kProvider)).toString());
    const auto role = roleFromId(o.value(key(kRole)).toString());
    const auto stage = stageFromId(o.value(key(kStage)).toString());
    if (!provider || !role || !stage)
        return std::nullopt; // a provider or stage this side does not know
    ProviderHealth h;
    h.provider = *provider;
    h.role = *role;
    h.stage = *stage;
    const auto n = [&](const char *name) {
        return o.value(key(name)).toInteger();
    };
    h.attempts = n(kAttempts);
    h.failures = n(kFailures);
    h.notProviders = n(kNotProvider);
    h.topKind = enumFromName<FailureKind>(o.value(key(kTopKind)).toString());
    h.topKindCount = n(kTopKindCount);
    h.primaryFailures = n(kPrimaryFailures);
    h.handedToFallback = n(kRelieved);
    h.p50Ms = o.value(key(kP50Ms)).toDouble();
    h.p90Ms = o.value(key(kP90Ms)).toDouble();
    h.lastProbe = probeFromJson(o.value(key(kLastProbe)));
    return h;
}

// GET /v1/stats/providers: the envelope's fields, and a window row's fields as one table, written and
// read alike.
constexpr char kInstance[] = "instance";
constexpr char kLast5m[] = "last_5m";
constexpr char kLast15m[] = "last_15m";

struct WindowField
{
    const char *name;
    const char *expected; // for a refusal: "a number", "a string or null"
    QJsonValue (*write)(const ProviderWindow &);
    bool (*read)(ProviderWindow &, const QJsonValue &); // false: the value is of the wrong type
};

QJsonValue optionalNumber(const std::optional<double> &n)
{
    return n ? QJsonValue(*n) : QJsonValue();
}

constexpr WindowField kWindowFields[] {
    { kAttempts, "a number", [](const ProviderWindow &w) { return QJsonValue(number(w.attempts)); },
      [](ProviderWindow &w, const QJsonValue &v) {
          return v.isDouble() && ((w.attempts = v.toInteger()), true);
      } },
    { "error_percent", "a number", [](const ProviderWindow &w) { return QJsonValue(w.errorPercent); },
      [](ProviderWindow &w, const QJsonValue &v) {
          return v.isDouble() && ((w.errorPercent = v.toDouble()), true);
      } },
    { kTopKind, "a string or null", [](const ProviderWindow &w) { return w.topKind ? QJsonValue(*w.topKind) : QJsonValue(); },
      [](ProviderWindow &w, const QJsonValue &v) {
          w.topKind = v.isString() ? std::optional(v.toString()) : std::nullopt;
          return v.isString() || v.isNull();
      } },
    { "relief_percent", "a number or null", [](const ProviderWindow &w) { return optionalNumber(w.reliefPercent); },
      [](ProviderWindow &w, const QJsonValue &v) {
          w.reliefPercent = v.isDouble() ? std::optional(v.toDouble()) : std::nullopt;
          return v.isDouble() || v.isNull();
      } },
    { kP50Ms, "a number", [](const ProviderWindow &w) { return QJsonValue(w.p50Ms); },
      [](ProviderWindow &w, const QJsonValue &v) {
          return v.isDouble() && ((w.p50Ms = v.toDouble()), true);
      } },
    { kP90Ms, "a number", [](const ProviderWindow &w) { return QJsonValue(w.p90Ms); },
      [](ProviderWindow &w, const QJsonValue &v) {
          return v.isDouble() && ((w.p90Ms = v.toDouble()), true);
      } },
};

QJsonObject windowJson(const QList<ProviderWindow> &window)
{
    QJsonObject out;
    for (const ProviderWindow &w : window)
        out.insert(w.provider, StatsJson::providerWindowRow(w));
    return out;
}

Read<QList<ProviderWindow>> windowFromJson(const QJsonObject &o, const char *name)
{
    const QJsonValue v = o.value(key(name));
    if (!v.isObject())
        return refused(name, "an object", v);
    const QJsonObject byId = v.toObject();
    QList<ProviderWindow> out;
    for (auto it = byId.begin(); it != byId.end(); ++it) {
        Read<ProviderWindow> row = StatsJson::providerWindowRowFromJson(
            it.key(), it.value(), QStringLiteral("%1.%2").arg(QLatin1StringView(name), it.key().left(64)));
        if (const FieldError *e = std::get_if<FieldError>(&row))
            return *e;
        out << std::get<ProviderWindow>(std::move(row));
    }
    return out;
}

} // namespace

QJsonObject StatsJson::count(qint64 count)
{
    return envelope(kCount, number(count));
}

Read<qint64> StatsJson::countFromJson(const QJsonObject &o)
{
    const QJsonValue v = o.value(key(kCount));
    if (!v.isDouble())
        return refused(kCount, "a number", v);
    return v.toInteger();
}

QJsonObject StatsJson::counts(HistoryGroup by, const Counts &counts)
{
    QJsonObject o = writeRows<std::pair<QString, qint64>>(kCounts, counts, [](const std::pair<QString, qint64> &c) -> QJsonValue {
        return QJsonObject { { key(kCountKey), c.first }, { key(kCount), number(c.second) } };
    });
    o.insert(key(kBy), StatsQuery::groupName(by));
    return o;
}

Read<StatsJson::Counts> StatsJson::countsFromJson(const QJsonObject &o)
{
    return rows<std::pair<QString, qint64>>(o, kCounts, [](const QJsonValue &v) -> std::optional<std::pair<QString, qint64>> {
        const QJsonObject c = v.toObject();
        return std::pair { c.value(key(kCountKey)).toString(), c.value(key(kCount)).toInteger() };
    });
}

QJsonObject StatsJson::oldest(std::optional<qint64> oldestMs)
{
    return envelope(kOldestMs, oldestMs ? QJsonValue(number(*oldestMs)) : QJsonValue());
}

Read<std::optional<qint64>> StatsJson::oldestFromJson(const QJsonObject &o)
{
    const QJsonValue v = o.value(key(kOldestMs));
    if (v.isNull())
        return std::optional<qint64>();
    if (!v.isDouble())
        return refused(kOldestMs, "a number or null", v);
    return std::optional<qint64>(v.toInteger());
}

QJsonObject StatsJson::fallbackRate(const QList<RateBucket> &buckets)
{
    return writeRows<RateBucket>(kBuckets, buckets, [](const RateBucket &b) -> QJsonValue {
        return QJsonObject { { key(kStartMs), number(b.startMs) },
                             { key(kGenerations), number(b.generations) },
                             { key(kFallbacks), number(b.fallbacks) } };
    });
}

Read<QList<RateBucket>> StatsJson::fallbackRateFromJson(const QJsonObject &o)
{
    return rows<RateBucket>(o, kBuckets, [](const QJsonValue &v) -> std::optional<RateBucket> {
        const QJsonObject b = v.toObject();
        return RateBucket { b.value(key(kStartMs)).toInteger(), b.value(key(kGenerations)).toInteger(),
                            b.value(key(kFallbacks)).toInteger() };
    });
}

QJsonObject StatsJson::latency(const QList<LatencySample> &samples)
{
    return writeRows<LatencySample>(kSamples, samples, [](const LatencySample &s) -> QJsonValue {
        return QJsonArray { number(s.atMs), s.durationMs, s.success };
    });
}

Read<QList<LatencySample>> StatsJson::latencyFromJson(const QJsonObject &o)
{
    return rows<LatencySample>(o, kSamples, [](const QJsonValue &v) -> std::optional<LatencySample> {
        const QJsonArray s = v.toArray();
        return LatencySample { s.at(0).toInteger(), s.at(1).toDouble(), s.at(2).toBool() };
    });
}

QJsonObject StatsJson::latencyHistogram(const QList<DurationCell> &cells)
{
    return writeRows<DurationCell>(kCells, cells, [](const DurationCell &c) -> QJsonValue {
        return QJsonArray { number(c.startMs), c.success, c.bin, number(c.count) };
    });
}

Read<QList<DurationCell>> StatsJson::latencyHistogramFromJson(const QJsonObject &o)
{
    return rows<DurationCell>(o, kCells, [](const QJsonValue &v) -> std::optional<DurationCell> {
        const QJsonArray c = v.toArray();
        return DurationCell { c.at(0).toInteger(), c.at(1).toBool(), c.at(2).toInt(), c.at(3).toInteger() };
    });
}

QJsonObject StatsJson::fallbackWaits(const QList<FallbackWait> &waits)
{
    return writeRows<FallbackWait>(kWaits, waits, [](const FallbackWait &w) -> QJsonValue {
        return QJsonObject {
            { key(kAtMs), number(w.atMs) },   { key(kPrimaryProvider), w.primaryProvider }, { key(kFallbackProvider), w.fallbackProvider },
            { key(kPrimaryMs), w.primaryMs }, { key(kFallbackMs), w.fallbackMs },           { key(kFallbackSucceeded), w.fallbackSucceeded }
        };
    });
}

Read<QList<FallbackWait>> StatsJson::fallbackWaitsFromJson(const QJsonObject &o)
{
    return rows<FallbackWait>(o, kWaits, [](const QJsonValue &v) -> std::optional<FallbackWait> {
        const QJsonObject w = v.toObject();
        return FallbackWait {
            w.value(key(kAtMs)).toInteger(),     w.value(key(kPrimaryProvider)).toString(), w.value(key(kFallbackProvider)).toString(),
            w.value(key(kPrimaryMs)).toDouble(), w.value(key(kFallbackMs)).toDouble(),      w.value(key(kFallbackSucceeded)).toBool()
        };
    });
}

QJsonObject StatsJson::fallbackWaitHistogram(const QList<FallbackWaitCell> &cells)
{
    return writeRows<FallbackWaitCell>(kCells, cells, [](const FallbackWaitCell &c) -> QJsonValue {
        return QJsonArray { number(c.startMs), c.primaryProvider, c.fallbackProvider, c.bin, number(c.count) };
    });
}

Read<QList<FallbackWaitCell>> StatsJson::fallbackWaitHistogramFromJson(const QJsonObject &o)
{
    return rows<FallbackWaitCell>(o, kCells, [](const QJsonValue &v) -> std::optional<FallbackWaitCell> {
        const QJsonArray c = v.toArray();
        return FallbackWaitCell { c.at(0).toInteger(), c.at(1).toString(), c.at(2).toString(), c.at(3).toInt(), c.at(4).toInteger() };
    });
}

QJsonObject StatsJson::health(const QList<ProviderHealth> &health)
{
    return writeRows<ProviderHealth>(kProviders, health, &healthRow);
}

Read<QList<ProviderHealth>> StatsJson::healthFromJson(const QJsonObject &o)
{
    return rows<ProviderHealth>(o, kProviders, &healthRowFromJson);
}

QJsonObject StatsJson::providerWindowRow(const ProviderWindow &window)
{
    QJsonObject row;
    for (const WindowField &f : kWindowFields)
        row.insert(key(f.name), f.write(window));
    return row;
}

Read<ProviderWindow> StatsJson::providerWindowRowFromJson(const QString &provider, const QJsonValue &v, const QString &path)
{
    if (!v.isObject())
        return FieldError { path, QStringLiteral("an object expected, got %1").arg(jsonTypeName(v)) };
    const QJsonObject row = v.toObject();
    ProviderWindow w;
    w.provider = provider;
    for (const WindowField &f : kWindowFields) {
        const QJsonValue field = row.value(key(f.name));
        if (!f.read(w, field))
            return FieldError { QStringLiteral("%1.%2").arg(path, QLatin1StringView(f.name)),
                                QStringLiteral("%1 expected, got %2").arg(QLatin1StringView(f.expected), jsonTypeName(field)) };
    }
    return w;
}

QJsonObject StatsJson::providerWindows(const ProviderWindows &windows)
{
    return QJsonObject { { key(kInstance), windows.instance },
                         { key(kAtMs), number(windows.atMs) },
                         { key(kLast5m), windowJson(windows.last5m) },
                         { key(kLast15m), windowJson(windows.last15m) } };
}

Read<ProviderWindows> StatsJson::providerWindowsFromJson(const QJsonObject &o)
{
    ProviderWindows out;
    const QJsonValue instance = o.value(key(kInstance));
    if (!instance.isString())
        return refused(kInstance, "a string", instance);
    out.instance = instance.toString();
    const QJsonValue at = o.value(key(kAtMs));
    if (!at.isDouble())
        return refused(kAtMs, "a number", at);
    out.atMs = at.toInteger();
    for (const auto &[name, window] : { std::pair { kLast5m, &out.last5m }, std::pair { kLast15m, &out.last15m } }) {
        Read<QList<ProviderWindow>> read = windowFromJson(o, name);
        if (const FieldError *e = std::get_if<FieldError>(&read))
            return *e;
        *window = std::get<QList<ProviderWindow>>(std::move(read));
    }
    return out;
}

} // namespace bullpen
