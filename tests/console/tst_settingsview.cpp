// SPDX-License-Identifier: MIT
// The Settings view: each refusal beside its field (the settings table's rows, the providers, keys,
// retention, proxy and CA file), saved to the file a restart reads, keys never written; added
// providers edited as JSON.
#include "config/settings.h"
#include "contract/providerregistry.h"
#include "views/settingsview.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;

class tst_SettingsView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void settingsValidatedBesideEachField()
    {
        QTemporaryDir dir;
        SettingsView::Paths paths { dir.filePath(QStringLiteral("bullpen.json")), dir.filePath(QStringLiteral("keys.env")), dir.path() };
        QProcessEnvironment env;
        env.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral("AIzaSyD-environment-key-9f3c"));
        SettingsView view(paths, env, /*usingSimulator=*/false);
        auto *save = view.findChild<QPushButton *>(QStringLiteral("saveSettings"));
        auto *timeout = view.findChild<QLineEdit *>(QStringLiteral("primaryTimeoutSetting"));
        QVERIFY(save->isEnabled());
        QVERIFY(view.errorFor(QStringLiteral("STORYBOARD_PRIMARY_TIMEOUT")).isEmpty());
        timeout->setText(QStringLiteral("60"));
        QVERIFY(!view.errorFor(QStringLiteral("STORYBOARD_PRIMARY_TIMEOUT")).isEmpty());
        QVERIFY(!save->isEnabled());
        timeout->setText(QStringLiteral("45s"));
        QVERIFY(save->isEnabled());

        // The same provider as primary and fallback: said beside the fallback field.
        auto *fallback = view.findChild<QComboBox *>(QStringLiteral("fallbackCombo"));
        fallback->setCurrentIndex(fallback->findData(QStringLiteral("gemini")));
        QVERIFY(view.errorFor(QStringLiteral("STORYBOARD_FALLBACK_PROVIDER")).contains(QStringLiteral("same provider")));
        QVERIFY(!save->isEnabled());
        // A real fallback provider needs its key: said beside that provider's key.
        fallback->setCurrentIndex(fallback->findData(QStringLiteral("qwen")));
        QVERIFY(view.errorFor(QStringLiteral("DASHSCOPE_API_KEY")).contains(QStringLiteral("DASHSCOPE_API_KEY")));
        QVERIFY(view.errorFor(QStringLiteral("GEMINI_API_KEY")).isEmpty()); // from the environment
        auto *url = view.findChild<QLineEdit *>(QStringLiteral("geminiBaseUrl"));
        url->setText(QStringLiteral("ftp://nowhere"));
        QVERIFY(!view.errorFor(QStringLiteral("GEMINI_BASE_URL")).isEmpty());
        url->setText(QStringLiteral("https://generativelanguage.googleapis.com/v1beta"));

        // The key is never shown back in full.
        auto *source = view.findChild<QLabel *>(QStringLiteral("geminiKeySource"));
        QVERIFY(source->text().contains(QStringLiteral("GEMINI_API_KEY")));
        QVERIFY(!source->text().contains(QStringLiteral("environment-key")));

        // Retention and the proxy: refused beside their fields, saved when right.
        auto *retention = view.findChild<QLineEdit *>(QStringLiteral("retentionSetting"));
        auto *aggregates = view.findChild<QLineEdit *>(QStringLiteral("aggregateRetentionSetting"));
        auto *proxy = view.findChild<QLineEdit *>(QStringLiteral("proxySetting"));
        QVERIFY(retention && aggregates && proxy);
        QCOMPARE(retention->text(), QStringLiteral("30d"));
        retention->setText(QStringLiteral("30 days"));
        QVERIFY(view.errorFor(QStringLiteral("BULLPEN_RETENTION")).contains(QStringLiteral("30 days")));
        retention->setText(QStringLiteral("14d"));
        QVERIFY(view.errorFor(QStringLiteral("BULLPEN_RETENTION")).isEmpty());
        aggregates->setText(QStringLiteral("7d"));
        QVERIFY(view.errorFor(QStringLiteral("BULLPEN_AGGREGATE_RETENTION")).contains(QStringLiteral("shorter")));
        aggregates->setText(QStringLiteral("365d"));
        proxy->setText(QStringLiteral("ftp://proxy:21"));
        QVERIFY(!view.errorFor(QStringLiteral("BULLPEN_PROXY")).isEmpty());
        proxy->setText(QStringLiteral("http://proxy.internal:3128"));
        QVERIFY(view.errorFor(QStringLiteral("BULLPEN_PROXY")).isEmpty());
        // The provider CA file: a file that is missing or holds no certificate is refused beside it.
        auto *providerCa = view.findChild<QLineEdit *>(QStringLiteral("providerCaSetting"));
        QVERIFY(providerCa);
        providerCa->setText(dir.filePath(QStringLiteral("no-such-ca.pem")));
        QVERIFY(view.errorFor(QStringLiteral("BULLPEN_PROVIDER_CA")).contains(QStringLiteral("no-such-ca.pem")));
        QFile notPem(dir.filePath(QStringLiteral("not-a-ca.pem")));
        QVERIFY(notPem.open(QIODevice::WriteOnly) && notPem.write("{\"ca\": \"no\"}\n") > 0);
        notPem.close();
        providerCa->setText(notPem.fileName());
        QVERIFY(view.errorFor(QStringLiteral("BULLPEN_PROVIDER_CA")).contains(QStringLiteral("no PEM certificate")));
        const QString ca = QFINDTESTDATA("../data/tls/ca.pem");
        QVERIFY(!ca.isEmpty());
        providerCa->setText(ca);
        QVERIFY(view.errorFor(QStringLiteral("BULLPEN_PROVIDER_CA")).isEmpty());

        QString error;
        QVERIFY(KeyFile::setKey(paths.keyFile, QStringLiteral("DASHSCOPE_API_KEY"), QStringLiteral("sk-qwen-key-000000000000"), &error));
        timeout->setText(QStringLiteral("44s")); // any edit re-validates
        QVERIFY(view.errorFor(QStringLiteral("DASHSCOPE_API_KEY")).isEmpty());
        QVERIFY(save->isEnabled());
        QSignalSpy saved(&view, &SettingsView::saved);
        QVERIFY(view.save());
        QCOMPARE(saved.count(), 1);
        const SettingsLoad load = SettingsLoader::load(paths.settingsFile, QString(), QProcessEnvironment(), false);
        QCOMPARE(load.settings.storyboard.primaryTimeout, std::chrono::milliseconds(44'000));
        QCOMPARE(load.settings.storyboard.fallback, std::optional<Provider>(Provider::Qwen));
        QCOMPARE(load.settings.retention.generations, std::optional<std::chrono::milliseconds>(std::chrono::hours(24 * 14)));
        QCOMPARE(load.settings.retention.aggregates, std::optional<std::chrono::milliseconds>(std::chrono::hours(24 * 365)));
        QCOMPARE(load.settings.proxy, QStringLiteral("http://proxy.internal:3128"));
        QCOMPARE(load.settings.providerCa, ca);
        QFile written(paths.settingsFile);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray text = written.readAll();
        QVERIFY(!text.contains("environment-key") && !text.contains("sk-qwen"));
    }

    // Added providers (docs/configuration.md, "Providers"): edited as JSON, refused as typed naming the
    // entry and field, saved whole, and then choices in the pickers.
    void settingsEditAddedProviders()
    {
        QTemporaryDir dir;
        SettingsView::Paths paths { dir.filePath(QStringLiteral("bullpen.json")), dir.filePath(QStringLiteral("keys.env")), dir.path() };
        SettingsView view(paths, QProcessEnvironment(), /*usingSimulator=*/true);
        auto *added = view.findChild<QPlainTextEdit *>(QStringLiteral("addedProviders"));
        auto *save = view.findChild<QPushButton *>(QStringLiteral("saveSettings"));
        auto *fallback = view.findChild<QComboBox *>(QStringLiteral("fallbackCombo"));
        QVERIFY(added && save && fallback);
        QCOMPARE(fallback->findData(QStringLiteral("local-vllm")), -1);
        added->setPlainText(QStringLiteral("[ { \"id\": \"local-vllm\", \"format\": \"openai\", \"model\": \"m\" "));
        QVERIFY(view.errorFor(QStringLiteral("providers")).contains(QStringLiteral("not JSON")));
        QVERIFY(!save->isEnabled());
        added->setPlainText(QStringLiteral(
            "[ { \"id\": \"local-vllm\", \"format\": \"cohere\", \"base_url\": \"http://10.0.0.5:8000/v1\", \"model\": \"m\" } ]"));
        QVERIFY2(view.errorFor(QStringLiteral("providers")).contains(QStringLiteral("providers[0] (local-vllm).format")),
                 qPrintable(view.errorFor(QStringLiteral("providers"))));
        QVERIFY(!save->isEnabled());
        added->setPlainText(QStringLiteral("[ { \"id\": \"local-vllm\", \"name\": \"Local vLLM\", \"format\": \"openai\", \"base_url\": "
                                           "\"http://10.0.0.5:8000/v1\", \"model\": \"m\" } ]"));
        QVERIFY2(view.errorFor(QStringLiteral("providers")).isEmpty(), qPrintable(view.errorFor(QStringLiteral("providers"))));
        QVERIFY(save->isEnabled());
        QVERIFY(view.save());
        // Saved whole, and a choice now.
        const SettingsLoad load = SettingsLoader::load(paths.settingsFile, QString(), QProcessEnvironment(), false);
        QVERIFY(load.ok());
        QCOMPARE(load.settings.added.size(), 1);
        QCOMPARE(load.settings.added.constFirst().baseUrl, QUrl(QStringLiteral("http://10.0.0.5:8000/v1")));
        QVERIFY(fallback->findData(QStringLiteral("local-vllm")) >= 0);
        QVERIFY(fallback->itemText(fallback->findData(QStringLiteral("local-vllm"))).contains(QStringLiteral("Local vLLM")));
        fallback->setCurrentIndex(fallback->findData(QStringLiteral("local-vllm")));
        QVERIFY(view.errorFor(QStringLiteral("STORYBOARD_FALLBACK_PROVIDER")).isEmpty());
    }
};

QTEST_MAIN(tst_SettingsView)
#include "tst_settingsview.moc"
