// SPDX-License-Identifier: MIT
#pragma once

#include "config/settings.h"

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
class QSpinBox;

namespace bullpen {

// docs/contract.md §9.7: providers (kind, base URL, model, where the key comes from), stage policies and timeouts,
// the data directory, whether prompts and responses are stored, and the interface language. Validated
// as docs/contract.md §4.6 while typing, each message beside its field; Save stays off while anything is refused.
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

private:
    QWidget *makeHeader();
    QLineEdit *lineEdit(const char *name);
    QLineEdit *rowEdit(const char *envVar, const char *name);
    QCheckBox *rowCheck(const char *envVar, const QString &text);
    QSpinBox *rowSpin(const char *envVar);
    void fillRowFields(const Settings &s);
    void readRowFields(Settings &s, QMap<QString, QString> *errors) const;
    QComboBox *providerCombo(const char *name, bool withNone);
    QGroupBox *stageBox();
    QGroupBox *pipelineBox();
    QGroupBox *storeBox();
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
    static void fillProviderPicker(QComboBox *picker);
    void draftAdded(Settings &s, QMap<QString, QString> *errors) const;

    Paths m_paths;
    QProcessEnvironment m_environment;
    bool m_usingSimulator;
    bool m_keychainAvailable = false;
    QString m_keychainReason; // why there is none
    QHash<QString, QWidget *> m_rowFields; // a settings-table row's variable → the field that edits it
    QComboBox *m_policy;
    QComboBox *m_primary;
    QComboBox *m_fallback;
    QLineEdit *m_primaryTimeout;
    QLineEdit *m_fallbackTimeout;
    QLineEdit *m_budget;
    QLineEdit *m_imageModel;
    QLineEdit *m_imageTimeout;
    QSpinBox *m_imageRetries;
    QCheckBox *m_captions;
    QLineEdit *m_captionsTimeout;
    QLineEdit *m_dataDir;
    QLineEdit *m_retention;
    QLineEdit *m_aggregateRetention;
    QLineEdit *m_proxy;
    QLineEdit *m_providerCa;
    QCheckBox *m_storeContent;
    QCheckBox *m_notifications = nullptr;
    QComboBox *m_language;
    QMap<Provider, ProviderRow> m_providers; // the built-ins' rows
    QPlainTextEdit *m_added; // the added providers' entries
    QMap<QString, QLabel *> m_errorLabels;
    QPushButton *m_save;
    QLabel *m_status;
};

} // namespace bullpen
