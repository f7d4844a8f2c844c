// SPDX-License-Identifier: MIT
#pragma once

#include "config/settingstable.h"

#include <QHash>
#include <QMap>
#include <QObject>

#include <functional>

class QFormLayout;
class QWidget;

namespace bullpen {

// The settings table's rows as the Settings view's fields (core/config/settingstable.h): one field per
// row, of the kind its type asks for, labelled, hinted and placed in its row's group from the row itself.
// A setting added to the table shows in the view with no change to the view; the view lays out only what
// is not a row (the providers, the data directory, retention, language, notifications).
class SettingsForm final : public QObject
{
    Q_OBJECT
public:
    enum class Kind {
        Duration, // a line edit read by the row's parser, above zero
        Integer, // a spin box within the row's bounds
        Choice, // a combo box of the row's choices
        Text, // a line edit read by the row's parser (text and ratios)
        Switch, // a check box labelled with the row's label
    };
    Q_ENUM(Kind)
    static Kind kindOf(const SettingRow &row);
    // The field's object name: the key's last part in camel case, then "Setting" ("primaryTimeoutSetting").
    static QString fieldName(const SettingRow &row);
    // The property every field carries: the variable of the row it edits.
    static constexpr char kRowProperty[] = "settingRow";

    explicit SettingsForm(QList<SettingRow> rows, QObject *parent = nullptr);

    struct Placement
    {
        std::function<QFormLayout *(SettingGroup)> formFor; // the group's form
        std::function<QWidget *(QWidget *, const QString &)> withError; // a field with its message line
        std::function<void()> changed; // a field was edited
    };
    // Each row's field, made and placed in its group's form, in the table's order.
    void build(const Placement &placement);
    void fill(const Settings &settings);
    // The fields into `settings`, each through its row's parser; a refusal under the row's variable.
    void read(Settings &settings, QMap<QString, QString> *errors) const;
    QWidget *field(const QString &envVar) const { return m_fields.value(envVar); }
    const QList<SettingRow> &rows() const { return m_rows; }

private:
    QWidget *makeField(const SettingRow &row, const std::function<void()> &changed);
    QList<SettingRow> m_rows;
    QHash<QString, QWidget *> m_fields; // a row's variable → its field
};

} // namespace bullpen
