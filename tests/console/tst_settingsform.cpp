// SPDX-License-Identifier: MIT
// The Settings view's fields come from the settings table (core/config/settingstable.h): every row has
// exactly one field of the kind its type asks for, in its group, and no field edits a setting the table
// does not have. A row added to the table shows with no change to the view; a row left out of the table
// the view is given does not show, so a field written by hand for a row fails here.
#include "config/settings.h"
#include "config/settingstable.h"
#include "views/settingsform.h"
#include "views/settingsview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;
using namespace std::chrono;

namespace {

// Every field in the view that says it edits a table row: the row's variable → the field.
QMultiMap<QString, QWidget *> rowFields(const SettingsView &view)
{
    QMultiMap<QString, QWidget *> out;
    for (QWidget *w : view.findChildren<QWidget *>()) {
        const QVariant row = w->property(SettingsForm::kRowProperty);
        if (row.isValid())
            out.insert(row.toString(), w);
    }
    return out;
}

bool isKind(const QWidget *w, SettingsForm::Kind kind)
{
    switch (kind) {
    case SettingsForm::Kind::Duration:
    case SettingsForm::Kind::Text:
        return qobject_cast<const QLineEdit *>(w);
    case SettingsForm::Kind::Integer:
        return qobject_cast<const QSpinBox *>(w);
    case SettingsForm::Kind::Choice:
        return qobject_cast<const QComboBox *>(w);
    case SettingsForm::Kind::Switch:
        return qobject_cast<const QCheckBox *>(w);
    }
    return false;
}

// The group box a field sits in.
const QGroupBox *groupOf(const QWidget *w)
{
    for (const QWidget *p = w; p; p = p->parentWidget()) {
        if (const auto *box = qobject_cast<const QGroupBox *>(p))
            return box;
    }
    return nullptr;
}

// A test setting of its own, held outside Settings: a duration in the breakers' group.
milliseconds g_probeInterval { 90'000 };

SettingRow probeIntervalRow()
{
    SettingRow r;
    r.fileKey = QStringLiteral("test.probe_interval");
    r.envVar = QStringLiteral("TEST_PROBE_INTERVAL");
    r.type = SettingType::Duration;
    r.doc = QStringLiteral("How often a test probes.");
    r.group = SettingGroup::Breakers;
    r.label = "Probe interval";
    r.set = [](Settings &, const QVariant &v) {
        g_probeInterval = milliseconds(v.toLongLong());
    };
    r.get = [](const Settings &) {
        return QVariant::fromValue<qint64>(g_probeInterval.count());
    };
    return r;
}

} // namespace

class tst_SettingsForm : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    SettingsView::Paths paths() const
    {
        return { m_dir.filePath(QStringLiteral("bullpen.json")), m_dir.filePath(QStringLiteral("keys.env")), m_dir.path() };
    }

private Q_SLOTS:
    // The settings table and the view's fields, both ways: each row one field of its kind, with its
    // label, in the group its row names; each row field a row of the table.
    void everyRowHasOneFieldOfItsKind()
    {
        SettingsView view(paths(), QProcessEnvironment(), /*usingSimulator=*/true);
        const QMultiMap<QString, QWidget *> fields = rowFields(view);
        QSet<QString> names;
        for (const SettingRow &row : settingRows()) {
            QVERIFY2(row.label, qPrintable(row.envVar + QStringLiteral(" has no label")));
            QCOMPARE(fields.count(row.envVar), 1);
            QWidget *field = fields.value(row.envVar);
            QVERIFY2(isKind(field, SettingsForm::kindOf(row)), qPrintable(row.envVar));
            QCOMPARE(field->objectName(), SettingsForm::fieldName(row));
            QVERIFY2(!names.contains(field->objectName()), qPrintable(field->objectName()));
            names.insert(field->objectName());
            QVERIFY(groupOf(field));
            QCOMPARE(groupOf(field)->objectName(), QStringLiteral("group:%1").arg(int(row.group)));
        }
        for (const QString &envVar : fields.uniqueKeys())
            QVERIFY2(settingRow(envVar), qPrintable(envVar + QStringLiteral(" has a field but no row in the table")));
        // The kinds the brief names, each used by some row: a duration, an integer, a choice, text, a switch.
        QSet<SettingsForm::Kind> kinds;
        for (const SettingRow &row : settingRows())
            kinds.insert(SettingsForm::kindOf(row));
        QCOMPARE(kinds.size(), 5);
    }

    // A row added to the table the view is given shows, is validated and read back; a row left out does
    // not show (a hand-written field for it would).
    void aRowAddedToTheTableShows()
    {
        QList<SettingRow> rows;
        for (const SettingRow &row : settingRows()) {
            if (row.envVar != u"IMAGE_TIMEOUT")
                rows << row;
        }
        rows << probeIntervalRow();
        g_probeInterval = milliseconds(90'000);
        SettingsView view(paths(), QProcessEnvironment(), /*usingSimulator=*/true, rows);
        const QMultiMap<QString, QWidget *> fields = rowFields(view);
        QCOMPARE(fields.uniqueKeys().size(), rows.size());
        QVERIFY(!fields.contains(QStringLiteral("IMAGE_TIMEOUT")));
        QVERIFY(!view.findChild<QWidget *>(QStringLiteral("imageTimeoutSetting")));

        auto *probe = view.findChild<QLineEdit *>(QStringLiteral("probeIntervalSetting"));
        QVERIFY(probe);
        QCOMPARE(probe->text(), QStringLiteral("90s"));
        QCOMPARE(groupOf(probe)->objectName(), QStringLiteral("group:%1").arg(int(SettingGroup::Breakers)));
        QCOMPARE(probe->toolTip(), QStringLiteral("How often a test probes."));
        const auto *form = qobject_cast<QFormLayout *>(groupOf(probe)->layout());
        QVERIFY(form);
        bool labelled = false;
        for (int i = 0; i < form->rowCount(); ++i) {
            auto *label = qobject_cast<QLabel *>(form->itemAt(i, QFormLayout::LabelRole) ? form->itemAt(i, QFormLayout::LabelRole)->widget()
                                                                                         : nullptr);
            labelled = labelled || (label && label->text() == u"Probe interval");
        }
        QVERIFY(labelled);

        auto *save = view.findChild<QPushButton *>(QStringLiteral("saveSettings"));
        probe->setText(QStringLiteral("often"));
        QVERIFY(view.errorFor(QStringLiteral("TEST_PROBE_INTERVAL")).contains(QStringLiteral("often")));
        QVERIFY(!save->isEnabled());
        probe->setText(QStringLiteral("2m"));
        QVERIFY(view.errorFor(QStringLiteral("TEST_PROBE_INTERVAL")).isEmpty());
        QVERIFY(save->isEnabled());
        QMap<QString, QString> errors;
        view.draft(&errors);
        QVERIFY(errors.isEmpty());
        QCOMPARE(g_probeInterval, milliseconds(120'000));
    }

    // Each kind of field reads back through its row: a switch, a whole number, a choice and a ratio.
    void eachKindReadsBack()
    {
        SettingsView view(paths(), QProcessEnvironment(), /*usingSimulator=*/true);
        auto *breaker = view.findChild<QCheckBox *>(QStringLiteral("breakerSetting"));
        const bool breakerWas = breaker->isChecked();
        breaker->setChecked(!breakerWas);
        view.findChild<QSpinBox *>(QStringLiteral("breakerMinAttemptsSetting"))->setValue(7);
        auto *policy = view.findChild<QComboBox *>(QStringLiteral("policySetting"));
        policy->setCurrentIndex(policy->count() - 1);
        auto *ratio = view.findChild<QLineEdit *>(QStringLiteral("breakerFailureRatioSetting"));
        ratio->setText(QStringLiteral("150%"));
        QVERIFY(!view.errorFor(QStringLiteral("BULLPEN_BREAKER_FAILURE_RATIO")).isEmpty());
        ratio->setText(QStringLiteral("40%"));
        QMap<QString, QString> errors;
        const Settings s = view.draft(&errors);
        QVERIFY2(errors.isEmpty(), qPrintable(QStringList(errors.keys()).join(QLatin1Char(' '))));
        QCOMPARE(s.breaker.enabled, !breakerWas);
        QCOMPARE(s.breaker.minAttempts, 7);
        QCOMPARE(s.breaker.failureRatio, 0.4);
        QCOMPARE(s.storyboard.preset, StagePolicy::presetNames().constLast());
    }
};

QTEST_MAIN(tst_SettingsForm)
#include "tst_settingsform.moc"
