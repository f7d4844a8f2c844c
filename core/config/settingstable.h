// SPDX-License-Identifier: MIT
#pragma once

#include "settings.h"

#include <QJsonObject>
#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <functional>
#include <optional>

namespace bullpen {

// Settings as rows of one table: the settings-file key, the environment variable, the type, the default,
// the bounds and the sentence that documents it. The loader reads every row from the file and then the
// environment, the Settings view's file writer writes every row, and docs/configuration.md's table is
// checked against settingsTableMarkdown() by a test: adding such a setting is adding a row.
//
// The settings that are not rows (the storyboard's providers, with their "none" and the simulator's
// default fallback; the providers' keys, endpoints and entries; retention's "off"; the data directory,
// whose variable the front ends read) are read by SettingsLoader itself.
enum class SettingType {
    Switch, // on/off (file: true/false or "on"/"off"; environment: on, off, 1, 0, true, false)
    Duration, // "60s", "1500ms", "2m"
    Count, // a whole number within [low, high]
    Ratio, // a fraction within (low, high]: 0.5 or "50%"
    Text, // a string, trimmed (the file: a JSON string)
};

// Where a row shows in the console's Settings view: the group box that holds its field (the view
// titles them; ui/views/settingsform.h).
enum class SettingGroup {
    Storyboard, // the storyboard stage, beside its provider pickers
    Pipeline, // the image and captions stages
    Store, // what is kept, and the interface
    Network, // proxy, trusted authorities, attaching to an engine
    Service, // bullpen-engine's queues and client limits
    Breakers,
};

struct SettingRow
{
    QString fileKey; // key of the settings file: "breaker", or "pipeline.image_timeout" for one inside a section
    QString envVar; // the environment variable that overrides it
    SettingType type = SettingType::Switch;
    QString doc; // one sentence, for --help, the docs and the Settings view's tooltip (marked for translation there)
    double low = 0;
    double high = 0; // Count and Ratio bounds; for a Duration, the longest allowed (ms), 0: 24 h
    QString unsetText; // a setting that may have no value (get() gives an invalid QVariant): what that means
    // How the Settings view shows it (ui/views/settingsform.h builds one field per row from these). The
    // texts are marked QT_TRANSLATE_NOOP("SettingRow", …) and translated there; a Switch's label is its
    // check box's text.
    SettingGroup group = SettingGroup::Store;
    const char *label = nullptr;
    const char *hint = nullptr; // an empty field's placeholder; none: the default
    const char *tip = nullptr; // the field's tooltip; none: doc, translated
    std::function<QStringList()> choices; // a Text row with fixed values: shown as a choice, not typed
    // The value is a bool (Switch), qint64 milliseconds (Duration), int (Count), double (Ratio) or QString (Text).
    std::function<void(Settings &, const QVariant &)> set; // an invalid QVariant: unset (a row with unsetText)
    std::function<QVariant(const Settings &)> get;

    QString format(const QVariant &value) const; // as the file and the docs write it: "on", "60s", "5", "50%"
    // The value a user's text stands for, or nothing with the reason (what it must be) in *why.
    std::optional<QVariant> parse(const QString &text, QString *why) const;
};

const QList<SettingRow> &settingRows();
const SettingRow *settingRow(const QString &envVar); // null: not a row

// Where the rows are read from, and how a refusal and an origin name the place.
struct SettingSources
{
    const QJsonObject *root = nullptr; // the settings file's object; null when there is no file
    QString settingsFile;
    QProcessEnvironment env;
    std::function<QString(const QString &)> place; // "NAME (environment)": how a refusal names a variable
    std::function<QString(const QString &)> origin; // "environment", "command-line flag --x": where a variable's value came from
    std::function<void(const QString &, const QString &)> noteOrigin; // variable, place: for later refusals (validate())
};

// Reads every row: from the settings file, then from the environment, which wins. A refusal names the
// file and key, or the variable as `place` says it.
void applySettingRows(Settings &settings, const SettingSources &sources, QList<ConfigError> *errors);
// Writes every row's value into the settings file's root object (a value that is unset: its key removed).
void writeSettingRows(const Settings &settings, QJsonObject &root);
// The table for docs/configuration.md: key, variable, default, meaning.
QString settingsTableMarkdown();
// The same for a program's --help (and so its man page): key, variable, default, then the meaning.
QString settingsHelpText();

} // namespace bullpen
