// SPDX-License-Identifier: MIT
#include "settingsform.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFormLayout>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>

#include <utility>

namespace bullpen {

namespace {

// A row's text as marked in the table: QT_TRANSLATE_NOOP("SettingRow", …).
QString translated(const char *text)
{
    return text ? QCoreApplication::translate("SettingRow", text) : QString();
}

} // namespace

SettingsForm::SettingsForm(QList<SettingRow> rows, QObject *parent)
    : QObject(parent)
    , m_rows(std::move(rows))
{
}

SettingsForm::Kind SettingsForm::kindOf(const SettingRow &row)
{
    switch (row.type) {
    case SettingType::Switch:
        return Kind::Switch;
    case SettingType::Duration:
        return Kind::Duration;
    case SettingType::Count:
        return Kind::Integer;
    case SettingType::Ratio:
        return Kind::Text;
    case SettingType::Text:
        return row.choices ? Kind::Choice : Kind::Text;
    }
    return Kind::Text;
}

QString SettingsForm::fieldName(const SettingRow &row)
{
    const QString key = row.fileKey.section(QLatin1Char('.'), -1);
    QString name;
    bool upper = false;
    for (const QChar c : key) {
        if (c == u'_') {
            upper = true;
            continue;
        }
        name += upper ? c.toUpper() : c;
        upper = false;
    }
    return name + QStringLiteral("Setting");
}

QWidget *SettingsForm::makeField(const SettingRow &row, const std::function<void()> &changed)
{
    QWidget *field = nullptr;
    switch (kindOf(row)) {
    case Kind::Switch: {
        auto *box = new QCheckBox(translated(row.label));
        connect(box, &QCheckBox::toggled, this, changed);
        field = box;
        break;
    }
    case Kind::Integer: {
        auto *spin = new QSpinBox;
        spin->setRange(int(row.low), int(row.high));
        connect(spin, &QSpinBox::valueChanged, this, changed);
        field = spin;
        break;
    }
    case Kind::Choice: {
        auto *combo = new QComboBox;
        for (const QString &choice : row.choices())
            combo->addItem(choice, choice);
        connect(combo, &QComboBox::currentIndexChanged, this, changed);
        field = combo;
        break;
    }
    case Kind::Duration:
    case Kind::Text: {
        auto *edit = new QLineEdit;
        edit->setPlaceholderText(translated(row.hint));
        connect(edit, &QLineEdit::textChanged, this, changed);
        field = edit;
        break;
    }
    }
    field->setObjectName(fieldName(row));
    field->setProperty(kRowProperty, row.envVar);
    field->setToolTip(translated(row.tip ? row.tip : row.doc.toUtf8().constData()));
    return field;
}

void SettingsForm::build(const Placement &placement)
{
    for (const SettingRow &row : std::as_const(m_rows)) {
        QWidget *field = makeField(row, placement.changed);
        m_fields.insert(row.envVar, field);
        QFormLayout *form = placement.formFor(row.group);
        // A switch says what it is on its own box; every other field is labelled beside it.
        form->addRow(kindOf(row) == Kind::Switch ? QString() : translated(row.label), placement.withError(field, row.envVar));
    }
}

void SettingsForm::fill(const Settings &settings)
{
    for (const SettingRow &row : std::as_const(m_rows)) {
        QWidget *field = m_fields.value(row.envVar);
        const QSignalBlocker block(field); // the view validates once, after all are filled
        const QVariant value = row.get(settings);
        if (auto *edit = qobject_cast<QLineEdit *>(field))
            edit->setText(value.isValid() ? row.format(value) : QString());
        else if (auto *box = qobject_cast<QCheckBox *>(field))
            box->setChecked(value.toBool());
        else if (auto *spin = qobject_cast<QSpinBox *>(field))
            spin->setValue(value.toInt());
        else if (auto *combo = qobject_cast<QComboBox *>(field))
            combo->setCurrentIndex(std::max(0, combo->findData(value.toString())));
    }
}

void SettingsForm::read(Settings &settings, QMap<QString, QString> *errors) const
{
    for (const SettingRow &row : m_rows) {
        QWidget *field = m_fields.value(row.envVar);
        if (auto *box = qobject_cast<QCheckBox *>(field)) {
            row.set(settings, box->isChecked());
            continue;
        }
        if (auto *spin = qobject_cast<QSpinBox *>(field)) {
            row.set(settings, spin->value());
            continue;
        }
        if (auto *combo = qobject_cast<QComboBox *>(field)) {
            row.set(settings, combo->currentData());
            continue;
        }
        const QString text = qobject_cast<QLineEdit *>(field)->text();
        if (text.trimmed().isEmpty() && !row.unsetText.isEmpty()) {
            row.set(settings, QVariant());
            continue;
        }
        QString why;
        const std::optional<QVariant> value = row.parse(text, &why);
        if (!value)
            errors->insert(row.envVar, why);
        else if (row.type == SettingType::Duration && value->toLongLong() <= 0)
            errors->insert(row.envVar, tr("must be greater than zero"));
        else
            row.set(settings, *value);
    }
}

} // namespace bullpen
