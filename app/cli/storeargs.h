// SPDX-License-Identifier: MIT
#pragma once

#include "config/settings.h"
#include "contract/providertable.h"
#include "history/historyreader.h"
#include "runtime/enginesetup.h"
#include "store/store.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QFileInfo>
#include <QMetaEnum>

#include <memory>

namespace bullpen::cli {

// The options of the commands that read a store (history, export, spend, tune): where it is, and the
// filters; --engine (RemoteFlag) reads an engine's instead.
struct StoreArgs
{
    QCommandLineOption dataDir { QStringLiteral("data-dir"), QStringLiteral("The store's folder."), QStringLiteral("path") };
    QCommandLineOption since { QStringLiteral("since"), QStringLiteral("Only the last DURATION (e.g. 24h, 30m)."),
                               QStringLiteral("duration") };
    QCommandLineOption state { QStringLiteral("state"), QStringLiteral("succeeded, failed, cancelled, abandoned or running (any case)."),
                               QStringLiteral("state") };
    QCommandLineOption code { QStringLiteral("code"), QStringLiteral("Public code, e.g. AI_PROVIDER_ERROR (any case)."),
                              QStringLiteral("code") };
    QCommandLineOption kind { QStringLiteral("kind"), QStringLiteral("Failure kind, e.g. TIMEOUT (any case)."), QStringLiteral("kind") };
    QCommandLineOption stage { QStringLiteral("stage"), QStringLiteral("storyboard, image or captions."), QStringLiteral("stage") };
    QCommandLineOption provider { QStringLiteral("provider"),
                                  QStringLiteral("Primary or final provider: a built-in one or one the settings file adds."),
                                  QStringLiteral("provider") };
    QCommandLineOption settings { QStringLiteral("settings"),
                                  QStringLiteral("Settings file (JSON) whose added providers --provider may name (default: the user's)."),
                                  QStringLiteral("path") };

    void add(QCommandLineParser &p) const { p.addOptions({ dataDir, since, state, code, kind, stage, provider, settings }); }

    // The providers --provider may name: the built-ins and those the settings file adds (the named
    // one, refused when it cannot be read; else the user's, read as far as it goes).
    std::optional<ProviderTable> loadProviders(const QCommandLineParser &p, QString *error) const
    {
        const bool named = p.isSet(settings);
        const QString path = named ? p.value(settings) : EngineSetup::defaultSettingsFile();
        if (named && !QFileInfo(path).isFile()) {
            *error = QStringLiteral("--settings %1: no such file; give the settings file the engine runs with").arg(path);
            return std::nullopt;
        }
        const SettingsLoad load = SettingsLoader::load(path, {}, QProcessEnvironment::systemEnvironment(), false);
        if (named && !load.ok()) {
            *error = QStringLiteral("--settings %1: %2").arg(path, load.errors.constLast().toString());
            return std::nullopt;
        }
        return load.settings.providerTable;
    }

    // False (with a message) when an option does not parse. With `engineJudges` (--engine) a provider
    // is any well-formed id: the engine knows its own providers and refuses one it does not.
    bool filter(const QCommandLineParser &p, HistoryFilter *f, QString *error, bool engineJudges = false) const
    {
        std::optional<ProviderTable> providers;
        if (!engineJudges && p.isSet(provider) && !(providers = loadProviders(p, error)))
            return false;
        if (p.isSet(since)) {
            QString why;
            const auto d = parseDuration(p.value(since), &why);
            if (!d) {
                *error = QStringLiteral("--since: ") + why;
                return false;
            }
            f->fromMs = QDateTime::currentMSecsSinceEpoch() - d->count();
        }
        // Every value is checked against the enum it names, in any case: a typo is refused with the
        // valid values, never an empty result. Kinds and codes are listed upper case, the rest as ids.
        const auto pick = [&]<typename E>(const QCommandLineOption &option, bool lower, std::optional<E> *into) {
            if (!p.isSet(option))
                return true;
            const QString given = p.value(option).trimmed();
            QStringList valid;
            if constexpr (std::is_same_v<E, Provider>) { // an id the settings' table lists; with --engine, any id
                if ((*into = engineJudges ? providerFromStored(given.toLower()) : providers->find(given)))
                    return true;
                if (engineJudges)
                    *error = QStringLiteral("--%1 %2: not a provider id (1 to 32 lower-case letters, digits and '-')")
                                 .arg(option.names().constFirst(), given);
                else
                    *error = QStringLiteral("--%1 %2: not one of %3 (a provider the settings add is known with --settings FILE)")
                                 .arg(option.names().constFirst(), given, providers->idList());
                return false;
            } else {
                const QMetaEnum me = QMetaEnum::fromType<E>();
                for (int i = 0; i < me.keyCount(); ++i) {
                    const QString name = QString::fromLatin1(me.key(i));
                    if (given.compare(name, Qt::CaseInsensitive) == 0) {
                        *into = static_cast<E>(me.value(i));
                        return true;
                    }
                    valid << (lower ? name.toLower() : name);
                }
            }
            *error = QStringLiteral("--%1 %2: not one of %3").arg(option.names().constFirst(), given, valid.join(QStringLiteral(", ")));
            return false;
        };
        std::optional<HistoryState> stateValue;
        if (!pick(state, true, &stateValue) || !pick(code, false, &f->publicCode) || !pick(kind, false, &f->kind)
            || !pick(stage, true, &f->stage) || !pick(provider, true, &f->provider))
            return false;
        if (stateValue)
            f->states = { *stateValue };
        return true;
    }

    std::unique_ptr<Store> open(const QCommandLineParser &p, QString *error) const
    {
        const QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        const QString dir = p.isSet(dataDir) ? p.value(dataDir) : EngineSetup::defaultDataDir(environment);
        const std::optional<StoreLocation> location = StoreLocation::resolve(dir, environment, error);
        if (!location)
            return nullptr;
        // Never creates a store: a mistyped folder (or database) is refused. Where the store can be
        // written, opening it finishes the work of dead processes as ABANDONED first (so `--state
        // running` lists only live work); on a full disk or a read-only folder it is read as it is.
        if (!location->isPostgres() && !QFileInfo::exists(location->sqlitePath()))
            return Store::openReadOnly(*location, error); // says "no store at …"
        if (location->isPostgres() && !Store::openReadOnly(*location, error))
            return nullptr; // an empty database is refused, not given a schema
        QString writeError;
        if (auto store = Store::open(*location, &writeError))
            return store;
        return Store::openReadOnly(*location, error);
    }
};

} // namespace bullpen::cli
