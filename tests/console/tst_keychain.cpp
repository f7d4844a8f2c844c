// SPDX-License-Identifier: MIT
// Keys in the system keychain (docs/install.md "Keys"), for real: ctest runs this under
// dbus-run-session with gnome-keyring-daemon's Secret Service unlocked (both headless). A key set
// through the Settings view's own path lands in the keychain, not in the key file, reads back, and is
// what the engine's start-up finds, named as coming from the keychain; with no Secret Service the key
// file is used and the view says why.
#include "config/settings.h"
#include "keychain/secretstore.h"
#include "runtime/enginesetup.h"
#include "views/settingsview.h"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;

class tst_Keychain : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    SettingsView::Paths paths() const
    {
        return { QDir(m_dir.path()).filePath(QStringLiteral("bullpen.json")), QDir(m_dir.path()).filePath(QStringLiteral("keys.env")),
                 m_dir.path() };
    }

    bool keyFileHolds(const QString &text) const
    {
        QFile f(paths().keyFile);
        return f.open(QIODevice::ReadOnly) && f.readAll().contains(text.toUtf8());
    }

private Q_SLOTS:
    void keySetThroughTheConsoleLandsInTheKeychain()
    {
        QVERIFY(secrets::compiledIn());
        const secrets::Result probe = secrets::probe();
        if (probe.status != secrets::Status::Ok) {
            if (qEnvironmentVariableIsSet("BULLPEN_TEST_REQUIRE_KEYCHAIN"))
                QFAIL(qPrintable(QStringLiteral("no Secret Service: %1").arg(probe.reason)));
            QSKIP(qPrintable(QStringLiteral("no Secret Service here (%1); ctest runs this under dbus-run-session with gnome-keyring")
                                 .arg(probe.reason)));
        }
        const QString key = QStringLiteral("AIzaKeychainTest0000000000000000009f3c");
        SettingsView view(paths(), QProcessEnvironment(), true);
        QVERIFY(view.keychainAvailable());
        QVERIFY(view.findChild<QLabel *>(QStringLiteral("keychainNote"))->text().contains(u"system keychain (Secret Service)"));
        view.setKeyValue(Provider::Gemini, key);
        QVERIFY2(view.statusText().contains(u"system keychain"), qPrintable(view.statusText()));
        QVERIFY(!keyFileHolds(key)); // not written anywhere else
        const secrets::Result back = secrets::read(QStringLiteral("GEMINI_API_KEY"));
        QCOMPARE(back.status, secrets::Status::Ok);
        QCOMPARE(back.value, key);
        QVERIFY2(view.keySourceText(Provider::Gemini).startsWith(u"system keychain: AIza"),
                 qPrintable(view.keySourceText(Provider::Gemini)));
        QVERIFY(!view.keySourceText(Provider::Gemini).contains(key));

        // Start-up finds it there, says so, and the environment still wins over it.
        const QProcessEnvironment kept = EngineSetup::keychainKeys();
        QCOMPARE(kept.value(QStringLiteral("GEMINI_API_KEY")), key);
        SettingsLoad load = SettingsLoader::load(paths().settingsFile, paths().keyFile, QProcessEnvironment(), false, kept);
        QCOMPARE(load.settings.provider(Provider::Gemini).apiKey, key);
        QCOMPARE(load.settings.provider(Provider::Gemini).keySource, SettingSource::Keychain);
        QProcessEnvironment env;
        env.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral("AIzaFromTheEnvironment00000000000000000"));
        load = SettingsLoader::load(paths().settingsFile, paths().keyFile, env, false, kept);
        QCOMPARE(load.settings.provider(Provider::Gemini).keySource, SettingSource::Environment);

        // Removing it removes it.
        view.setKeyValue(Provider::Gemini, QString());
        QCOMPARE(secrets::read(QStringLiteral("GEMINI_API_KEY")).status, secrets::Status::NotFound);
    }

    void withoutASecretServiceTheKeyFileIsUsed()
    {
        const QByteArray bus = qgetenv("DBUS_SESSION_BUS_ADDRESS");
        qunsetenv("DBUS_SESSION_BUS_ADDRESS");
        const auto restore = qScopeGuard([bus] {
            if (!bus.isEmpty())
                qputenv("DBUS_SESSION_BUS_ADDRESS", bus);
        });
        const secrets::Result probe = secrets::probe();
        QCOMPARE(probe.status, secrets::Status::Unavailable);
        QVERIFY(probe.reason.contains(u"session bus"));
        QVERIFY(EngineSetup::keychainKeys().isEmpty());

        const QString key = QStringLiteral("sk-ant-fallbackTest0000000000000000001234");
        SettingsView view(paths(), QProcessEnvironment(), true);
        QVERIFY(!view.keychainAvailable());
        QVERIFY2(view.findChild<QLabel *>(QStringLiteral("keychainNote"))->text().contains(u"no system keychain here"),
                 qPrintable(view.findChild<QLabel *>(QStringLiteral("keychainNote"))->text()));
        view.setKeyValue(Provider::Anthropic, key);
        QVERIFY2(view.statusText().contains(u"No system keychain here") && view.statusText().contains(paths().keyFile),
                 qPrintable(view.statusText()));
        QVERIFY(keyFileHolds(key));
        QCOMPARE(QFile(paths().keyFile).permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther), QFileDevice::Permissions());
        QVERIFY(view.keySourceText(Provider::Anthropic).startsWith(u"key file (0600)"));
    }
};

QTEST_MAIN(tst_Keychain)
#include "tst_keychain.moc"
