// SPDX-License-Identifier: MIT
#include "compareview.h"

#include "charts.h"
#include "contract/recordtext.h"
#include "cost/generationcost.h"
#include "models/comparemodel.h"
#include "models/comparisonlistmodel.h"
#include "models/units.h"
#include "models/words.h"
#include "tones.h"

#include <QAbstractTextDocumentLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTextDocument>
#include <QVBoxLayout>

namespace bullpen {

namespace {

// Draws a cell's HTML (highlighted words) and sizes the row to it.
class HtmlDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        opt.text.clear();
        opt.widget->style()->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
        QTextDocument doc;
        doc.setDefaultFont(opt.font);
        doc.setHtml(index.data(CompareModel::HtmlRole).toString());
        doc.setTextWidth(opt.rect.width() - 8);
        painter->save();
        painter->translate(opt.rect.topLeft() + QPoint(4, 2));
        doc.drawContents(painter, QRectF(0, 0, opt.rect.width() - 8, opt.rect.height() - 4));
        painter->restore();
    }

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QTextDocument doc;
        doc.setDefaultFont(option.font);
        doc.setHtml(index.data(CompareModel::HtmlRole).toString());
        const int width = option.rect.width() > 0 ? option.rect.width() : 360;
        doc.setTextWidth(width - 8);
        return { width, int(doc.size().height()) + 6 };
    }
};

} // namespace

CompareView::CompareView(HistoryReader *history, HistoryQueue *queue, QWidget *parent)
    : QWidget(parent)
    , m_model(new CompareModel(this))
    , m_history(new ComparisonListModel(this))
{
    setObjectName(QStringLiteral("compareView"));
    m_compare = new QPushButton(tr("Compare the Run view's story"));
    m_compare->setObjectName(QStringLiteral("compareButton"));
    m_compare->setToolTip(tr("Runs the story on the primary and on the fallback provider at once, each alone (no fallback), each under its "
                             "own timeout from the Run view"));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setEnabled(false);
    m_status = new QLabel(history ? tr("Past comparisons are kept in the store; click one to reopen it.")
                                  : tr("Without a store, comparisons are shown but not kept."));
    m_status->setObjectName(QStringLiteral("compareStatus"));
    connect(m_compare, &QPushButton::clicked, this, &CompareView::compareRequested);
    connect(m_cancel, &QPushButton::clicked, this, &CompareView::cancelRequested);
    auto *top = new QHBoxLayout;
    top->addWidget(m_compare);
    top->addWidget(m_cancel);
    top->addWidget(m_status, 1);

    m_historyTable = new QTableView;
    m_historyTable->setObjectName(QStringLiteral("comparisonHistory"));
    m_historyTable->setModel(m_history);
    m_historyTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_historyTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_historyTable->verticalHeader()->hide();
    m_historyTable->horizontalHeader()->setStretchLastSection(true);
    m_historyTable->setColumnWidth(ComparisonListModel::Time, 100);
    m_historyTable->setColumnWidth(ComparisonListModel::Primary, 105);
    m_historyTable->setColumnWidth(ComparisonListModel::Fallback, 105);
    connect(m_historyTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        if (current.isValid())
            showComparison(m_history->at(current.row()));
    });
    // A click on the row that is already current (it moved down as newer ones arrived) reopens it too.
    connect(m_historyTable, &QTableView::clicked, this, [this](const QModelIndex &index) {
        if (index.isValid() && m_history->at(index.row()).id != shownComparison())
            showComparison(m_history->at(index.row()));
    });

    auto *sides = new QGridLayout;
    for (int i = 0; i < 2; ++i) {
        m_side[i] = new QLabel;
        m_side[i]->setObjectName(i == 0 ? QStringLiteral("primarySide") : QStringLiteral("fallbackSide"));
        m_side[i]->setWordWrap(true);
        m_side[i]->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_side[i]->setAlignment(Qt::AlignTop | Qt::AlignLeft);
        m_side[i]->setStyleSheet(tones::panelStyle());
        m_image[i] = new QLabel;
        m_image[i]->setObjectName(i == 0 ? QStringLiteral("primaryImage") : QStringLiteral("fallbackImage"));
        m_image[i]->setAlignment(Qt::AlignCenter);
        m_image[i]->setMinimumHeight(150);
        sides->addWidget(m_side[i], 0, i);
        sides->addWidget(m_image[i], 2, i);
    }
    m_diffSummary = new QLabel;
    m_diffSummary->setObjectName(QStringLiteral("diffSummary"));
    m_panels = new QTableView;
    m_panels->setObjectName(QStringLiteral("comparePanels"));
    m_panels->setModel(m_model);
    m_panels->setItemDelegate(new HtmlDelegate(m_panels));
    m_panels->setWordWrap(true);
    m_panels->setSelectionMode(QAbstractItemView::NoSelection);
    m_panels->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_panels->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    sides->addWidget(m_panels, 1, 0, 1, 2);
    sides->setRowStretch(1, 3);
    sides->setRowStretch(2, 1);

    auto *right = new QWidget;
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_diffSummary);
    rightLayout->addLayout(sides, 1);

    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_historyTable);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setSizes({ 400, 880 }); // the list shows all four columns at 1280 px

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);

    m_history->setQueue(queue);
    m_history->setHistory(history);
    showComparison(Comparison {});
}

QString CompareView::shownComparison() const
{
    return m_model->comparison().id;
}

void CompareView::setRunning(bool running)
{
    m_compare->setEnabled(!running);
    m_cancel->setEnabled(running);
    if (running)
        m_status->setText(tr("Comparing: both providers are running…"));
}

void CompareView::fillSide(int column, const ComparisonSide &s, const Comparison &c)
{
    QStringList lines;
    const QString role = column == 0 ? tr("Primary") : tr("Fallback");
    // setText("") on a label showing a pixmap whose text is already empty does nothing: cleared first, so a
    // side without a comic never keeps the previous comparison's.
    m_image[column]->clear();
    if (c.id.isEmpty()) {
        m_side[column]->setText(tr("<b>%1</b><br>not compared yet").arg(role));
        return;
    }
    lines << QStringLiteral("<b>%1: %2</b> %3").arg(role, toId(s.provider), s.model.toHtmlEscaped());
    if (!s.done) {
        lines << tr("running… (timeout %1)").arg(units::duration(double(s.timeout.count())));
    } else {
        lines << (s.state == FinalState::Succeeded
                      ? tr("<span style=\"color:%1\">succeeded</span>").arg(tones::css(tones::color(tones::Tone::Success)))
                      : tr("<span style=\"color:%1\">%2</span> %3 (%4)")
                            .arg(tones::css(tones::color(tones::Tone::Failure)), words::state(toId(s.state)), s.publicCode, s.kind));
        lines << tr("<b>Validation</b> %1")
                     .arg(s.validation == u"valid"                        ? tr("valid (four panels in order; docs/contract.md §2.1)")
                              : s.validation == u"no storyboard to check" ? tr("no storyboard to check")
                                                                          : s.validation.toHtmlEscaped());
        lines << tr("<b>Storyboard</b> %1 of %2 · <b>whole generation</b> %3")
                     .arg(units::duration(s.storyboardMs), units::duration(double(s.timeout.count())), units::duration(s.totalMs));
        lines << tr("<b>Tokens</b> in %1 · out %2")
                     .arg(s.tokens.input >= 0 ? QString::number(s.tokens.input) : tr("n/a"),
                          s.tokens.output >= 0 ? QString::number(s.tokens.output) : tr("n/a"));
        lines << (s.costUnknown > 0
                      ? tr("<b>Cost</b> %1 (attempts of unknown cost: %2)").arg(GenerationCost::text(s.cost)).arg(s.costUnknown)
                      : tr("<b>Cost</b> %1").arg(GenerationCost::text(s.cost)));
        if (!s.detail.isEmpty() && s.state != FinalState::Succeeded)
            lines << localizedRecordText(s.detail).toHtmlEscaped();
        if (!s.nextStep.isEmpty())
            lines << tr("<i>%1</i>").arg(localizedRecordText(s.nextStep).toHtmlEscaped());
        if (!c.contentStored && !s.storyboard && s.state == FinalState::Succeeded)
            lines << tr("<i>Storyboard text not stored (Settings → store prompts and responses is off).</i>");
    }
    m_side[column]->setText(lines.join(QStringLiteral("<br>")));
    QPixmap pixmap;
    if (!s.imagePath.isEmpty() && pixmap.load(s.imagePath))
        m_image[column]->setPixmap(pixmap.scaled(m_image[column]->size().expandedTo(QSize(150, 150)), Qt::KeepAspectRatio,
                                                 Qt::SmoothTransformation)); // whole, never cropped
    else
        m_image[column]->setText(s.done && s.state == FinalState::Succeeded ? tr("(image not on disk)") : QString());
}

void CompareView::showComparison(const Comparison &c)
{
    m_model->setComparison(c);
    fillSide(0, c.primary, c);
    fillSide(1, c.fallback, c);
    m_panels->resizeRowsToContents();
    if (c.id.isEmpty()) {
        m_diffSummary->setText(tr("No comparison yet: write a story in the Run view, then Compare."));
        return;
    }
    if (c.finished()) {
        m_history->prepend(c);
        setRunning(false);
        m_status->setText(tr("Compared %1 and %2.").arg(toId(c.primary.provider), toId(c.fallback.provider)));
    }
    m_diffSummary->setText(
        m_model->totalWords() > 0
            ? tr("%1 of %2 words differ between the two storyboards (highlighted).").arg(m_model->changedWords()).arg(m_model->totalWords())
            : tr("Nothing to compare word by word yet: a side has no storyboard."));
}

} // namespace bullpen
