// SPDX-License-Identifier: MIT
#include "settings.h"

#include "config/providertrust.h"
#include "config/proxyrules.h"
#include "contract/providerregistry.h"
#include "providerentries.h"
#include "settingstable.h"
#include "store/privatefiles.h"
#include "trustedproxies.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>

#include <cmath>

namespace bullpen {

using namespace std::chrono;

namespace {

// A built-in provider's environment variable (GEMINI_BASE_URL); an added provider has none, and a
// refusal names its settings-file field instead (providers.local-vllm.base_url).
QString var(const ProviderTable &table, Provider p, const char *suffix)
{
    const ProviderSpec spec = table.spec(p);
    if (!spec.envPrefix.isEmpty())
        return spec.envPrefix + QLatin1StringView(suffix);
    return QStringLiteral("providers.%1.%2").arg(spec.id, QLatin1StringView(suffix + 1).toString().toLower());
}

// Where each storyboard setting was last set, to name the right place in a refusal.
struct Origins
{
    std::map<QString, QString> where; // env name → "settings file <path>, key storyboard.x" or "environment"
    void set(const QString &envName, const QString &place) { where[envName] = place; }
    QString describe(const QString &envName) const
    {
        const auto it = where.find(envName);
        return it == where.end() ? envName : envName + QStringLiteral(" (") + it->second + QLatin1Char(')');
    }
};

// The file's providers: the added ones join the settings' own table (with their defaults here), and
// the built-ins take what the file overrides.
void applyProviderEntries(Settings &s, const ProviderEntries &entries)
{
    s.added = entries.added;
    for (const Provider p : s.providerTable.setAdded(entries.added)) {
        const ProviderSpec spec = s.providerTable.spec(p);
        s.providers[p] = ProviderSettings { spec.baseUrl, spec.model, {}, SettingSource::Default, spec.stream, spec.price };
    }
    for (const auto &[p, o] : entries.builtIns) {
        ProviderSettings &ps = s.providers[p];
        ps.baseUrl = o.baseUrl.value_or(ps.baseUrl);
        ps.model = o.model.value_or(ps.model).trimmed();
        ps.stream = o.stream.value_or(ps.stream);
        ps.price = o.price.value_or(ps.price);
    }
}

std::optional<Provider> parseProviderName(const ProviderTable &table, QStringView v)
{
    if (v.compare(u"dashscope", Qt::CaseInsensitive) == 0)
        return Provider::Qwen;
    // Only a listed provider may be chosen: one the settings no longer add is history, not a choice.
    const std::optional<Provider> p = providerFromId(v.trimmed());
    return p && table.lists(*p) ? p : std::nullopt;
}

} // namespace

QString apiKeyVariable(const ProviderTable &table, Provider p)
{
    return table.spec(p).keyVariable;
}
QString baseUrlVariable(const ProviderTable &table, Provider p)
{
    return var(table, p, "_BASE_URL");
}
QString modelVariable(const ProviderTable &table, Provider p)
{
    return var(table, p, "_MODEL");
}
QString streamVariable(const ProviderTable &table, Provider p)
{
    return var(table, p, "_STREAM");
}
QString apiKeyVariable(Provider p)
{
    return ProviderRegistry::spec(p).keyVariable;
}
QString baseUrlVariable(Provider p)
{
    return var(ProviderTable(), p, "_BASE_URL");
}
QString modelVariable(Provider p)
{
    return var(ProviderTable(), p, "_MODEL");
}
QString streamVariable(Provider p)
{
    return var(ProviderTable(), p, "_STREAM");
}

std::optional<milliseconds> parseDuration(QStringView text, QString *why)
{
    static const QRegularExpression re(QStringLiteral(R"(^\s*([0-9]+(?:\.[0-9]+)?)\s*(ms|s|m|min|h)\s*$)"));
    const auto m = re.match(text.toString());
    if (!m.hasMatch()) {
        if (why)
            *why = QCoreApplication::translate("Duration", "\"%1\" is not a duration; write it with a unit, e.g. 60s, 1500ms or 2m")
                       .arg(text.toString());
        return std::nullopt;
    }
    const double value = m.captured(1).toDouble();
    const QStringView unit = m.capturedView(2);
    const double factor = unit == u"ms" ? 1.0 : unit == u"s" ? 1000.0 : unit == u"h" ? 3'600'000.0 : 60'000.0;
    const double ms = value * factor;
    if (!std::isfinite(ms) || ms > 24.0 * 3'600'000.0) {
        if (why)
            *why = QCoreApplication::translate("Duration", "\"%1\" is longer than 24 hours").arg(text.toString());
        return std::nullopt;
    }
    const auto result = milliseconds(std::llround(ms));
    if (result <= milliseconds::zero()) {
        if (why)
            *why = QCoreApplication::translate("Duration", "\"%1\" must be greater than zero").arg(text.toString());
        return std::nullopt;
    }
    return result;
}

const ProviderSettings &Settings::provider(Provider p) const
{
    static const ProviderSettings none;
    const auto it = providers.find(p);
    return it == providers.end() ? none : it->second;
}

bool Settings::noProviderConfigured() const
{
    for (const auto &[p, ps] : providers) {
        // A provider added by the settings file is meant to be called, with a key or without one.
        if (ps.hasKey() || !providerTable.spec(p).builtIn)
            return false;
    }
    return true;
}

StagePolicy Settings::storyboardPolicy() const
{
    return storyboard.routed().value_or(StagePolicy::relief(storyboard.primary, storyboard.fallback).withLimitsOf(storyboard));
}

Settings Settings::defaults()
{
    Settings s;
    s.storyboard = StagePolicy::relief(Provider::Gemini, std::nullopt); // no fallback unless configured (docs/contract.md §4.6)
    for (const Provider p : s.providerTable.all()) {
        const ProviderSpec spec = s.providerTable.spec(p);
        ProviderSettings ps;
        ps.baseUrl = spec.baseUrl;
        ps.model = spec.model;
        ps.stream = spec.stream;
        ps.price = spec.price;
        s.providers[p] = ps;
    }
    return s;
}

QList<ConfigError> SettingsLoader::validate(const Settings &s, bool requireKeys)
{
    QList<ConfigError> errors;
    const StagePolicy &sb = s.storyboard;
    if (!sb.routed())
        errors << ConfigError {
            QStringLiteral("STORYBOARD_POLICY"),
            QStringLiteral("unknown policy \"%1\"; use one of %2").arg(sb.preset, StagePolicy::presetNames().join(QStringLiteral(", ")))
        };
    if (sb.fallback && *sb.fallback == sb.primary)
        errors << ConfigError { QStringLiteral("STORYBOARD_FALLBACK_PROVIDER"),
                                QStringLiteral("is the same provider as STORYBOARD_PROVIDER (%1); a fallback provider must be another "
                                               "provider, or set it to none")
                                    .arg(toId(sb.primary)) };
    if (sb.primaryTimeout <= milliseconds::zero())
        errors << ConfigError { QStringLiteral("STORYBOARD_PRIMARY_TIMEOUT"), QStringLiteral("must be greater than zero") };
    if (sb.fallbackTimeout <= milliseconds::zero())
        errors << ConfigError { QStringLiteral("STORYBOARD_FALLBACK_TIMEOUT"), QStringLiteral("must be greater than zero") };
    if (sb.totalBudget && *sb.totalBudget <= milliseconds::zero())
        errors << ConfigError { QStringLiteral("STORYBOARD_TOTAL_BUDGET"), QStringLiteral("must be greater than zero") };
    // The dashboards read whole hours from the aggregates: they must outlive the rows they count.
    if (s.retention.aggregates && (!s.retention.generations || *s.retention.aggregates < *s.retention.generations))
        errors << ConfigError { QStringLiteral("BULLPEN_AGGREGATE_RETENTION"),
                                QStringLiteral("is %1, shorter than the generations' retention (%2); the dashboards would lose hours "
                                               "the store still has rows for: make it at least %2, or off")
                                    .arg(formatRetention(s.retention.aggregates), formatRetention(s.retention.generations)) };
    if (QString why; !ProxyRules::from(s.proxy, {}, &why))
        errors << ConfigError { QStringLiteral("BULLPEN_PROXY"), why.section(QStringLiteral(": "), 1) };
    if (QString why; !s.providerCa.isEmpty() && !readPemCertificates(s.providerCa, &why))
        errors << ConfigError { QStringLiteral("BULLPEN_PROVIDER_CA"), why };
    if (QString why; !TrustedProxies::parse(s.trustedProxies, &why))
        errors << ConfigError { QStringLiteral("BULLPEN_TRUSTED_PROXIES"), why };

    auto checkSelected = [&](Provider p, const QString &selector) {
        const ProviderSettings &ps = s.provider(p);
        const QUrl &u = ps.baseUrl;
        if (!u.isValid() || u.host().isEmpty() || (u.scheme() != u"http" && u.scheme() != u"https"))
            errors << ConfigError {
                baseUrlVariable(s.providerTable, p),
                QStringLiteral("%1=%2 needs an http(s) endpoint with a host; got \"%3\"").arg(selector, toId(p), u.toString())
            };
        if (ps.model.trimmed().isEmpty())
            errors << ConfigError { modelVariable(s.providerTable, p), QStringLiteral("%1=%2 needs a model name").arg(selector, toId(p)) };
        if (!s.providerTable.spec(p).serves(Stage::Storyboard))
            errors << ConfigError { selector,
                                    QStringLiteral("%1 does not serve the storyboard stage; add \"storyboard\" to its stages, or choose "
                                                   "another provider")
                                        .arg(toId(p)) };
        if (requireKeys && s.providerTable.spec(p).takesKey() && !ps.hasKey())
            errors << ConfigError { apiKeyVariable(s.providerTable, p),
                                    QStringLiteral("%1=%2 needs an API key: set %3 in the environment or in the key file "
                                                   "(one NAME=value per line, mode 0600)")
                                        .arg(selector, toId(p), apiKeyVariable(s.providerTable, p)) };
    };
    // An added provider that names a key variable must find a key there (docs/configuration.md, "Providers").
    for (const auto &[p, ps] : s.providers) {
        const ProviderSpec spec = s.providerTable.spec(p);
        if (requireKeys && !spec.builtIn && spec.takesKey() && !ps.hasKey())
            errors << ConfigError { QStringLiteral("providers (%1).key_variable").arg(spec.id),
                                    QStringLiteral("names %1, which is empty or not set: set it in the environment or the key file, or "
                                                   "remove key_variable if the provider takes no key")
                                        .arg(spec.keyVariable) };
    }
    checkSelected(sb.primary, QStringLiteral("STORYBOARD_PROVIDER"));
    if (sb.fallback && *sb.fallback != sb.primary)
        checkSelected(*sb.fallback, QStringLiteral("STORYBOARD_FALLBACK_PROVIDER"));
    return errors;
}

QString formatDuration(milliseconds d)
{
    if (d.count() % 1000 == 0)
        return QStringLiteral("%1s").arg(d.count() / 1000);
    return QStringLiteral("%1ms").arg(d.count());
}

QJsonObject SettingsFile::toJson(const Settings &s, const QJsonObject &previous)
{
    QJsonObject root = previous;
    QJsonObject sb = previous.value(QLatin1StringView("storyboard")).toObject();
    sb.insert(QStringLiteral("provider"), toId(s.storyboard.primary));
    sb.insert(QStringLiteral("fallback_provider"), s.storyboard.fallback ? toId(*s.storyboard.fallback) : QStringLiteral("none"));
    root.insert(QStringLiteral("storyboard"), sb);
    root.insert(QStringLiteral("retention"), formatRetention(s.retention.generations));
    if (s.aggregateRetentionChosen)
        root.insert(QStringLiteral("aggregate_retention"), formatRetention(s.retention.aggregates));
    writeSettingRows(s, root);
    if (s.dataDir.isEmpty())
        root.remove(QStringLiteral("data_dir"));
    else
        root.insert(QStringLiteral("data_dir"), s.dataDir);
    root.insert(QStringLiteral("providers"), ProviderEntries::write(s, previous.value(QLatin1StringView("providers"))));
    return root;
}

bool SettingsFile::save(const Settings &settings, const QString &path, QString *error)
{
    QJsonObject previous;
    if (QFile in(path); in.exists() && in.size() <= 1024 * 1024 && in.open(QIODevice::ReadOnly))
        previous = QJsonDocument::fromJson(in.readAll()).object();
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        *error = QStringLiteral("%1: cannot create its folder; choose another settings location").arg(path);
        return false;
    }
    QSaveFile f(path);
    const QByteArray bytes = QJsonDocument(toJson(settings, previous)).toJson(QJsonDocument::Indented);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        *error = QStringLiteral("%1: not saved (%2); the previous file is unchanged. Free space or fix the folder's permissions.")
                     .arg(path, f.errorString());
        return false;
    }
    return true;
}

QProcessEnvironment KeyFile::readAll(const QString &keyFile, QList<ConfigError> *errors)
{
    QProcessEnvironment keys;
    const QFileDevice::Permissions perms = QFileInfo(keyFile).permissions();
    const QFileDevice::Permissions others = QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ExeGroup
        | QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther;
    QFile f(keyFile);
    if (perms & others) {
        *errors << ConfigError { keyFile, QStringLiteral("holds API keys but others can read it; run: chmod 600 %1").arg(keyFile) };
    } else if (!f.open(QIODevice::ReadOnly)) {
        *errors << ConfigError { keyFile, QStringLiteral("cannot be read (%1)").arg(f.errorString()) };
    } else if (const QByteArray all = f.read(64 * 1024 + 1); all.size() > 64 * 1024) {
        *errors << ConfigError { keyFile, QStringLiteral("is larger than 64 KiB; it is not a key file (NAME=value lines)") };
    } else {
        int lineNo = 0;
        const QList<QByteArray> rawLines = all.split('\n');
        for (const QByteArray &raw : rawLines) {
            ++lineNo;
            if (!QUtf8StringView(raw).isValidUtf8() || raw.contains('\0')) {
                *errors << ConfigError { QStringLiteral("%1:%2").arg(keyFile).arg(lineNo),
                                         QStringLiteral("is not UTF-8 text; save the file as UTF-8") };
                continue;
            }
            const QString line = QString::fromUtf8(raw).trimmed();
            if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
                continue;
            const qsizetype eq = line.indexOf(QLatin1Char('='));
            if (eq <= 0) {
                *errors << ConfigError { QStringLiteral("%1:%2").arg(keyFile).arg(lineNo), QStringLiteral("expected NAME=value") };
                continue;
            }
            keys.insert(line.left(eq).trimmed(), line.mid(eq + 1).trimmed());
        }
    }
    return keys;
}

std::optional<QString> KeyFile::value(const QString &path, const QString &name, QString *error)
{
    if (!QFileInfo::exists(path))
        return std::nullopt;
    QList<ConfigError> errors;
    const QProcessEnvironment keys = readAll(path, &errors);
    if (!errors.isEmpty()) {
        if (error)
            *error = errors.constFirst().toString();
        return std::nullopt;
    }
    return keys.contains(name) ? std::optional<QString>(keys.value(name)) : std::nullopt;
}

bool KeyFile::setKey(const QString &path, const QString &name, const QString &value, QString *error)
{
    QStringList lines;
    if (QFile in(path); in.exists()) {
        if (!in.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("%1: cannot be read (%2)").arg(path, in.errorString());
            return false;
        }
        bool replaced = false;
        while (!in.atEnd()) {
            const QString line = QString::fromUtf8(in.readLine()).trimmed();
            const qsizetype eq = line.indexOf(QLatin1Char('='));
            if (eq > 0 && line.left(eq).trimmed() == name) {
                if (!value.isEmpty() && !replaced)
                    lines << name + QLatin1Char('=') + value;
                replaced = true;
                continue;
            }
            if (!line.isEmpty())
                lines << line;
        }
        if (!replaced && !value.isEmpty())
            lines << name + QLatin1Char('=') + value;
    } else if (!value.isEmpty()) {
        lines << name + QLatin1Char('=') + value;
    }
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        *error = QStringLiteral("%1: cannot create its folder").arg(path);
        return false;
    }
    if (!PrivateFiles::checkEntry(path, false, error))
        return false;
    // A 0600 temporary created by open(2) itself, then renamed over the old file.
    const QByteArray bytes = lines.isEmpty() ? QByteArray() : lines.join(QLatin1Char('\n')).toUtf8() + '\n';
    return PrivateFiles::replace(path, bytes, error);
}

QString maskApiKey(const QString &key)
{
    if (key.isEmpty())
        return {};
    if (key.size() < 16)
        return QStringLiteral("••••••");
    return key.left(4) + QStringLiteral("…") + key.right(4);
}

namespace {

// One load: the settings being filled, the refusals, and where each value came from. Each step of
// SettingsLoader::load is one member; a setting that is a row of the settings table is read by
// applySettingRows instead (settingstable.h).
class Loader
{
public:
    Loader(Settings &settings, QList<ConfigError> &refusals, Origins &from, const QString &file)
        : s(settings)
        , errors(refusals)
        , origins(from)
        , settingsFile(file)
    {
    }

    std::optional<QJsonObject> readFile();
    void readSections(const QJsonObject &root);
    void readProviderEnvironment(const QProcessEnvironment &env, const QProcessEnvironment &keys, const QProcessEnvironment &keychain);
    void readEnvironment(const QProcessEnvironment &env);

    QString envPlace(const QProcessEnvironment &env, const QString &name) const
    {
        const QString flag = env.value(QStringLiteral("BULLPEN_FLAG_") + name);
        return flag.isEmpty() ? QStringLiteral("environment") : QStringLiteral("command-line flag %1").arg(flag);
    }
    // "NAME (environment)", or "NAME (command-line flag --x)": how a refusal names an override.
    QString envSetting(const QProcessEnvironment &env, const QString &name) const
    {
        return QStringLiteral("%1 (%2)").arg(name, envPlace(env, name));
    }

private:
    // A string at `key` of `o` (`path` names it in a refusal): false when absent or not a string.
    bool fileString(const QJsonObject &o, const char *key, const QString &path, QString *value)
    {
        const QJsonValue v = o.value(QLatin1StringView(key));
        if (v.isUndefined())
            return false;
        if (!v.isString()) {
            errors << ConfigError { QStringLiteral("%1: %2").arg(settingsFile, path), QStringLiteral("must be a string") };
            return false;
        }
        *value = v.toString();
        return true;
    }
    void applyProvider(const QString &setting, const QString &value, bool fallback);
    void applyRetention(const QString &setting, const QString &value, bool aggregates);

    Settings &s;
    QList<ConfigError> &errors;
    Origins &origins;
    const QString settingsFile;
    std::map<QString, QString> refusedProviders; // ProviderEntries::refused
};

void Loader::applyProvider(const QString &setting, const QString &value, bool fallback)
{
    if (fallback)
        s.storyboardFallbackChosen = true;
    if (fallback && value.trimmed().compare(u"none", Qt::CaseInsensitive) == 0) {
        s.storyboard.fallback.reset();
        return;
    }
    const auto p = parseProviderName(s.providerTable, value);
    if (p && fallback)
        s.storyboard.fallback = *p;
    else if (p)
        s.storyboard.primary = *p;
    else if (const auto refused = refusedProviders.find(value.trimmed().toLower()); refused != refusedProviders.end())
        errors << ConfigError {
            setting,
            QStringLiteral("\"%1\" is the provider whose entry was refused: fix that entry (%2)").arg(value.trimmed(), refused->second)
        };
    else
        errors << ConfigError { setting,
                                QStringLiteral("unknown provider \"%1\"; use %2%3")
                                    .arg(value, s.providerTable.idList(), fallback ? QStringLiteral(", or none") : QString()) };
}

void Loader::applyRetention(const QString &setting, const QString &value, bool aggregates)
{
    QString why;
    bool off = false;
    const auto period = parseRetention(value, &off, &why);
    if (!period && !off) {
        errors << ConfigError { setting, why };
        return;
    }
    (aggregates ? s.retention.aggregates : s.retention.generations) = period;
    if (aggregates) {
        s.aggregateRetentionChosen = true;
        origins.set(QStringLiteral("BULLPEN_AGGREGATE_RETENTION"), setting);
    }
}

// 1. The settings file (JSON). A missing file is fine; a broken one is refused, and nothing is guessed.
// Its root object, for the settings table's rows, when it was read.
std::optional<QJsonObject> Loader::readFile()
{
    std::optional<QJsonObject> fileRoot;
    if (!settingsFile.isEmpty() && QFileInfo::exists(settingsFile)) {
        s.settingsFile = settingsFile;
        QFile f(settingsFile);
        if (!f.open(QIODevice::ReadOnly)) {
            errors << ConfigError { settingsFile,
                                    QStringLiteral("cannot be read (%1); fix its permissions or remove it").arg(f.errorString()) };
        } else if (const QByteArray bytes = f.read(1024 * 1024 + 1); bytes.size() > 1024 * 1024) {
            // Read with a cap, not by the size stat() reports (0 for /dev/zero, a FIFO or /proc).
            errors << ConfigError { settingsFile, QStringLiteral("is larger than 1 MiB; it is not a Bullpen settings file") };
        } else {
            QJsonParseError perr {};
            const QJsonDocument doc = QJsonDocument::fromJson(bytes, &perr);
            const bool utf16 = bytes.startsWith("\xff\xfe") || bytes.startsWith("\xfe\xff");
            if (utf16) {
                errors << ConfigError { settingsFile, QStringLiteral("is UTF-16 text; save it as UTF-8") };
            } else if (perr.error == QJsonParseError::IllegalUTF8String) {
                errors << ConfigError {
                    settingsFile, QStringLiteral("is not UTF-8 (an invalid byte sequence at offset %1); save it as UTF-8").arg(perr.offset)
                };
            } else if (perr.error != QJsonParseError::NoError || !doc.isObject()) {
                errors << ConfigError { settingsFile,
                                        perr.error != QJsonParseError::NoError
                                            ? QStringLiteral("is not valid JSON: %1 at offset %2; fix or remove the file")
                                                  .arg(perr.errorString())
                                                  .arg(perr.offset)
                                            : QStringLiteral("must hold a JSON object") };
            } else {
                const QJsonObject root = doc.object();
                fileRoot = root;
                readSections(root);
            }
        }
    }
    return fileRoot;
}

void Loader::readSections(const QJsonObject &root)
{
    const QString fileTag = QStringLiteral("settings file ") + settingsFile;
    // A section of the wrong type is refused, not read as empty.
    for (const char *section : { "storyboard", "pipeline" }) {
        const QJsonValue v = root.value(QLatin1StringView(section));
        if (!v.isUndefined() && !v.isObject())
            errors << ConfigError { QStringLiteral("%1: %2").arg(settingsFile, QLatin1StringView(section)),
                                    QStringLiteral("must be a JSON object") };
    }
    // Providers first: an added provider's id is then known to the storyboard's settings below.
    const ProviderEntries entries = ProviderEntries::read(root.value(QLatin1StringView("providers")), settingsFile, &errors);
    refusedProviders = entries.refused;
    applyProviderEntries(s, entries);
    const QJsonObject sb = root.value(QLatin1StringView("storyboard")).toObject();
    QString v;
    if (fileString(sb, "provider", QStringLiteral("storyboard.provider"), &v)) {
        applyProvider(QStringLiteral("%1: storyboard.provider").arg(settingsFile), v, false);
        origins.set(QStringLiteral("STORYBOARD_PROVIDER"), fileTag);
    }
    if (fileString(sb, "fallback_provider", QStringLiteral("storyboard.fallback_provider"), &v)) {
        applyProvider(QStringLiteral("%1: storyboard.fallback_provider").arg(settingsFile), v, true);
        origins.set(QStringLiteral("STORYBOARD_FALLBACK_PROVIDER"), fileTag);
    }
    if (fileString(root, "data_dir", QStringLiteral("data_dir"), &v))
        s.dataDir = v.trimmed();
    if (fileString(root, "retention", QStringLiteral("retention"), &v))
        applyRetention(QStringLiteral("%1: retention").arg(settingsFile), v, false);
    if (fileString(root, "aggregate_retention", QStringLiteral("aggregate_retention"), &v))
        applyRetention(QStringLiteral("%1: aggregate_retention").arg(settingsFile), v, true);
}

// The providers' keys (key file, then keychain, then environment) and the built-ins' endpoints.
void Loader::readProviderEnvironment(const QProcessEnvironment &env, const QProcessEnvironment &keys, const QProcessEnvironment &keychain)
{
    auto envValue = [&](const QString &name) -> std::optional<QString> {
        if (!env.contains(name))
            return std::nullopt;
        return env.value(name);
    };
    for (const Provider p : s.providerTable.all()) {
        ProviderSettings &ps = s.providers[p];
        const QString keyVar = apiKeyVariable(s.providerTable, p);
        if (!keyVar.isEmpty() && keys.contains(keyVar)) {
            ps.apiKey = keys.value(keyVar);
            ps.keySource = SettingSource::KeyFile;
        }
        if (const QString k = keyVar.isEmpty() ? QString() : keychain.value(keyVar).trimmed(); !k.isEmpty()) {
            ps.apiKey = k;
            ps.keySource = SettingSource::Keychain;
        }
        if (auto v = keyVar.isEmpty() ? std::nullopt : envValue(keyVar); v && !v->trimmed().isEmpty()) {
            ps.apiKey = v->trimmed();
            ps.keySource = SettingSource::Environment;
        }
        if (!s.providerTable.spec(p).builtIn)
            continue; // an added provider is described by its settings-file entry alone
        if (auto v = envValue(baseUrlVariable(s.providerTable, p)))
            ps.baseUrl = QUrl(v->trimmed());
        if (auto v = envValue(modelVariable(s.providerTable, p)))
            ps.model = v->trimmed();
        if (auto v = envValue(streamVariable(s.providerTable, p))) {
            const QString b = v->trimmed().toLower();
            if (b == u"1" || b == u"true" || b == u"yes")
                ps.stream = true;
            else if (b == u"0" || b == u"false" || b == u"no")
                ps.stream = false;
            else
                errors << ConfigError { streamVariable(s.providerTable, p), QStringLiteral("\"%1\" is not 1, 0, true or false").arg(*v) };
        }
    }
}

// 3. The environment overrides everything (docs/contract.md §4.6). A front end that turns its flags into these
// overrides names the flag in BULLPEN_FLAG_<NAME>, so a refusal points at what the user typed.
void Loader::readEnvironment(const QProcessEnvironment &env)
{
    for (const auto &[name, fallback] : { std::pair { QStringLiteral("STORYBOARD_PROVIDER"), false },
                                          std::pair { QStringLiteral("STORYBOARD_FALLBACK_PROVIDER"), true } }) {
        if (env.contains(name)) {
            applyProvider(envSetting(env, name), env.value(name), fallback);
            origins.set(name, envPlace(env, name));
        }
    }
    for (const auto &[name, aggregates] :
         { std::pair { QStringLiteral("BULLPEN_RETENTION"), false }, std::pair { QStringLiteral("BULLPEN_AGGREGATE_RETENTION"), true } }) {
        if (env.contains(name))
            applyRetention(name, env.value(name), aggregates);
    }
    if (!s.retention.generations && !s.aggregateRetentionChosen)
        s.retention.aggregates.reset(); // rows kept for ever: their aggregates too
}

} // namespace

SettingsLoad SettingsLoader::load(const QString &settingsFile, const QString &keyFile, const QProcessEnvironment &env, bool requireKeys,
                                  const QProcessEnvironment &keychain)
{
    SettingsLoad out;
    out.settings = Settings::defaults();
    Settings &s = out.settings;
    Origins origins;
    QList<ConfigError> &errors = out.errors;
    Loader loader(s, errors, origins, settingsFile);
    const std::optional<QJsonObject> fileRoot = loader.readFile();

    // 2. The key file: NAME=value lines, readable by the user alone.
    QProcessEnvironment keys;
    if (!keyFile.isEmpty() && QFileInfo::exists(keyFile)) {
        s.keyFile = keyFile;
        keys = KeyFile::readAll(keyFile, &errors);
    }

    loader.readProviderEnvironment(env, keys, keychain);
    loader.readEnvironment(env);

    // The settings table's rows: the file's value, then the environment's (settingstable.h).
    SettingSources sources;
    sources.root = fileRoot ? &*fileRoot : nullptr;
    sources.settingsFile = settingsFile;
    sources.env = env;
    sources.place = [&](const QString &name) {
        return loader.envSetting(env, name);
    };
    sources.origin = [&](const QString &name) {
        return loader.envPlace(env, name);
    };
    sources.noteOrigin = [&](const QString &name, const QString &place) {
        origins.set(name, place);
    };
    applySettingRows(s, sources, &errors);

    // 4. Refusals that need the whole picture, naming where each value came from.
    for (ConfigError e : validate(s, requireKeys)) {
        e.setting = origins.describe(e.setting);
        errors << e;
    }
    return out;
}

} // namespace bullpen
