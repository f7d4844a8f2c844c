// SPDX-License-Identifier: MIT
// Annotations on the Latency and Failures charts (docs/contract.md §15): one model from the audit trail
// and the alerts, markers placed on a chart's time axis at the right x, a tooltip that says what, who
// and why, a toggle per kind, and a hovered marker that keeps its tooltip through a refresh.
#include "models/annotationmodel.h"
#include "views/annotationoverlay.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QJsonArray>
#include <QLineSeries>
#include <QMenu>
#include <QTest>
#include <QToolButton>
#include <QToolTip>
#include <QValueAxis>

using namespace bullpen;
using annotations::Kind;

namespace {

const QDateTime kFrom = QDateTime::fromString(QStringLiteral("2026-12-05T03:00:00.000Z"), Qt::ISODateWithMs);
const QDateTime kTo = kFrom.addSecs(3600);

QString at(int minutes)
{
    return kFrom.addSecs(minutes * 60).toUTC().toString(Qt::ISODateWithMs);
}

QJsonObject entry(int minutes, const QString &token, const QString &action, const QString &target)
{
    return QJsonObject { { QStringLiteral("at"), at(minutes) },
                         { QStringLiteral("token"), token },
                         { QStringLiteral("action"), action },
                         { QStringLiteral("target"), target },
                         { QStringLiteral("instance"), QStringLiteral("a") } };
}

QJsonArray audit()
{
    return QJsonArray {
        entry(10, QStringLiteral("engine"), QStringLiteral("breaker_opened"),
              QStringLiteral("gemini/primary/storyboard (5 failed in a row)")),
        entry(15, QStringLiteral("ops"), QStringLiteral("drain"), QStringLiteral("gemini (status page says down)")),
        entry(30, QStringLiteral("ops"), QStringLiteral("start"), QStringLiteral("gen_1")), // not an annotation
        entry(45, QStringLiteral("engine"), QStringLiteral("drain_expired"), QStringLiteral("gemini (ran until 03:45)")),
    };
}

QJsonObject alerts()
{
    const QJsonObject resolved { { QStringLiteral("rule"), QStringLiteral("BullpenProviderFailingNow") },
                                 { QStringLiteral("severity"), QStringLiteral("critical") },
                                 { QStringLiteral("labels"), QStringLiteral("provider=gemini") },
                                 { QStringLiteral("state"), QStringLiteral("resolved") },
                                 { QStringLiteral("value"), 2 },
                                 { QStringLiteral("fired_at"), at(12) },
                                 { QStringLiteral("resolved_at"), at(50) } };
    return QJsonObject { { QStringLiteral("alerts"), QJsonArray {} }, { QStringLiteral("history"), QJsonArray { resolved } } };
}

// A chart as the views draw theirs: a line series on a date-time axis over [kFrom, kTo].
QChartView *timeChart()
{
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    auto *line = new QLineSeries;
    line->append(double(kFrom.toMSecsSinceEpoch()), 1);
    line->append(double(kTo.toMSecsSinceEpoch()), 2);
    chart->addSeries(line);
    auto *x = new QDateTimeAxis;
    x->setRange(kFrom, kTo);
    chart->addAxis(x, Qt::AlignBottom);
    line->attachAxis(x);
    auto *y = new QValueAxis;
    chart->addAxis(y, Qt::AlignLeft);
    line->attachAxis(y);
    auto *view = new QChartView(chart);
    view->resize(800, 400);
    return view;
}

} // namespace

class TestAnnotations final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void modelReadsAuditAndAlerts()
    {
        AnnotationModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setAudit(audit());
        model.setAlerts(alerts());
        const auto markers = model.markers(kFrom, kTo);
        QList<Kind> kinds;
        for (const auto &m : markers)
            kinds << m.kind;
        // Oldest first: breaker 10, alert fired 12, drain 15, drain ran out 45, alert resolved 50.
        QCOMPARE(kinds, (QList<Kind> { Kind::Breaker, Kind::Alert, Kind::Drain, Kind::Restore, Kind::Alert }));
        QCOMPARE(model.rowCount(), 5);
        QVERIFY(model.markers(kFrom.addSecs(11 * 60), kFrom.addSecs(14 * 60)).size() == 1); // within the range only
    }

    void toolTipSaysWhatWhoAndWhy()
    {
        AnnotationModel model;
        model.setAudit(audit());
        const auto markers = model.markers(kFrom, kTo);
        const QString drain = markers.at(1).toolTip; // no alerts set: breaker, drain, restore
        QVERIFY2(drain.contains(QStringLiteral("drained gemini")), qPrintable(drain));
        QVERIFY2(drain.contains(QStringLiteral("who: ops @ a")), qPrintable(drain));
        QVERIFY2(drain.contains(QStringLiteral("why: status page says down")), qPrintable(drain));
        const QString breaker = markers.at(0).toolTip;
        QVERIFY2(breaker.contains(QStringLiteral("gemini/primary/storyboard")) && breaker.contains(QStringLiteral("who: engine")),
                 qPrintable(breaker));
        QVERIFY2(breaker.contains(QStringLiteral("why: 5 failed in a row")), qPrintable(breaker));
        model.setAlerts(alerts());
        const QString fired = model.markers(kFrom.addSecs(12 * 60), kFrom.addSecs(12 * 60)).at(0).toolTip;
        QVERIFY2(fired.contains(QStringLiteral("alert firing: BullpenProviderFailingNow")), qPrintable(fired));
    }

    void markersArePlacedAtTheirTime()
    {
        std::unique_ptr<QChartView> view(timeChart());
        AnnotationModel model;
        model.setAudit(audit());
        auto *overlay = new AnnotationOverlay(view.get(), &model);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        const QRectF plot = overlay->plotArea();
        QVERIFY(plot.width() > 100);
        const auto placed = overlay->layout();
        QCOMPARE(int(placed.size()), 3);
        const qreal expected[] = { 10.0 / 60, 15.0 / 60, 45.0 / 60 };
        for (size_t i = 0; i < placed.size(); ++i)
            QVERIFY2(std::abs(placed[i].x - (plot.left() + plot.width() * expected[i])) < 0.5,
                     qPrintable(QStringLiteral("marker %1 at %2, plot %3..%4").arg(i).arg(placed[i].x).arg(plot.left()).arg(plot.right())));
        // The pure layout: the same times on a 600 px plot from x = 100.
        const auto pure = AnnotationOverlay::place(QRectF(100, 0, 600, 100), kFrom, kTo, model.markers(kFrom, kTo));
        QCOMPARE(pure.at(0).x, 200.0);
        QCOMPARE(pure.at(2).x, 550.0);
    }

    void togglesHideAKind()
    {
        std::unique_ptr<QChartView> view(timeChart());
        AnnotationModel model;
        model.setAudit(audit());
        model.setAlerts(alerts());
        auto *overlay = new AnnotationOverlay(view.get(), &model);
        auto *toggles = view->findChild<QToolButton *>(QStringLiteral("annotationToggles"));
        QVERIFY(toggles && toggles->menu());
        QAction *breakers = toggles->menu()->findChild<QAction *>(QStringLiteral("annotationToggle_breaker"));
        QVERIFY(breakers && breakers->isCheckable() && breakers->isChecked());
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        QCOMPARE(int(overlay->layout().size()), 5);
        breakers->trigger();
        QVERIFY(!model.isKindVisible(Kind::Breaker));
        for (const auto &p : overlay->layout())
            QVERIFY(p.marker.kind != Kind::Breaker);
        QCOMPARE(int(overlay->layout().size()), 4);
        // Every kind has its toggle, read from the kinds' table.
        QCOMPARE(toggles->menu()->actions().size(), int(annotationKinds().size()));
        breakers->trigger();
        QCOMPARE(int(overlay->layout().size()), 5);
    }

    void refreshKeepsTheHoveredTooltip()
    {
        std::unique_ptr<QChartView> view(timeChart());
        AnnotationModel model;
        model.setAudit(audit());
        auto *overlay = new AnnotationOverlay(view.get(), &model);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        const auto placed = overlay->layout();
        const QPoint onDrain(qRound(placed.at(1).x) + 2, qRound(overlay->plotArea().center().y()));
        QTest::mouseMove(view->viewport(), onDrain);
        QTRY_VERIFY(!overlay->hoveredKey().isEmpty());
        const QString key = overlay->hoveredKey();
        QCOMPARE(overlay->hoveredToolTip(), placed.at(1).marker.toolTip);
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), placed.at(1).marker.toolTip);
        // The engine answers again with one entry more: the hovered marker and its tooltip stay.
        QJsonArray more = audit();
        more.append(entry(20, QStringLiteral("ops"), QStringLiteral("restore"), QStringLiteral("gemini (back)")));
        model.setAudit(more);
        model.setAlerts(alerts());
        QCOMPARE(overlay->hoveredKey(), key);
        QVERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), placed.at(1).marker.toolTip);
        // Its kind switched off, it lets go.
        model.setKindVisible(Kind::Drain, false);
        QVERIFY(overlay->hoveredKey().isEmpty());
    }
};

QTEST_MAIN(TestAnnotations)
#include "tst_annotations.moc"
