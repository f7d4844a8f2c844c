// SPDX-License-Identifier: MIT
// Desktop notifications (docs/contract.md §13) over a real session bus (ctest runs this under
// dbus-run-session): a recording org.freedesktop.Notifications service on its own connection sees each
// call; at most one per provider per five minutes; none when switched off.
#include "views/desktopnotifier.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QTest>

using namespace bullpen;

namespace {

class Recorder final : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
public:
    QStringList summaries;

public Q_SLOTS:
    uint Notify(const QString &app, uint replaces, const QString &icon, const QString &summary, const QString &body,
                const QStringList &actions, const QVariantMap &hints, int timeout)
    {
        Q_UNUSED(replaces);
        Q_UNUSED(icon);
        Q_UNUSED(body);
        Q_UNUSED(actions);
        Q_UNUSED(hints);
        Q_UNUSED(timeout);
        summaries << app + QStringLiteral(": ") + summary;
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
};

QTEST_GUILESS_MAIN(tst_Notifications)
#include "tst_notifications.moc"
