// SPDX-License-Identifier: MIT
// TuneReport as GET /v1/stats/tune and `bullpen-cli tune --json` spell it (docs/openapi.yaml, TuneReport).
#include "tuner.h"

#include <QJsonArray>

#include <utility>

namespace bullpen {

namespace {

// The figures of a prediction, one row each: its JSON key and its member.
struct Figure
{
    const char *key;
    double TunePrediction::*member;
};
constexpr Figure kFigures[] { { "p50_ms", &TunePrediction::p50Ms },
                              { "p95_ms", &TunePrediction::p95Ms },
                              { "success_rate", &TunePrediction::successRate },
                              { "fallback_rate", &TunePrediction::fallbackRate },
                              { "fallback_called_rate", &TunePrediction::fallbackCalledRate },
                              { "cost", &TunePrediction::cost } };
struct Count
{
    const char *key;
    qint64 TunePrediction::*member;
};
constexpr Count kCounts[] { { "cost_unknown", &TunePrediction::costUnknown },
                            { "censored", &TunePrediction::censored },
                            { "imputed_fallback", &TunePrediction::imputedFallback },
                            { "unobserved", &TunePrediction::unobserved } };

// How each breaker treatment is spelled on the wire.
constexpr std::pair<TuneBreaker, const char *> kBreakers[] { { TuneBreaker::AsRecorded, "as_recorded" },
                                                             { TuneBreaker::On, "on" },
                                                             { TuneBreaker::Off, "off" } };

QJsonObject predictionJson(const TunePrediction &p)
{
    QJsonObject o { { QStringLiteral("primary_timeout_ms"), static_cast<qint64>(p.candidate.primaryTimeout.count()) },
                    { QStringLiteral("fallback_timeout_ms"), static_cast<qint64>(p.candidate.fallbackTimeout.count()) },
                    { QStringLiteral("today"), p.candidate.today },
                    { QStringLiteral("preset"), p.candidate.preset },
                    { QStringLiteral("breaker"), toId(p.candidate.breaker) } };
    for (const Figure &f : kFigures)
        o.insert(QLatin1StringView(f.key), p.*f.member);
    for (const Count &c : kCounts)
        o.insert(QLatin1StringView(c.key), p.*c.member);
    return o;
}

TunePrediction predictionFromJson(const QJsonObject &o)
{
    TunePrediction p;
    p.candidate.primaryTimeout = std::chrono::milliseconds(o.value(QLatin1StringView("primary_timeout_ms")).toInteger());
    p.candidate.fallbackTimeout = std::chrono::milliseconds(o.value(QLatin1StringView("fallback_timeout_ms")).toInteger());
    p.candidate.today = o.value(QLatin1StringView("today")).toBool();
    p.candidate.preset = o.value(QLatin1StringView("preset")).toString(QStringLiteral("relief"));
    p.candidate.breaker = tuneBreakerFromId(o.value(QLatin1StringView("breaker")).toString()).value_or(TuneBreaker::AsRecorded);
    for (const Figure &f : kFigures)
        p.*f.member = o.value(QLatin1StringView(f.key)).toDouble();
    for (const Count &c : kCounts)
        p.*c.member = o.value(QLatin1StringView(c.key)).toInteger();
    return p;
}

QJsonArray predictionsJson(const QList<TunePrediction> &predictions)
{
    QJsonArray list;
    for (const TunePrediction &p : predictions)
        list.append(predictionJson(p));
    return list;
}

QList<TunePrediction> predictionsFromJson(const QJsonValue &v)
{
    QList<TunePrediction> out;
    for (const QJsonValue &p : v.toArray())
        out << predictionFromJson(p.toObject());
    return out;
}

} // namespace

QString toId(TuneBreaker breaker)
{
    for (const auto &[b, id] : kBreakers)
        if (b == breaker)
            return QLatin1StringView(id);
    return {};
}

std::optional<TuneBreaker> tuneBreakerFromId(const QString &id)
{
    for (const auto &[b, spelled] : kBreakers)
        if (id == QLatin1StringView(spelled))
            return b;
    return std::nullopt;
}

QJsonObject TuneReport::toJson() const
{
    return QJsonObject { { QStringLiteral("stage"), toId(stage) },
                         { QStringLiteral("from_ms"), fromMs },
                         { QStringLiteral("to_ms"), toMs },
                         { QStringLiteral("generations"), generations },
                         { QStringLiteral("recorded"), predictionJson(recorded) },
                         { QStringLiteral("predictions"), predictionsJson(predictions) },
                         { QStringLiteral("alternatives"), predictionsJson(alternatives) } };
}

TuneReport TuneReport::fromJson(const QJsonObject &json)
{
    TuneReport r;
    r.stage = stageFromId(json.value(QLatin1StringView("stage")).toString()).value_or(Stage::Storyboard);
    r.fromMs = json.value(QLatin1StringView("from_ms")).toInteger();
    r.toMs = json.value(QLatin1StringView("to_ms")).toInteger();
    r.generations = json.value(QLatin1StringView("generations")).toInteger();
    r.recorded = predictionFromJson(json.value(QLatin1StringView("recorded")).toObject());
    r.predictions = predictionsFromJson(json.value(QLatin1StringView("predictions")));
    r.alternatives = predictionsFromJson(json.value(QLatin1StringView("alternatives")));
    return r;
}

} // namespace bullpen
