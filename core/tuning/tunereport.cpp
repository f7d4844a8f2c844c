// SPDX-License-Identifier: MIT
// TuneReport as GET /v1/stats/tune and `bullpen-cli tune --json` spell it (docs/openapi.yaml, TuneReport).
#include "tuner.h"

#include <QJsonArray>

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
                            { "imputed_fallback", &TunePrediction::imputedFallback } };

QJsonObject predictionJson(const TunePrediction &p)
{
    QJsonObject o { { QStringLiteral("primary_timeout_ms"), static_cast<qint64>(p.candidate.primaryTimeout.count()) },
                    { QStringLiteral("fallback_timeout_ms"), static_cast<qint64>(p.candidate.fallbackTimeout.count()) },
                    { QStringLiteral("today"), p.candidate.today } };
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
    for (const Figure &f : kFigures)
        p.*f.member = o.value(QLatin1StringView(f.key)).toDouble();
    for (const Count &c : kCounts)
        p.*c.member = o.value(QLatin1StringView(c.key)).toInteger();
    return p;
}

} // namespace

QJsonObject TuneReport::toJson() const
{
    QJsonArray list;
    for (const TunePrediction &p : predictions)
        list.append(predictionJson(p));
    return QJsonObject { { QStringLiteral("stage"), toId(stage) },
                         { QStringLiteral("from_ms"), fromMs },
                         { QStringLiteral("to_ms"), toMs },
                         { QStringLiteral("generations"), generations },
                         { QStringLiteral("recorded"), predictionJson(recorded) },
                         { QStringLiteral("predictions"), list } };
}

TuneReport TuneReport::fromJson(const QJsonObject &json)
{
    TuneReport r;
    r.stage = stageFromId(json.value(QLatin1StringView("stage")).toString()).value_or(Stage::Storyboard);
    r.fromMs = json.value(QLatin1StringView("from_ms")).toInteger();
    r.toMs = json.value(QLatin1StringView("to_ms")).toInteger();
    r.generations = json.value(QLatin1StringView("generations")).toInteger();
    r.recorded = predictionFromJson(json.value(QLatin1StringView("recorded")).toObject());
    for (const QJsonValue &v : json.value(QLatin1StringView("predictions")).toArray())
        r.predictions << predictionFromJson(v.toObject());
    return r;
}

} // namespace bullpen
