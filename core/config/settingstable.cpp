// SPDX-License-Identifier: MIT
#include "settingstable.h"

#include <cmath>

namespace bullpen {

using namespace std::chrono;

namespace {

SettingRow durationRow(const char *key, const char *env, const char *doc, milliseconds high, milliseconds BreakerSettings::*field)
{
    SettingRow r;
    r.fileKey = QLatin1StringView(key);
    r.envVar = QLatin1StringView(env);
    r.type = SettingType::Duration;
    r.doc = QString::fromUtf8(doc);
    r.high = static_cast<double>(high.count());
    r.set = [field](Settings &s, const QVariant &v) {
        s.breaker.*field = milliseconds(v.toLongLong());
    };
    r.get = [field](const Settings &s) {
        return QVariant::fromValue<qint64>((s.breaker.*field).count());
    };
    return r;
}

QList<SettingRow> buildRows()
{
    QList<SettingRow> rows;
    {
        SettingRow r;
        r.fileKey = QStringLiteral("breaker");
        r.envVar = QStringLiteral("BULLPEN_BREAKER");
        r.type = SettingType::Switch;
        r.doc = QStringLiteral("Breakers per provider, role and stage: while one is open the stage goes to its fallback at once. "
                               "off: every request tries its primary first.");
        r.set = [](Settings &s, const QVariant &v) {
            s.breaker.enabled = v.toBool();
        };
        r.get = [](const Settings &s) {
            return QVariant(s.breaker.enabled);
        };
        rows << r;
    }
    rows << durationRow("breaker_window", "BULLPEN_BREAKER_WINDOW", "How far back a breaker counts attempts.", minutes(60),
                        &BreakerSettings::window);
    {
        SettingRow r;
        r.fileKey = QStringLiteral("breaker_min_attempts");
        r.envVar = QStringLiteral("BULLPEN_BREAKER_MIN_ATTEMPTS");
        r.type = SettingType::Count;
        r.doc = QStringLiteral("Attempts that must have reached the provider within the window before its breaker may open.");
        r.low = 1;
        r.high = 10'000;
        r.set = [](Settings &s, const QVariant &v) {
            s.breaker.minAttempts = v.toInt();
        };
        r.get = [](const Settings &s) {
            return QVariant(s.breaker.minAttempts);
        };
        rows << r;
    }
    {
        SettingRow r;
        r.fileKey = QStringLiteral("breaker_failure_ratio");
        r.envVar = QStringLiteral("BULLPEN_BREAKER_FAILURE_RATIO");
        r.type = SettingType::Ratio;
        r.doc = QStringLiteral("The share of those attempts failing by the provider's fault that opens the breaker.");
        r.low = 0;
        r.high = 1;
        r.set = [](Settings &s, const QVariant &v) {
            s.breaker.failureRatio = v.toDouble();
        };
        r.get = [](const Settings &s) {
            return QVariant(s.breaker.failureRatio);
        };
        rows << r;
    }
    rows << durationRow("breaker_cooldown", "BULLPEN_BREAKER_COOLDOWN",
                        "How long an open breaker waits before one trial request; doubles while the trials fail.", minutes(5),
                        &BreakerSettings::cooldown);
    return rows;
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
    }
    return {};
}

// The text's value, or nothing with the reason in *why.
std::optional<QVariant> parse(const SettingRow &row, const QString &text, QString *why)
{
    const QString t = text.trimmed().toLower();
    switch (row.type) {
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

// A JSON value as the text parse() reads: strings as they are, booleans and numbers written out.
std::optional<QString> jsonText(const QJsonValue &v)
{
    if (v.isString())
        return v.toString();
    if (v.isBool())
        return v.toBool() ? QStringLiteral("on") : QStringLiteral("off");
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 12);
    return std::nullopt;
}

} // namespace

QString SettingRow::format(const QVariant &value) const
{
    switch (type) {
    case SettingType::Switch:
        return value.toBool() ? QStringLiteral("on") : QStringLiteral("off");
    case SettingType::Duration:
        return formatDuration(milliseconds(value.toLongLong()));
    case SettingType::Count:
        return QString::number(value.toInt());
    case SettingType::Ratio:
        return QString::number(value.toDouble() * 100.0, 'g', 6) + QLatin1Char('%');
    }
    return {};
}

const QList<SettingRow> &settingRows()
{
    static const QList<SettingRow> rows = buildRows();
    return rows;
}

void applySettingRows(Settings &settings, const QJsonObject *root, const QString &settingsFile, const QProcessEnvironment &env,
                      const std::function<QString(const QString &)> &place, QList<ConfigError> *errors)
{
    for (const SettingRow &row : settingRows()) {
        QString why;
        if (root && root->contains(row.fileKey)) {
            const auto text = jsonText(root->value(row.fileKey));
            const auto value = text ? parse(row, *text, &why) : std::nullopt;
            if (value)
                row.set(settings, *value);
            else
                *errors << ConfigError { QStringLiteral("%1: %2").arg(settingsFile, row.fileKey),
                                         text ? why : QStringLiteral("must be %1").arg(typeWords(row)) };
        }
        if (env.contains(row.envVar)) {
            if (const auto value = parse(row, env.value(row.envVar), &why))
                row.set(settings, *value);
            else
                *errors << ConfigError { place(row.envVar), why };
        }
    }
}

void writeSettingRows(const Settings &settings, QJsonObject &root)
{
    for (const SettingRow &row : settingRows()) {
        const QVariant v = row.get(settings);
        switch (row.type) {
        case SettingType::Switch:
            root.insert(row.fileKey, v.toBool());
            break;
        case SettingType::Count:
            root.insert(row.fileKey, v.toInt());
            break;
        case SettingType::Ratio:
            root.insert(row.fileKey, v.toDouble());
            break;
        case SettingType::Duration:
            root.insert(row.fileKey, row.format(v));
            break;
        }
    }
}

QString settingsTableMarkdown()
{
    const Settings defaults = Settings::defaults();
    QString out = QStringLiteral("| settings file | environment | default | meaning |\n|---|---|---|---|\n");
    for (const SettingRow &row : settingRows())
        out += QStringLiteral("| `%1` | `%2` | `%3` | %4 |\n").arg(row.fileKey, row.envVar, row.format(row.get(defaults)), row.doc);
    return out;
}

} // namespace bullpen
