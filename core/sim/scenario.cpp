// SPDX-License-Identifier: MIT
#include "scenario.h"

#include "contract/providertable.h"
#include "providers/jsonread.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

static void initScenarioResources()
{
    Q_INIT_RESOURCE(scenarios);
}

namespace bullpen {

namespace {

constexpr qint64 kMaxScenarioBytes = 1024 * 1024;

struct ActionName
{
    SimBehaviour::Action action;
    const char *name;
};

constexpr ActionName kActions[] = {
    { SimBehaviour::Action::Ok, "ok" },
    { SimBehaviour::Action::Error, "error" },
    { SimBehaviour::Action::Hang, "hang" },
    { SimBehaviour::Action::Drip, "drip" },
    { SimBehaviour::Action::Truncated, "truncated" },
    { SimBehaviour::Action::Malformed, "malformed" },
    { SimBehaviour::Action::InvalidStoryboard, "invalid_storyboard" },
    { SimBehaviour::Action::Refused, "refused" },
    { SimBehaviour::Action::Reset, "reset" },
    { SimBehaviour::Action::StreamCut, "stream_cut" },
    { SimBehaviour::Action::StreamError, "stream_error" },
    { SimBehaviour::Action::Empty, "empty" },
};

const QStringList &errorNames()
{
    static const QStringList names { QStringLiteral("overloaded"), QStringLiteral("rate_limited"), QStringLiteral("auth"),
                                     QStringLiteral("quota"),      QStringLiteral("bad_request"),  QStringLiteral("server_error"),
                                     QStringLiteral("not_found"),  QStringLiteral("timeout"),      QStringLiteral("auth_echo") };
    return names;
}

std::optional<SimBehaviour> readBehaviour(const QJsonValue &value, const QString &where, QString *error)
{
    if (!value.isObject()) {
        *error = QStringLiteral("%1: expected an object like {\"do\": \"ok\"}").arg(where);
        return std::nullopt;
    }
    const QJsonObject o = value.toObject();
    SimBehaviour b;
    const QJsonValue action = o.value(QLatin1StringView("do"));
    if (!action.isString() || !SimBehaviour::actionFromName(action.toString())) {
        QStringList names;
        for (const ActionName &a : kActions)
            names << QLatin1StringView(a.name);
        *error =
            QStringLiteral("%1.do: got %2; expected one of %3")
                .arg(where,
                     action.isString() ? QLatin1Char('"') + action.toString().left(40) + QLatin1Char('"') : QStringLiteral("no string"),
                     names.join(QStringLiteral(", ")));
        return std::nullopt;
    }
    b.action = *SimBehaviour::actionFromName(action.toString());

    const QJsonValue latency = o.value(QLatin1StringView("latency_ms"));
    if (latency.isDouble()) {
        b.latencyMinMs = b.latencyMaxMs = latency.toInt(-1);
    } else if (latency.isArray() && latency.toArray().size() == 2) {
        b.latencyMinMs = latency.toArray().at(0).toInt(-1);
        b.latencyMaxMs = latency.toArray().at(1).toInt(-1);
    } else if (!latency.isUndefined()) {
        *error = QStringLiteral("%1.latency_ms: expected milliseconds or [min, max]").arg(where);
        return std::nullopt;
    }
    if (b.latencyMinMs < 0 || b.latencyMaxMs < b.latencyMinMs || b.latencyMaxMs > 3'600'000) {
        *error = QStringLiteral("%1.latency_ms: expected 0 <= min <= max <= 3600000").arg(where);
        return std::nullopt;
    }
    if (const QJsonValue e = o.value(QLatin1StringView("error")); !e.isUndefined()) {
        if (!e.isString() || !errorNames().contains(e.toString())) {
            *error =
                QStringLiteral("%1.error: got %2; expected one of %3")
                    .arg(where, e.isString() ? QLatin1Char('"') + e.toString().left(40) + QLatin1Char('"') : QStringLiteral("no string"),
                         errorNames().join(QStringLiteral(", ")));
            return std::nullopt;
        }
        b.error = e.toString();
    }
    if (const QJsonValue s = o.value(QLatin1StringView("status")); !s.isUndefined()) {
        b.status = s.toInt(-1);
        if (b.status < 100 || b.status > 599) {
            *error = QStringLiteral("%1.status: expected an HTTP status 100..599").arg(where);
            return std::nullopt;
        }
    }
    if (const QJsonValue body = o.value(QLatin1StringView("body")); !body.isUndefined()) {
        if (!body.isString() || b.action != SimBehaviour::Action::Error || b.status == 0) {
            *error = QStringLiteral("%1.body: expected a string, beside \"do\": \"error\" and a \"status\"").arg(where);
            return std::nullopt;
        }
        b.body = body.toString().toUtf8().left(64 * 1024);
    }
    if (const QJsonValue r = o.value(QLatin1StringView("retry_after_s")); !r.isUndefined()) {
        b.retryAfterSeconds = r.toInt(-1);
        if (b.retryAfterSeconds < 0) {
            *error = QStringLiteral("%1.retry_after_s: expected whole seconds >= 0").arg(where);
            return std::nullopt;
        }
    }
    if (const QJsonValue n = o.value(QLatin1StringView("after_events")); !n.isUndefined()) {
        b.afterEvents = n.toInt(-1);
        if (b.afterEvents < 0 || b.afterEvents > 100'000) {
            *error = QStringLiteral("%1.after_events: expected a count of stream events 0..100000").arg(where);
            return std::nullopt;
        }
    }
    if (const QJsonValue t = o.value(QLatin1StringView("total_ms")); !t.isUndefined()) {
        b.totalMs = t.toInt(-1);
        if (b.totalMs < b.latencyMaxMs || b.totalMs > 3'600'000) {
            *error = QStringLiteral("%1.total_ms: expected milliseconds from latency_ms to 3600000").arg(where);
            return std::nullopt;
        }
    }
    if (const QJsonValue d = o.value(QLatin1StringView("drip_interval_ms")); !d.isUndefined()) {
        b.dripIntervalMs = d.toInt(-1);
        if (b.dripIntervalMs < 1 || b.dripIntervalMs > 600'000) {
            *error = QStringLiteral("%1.drip_interval_ms: expected 1..600000").arg(where);
            return std::nullopt;
        }
    }
    return b;
}

// "phases": [{"from_s": 30, "to_s": 90, "do": "hang"}, …]: each a behaviour with its time span; spans
// in order and not overlapping.
bool readPhases(const QJsonValue &value, const QString &where, std::vector<SimPhase> *into, QString *error)
{
    if (!value.isArray() || value.toArray().isEmpty()) {
        *error = where + QStringLiteral(": expected a non-empty array like [{\"from_s\": 30, \"to_s\": 90, \"do\": \"hang\"}]");
        return false;
    }
    const QJsonArray phases = value.toArray();
    for (qsizetype i = 0; i < phases.size(); ++i) {
        const QString at = QStringLiteral("%1[%2]").arg(where).arg(i);
        auto b = readBehaviour(phases.at(i), at, error);
        if (!b)
            return false;
        const QJsonObject o = phases.at(i).toObject();
        const QJsonValue from = o.value(QLatin1StringView("from_s")), to = o.value(QLatin1StringView("to_s"));
        if (!from.isDouble() || !to.isDouble() || from.toDouble() < 0 || to.toDouble() <= from.toDouble()
            || to.toDouble() > 7 * 24 * 3600.0) {
            *error = at + QStringLiteral(": expected seconds \"from_s\" >= 0 and \"to_s\" > from_s (at most a week)");
            return false;
        }
        if (!into->empty() && from.toDouble() < into->back().toS) {
            *error = at
                + QStringLiteral(".from_s: phases must be in time order and must not overlap (the one before ends at %1 s)")
                      .arg(into->back().toS);
            return false;
        }
        into->push_back(SimPhase { from.toDouble(), to.toDouble(), *b });
    }
    return true;
}

} // namespace

const SimPhase *SimScript::phaseAt(double seconds) const
{
    for (const SimPhase &p : phases) {
        if (seconds >= p.fromS && seconds < p.toS)
            return &p;
    }
    return nullptr;
}

std::optional<SimBehaviour::Action> SimBehaviour::actionFromName(QStringView name)
{
    for (const ActionName &a : kActions) {
        if (name == QLatin1StringView(a.name))
            return a.action;
    }
    return std::nullopt;
}

QString SimBehaviour::actionName(Action action)
{
    for (const ActionName &a : kActions) {
        if (a.action == action)
            return QLatin1StringView(a.name);
    }
    return {};
}

std::optional<Scenario> Scenario::fromJson(const QByteArray &json, QString *error)
{
    QJsonParseError perr {};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &perr);
    if (perr.error != QJsonParseError::NoError) {
        *error = QStringLiteral("not valid JSON: %1 at offset %2").arg(perr.errorString()).arg(perr.offset);
        return std::nullopt;
    }
    if (!doc.isObject()) {
        *error = QStringLiteral("expected a JSON object with \"name\" and \"providers\"");
        return std::nullopt;
    }
    const QJsonObject root = doc.object();
    Scenario s;
    s.name = root.value(QLatin1StringView("name")).toString();
    if (s.name.trimmed().isEmpty()) {
        *error = QStringLiteral("\"name\": expected a non-empty string");
        return std::nullopt;
    }
    s.description = root.value(QLatin1StringView("description")).toString();
    if (const QJsonValue seed = root.value(QLatin1StringView("seed")); !seed.isUndefined()) {
        const std::optional<qint64> n = jsonread::wholeNumber(seed); // 1e300 would not fit (fuzz_scenario)
        if (!n) {
            *error = QStringLiteral("\"seed\": expected a whole number from 0 to 2^53");
            return std::nullopt;
        }
        s.seed = static_cast<quint64>(*n);
    }
    const QJsonValue providers = root.value(QLatin1StringView("providers"));
    if (!providers.isObject()) {
        *error = QStringLiteral("\"providers\": expected an object keyed by provider, role or \"*\"");
        return std::nullopt;
    }
    const QJsonObject po = providers.toObject();
    for (auto it = po.begin(); it != po.end(); ++it) {
        const QString key = it.key();
        if (key != u"*" && key != u"primary" && key != u"fallback" && key != u"image" && key != u"captions" && !providerFromId(key)) {
            *error =
                QStringLiteral("providers.%1: expected a provider (%2, or one the settings add), primary, fallback, image, captions or *")
                    .arg(key, ProviderTable().idList());
            return std::nullopt;
        }
        const QString where = QStringLiteral("providers.") + key;
        SimScript script;
        const QJsonValue v = it.value();
        if (v.isObject() && v.toObject().contains(QLatin1StringView("mix"))) {
            const QJsonArray mix = v.toObject().value(QLatin1StringView("mix")).toArray();
            if (mix.isEmpty()) {
                *error = where + QStringLiteral(".mix: expected a non-empty array");
                return std::nullopt;
            }
            for (qsizetype i = 0; i < mix.size(); ++i) {
                const QString at = QStringLiteral("%1.mix[%2]").arg(where).arg(i);
                auto b = readBehaviour(mix.at(i), at, error);
                if (!b)
                    return std::nullopt;
                const int weight = mix.at(i).toObject().value(QLatin1StringView("weight")).toInt(1);
                if (weight < 1) {
                    *error = at + QStringLiteral(".weight: expected a whole number >= 1");
                    return std::nullopt;
                }
                script.mix.emplace_back(weight, *b);
            }
        } else if (v.isArray()) {
            const QJsonArray seq = v.toArray();
            if (seq.isEmpty()) {
                *error = where + QStringLiteral(": expected a non-empty array");
                return std::nullopt;
            }
            for (qsizetype i = 0; i < seq.size(); ++i) {
                auto b = readBehaviour(seq.at(i), QStringLiteral("%1[%2]").arg(where).arg(i), error);
                if (!b)
                    return std::nullopt;
                script.sequence.push_back(*b);
            }
        } else {
            QJsonObject o = v.toObject();
            if (v.isObject() && !o.contains(QLatin1StringView("do")) && o.contains(QLatin1StringView("phases")))
                o.insert(QStringLiteral("do"), QStringLiteral("ok")); // outside its phases, a provider is healthy
            auto b = readBehaviour(v.isObject() ? QJsonValue(o) : v, where, error);
            if (!b)
                return std::nullopt;
            script.sequence.push_back(*b);
        }
        if (v.isObject() && v.toObject().contains(QLatin1StringView("phases"))
            && !readPhases(v.toObject().value(QLatin1StringView("phases")), where + QStringLiteral(".phases"), &script.phases, error))
            return std::nullopt;
        s.scripts[key] = std::move(script);
    }
    return s;
}

std::optional<Scenario> Scenario::load(const QString &nameOrFile, QString *error)
{
    initScenarioResources();
    QString path = QStringLiteral(":/bullpen/scenarios/") + nameOrFile + QStringLiteral(".json");
    const bool builtIn = !nameOrFile.contains(QLatin1Char('/')) && !nameOrFile.endsWith(QLatin1StringView(".json")) && QFile::exists(path);
    if (!builtIn)
        path = nameOrFile;
    const QFileInfo info(path);
    if (!builtIn && !info.exists()) {
        *error = QStringLiteral("scenario \"%1\": no built-in scenario of that name and no such file; built-ins: %2")
                     .arg(nameOrFile, builtInNames().join(QStringLiteral(", ")));
        return std::nullopt;
    }
    if (info.size() > kMaxScenarioBytes) {
        *error = QStringLiteral("scenario file %1: larger than 1 MiB").arg(path);
        return std::nullopt;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("scenario file %1: cannot be read (%2)").arg(path, f.errorString());
        return std::nullopt;
    }
    QString why;
    auto s = fromJson(f.readAll(), &why);
    if (!s)
        *error = QStringLiteral("scenario file %1: %2").arg(builtIn ? nameOrFile : path, why);
    return s;
}

QStringList Scenario::builtInNames()
{
    // Compiled-in resources never change: listed once (the service checks every request's scenario).
    static const QStringList names = [] {
        initScenarioResources();
        QStringList out;
        const QStringList files =
            QDir(QStringLiteral(":/bullpen/scenarios")).entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name);
        for (const QString &f : files)
            out << f.chopped(5);
        return out;
    }();
    return names;
}

} // namespace bullpen
