// SPDX-License-Identifier: MIT
#include "settingstable.h"

#include <cmath>
#include <type_traits>
#include <utility>

namespace bullpen {

using namespace std::chrono;

namespace {

constexpr int kMaxInFlightLimit = 100'000; // far above what one process can hold open
constexpr int kMaxQueuedLimit = 1'000'000;

SettingRow row(const char *key, const char *env, SettingType type, const char *doc)
{
    SettingRow r;
    r.fileKey = QLatin1StringView(key);
    r.envVar = QLatin1StringView(env);
    r.type = type;
    r.doc = QString::fromUtf8(doc);
    return r;
}

// The row as the Settings view shows it: its group, label, placeholder and tooltip (settingstable.h).
SettingRow shown(SettingRow r, SettingGroup group, const char *label, const char *hint = nullptr, const char *tip = nullptr)
{
    r.group = group;
    r.label = label;
    r.hint = hint;
    r.tip = tip;
    return r;
}

// A duration held in a milliseconds member reached by `field` (at most `high` when given).
template<typename Field>
SettingRow durationRow(const char *key, const char *env, const char *doc, Field field, milliseconds high = milliseconds::zero())
{
    SettingRow r = row(key, env, SettingType::Duration, doc);
    r.high = static_cast<double>(high.count());
    r.set = [field](Settings &s, const QVariant &v) {
        field(s) = milliseconds(v.toLongLong());
    };
    r.get = [field](const Settings &s) {
        return QVariant::fromValue<qint64>(field(s).count());
    };
    return r;
}

// A switch, count or ratio held in the member `field` reaches: a bool, an int or a double.
template<typename Field>
SettingRow valueRow(const char *key, const char *env, SettingType type, const char *doc, Field field, double low = 0, double high = 0)
{
    using Value = std::remove_reference_t<decltype(field(std::declval<Settings &>()))>;
    SettingRow r = row(key, env, type, doc);
    r.low = low;
    r.high = high;
    r.set = [field](Settings &s, const QVariant &v) {
        field(s) = v.value<Value>();
    };
    r.get = [field](const Settings &s) {
        return QVariant::fromValue(field(s));
    };
    return r;
}

// Text, trimmed; with `unset`, an empty value is no value (left out of the file; the docs say `unset`).
template<typename Field> SettingRow textRow(const char *key, const char *env, const char *doc, Field field, const char *unset = nullptr)
{
    SettingRow r = row(key, env, SettingType::Text, doc);
    r.unsetText = unset ? QString::fromUtf8(unset) : QString();
    r.set = [field](Settings &s, const QVariant &v) {
        field(s) = v.toString();
    };
    r.get = [field, unset](const Settings &s) {
        const QString &text = field(s);
        return unset && text.isEmpty() ? QVariant() : QVariant(text);
    };
    return r;
}

QList<SettingRow> storyboardRows()
{
    QList<SettingRow> rows;
    SettingRow policy = textRow(
        "storyboard.policy", "STORYBOARD_POLICY", "", [](auto &s) -> auto & { return s.storyboard.preset; });
    policy.doc = QStringLiteral("The storyboard stage's preset: %1 (docs/contract.md §4.6 says what each hands to the fallback).")
                     .arg(StagePolicy::presetNames().join(QStringLiteral(", ")));
    policy.choices = [] {
        return StagePolicy::presetNames();
    };
    // The tooltip leaves out the preset names the doc lists: the choice itself shows them.
    rows << shown(
        policy, SettingGroup::Storyboard, QT_TRANSLATE_NOOP("SettingRow", "Policy"), nullptr,
        QT_TRANSLATE_NOOP("SettingRow", "The storyboard stage's preset (docs/contract.md §4.6 says what each hands to the fallback)."));
    rows << shown(durationRow(
                      "storyboard.primary_timeout", "STORYBOARD_PRIMARY_TIMEOUT",
                      QT_TRANSLATE_NOOP("SettingRow", "How long the primary provider's attempt may take."),
                      [](auto &s) -> auto & { return s.storyboard.primaryTimeout; }),
                  SettingGroup::Storyboard, QT_TRANSLATE_NOOP("SettingRow", "Primary timeout"));
    rows << shown(durationRow(
                      "storyboard.fallback_timeout", "STORYBOARD_FALLBACK_TIMEOUT",
                      QT_TRANSLATE_NOOP("SettingRow", "How long the fallback provider's attempt may take."),
                      [](auto &s) -> auto & { return s.storyboard.fallbackTimeout; }),
                  SettingGroup::Storyboard, QT_TRANSLATE_NOOP("SettingRow", "Fallback timeout"));
    SettingRow budget = row("storyboard.total_budget", "STORYBOARD_TOTAL_BUDGET", SettingType::Duration,
                            QT_TRANSLATE_NOOP("SettingRow", "The whole stage's budget, from its first attempt to its answer."));
    budget.unsetText = QStringLiteral("primary + fallback timeout");
    budget.set = [](Settings &s, const QVariant &v) {
        s.storyboard.totalBudget = v.isValid() ? std::optional(milliseconds(v.toLongLong())) : std::nullopt;
    };
    budget.get = [](const Settings &s) {
        return s.storyboard.totalBudget ? QVariant::fromValue<qint64>(s.storyboard.totalBudget->count()) : QVariant();
    };
    rows << shown(budget, SettingGroup::Storyboard, QT_TRANSLATE_NOOP("SettingRow", "Total budget"),
                  QT_TRANSLATE_NOOP("SettingRow", "derived: primary + fallback timeout"));
    return rows;
}

QList<SettingRow> pipelineRows()
{
    QList<SettingRow> rows;
    rows << shown(textRow(
                      "pipeline.image_model", "GEMINI_IMAGE_MODEL", QT_TRANSLATE_NOOP("SettingRow", "The image stage's model."),
                      [](auto &s) -> auto & { return s.pipeline.imageModel; }),
                  SettingGroup::Pipeline, QT_TRANSLATE_NOOP("SettingRow", "Image model"));
    rows << shown(durationRow(
                      "pipeline.image_timeout", "IMAGE_TIMEOUT",
                      QT_TRANSLATE_NOOP("SettingRow", "How long one try of the image stage may take."),
                      [](auto &s) -> auto & { return s.pipeline.imageTimeout; }),
                  SettingGroup::Pipeline, QT_TRANSLATE_NOOP("SettingRow", "Image timeout per try"));
    rows << shown(valueRow(
                      "pipeline.image_retries", "IMAGE_RETRIES", SettingType::Count,
                      QT_TRANSLATE_NOOP("SettingRow", "Tries of the image stage after its first."),
                      [](auto &s) -> auto & { return s.pipeline.imageRetries; }, 0, 5),
                  SettingGroup::Pipeline, QT_TRANSLATE_NOOP("SettingRow", "Image retries"));
    rows << shown(valueRow(
                      "pipeline.captions", "CAPTIONS", SettingType::Switch,
                      QT_TRANSLATE_NOOP("SettingRow", "The captions stage; a failure there falls back to default captions."),
                      [](auto &s) -> auto & { return s.pipeline.captions; }),
                  SettingGroup::Pipeline, QT_TRANSLATE_NOOP("SettingRow", "Generate captions (a failure falls back to default captions)"));
    rows << shown(durationRow(
                      "pipeline.captions_timeout", "CAPTIONS_TIMEOUT",
                      QT_TRANSLATE_NOOP("SettingRow", "How long the captions stage may take."),
                      [](auto &s) -> auto & { return s.pipeline.captionsTimeout; }),
                  SettingGroup::Pipeline, QT_TRANSLATE_NOOP("SettingRow", "Captions timeout"));
    rows << shown(valueRow(
                      "pipeline.store_content", "BULLPEN_STORE_CONTENT", SettingType::Switch,
                      "Store story-derived content (storyboards, captions); the 24 h cache needs it.",
                      [](auto &s) -> auto & { return s.pipeline.storeContent; }),
                  SettingGroup::Store, QT_TRANSLATE_NOOP("SettingRow", "Store prompts and responses"), nullptr,
                  QT_TRANSLATE_NOOP("SettingRow",
                                    "Story-derived text (storyboards, captions). Needed for the 24 h cache and to reopen comparisons "
                                    "with their text. Off by default (docs/contract.md §5.1)."));
    rows << shown(valueRow(
                      "pipeline.max_in_flight_per_provider", "BULLPEN_MAX_IN_FLIGHT", SettingType::Count,
                      QT_TRANSLATE_NOOP("SettingRow", "Attempts on the wire per provider, shared out between the engine threads."),
                      [](auto &s) -> auto & { return s.pipeline.maxInFlightPerProvider; }, 1, kMaxInFlightLimit),
                  SettingGroup::Service, QT_TRANSLATE_NOOP("SettingRow", "Attempts in flight per provider"));
    rows << shown(
        valueRow(
            "pipeline.max_queued_per_provider", "BULLPEN_MAX_QUEUED", SettingType::Count,
            QT_TRANSLATE_NOOP("SettingRow",
                              "Generations that may wait for a slot before their budget starts; beyond them a generation fails at once "
                              "with NOT_SENT."),
            [](auto &s) -> auto & { return s.pipeline.maxQueuedPerProvider; }, 0, kMaxQueuedLimit),
        SettingGroup::Service, QT_TRANSLATE_NOOP("SettingRow", "Queued per provider"));
    return rows;
}

QList<SettingRow> networkRows()
{
    QList<SettingRow> rows;
    rows << shown(
        textRow(
            "proxy", "BULLPEN_PROXY",
            "The proxy for provider calls and for attaching to an engine: http://host:port, socks5://host:port, or none; "
            "unset: https_proxy, http_proxy and no_proxy as curl reads them.",
            [](auto &s) -> auto & { return s.proxy; }, "unset"),
        SettingGroup::Network, QT_TRANSLATE_NOOP("SettingRow", "Proxy"),
        QT_TRANSLATE_NOOP("SettingRow", "from https_proxy / http_proxy / no_proxy"),
        QT_TRANSLATE_NOOP("SettingRow",
                          "The proxy for provider calls and for attaching to an engine: http://host:port, socks5://host:port, or none "
                          "for direct connections. Empty: the environment's https_proxy, http_proxy and no_proxy."));
    rows << shown(textRow(
                      "provider_ca", "BULLPEN_PROVIDER_CA",
                      "A PEM file of certificate authorities provider calls trust besides the system's (a proxy that inspects "
                      "TLS, a gateway with a private CA).",
                      [](auto &s) -> auto & { return s.providerCa; }, "unset"),
                  SettingGroup::Network, QT_TRANSLATE_NOOP("SettingRow", "Provider CA file"),
                  QT_TRANSLATE_NOOP("SettingRow", "the system's certificate authorities only"),
                  QT_TRANSLATE_NOOP("SettingRow",
                                    "A PEM file of certificate authorities that provider calls trust besides the system's: for a proxy "
                                    "that inspects TLS with a certificate of its own, or a gateway with a private CA."));
    rows << shown(
        durationRow(
            "engine_connect_timeout", "BULLPEN_ENGINE_CONNECT_TIMEOUT",
            QT_TRANSLATE_NOOP("SettingRow",
                              "Attached to an engine (bullpen-cli generate --engine): how long to wait for it to answer before giving up "
                              "(exit code 5)."),
            [](auto &s) -> auto & { return s.attach.connectTimeout; }, minutes(10)),
        SettingGroup::Network, QT_TRANSLATE_NOOP("SettingRow", "Attaching: connect timeout"));
    rows << shown(textRow(
                      "trusted_proxies", "BULLPEN_TRUSTED_PROXIES",
                      QT_TRANSLATE_NOOP(
                          "SettingRow",
                          "bullpen-engine: the balancers whose X-Forwarded-For it believes, as addresses or subnets separated by commas "
                          "(10.0.0.0/8, 127.0.0.1); from any other peer the header is ignored."),
                      [](auto &s) -> auto & { return s.trustedProxies; }, "unset"),
                  SettingGroup::Service, QT_TRANSLATE_NOOP("SettingRow", "Trusted proxies"),
                  QT_TRANSLATE_NOOP("SettingRow", "none: X-Forwarded-For is ignored"));
    rows << shown(valueRow(
                      "address_rate", "BULLPEN_ADDRESS_RATE", SettingType::Count,
                      QT_TRANSLATE_NOOP("SettingRow",
                                        "bullpen-engine: requests per second from one client address (through a trusted proxy, the one its "
                                        "X-Forwarded-For names), twice that in a burst; beyond it 429. 0: no such limit."),
                      [](auto &s) -> auto & { return s.addressRate; }, 0, 1'000'000),
                  SettingGroup::Service, QT_TRANSLATE_NOOP("SettingRow", "Requests per second per address"));
    rows << shown(
        durationRow(
            "engine_deadline", "BULLPEN_ENGINE_DEADLINE",
            QT_TRANSLATE_NOOP("SettingRow",
                              "Attached to an engine: how long the whole command may take, result included; then a started generation is "
                              "cancelled and the command gives up (exit code 5)."),
            [](auto &s) -> auto & { return s.attach.deadline; }),
        SettingGroup::Network, QT_TRANSLATE_NOOP("SettingRow", "Attaching: command deadline"));
    return rows;
}

QList<SettingRow> breakerRows()
{
    QList<SettingRow> rows;
    rows << shown(valueRow(
                      "breaker", "BULLPEN_BREAKER", SettingType::Switch,
                      QT_TRANSLATE_NOOP("SettingRow",
                                        "Breakers per provider, role and stage: while one is open the stage goes to its fallback at once. "
                                        "off: every request tries its primary first."),
                      [](auto &s) -> auto & { return s.breaker.enabled; }),
                  SettingGroup::Breakers, QT_TRANSLATE_NOOP("SettingRow", "Breakers per provider, role and stage"));
    rows << shown(durationRow(
                      "breaker_window", "BULLPEN_BREAKER_WINDOW",
                      QT_TRANSLATE_NOOP("SettingRow", "How far back a breaker counts attempts."),
                      [](auto &s) -> auto & { return s.breaker.window; }, minutes(60)),
                  SettingGroup::Breakers, QT_TRANSLATE_NOOP("SettingRow", "Breaker window"));
    rows << shown(
        valueRow(
            "breaker_min_attempts", "BULLPEN_BREAKER_MIN_ATTEMPTS", SettingType::Count,
            QT_TRANSLATE_NOOP("SettingRow", "Attempts that must have reached the provider within the window before its breaker may open."),
            [](auto &s) -> auto & { return s.breaker.minAttempts; }, 1, 10'000),
        SettingGroup::Breakers, QT_TRANSLATE_NOOP("SettingRow", "Attempts before a breaker may open"));
    rows << shown(
        valueRow(
            "breaker_failure_ratio", "BULLPEN_BREAKER_FAILURE_RATIO", SettingType::Ratio,
            QT_TRANSLATE_NOOP("SettingRow", "The share of those attempts failing by the provider's fault that opens the breaker."),
            [](auto &s) -> auto & { return s.breaker.failureRatio; }, 0, 1),
        SettingGroup::Breakers, QT_TRANSLATE_NOOP("SettingRow", "Failing share that opens a breaker"));
    rows << shown(
        durationRow(
            "breaker_cooldown", "BULLPEN_BREAKER_COOLDOWN",
            QT_TRANSLATE_NOOP("SettingRow", "How long an open breaker waits before one trial request; doubles while the trials fail."),
            [](auto &s) -> auto & { return s.breaker.cooldown; }, minutes(5)),
        SettingGroup::Breakers, QT_TRANSLATE_NOOP("SettingRow", "Breaker cooldown"));
    return rows;
}

QList<SettingRow> buildRows()
{
    return storyboardRows() + pipelineRows() + networkRows() + breakerRows();
}

QString typeWords(const SettingRow &row)
{
    switch (row.type) {
    case SettingType::Switch:
        return QStringLiteral("on or off");
    case SettingType::Duration:
        return QStringLiteral("a duration such as 60s");
    case SettingType::Count:
        return QStringLiteral("a whole number from %1 to %2").arg(row.low).arg(row.high);
    case SettingType::Ratio:
        return QStringLiteral("a share above %1 and at most %2, such as 0.5 or 50%").arg(row.low).arg(row.high);
    case SettingType::Text:
        return QStringLiteral("a string");
    }
    return {};
}

} // namespace

// The text's value, or nothing with the reason in *why.
std::optional<QVariant> SettingRow::parse(const QString &text, QString *why) const
{
    const SettingRow &row = *this;
    const QString t = text.trimmed().toLower();
    switch (row.type) {
    case SettingType::Text:
        return QVariant(text.trimmed());
    case SettingType::Switch:
        if (t == u"on" || t == u"1" || t == u"true" || t == u"yes")
            return QVariant(true);
        if (t == u"off" || t == u"0" || t == u"false" || t == u"no")
            return QVariant(false);
        break;
    case SettingType::Duration:
        if (const auto d = parseDuration(t, why)) {
            if (row.high > 0 && static_cast<double>(d->count()) > row.high) {
                *why = QStringLiteral("\"%1\" is longer than %2").arg(text, formatDuration(milliseconds(static_cast<qint64>(row.high))));
                return std::nullopt;
            }
            return QVariant::fromValue<qint64>(d->count());
        }
        return std::nullopt;
    case SettingType::Count: {
        bool ok = false;
        const int n = t.toInt(&ok);
        if (ok && n >= row.low && n <= row.high)
            return QVariant(n);
        break;
    }
    case SettingType::Ratio: {
        bool ok = false;
        const bool percent = t.endsWith(u'%');
        double v = (percent ? t.chopped(1).trimmed() : t).toDouble(&ok);
        if (percent)
            v /= 100.0;
        if (ok && std::isfinite(v) && v > row.low && v <= row.high)
            return QVariant(v);
        break;
    }
    }
    *why = QStringLiteral("\"%1\" is not %2").arg(text, typeWords(row));
    return std::nullopt;
}

namespace {

// What a file value of the wrong JSON type is told.
QString wrongJsonType(const SettingRow &row)
{
    if (row.type == SettingType::Text)
        return QStringLiteral("must be a string");
    if (row.type == SettingType::Duration)
        return QStringLiteral("must be a string: %1").arg(typeWords(row));
    if (row.type == SettingType::Switch)
        return QStringLiteral("must be true or false (or \"on\" or \"off\")");
    return QStringLiteral("must be %1").arg(typeWords(row));
}

// A JSON value as the text parse() reads: strings as they are, booleans and numbers written out.
std::optional<QString> jsonText(const SettingRow &row, const QJsonValue &v)
{
    if (row.type == SettingType::Switch && v.isString()) { // in a file: true, false, "on" or "off" (not "yes")
        const QString word = v.toString().trimmed().toLower();
        return word == u"on" || word == u"off" ? std::optional(word) : std::nullopt;
    }
    if (v.isString())
        return v.toString();
    if (row.type == SettingType::Text || row.type == SettingType::Duration)
        return std::nullopt; // written as strings: "60s", not 60
    if (v.isBool())
        return v.toBool() ? QStringLiteral("on") : QStringLiteral("off");
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 12);
    return std::nullopt;
}

} // namespace

QString SettingRow::format(const QVariant &value) const
{
    if (!value.isValid())
        return unsetText;
    switch (type) {
    case SettingType::Switch:
        return value.toBool() ? QStringLiteral("on") : QStringLiteral("off");
    case SettingType::Duration:
        return formatDuration(milliseconds(value.toLongLong()));
    case SettingType::Count:
        return QString::number(value.toInt());
    case SettingType::Ratio:
        return QString::number(value.toDouble() * 100.0, 'g', 6) + QLatin1Char('%');
    case SettingType::Text:
        return value.toString();
    }
    return {};
}

const QList<SettingRow> &settingRows()
{
    static const QList<SettingRow> rows = buildRows();
    return rows;
}

const SettingRow *settingRow(const QString &envVar)
{
    for (const SettingRow &row : settingRows()) {
        if (row.envVar == envVar)
            return &row;
    }
    return nullptr;
}

namespace {

// "pipeline.image_timeout" → the section "pipeline" and the key "image_timeout"; a top-level key has no section.
std::pair<QString, QString> splitKey(const QString &fileKey)
{
    const qsizetype dot = fileKey.indexOf(QLatin1Char('.'));
    return dot < 0 ? std::pair { QString(), fileKey } : std::pair { fileKey.left(dot), fileKey.mid(dot + 1) };
}

QJsonValue valueAt(const QJsonObject &root, const QString &fileKey)
{
    const auto [section, key] = splitKey(fileKey);
    return (section.isEmpty() ? root : root.value(section).toObject()).value(key);
}

void writeAt(QJsonObject &root, const QString &fileKey, const std::optional<QJsonValue> &value)
{
    const auto [section, key] = splitKey(fileKey);
    QJsonObject holder = section.isEmpty() ? root : root.value(section).toObject();
    if (value)
        holder.insert(key, *value);
    else
        holder.remove(key);
    if (section.isEmpty())
        root = holder;
    else
        root.insert(section, holder);
}

} // namespace

void applySettingRows(Settings &settings, const SettingSources &sources, QList<ConfigError> *errors)
{
    for (const SettingRow &row : settingRows()) {
        QString why;
        if (const QJsonValue given = sources.root ? valueAt(*sources.root, row.fileKey) : QJsonValue(QJsonValue::Undefined);
            !given.isUndefined()) {
            const auto text = jsonText(row, given);
            const auto value = text ? row.parse(*text, &why) : std::nullopt;
            if (value)
                row.set(settings, *value);
            else
                *errors << ConfigError { QStringLiteral("%1: %2").arg(sources.settingsFile, row.fileKey), text ? why : wrongJsonType(row) };
            if (sources.noteOrigin)
                sources.noteOrigin(row.envVar, QStringLiteral("settings file %1").arg(sources.settingsFile));
        }
        if (sources.env.contains(row.envVar)) {
            if (const auto value = row.parse(sources.env.value(row.envVar), &why))
                row.set(settings, *value);
            else
                *errors << ConfigError { sources.place(row.envVar), why };
            if (sources.noteOrigin)
                sources.noteOrigin(row.envVar, sources.origin(row.envVar));
        }
    }
}

void writeSettingRows(const Settings &settings, QJsonObject &root)
{
    for (const SettingRow &row : settingRows()) {
        const QVariant v = row.get(settings);
        std::optional<QJsonValue> value;
        if (v.isValid()) {
            switch (row.type) {
            case SettingType::Switch:
                value = v.toBool();
                break;
            case SettingType::Count:
                value = v.toInt();
                break;
            case SettingType::Ratio:
                value = v.toDouble();
                break;
            case SettingType::Duration:
            case SettingType::Text:
                value = row.format(v);
                break;
            }
        }
        writeAt(root, row.fileKey, value);
    }
}

QString settingsTableMarkdown()
{
    const Settings defaults = Settings::defaults();
    QString out = QStringLiteral("| settings file | environment | default | meaning |\n|---|---|---|---|\n");
    for (const SettingRow &row : settingRows()) {
        const QVariant value = row.get(defaults);
        const QString shown = value.isValid() ? QStringLiteral("`%1`").arg(row.format(value)) : row.unsetText;
        out += QStringLiteral("| `%1` | `%2` | %3 | %4 |\n").arg(row.fileKey, row.envVar, shown, row.doc);
    }
    return out;
}

QString settingsHelpText()
{
    const Settings defaults = Settings::defaults();
    QString out = QStringLiteral("Settings: the settings file's key, the environment variable that overrides it, the default "
                                 "(docs/configuration.md):\n");
    for (const SettingRow &row : settingRows()) {
        out += QStringLiteral("  %1  %2  (%3)\n      %4\n").arg(row.fileKey, row.envVar, row.format(row.get(defaults)), row.doc);
    }
    return out;
}

} // namespace bullpen
