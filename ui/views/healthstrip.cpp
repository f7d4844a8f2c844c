// SPDX-License-Identifier: MIT
#include "healthstrip.h"

#include "charts.h"
#include "history/historyreader.h"
#include "models/historyqueue.h"
#include "models/providerhealthmodel.h"
#include "tones.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace bullpen {

namespace {

constexpr qint64 kMinute = 60'000;

QString windowLine(const QString &window, const ProviderHealth &h)
{
    const QLocale l;
    if (h.attempts == 0)
        return HealthStrip::tr("%1: no attempts").arg(window);
    QStringList parts;
    parts << HealthStrip::tr("%1: %L2 attempts").arg(window).arg(h.attempts);
    parts << HealthStrip::tr("%1 % errors").arg(l.toString(h.errorPercent(), 'f', 1));
    if (h.topKind)
        parts << QStringLiteral("%1 ×%L2").arg(enumName(*h.topKind)).arg(h.topKindCount);
    if (const auto relief = h.reliefPercent())
        parts << HealthStrip::tr("%1 % to fallback").arg(l.toString(*relief, 'f', 0));
    parts << HealthStrip::tr("p50 %1 · p90 %2").arg(charts::duration(h.p50Ms), charts::duration(h.p90Ms));
    return parts.join(QStringLiteral(" · "));
}

} // namespace

HealthStrip::HealthStrip(HistoryQueue *queue, QWidget *parent)
    : QWidget(parent)
    , m_queue(queue)
    , m_model(new ProviderHealthModel(this))
    , m_timer(new QTimer(this))
{
    setObjectName(QStringLiteral("healthStrip"));
    setToolTip(ProviderHealthModel::ruleText());
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    // The cards scroll sideways rather than widen the window (four providers in two roles fit ~1,900 px).
    auto *cards = new QWidget;
    m_cards = new QHBoxLayout(cards);
    m_cards->setContentsMargins(0, 0, 0, 0);
    m_cards->setSpacing(6);
    m_empty = new QLabel(tr("No provider attempts in the last 15 minutes."));
    m_empty->setObjectName(QStringLiteral("healthEmpty"));
    m_cards->addWidget(m_empty);
    auto *scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("healthCards"));
    scroll->setWidget(cards);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    scroll->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    scroll->setMinimumHeight(4 * fontMetrics().height() + 8);
    layout->addWidget(scroll, 1);
    auto *side = new QVBoxLayout;
    m_stamp = new QLabel(tr("not read yet"));
    m_stamp->setObjectName(QStringLiteral("healthUpdated"));
    m_pause = new QToolButton;
    m_pause->setObjectName(QStringLiteral("healthPause"));
    m_pause->setCheckable(true);
    m_pause->setText(tr("Pause"));
    m_pause->setToolTip(tr("Stop refreshing the provider health (the numbers stay as they are)"));
    connect(m_pause, &QToolButton::toggled, this, &HealthStrip::setPaused);
    side->addWidget(m_stamp);
    side->addWidget(m_pause, 0, Qt::AlignRight);
    layout->addLayout(side);

    connect(m_model, &QAbstractItemModel::modelReset, this, &HealthStrip::rebuildCards);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &HealthStrip::rebuildCards);
    m_timer->setInterval(5000);
    connect(m_timer, &QTimer::timeout, this, &HealthStrip::refresh);
    if (!m_queue || !m_queue->history()) {
        m_empty->setText(tr("Provider health needs the history (Bullpen was started without a store)."));
        m_pause->hide();
        m_stamp->hide();
        return;
    }
    m_timer->start();
    QTimer::singleShot(0, this, &HealthStrip::refresh);
}

void HealthStrip::setInterval(int ms) { m_timer->setInterval(ms); }

int HealthStrip::interval() const { return m_timer->interval(); }

void HealthStrip::setPaused(bool paused)
{
    m_paused = paused;
    if (m_pause->isChecked() != paused)
        m_pause->setChecked(paused);
    m_pause->setText(paused ? tr("Resume") : tr("Pause"));
    if (!paused)
        refresh();
}

void HealthStrip::refresh()
{
    if (m_paused || m_reading || !m_queue || !m_queue->history())
        return;
    m_reading = true;
    struct Windows
    {
        QList<ProviderHealth> last5, last15;
        QString error;
    };
    const qint64 now = m_clock ? m_clock() : QDateTime::currentMSecsSinceEpoch();
    m_readAtMs = now;
    m_queue->run<Windows>(
        this,
        [now](HistoryReader &history) {
            Windows w;
            w.last15 = history.providerHealth(now - 15 * kMinute, now + 1, &w.error);
            if (w.error.isEmpty())
                w.last5 = history.providerHealth(now - 5 * kMinute, now + 1, &w.error);
            return w;
        },
        [this](Windows w) {
            m_reading = false;
            m_error = w.error;
            if (!w.error.isEmpty()) {
                m_stamp->setText(tr("not updated: the store could not be read"));
                m_stamp->setToolTip(w.error);
                m_stamp->setStyleSheet(tones::textStyle(tones::Tone::Failure));
            } else {
                m_updated = QDateTime::currentDateTime();
                m_model->setHealth(w.last5, w.last15);
                m_stamp->setText(charts::updatedText(m_updated, m_paused));
                m_stamp->setToolTip(tr("Read from the store every %1 s: every engine writing there is counted").arg(m_timer->interval() / 1000.0));
                m_stamp->setStyleSheet(QString());
            }
            Q_EMIT updated();
        });
}

void HealthStrip::rebuildCards()
{
    while (QLayoutItem *item = m_cards->takeAt(0)) {
        if (item->widget() && item->widget() != m_empty)
            item->widget()->deleteLater();
        delete item;
    }
    m_cards->addWidget(m_empty);
    m_empty->setVisible(m_model->rowCount() == 0);
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const ProviderHealth five = m_model->last5(row);
        const ProviderHealth fifteen = m_model->last15(row);
        const ProviderHealth::State state = five.state();
        const tones::Tone tone = state == ProviderHealth::State::Failing    ? tones::Tone::Failure
                                 : state == ProviderHealth::State::Degraded ? tones::Tone::Warning
                                 : state == ProviderHealth::State::TooFew   ? tones::Tone::Muted
                                                                            : tones::Tone::Success;
        auto *card = new QLabel;
        card->setObjectName(QStringLiteral("healthCard_%1_%2").arg(toId(five.provider), toId(five.role)));
        card->setTextFormat(Qt::RichText);
        card->setText(tr("<b>%1</b> %2 · <span style=\"color:%3\"><b>%4</b></span><br><small>%5<br>%6</small>")
                          .arg(toId(five.provider), five.role == Role::Primary ? tr("primary") : tr("fallback"),
                               tones::css(tones::color(tone)), ProviderHealthModel::stateText(state).toUpper(),
                               windowLine(tr("5 min"), five).toHtmlEscaped(), windowLine(tr("15 min"), fifteen).toHtmlEscaped()));
        card->setStyleSheet(QStringLiteral("QLabel { border: 1px solid %1; border-left: 5px solid %1; padding: 3px 6px; }")
                                .arg(tones::css(tones::color(tone))));
        card->setToolTip(ProviderHealthModel::ruleText());
        m_cards->addWidget(card);
    }
    m_cards->addStretch(1);
}

} // namespace bullpen
