// SPDX-License-Identifier: MIT
#include "annotationoverlay.h"

#include "views/tones.h"

#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolButton>
#include <QToolTip>

namespace bullpen {

namespace {

const QDateTimeAxis *timeAxis(const QChart *chart)
{
    if (!chart)
        return nullptr;
    for (QAbstractAxis *a : chart->axes(Qt::Horizontal))
        if (auto *t = qobject_cast<QDateTimeAxis *>(a))
            return t;
    return nullptr;
}

QColor colorOf(annotations::Kind kind)
{
    for (const AnnotationKindRow &r : annotationKinds())
        if (r.kind == kind)
            return tones::color(r.tone);
    return tones::color(tones::Tone::Accent);
}

} // namespace

AnnotationOverlay::AnnotationOverlay(QChartView *view, AnnotationModel *model)
    : QWidget(view->viewport())
    , m_view(view)
    , m_viewport(view->viewport())
    , m_model(model)
    , m_toggles(makeAnnotationToggles(model, view))
{
    setObjectName(QStringLiteral("annotationOverlay"));
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setGeometry(view->viewport()->rect());
    view->viewport()->setMouseTracking(true);
    view->viewport()->installEventFilter(this);
    view->installEventFilter(this);
    placeToggles();
    connect(model, &QAbstractItemModel::rowsInserted, this, &AnnotationOverlay::modelChanged);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &AnnotationOverlay::modelChanged);
    connect(model, &QAbstractItemModel::dataChanged, this, &AnnotationOverlay::modelChanged);
    connect(model, &QAbstractItemModel::modelReset, this, &AnnotationOverlay::modelChanged);
    connect(model, &AnnotationModel::visibilityChanged, this, &AnnotationOverlay::modelChanged);
    raise();
    show();
}

std::vector<AnnotationOverlay::Placed> AnnotationOverlay::place(const QRectF &plot, const QDateTime &from, const QDateTime &to,
                                                                const std::vector<AnnotationModel::Marker> &markers)
{
    std::vector<Placed> out;
    const qint64 span = from.msecsTo(to);
    if (span <= 0 || plot.width() <= 0)
        return out;
    for (const AnnotationModel::Marker &m : markers) {
        const qint64 offset = from.msecsTo(m.at);
        if (offset < 0 || offset > span)
            continue;
        out.push_back(Placed { plot.left() + plot.width() * double(offset) / double(span), m });
    }
    return out;
}

QRectF AnnotationOverlay::plotArea() const
{
    const QChartView *view = chartView();
    if (!view || !view->chart())
        return {};
    const QChart *chart = view->chart();
    return view->mapFromScene(chart->mapToScene(chart->plotArea())).boundingRect();
}

std::vector<AnnotationOverlay::Placed> AnnotationOverlay::layout() const
{
    const QChartView *view = chartView();
    const QDateTimeAxis *axis = view ? timeAxis(view->chart()) : nullptr;
    if (!axis)
        return {};
    return place(plotArea(), axis->min(), axis->max(), m_model->markers(axis->min(), axis->max()));
}

void AnnotationOverlay::hoverAt(const QPoint &pos)
{
    m_hoverPos = pos;
    QString hit;
    qreal best = kHitPx + 1;
    const QRectF plot = plotArea();
    for (const Placed &p : layout()) {
        const qreal d = std::abs(p.x - pos.x());
        if (d <= kHitPx && d < best && pos.y() >= plot.top() - 10 && pos.y() <= plot.bottom()) {
            best = d;
            hit = p.marker.key;
        }
    }
    if (hit == m_hovered)
        return;
    m_hovered = hit;
    if (m_hovered.isEmpty())
        QToolTip::hideText();
    else if (m_viewport)
        QToolTip::showText(m_viewport->mapToGlobal(pos), hoveredToolTip(), m_viewport);
    update();
}

QChartView *AnnotationOverlay::chartView() const
{
    return qobject_cast<QChartView *>(m_view.data()); // null once ~QChartView has run
}

QString AnnotationOverlay::hoveredToolTip() const
{
    if (m_hovered.isEmpty())
        return {};
    for (const Placed &p : layout())
        if (p.marker.key == m_hovered)
            return p.marker.toolTip;
    return {};
}

void AnnotationOverlay::modelChanged()
{
    // A refresh rewrites the rows in place: the hovered marker stays hovered, its tooltip open, while
    // it is still drawn; one that went (or whose kind was switched off) lets go.
    if (!m_hovered.isEmpty() && hoveredToolTip().isEmpty()) {
        m_hovered.clear();
        QToolTip::hideText();
    }
    update();
}

void AnnotationOverlay::placeToggles()
{
    if (!m_view)
        return;
    m_toggles->adjustSize();
    m_toggles->move(m_view->width() - m_toggles->width() - 4, 4);
    m_toggles->raise();
}

bool AnnotationOverlay::eventFilter(QObject *watched, QEvent *event)
{
    // Compared as QObjects, never read as a QChartView: the view's QWidget part still sends events to
    // its filters while it is destroyed, when it is a QChartView no more (chartView() is null then).
    if (watched == m_view.data() && event->type() == QEvent::Resize)
        placeToggles();
    if (m_viewport && watched == m_viewport.data()) {
        switch (event->type()) {
        case QEvent::Resize:
            setGeometry(m_viewport->rect());
            break;
        case QEvent::MouseMove:
            hoverAt(static_cast<QMouseEvent *>(event)->position().toPoint());
            break;
        case QEvent::Leave:
            hoverAt(QPoint(-1000, -1000));
            break;
        case QEvent::ToolTip: // the chart's own tooltip must not replace a marker's
            if (!m_hovered.isEmpty()) {
                QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(), hoveredToolTip(), m_viewport);
                return true;
            }
            break;
        default:
            break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void AnnotationOverlay::paintEvent(QPaintEvent *)
{
    const std::vector<Placed> placed = layout();
    if (placed.empty())
        return;
    const QRectF plot = plotArea();
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    for (const Placed &m : placed) {
        const QColor c = colorOf(m.marker.kind);
        const bool hovered = m.marker.key == m_hovered;
        p.setPen(QPen(c, hovered ? 2.5 : 1.2, hovered ? Qt::SolidLine : Qt::DashLine));
        p.drawLine(QPointF(m.x, plot.top()), QPointF(m.x, plot.bottom()));
        // The flag at the top: a small pennant pointing right.
        QPolygonF flag;
        flag << QPointF(m.x, plot.top()) << QPointF(m.x + 7, plot.top() + 3.5) << QPointF(m.x, plot.top() + 7);
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawPolygon(flag);
    }
}

QToolButton *makeAnnotationToggles(AnnotationModel *model, QWidget *parent)
{
    auto *button = new QToolButton(parent);
    button->setObjectName(QStringLiteral("annotationToggles"));
    button->setText(AnnotationModel::tr("Markers"));
    button->setToolTip(AnnotationModel::tr("Which events the chart marks: drains, restores, breaker transitions, alerts"));
    button->setPopupMode(QToolButton::InstantPopup);
    button->setAutoRaise(true);
    auto *menu = new QMenu(button);
    for (const AnnotationKindRow &r : annotationKinds()) {
        QAction *a = menu->addAction(AnnotationModel::kindText(r.kind));
        a->setObjectName(QStringLiteral("annotationToggle_%1").arg(QLatin1StringView(r.id)));
        a->setCheckable(true);
        a->setChecked(model->isKindVisible(r.kind));
        QObject::connect(a, &QAction::toggled, model, [model, kind = r.kind](bool on) { model->setKindVisible(kind, on); });
        QObject::connect(model, &AnnotationModel::visibilityChanged, a,
                         [model, a, kind = r.kind] { a->setChecked(model->isKindVisible(kind)); });
    }
    button->setMenu(menu);
    return button;
}

} // namespace bullpen
