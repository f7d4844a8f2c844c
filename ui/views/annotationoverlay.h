// SPDX-License-Identifier: MIT
#pragma once

#include "models/annotationmodel.h"

#include <QPointer>
#include <QWidget>

class QChartView;
class QToolButton;

namespace bullpen {

// Markers of the AnnotationModel drawn over a time chart (docs/contract.md §15, "Annotations"): a
// vertical line and a flag at each drain, restore, breaker transition and alert, placed on the chart's
// date-time axis, with a tooltip (what, who, why) when the pointer is on one. It lies on the chart's
// viewport and lets the mouse through; the chart underneath may be renewed at will (it is found again
// at each paint). Layout apart from painting: place() is the one geometry, both painted and hit.
class AnnotationOverlay final : public QWidget
{
    Q_OBJECT
public:
    struct Placed
    {
        qreal x = 0; // viewport pixels
        AnnotationModel::Marker marker;
    };
    static constexpr qreal kHitPx = 4; // how near the pointer must be to a marker's line

    AnnotationOverlay(QChartView *view, AnnotationModel *model);

    // The markers within [from, to] placed across `plot` (left = from, right = to).
    static std::vector<Placed> place(const QRectF &plot, const QDateTime &from, const QDateTime &to,
                                     const std::vector<AnnotationModel::Marker> &markers);
    std::vector<Placed> layout() const; // on the chart's current axis and plot area
    QRectF plotArea() const; // in viewport pixels
    // The pointer at `pos` (viewport pixels): the marker under it is hovered and its tooltip shown.
    void hoverAt(const QPoint &pos);
    QString hoveredKey() const { return m_hovered; }
    QString hoveredToolTip() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void modelChanged();
    void placeToggles();

    // The chart's view as a QWidget: read as a QChartView only through chartView(), which is null while
    // the view is being destroyed (its filters still see events then).
    QChartView *chartView() const;
    QPointer<QWidget> m_view;
    QPointer<QWidget> m_viewport;
    AnnotationModel *m_model;
    QToolButton *m_toggles; // on the chart's top right corner: no room is taken from the view's rows
    QString m_hovered; // a marker's key: kept across refreshes while that marker is still there
    QPoint m_hoverPos;
};

// A "Markers" button whose menu has one checkable entry per kind (AnnotationModel's table): the
// model's visibility, so every chart fed by the model follows it.
QToolButton *makeAnnotationToggles(AnnotationModel *model, QWidget *parent = nullptr);

} // namespace bullpen
