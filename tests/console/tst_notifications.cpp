// SPDX-License-Identifier: MIT
// Desktop notifications (docs/contract.md §13) over a real session bus (ctest runs this under
// dbus-run-session): a recording org.freedesktop.Notifications service on its own connection sees each
// call; at most one per provider per five minutes; none when switched off; an engine's firing alert
// (not silenced) raised once, and a click on it (the service's ActionInvoked) hands back its link.
#include "engine/breakerboard.h"
#include "engine/manualclock.h"
#include "runtime/enginesetup.h"
#include "views/controlview.h"
#include "views/desktopnotifier.h"
#include "views/mainwindow.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;

namespace {

class Recorder final : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
public:
    QStringList summaries;
    QList<QStringList> actionLists;

public Q_SLOTS:
    uint Notify(const QString &app, uint replaces, const QString &icon, const QString &summary, const QString &body,
                const QStringList &actions, const QVariantMap &hints, int timeout)
    {
        Q_UNUSED(replaces);
        Q_UNUSED(icon);
        Q_UNUSED(body);
        Q_UNUSED(hints);
        Q_UNUSED(timeout);
        summaries << app + QStringLiteral(": ") + summary;
        actionLists << actions;
        return uint(summaries.size());
    }
};

} // namespace

class tst_Notifications : public QObject
{
    Q_OBJECT

    Recorder m_recorder;
    std::optional<QDBusConnection> m_service;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QDBusConnection::sessionBus().isConnected(), "no session bus: run under dbus-run-session (ctest does)");
        m_service = QDBusConnection::connectToBus(QDBusConnection::SessionBus, QStringLiteral("recorder"));
        QVERIFY(m_service->isConnected());
        QVERIFY(m_service->registerObject(QStringLiteral("/org/freedesktop/Notifications"), &m_recorder, QDBusConnection::ExportAllSlots));
        QVERIFY2(m_service->registerService(QStringLiteral("org.freedesktop.Notifications")), qPrintable(m_service->lastError().message()));
    }

    void oncePerProviderPerFiveMinutes()
    {
        qint64 now = 1'000'000;
        DesktopNotifier notifier;
        notifier.setEnabled(true);
        notifier.setClock([&now] { return now; });
        QVERIFY(notifier.notify(Provider::Gemini, QStringLiteral("gemini failing now"), QStringLiteral("5 min: 8 attempts")));
        QTRY_COMPARE(m_recorder.summaries.size(), 1);
        QCOMPARE(m_recorder.summaries.first(), QStringLiteral("Bullpen: gemini failing now"));

        now += 60'000; // a minute later: quiet for gemini, not for qwen
        QVERIFY(!notifier.notify(Provider::Gemini, QStringLiteral("gemini breaker opened"), {}));
        QVERIFY(notifier.notify(Provider::Qwen, QStringLiteral("qwen failing now"), {}));
        QTRY_COMPARE(m_recorder.summaries.size(), 2); // the one for qwen, and none for gemini before it
        QCOMPARE(m_recorder.summaries.last(), QStringLiteral("Bullpen: qwen failing now"));

        now += DesktopNotifier::kQuietMs - 60'000; // five minutes after the first
        QVERIFY(notifier.notify(Provider::Gemini, QStringLiteral("gemini breaker opened"), {}));
        QTRY_COMPARE(m_recorder.summaries.size(), 3);
    }

    void noneWhenSwitchedOff()
    {
        DesktopNotifier notifier;
        notifier.setEnabled(false);
        const qsizetype before = m_recorder.summaries.size();
        QVERIFY(!notifier.notify(Provider::Anthropic, QStringLiteral("anthropic failing now"), {}));
        notifier.setEnabled(true);
        QVERIFY(notifier.notify(Provider::OpenAI, QStringLiteral("openai failing now"), {}));
        QTRY_COMPARE(m_recorder.summaries.size(), before + 1); // openai's only: the switched-off one never went out
        QCOMPARE(m_recorder.summaries.last(), QStringLiteral("Bullpen: openai failing now"));
    }

    void firingAlertCarriesItsLink()
    {
        const auto alert = [](const QString &rule, const QString &state, const QJsonValue &silencedUntil) {
            return QJsonObject { { QStringLiteral("rule"), rule },
                                 { QStringLiteral("severity"), QStringLiteral("critical") },
                                 { QStringLiteral("labels"), QStringLiteral("gemini/primary/storyboard") },
                                 { QStringLiteral("state"), state },
                                 { QStringLiteral("active_at"), QStringLiteral("2026-12-05T03:00:00.000Z") },
                                 { QStringLiteral("silenced_until"), silencedUntil } };
        };
        const QJsonObject alerts {
            { QStringLiteral("alerts"),
              QJsonArray {
                  alert(QStringLiteral("BullpenProviderFailingNow"), QStringLiteral("firing"), QJsonValue()),
                  alert(QStringLiteral("BullpenBreakerOpen"), QStringLiteral("pending"), QJsonValue()),
                  alert(QStringLiteral("BullpenStoreUnreachable"), QStringLiteral("firing"), QStringLiteral("2026-12-05T04:00:00.000Z")) } }
        };
        DesktopNotifier notifier;
        notifier.setEnabled(true);
        QSignalSpy opened(&notifier, &DesktopNotifier::linkActivated);
        const qsizetype before = m_recorder.summaries.size();
        const QString link = QStringLiteral("bullpen://open/control");
        QCOMPARE(notifier.notifyAlerts(alerts, link), 1); // the firing one; not the pending one, not the silenced one
        QTRY_COMPARE(m_recorder.summaries.size(), before + 1);
        QVERIFY2(m_recorder.summaries.last().contains(u"BullpenProviderFailingNow"), qPrintable(m_recorder.summaries.last()));
        QVERIFY(m_recorder.actionLists.last().contains(QStringLiteral("default")));
        QCOMPARE(notifier.notifyAlerts(alerts, link), 0); // the same alert again: once is enough

        // The operator clicks it: the service says so on the bus, and the notifier hands back the link.
        QDBusMessage clicked = QDBusMessage::createSignal(QStringLiteral("/org/freedesktop/Notifications"),
                                                          QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("ActionInvoked"));
        clicked << uint(m_recorder.summaries.size()) << QStringLiteral("default");
        // The id reaches the notifier asynchronously: click until it knows it (one click opens it once).
        QTRY_VERIFY([&] {
            if (opened.isEmpty())
                m_service->send(clicked);
            return !opened.isEmpty();
        }());
        QCOMPARE(opened.first().first().toString(), link);
    }

    // The whole way in an embedded console: the engine's alert fires (its `for` passed on a fake
    // clock), the console raises its notification with no view asking, and a click on it opens the
    // Control view.
    void aClickOpensTheControlView()
    {
        QTemporaryDir dir;
        SetupOptions options;
        options.forceSimulator = true;
        options.dataDir = dir.path();
        options.environment = QProcessEnvironment();
        options.settingsFile = dir.filePath(QStringLiteral("none.json"));
        options.keyFile = dir.filePath(QStringLiteral("none.env"));
        EngineSetup engine;
        QVERIFY(engine.init(options));
        ManualClock clock;
        engine.setAlertClock(clock);
        MainWindow window(engine);
        window.findChild<DesktopNotifier *>(QStringLiteral("desktopNotifier"))->setEnabled(true);
        window.tabs()->setCurrentIndex(0);
        const qsizetype before = m_recorder.summaries.size();
        const BreakerKey key { Provider::Qwen, Role::Primary, Stage::Storyboard };
        for (int i = 0; i < 5; ++i)
            engine.engine().breakers().record(key, BreakerCount::Blamed, false, clock.now(), FailureKind::TIMEOUT);
        engine.evaluateAlerts();
        clock.advance(std::chrono::seconds(61));
        engine.evaluateAlerts(); // BullpenProviderFailingNow fires
        // (The card's own notification of the open breaker may come first: the alert's is looked for.)
        const auto alertId = [&] {
            for (qsizetype i = before; i < m_recorder.summaries.size(); ++i)
                if (m_recorder.summaries.at(i).contains(u"BullpenProviderFailingNow (qwen/primary/storyboard)"))
                    return uint(i + 1); // the recorder's id
            return 0u;
        };
        QTRY_VERIFY(alertId() != 0);
        QDBusMessage clicked = QDBusMessage::createSignal(QStringLiteral("/org/freedesktop/Notifications"),
                                                          QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("ActionInvoked"));
        clicked << alertId() << QStringLiteral("default");
        QTRY_VERIFY([&] {
            if (window.tabs()->currentWidget() != window.controlView())
                m_service->send(clicked);
            return window.tabs()->currentWidget() == window.controlView();
        }());
    }
};

QTEST_MAIN(tst_Notifications)
#include "tst_notifications.moc"
