// SPDX-License-Identifier: MIT
#pragma once

#include "settings.h"

#include <QJsonObject>
#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QVariant>

#include <functional>

namespace bullpen {

// Settings as rows of one table: the settings-file key, the environment variable, the type, the default,
// the bounds and the sentence that documents it. The loader reads every row from the file and then the
// environment, the Settings view's file writer writes every row, and docs/configuration.md's table is
// checked against settingsTableMarkdown() by a test: adding such a setting is adding a row.
//
// The settings that are not rows yet (providers, the storyboard policy, retention, proxy) are read by
// SettingsLoader itself.
enum class SettingType {
    Switch, // on/off (file: true/false or "on"/"off"; environment: on, off, 1, 0, true, false)
    Duration, // "60s", "1500ms", "2m"
    Count, // a whole number within [low, high]
    Ratio, // a fraction within (low, high]: 0.5 or "50%"
};

struct SettingRow
{
    QString fileKey; // top-level key of the settings file
    QString envVar; // the environment variable that overrides it
    SettingType type = SettingType::Switch;
    QString doc; // one sentence, for --help, the docs and the Settings view's tooltip
    double low = 0;
    double high = 0; // Count and Ratio bounds; for a Duration, the longest allowed (ms), 0: 24 h
    // The value is a bool (Switch), qint64 milliseconds (Duration), int (Count) or double (Ratio).
    std::function<void(Settings &, const QVariant &)> set;
    std::function<QVariant(const Settings &)> get;

    QString format(const QVariant &value) const; // as the file and the docs write it: "on", "60s", "5", "50%"
};

const QList<SettingRow> &settingRows();

// Reads every row: from `root` (the settings file's object; null when there is no file), then from the
// environment, which wins. A refusal names the file and key, or the variable as `place(var)` says it.
void applySettingRows(Settings &settings, const QJsonObject *root, const QString &settingsFile, const QProcessEnvironment &env,
                      const std::function<QString(const QString &)> &place, QList<ConfigError> *errors);
// Writes every row's value into the settings file's root object.
void writeSettingRows(const Settings &settings, QJsonObject &root);
// The table for docs/configuration.md: key, variable, default, meaning.
QString settingsTableMarkdown();

} // namespace bullpen
