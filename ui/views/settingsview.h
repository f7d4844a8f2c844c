// SPDX-License-Identifier: MIT
#pragma once

#include "config/settings.h"
#include "config/settingstable.h"

#include <QGroupBox>
#include <QHash>
#include <QMap>
#include <QPlainTextEdit>
#include <QProcessEnvironment>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QFormLayout;
class QBoxLayout;

namespace bullpen {

class SettingsForm;

// docs/contract.md §9.7: providers (kind, base URL, model, where the key comes from), stage policies and timeouts,
// the data directory, whether prompts and responses are stored, and the interface language. Validated
// as docs/contract.md §4.6 while typing, each message beside its field; Save stays off while anything is refused.
// The settings table's rows (core/config/settingstable.h) are fields made from the table (settingsform.h);
// this view lays out only what is not a row.
// Keys are never shown back: only where they come from and a mask (`AIza…9f3c`). A key typed here goes
// to the 0600 key file, never to the settings file.
class SettingsView final : public QWidget
{
    Q_OBJECT
public:
    struct Paths
    {
        QString settingsFile;
        QString keyFile;
        QString dataDir; // in use now
    };
    SettingsView(const Paths &paths, const QProcessEnvironment &environment, bool usingSimulator, QWidget *parent = nullptr);
    // The same with the rows it shows as fields given (the settings table, or a test's).
    SettingsView(const Paths &paths, const QProcessEnvironment &environment, bool usingSimulator, const QList<SettingRow> &rows,
                 QWidget *parent = nullptr);
    ~SettingsView() override;

    // The settings the fields describe, and what docs/contract.md §4.6 refuses in them (setting name → message).
    Settings draft(QMap<QString, QString> *errors) const;
    QString errorFor(const QString &setting) const; // as shown beside the field; empty when fine
    bool save();
    void reload();
    // The Tune panel's Apply (docs/contract.md §17): the storyboard primary timeout set in its field and
    // saved the way Save does; false (and the field's message in statusText()) when refused.
    bool applyPrimaryTimeout(std::chrono::milliseconds timeout);
    // What the engine runs with now (its storyboard policy): shown above the form, with why it differs
    // from the file where it does (the environment, the simulator's own pairing).
    void setInForce(const StagePolicy &policy);

    // Set key…'s work without its dialog: the system keychain where one answers, else the 0600 key file
    // (an empty key removes it); the status line says where it went and why.
    void setKeyValue(Provider provider, const QString &key);
    // Where a provider's key was found, as the row shows it ("system keychain: AIza…9f3c").
    QString keySourceText(Provider provider) const;
    bool keychainAvailable() const { return m_keychainAvailable; }
    QString statusText() const;

Q_SIGNALS:
    void saved(const QString &path);

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QWidget *makeHeader();
    QLineEdit *lineEdit(const char *name);
    QComboBox *providerCombo(const char *name, bool withNone);
    QLayout *makeGroups(); // the groups' boxes in two columns, the table's fields in them
    void fitColumns(); // the two columns side by side where both fit the width, else one below the other
    void placePage(); // the page's children placed for the page's width now
    void addStageFields(QFormLayout *form);
    void addStoreFields(QFormLayout *form);
    QLayout *makeButtons();
    void showInForce();
    QLabel *m_inForce = nullptr;
    std::optional<StagePolicy> m_inForcePolicy;
    StagePolicy m_file; // the storyboard policy's preset and providers as the file says them

    struct ProviderRow
    {
        QLineEdit *baseUrl;
        QLineEdit *model;
        QCheckBox *stream;
        QLabel *keySource;
        QPushButton *setKey;
    };
    QWidget *withError(QWidget *field, const QString &setting);
    void validate();
    void setKey(Provider provider);
    void describeKey(Provider provider, const Settings &loaded);
    QGroupBox *providersBox(); // the built-ins' rows, the keychain note and the added providers' entries
    void fillProviderPicker(QComboBox *picker) const; // the providers of the settings file, as last read
    void draftAdded(Settings &s, QMap<QString, QString> *errors) const;

    Paths m_paths;
    QProcessEnvironment m_environment;
    ProviderTable m_table; // the settings file's providers, as reload() last read them: the pickers' choices
    bool m_usingSimulator;
    bool m_keychainAvailable = false;
    QString m_keychainReason; // why there is none
    SettingsForm *m_form; // the settings table's rows
    QBoxLayout *m_columns = nullptr; // the groups' two columns
    QBoxLayout *m_column[2] = {};
    QComboBox *m_primary;
    QComboBox *m_fallback;
    QLineEdit *m_dataDir;
    QLineEdit *m_retention;
    QLineEdit *m_aggregateRetention;
    QCheckBox *m_notifications = nullptr;
    QComboBox *m_language;
    QMap<Provider, ProviderRow> m_providers; // the built-ins' rows
    QPlainTextEdit *m_added; // the added providers' entries
    QMap<QString, QLabel *> m_errorLabels;
    QPushButton *m_save;
    QLabel *m_status;
};

} // namespace bullpen
