// SPDX-License-Identifier: MIT
#include "providerlist.h"

#include "config/exitcode.h"
#include "config/settings.h"
#include "enginecall.h"
#include "failure/secretscrubber.h"
#include "runtime/logsink.h"
#include "wire/apiroutes.h"
#include "wire/engineconfigjson.h"
#include "wire/providerlisting.h"
#include "wire/statsjson.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QTextStream>

namespace bullpen::cli {

namespace {

// What an engine sent, on a terminal: control characters (escape sequences, line breaks) become spaces.
QString printable(const QString &text)
{
    return SecretScrubber::printable(text);
}

QString since(const QDateTime &t)
{
    return t.isValid() ? t.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QStringLiteral("-");
}

QString number(std::optional<double> n, int decimals)
{
    return n ? QString::number(*n, 'f', decimals) : QStringLiteral("-");
}

QString priceText(const Price &p)
{
    if (!p.known())
        return QStringLiteral("-");
    QStringList parts;
    if (p.inputPerMillion || p.outputPerMillion)
        parts << QStringLiteral("%1/%2 per 1M").arg(number(p.inputPerMillion, 2), number(p.outputPerMillion, 2));
    if (p.perImage)
        parts << QStringLiteral("%1 per image").arg(number(p.perImage, 3));
    return parts.join(QStringLiteral(", ")) + QLatin1Char(' ') + p.currency;
}

QString stateText(const ProviderListing &l)
{
    if (l.drained())
        return QStringLiteral("DRAINED");
    QString worst;
    for (const BreakerView &b : l.breakers)
        if (b.state == BreakerState::Open || (b.state == BreakerState::HalfOpen && worst.isEmpty()))
            worst = toId(b.state).toUpper();
    return !worst.isEmpty() ? worst : l.breakers.isEmpty() ? QStringLiteral("no traffic yet") : QStringLiteral("closed");
}

// A window's cell, "-" where the engine counted no attempt of the provider.
template<typename F> QString windowCell(const std::optional<ProviderWindow> &w, F cell)
{
    return w ? cell(*w) : QStringLiteral("-");
}

// The columns, in order: a header and how a listing fills it. `engineOnly`: shown when an engine answered.
struct Column
{
    const char *header;
    QString (*cell)(const ProviderListing &);
    bool engineOnly = false;
};

const Column kColumns[] {
    { "ID",
      [](const ProviderListing &l) {
          return l.spec.id;
      } },
    { "DIALECT",
      [](const ProviderListing &l) {
          return toId(l.spec.dialect);
      } },
    { "HOST",
      [](const ProviderListing &l) {
          const QUrl &u = l.spec.baseUrl;
          return u.port() < 0 ? u.host() : QStringLiteral("%1:%2").arg(u.host()).arg(u.port());
      } },
    { "STAGES",
      [](const ProviderListing &l) {
          QStringList s;
          for (const Stage stage : l.spec.stages)
              s << toId(stage);
          return s.join(QLatin1Char(','));
      } },
    { "ROLES",
      [](const ProviderListing &l) {
          return l.roles.isEmpty() ? QStringLiteral("-") : l.roles.join(QLatin1Char(','));
      } },
    { "PRICE",
      [](const ProviderListing &l) {
          return priceText(l.spec.price);
      } },
    { "STATE", &stateText, true },
    { "5M ATTEMPTS",
      [](const ProviderListing &l) { return windowCell(l.last5m, [](const ProviderWindow &w) { return QString::number(w.attempts); }); },
      true },
    { "5M ERR%",
      [](const ProviderListing &l) { return windowCell(l.last5m, [](const ProviderWindow &w) { return number(w.errorPercent, 1); }); },
      true },
    { "5M P50 MS",
      [](const ProviderListing &l) { return windowCell(l.last5m, [](const ProviderWindow &w) { return number(w.p50Ms, 0); }); }, true },
    { "15M ATTEMPTS",
      [](const ProviderListing &l) { return windowCell(l.last15m, [](const ProviderWindow &w) { return QString::number(w.attempts); }); },
      true },
    { "15M ERR%",
      [](const ProviderListing &l) { return windowCell(l.last15m, [](const ProviderWindow &w) { return number(w.errorPercent, 1); }); },
      true },
};

// Below a provider's row: each drain, and each breaker that is not closed, in words.
QStringList notesOf(const ProviderListing &l)
{
    QStringList notes;
    for (const Drain &d : l.drains) {
        const QString scope =
            QStringLiteral("%1/%2").arg(d.role ? toId(*d.role) : QStringLiteral("any"), d.stage ? toId(*d.stage) : QStringLiteral("any"));
        QString n = QStringLiteral("DRAINED %1 by %2 since %3").arg(scope, printable(d.by), since(d.since));
        if (d.until)
            n += QStringLiteral(" until %1").arg(since(*d.until));
        notes << n + QStringLiteral(": ") + printable(d.reason);
    }
    for (const BreakerView &b : l.breakers) {
        const QString where = QStringLiteral("%1/%2").arg(toId(b.key.role), toId(b.key.stage));
        if (b.state == BreakerState::Closed)
            notes << QStringLiteral("%1 closed (%2 failed of %3 in the window)").arg(where).arg(b.failures).arg(b.attempts);
        else
            notes << QStringLiteral("%1 %2 since %3: %4").arg(where, toId(b.state).toUpper(), since(b.since), printable(b.reason));
    }
    return notes;
}

void printTable(QTextStream &out, const QList<ProviderListing> &listing, bool fromEngine)
{
    QList<const Column *> columns;
    for (const Column &c : kColumns)
        if (fromEngine || !c.engineOnly)
            columns << &c;
    QList<QStringList> rows { {} };
    for (const Column *c : columns)
        rows.first() << QString::fromLatin1(c->header);
    for (const ProviderListing &l : listing) {
        QStringList row;
        for (const Column *c : columns)
            row << printable(c->cell(l));
        rows << row;
    }
    QList<qsizetype> widths(columns.size(), 0);
    for (const QStringList &row : rows)
        for (qsizetype i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], row.at(i).size());
    for (qsizetype r = 0; r < rows.size(); ++r) {
        QString line;
        for (qsizetype i = 0; i < rows.at(r).size(); ++i)
            line += rows.at(r).at(i).leftJustified(widths.at(i) + 2);
        out << line.trimmed() << "\n";
        if (r > 0 && fromEngine)
            for (const QString &n : notesOf(listing.at(r - 1)))
                out << "    " << n << "\n";
    }
}

// The engine's providers through the codecs: GET /v1/config (what each is), GET /v1/providers and GET
// /v1/stats/providers. Nothing is adopted into this process's list: the codec makes the engine's ids
// known here (ProviderListingJson::specs), which is all that reading its rows needs.
std::optional<QList<ProviderListing>> fromEngine(const EngineEndpoint &endpoint, QString *error, bool *refusedByEngine)
{
    const auto get = [&](ApiRoute route, QJsonObject *into) {
        const EngineAnswer a = callEngine(endpoint, ApiRoutes::path(route), {}, nullptr);
        if (!a.error.isEmpty()) {
            *error = a.error;
            *refusedByEngine = a.status >= 400 && a.status < 500;
            return false;
        }
        *into = QJsonDocument::fromJson(a.body).object();
        return true;
    };
    QJsonObject config, providers, stats;
    if (!get(ApiRoute::Config, &config))
        return std::nullopt;
    auto specs = ProviderListingJson::specs(config);
    if (const FieldError *e = std::get_if<FieldError>(&specs)) {
        *error = QStringLiteral("its providers (GET /v1/config) cannot be read: %1").arg(e->toString());
        return std::nullopt;
    }
    auto whole = EngineConfigJson::fromJson(config);
    if (const FieldError *e = std::get_if<FieldError>(&whole)) {
        *error = QStringLiteral("its configuration (GET /v1/config) cannot be read: %1").arg(e->toString());
        return std::nullopt;
    }
    if (!get(ApiRoute::Providers, &providers) || !get(ApiRoute::StatsProviders, &stats))
        return std::nullopt;
    auto windows = StatsJson::providerWindowsFromJson(stats);
    if (const FieldError *e = std::get_if<FieldError>(&windows)) {
        *error = QStringLiteral("its statistics (GET /v1/stats/providers) cannot be read: %1").arg(e->toString());
        return std::nullopt;
    }
    return ProviderListingJson::assemble(std::get<QList<ProviderSpec>>(specs), std::get<EngineConfig>(whole).storyboardPolicy, providers,
                                         std::get<ProviderWindows>(windows));
}

} // namespace

int listProviders(const std::optional<EngineEndpoint> &engine, const QString &settingsFile, bool settingsNamed, bool json)
{
    QTextStream out(stdout);
    QTextStream err(logging::stderrDevice());
    QList<ProviderListing> listing;
    if (engine) {
        QString error;
        bool refused = false;
        const std::optional<QList<ProviderListing>> read = fromEngine(*engine, &error, &refused);
        if (!read) {
            err << "bullpen-cli provider: " << engine->display() << ": " << error << "\n";
            return refused ? kExitUsage : kExitUnreachable;
        }
        listing = *read;
    } else {
        if (settingsNamed && !QFileInfo(settingsFile).isFile()) {
            err << "bullpen-cli provider: --settings " << settingsFile << ": no such file; give the settings file the engine runs with\n";
            return kExitUsage;
        }
        const SettingsLoad load = SettingsLoader::load(settingsFile, {}, QProcessEnvironment::systemEnvironment(), false);
        if (!load.ok() && settingsNamed) {
            err << "bullpen-cli provider: --settings " << settingsFile << ": " << load.errors.constLast().toString() << "\n";
            return kExitUsage;
        }
        listing = ProviderListingJson::fromSettings(load.settings);
    }
    if (json)
        out << QJsonDocument(ProviderListingJson::toJson(listing)).toJson(QJsonDocument::Indented);
    else
        printTable(out, listing, engine.has_value());
    return kExitOk;
}

} // namespace bullpen::cli
