// SPDX-License-Identifier: MIT
#include "healthstrip.h"

#include "charts.h"
#include "contract/providerregistry.h"
#include "contract/recordtext.h"
#include "history/historyreader.h"
#include "models/historyqueue.h"
#include "models/providerhealthmodel.h"
#include "models/units.h"
#include "pipeline/engineconnection.h"
#include "tones.h"

#include <QAction>
#include <QFrame>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QJsonArray>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QMouseEvent>
#include <QScrollArea>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace bullpen {

namespace {

constexpr qint64 kMinute = 60'000;

QString windowLine(const QString &window, const ProviderHealth &h)
{
    const QLocale l;
    if (h.attempts == 0)
        return HealthStrip::tr("%1: no attempts").arg(window);
    QStringList parts;
    parts << HealthStrip::tr("%1: attempts %L2").arg(window).arg(h.attempts);
    parts << HealthStrip::tr("%1 % errors").arg(l.toString(h.errorPercent(), 'f', 1));
    if (h.topKind)
        parts << QStringLiteral("%1 ×%L2").arg(enumName(*h.topKind)).arg(h.topKindCount);
    if (const auto share = h.fallbackPercent())
        parts << HealthStrip::tr("%1 % to fallback").arg(l.toString(*share, 'f', 0));
    parts << HealthStrip::tr("p50 %1 · p90 %2").arg(units::duration(h.p50Ms), units::duration(h.p90Ms));
    return parts.join(QStringLiteral(" · "));
}

constexpr qsizetype kControlChars = 48; // a breaker or drain line on a card

// The card's short form of a window (the whole line is in its tooltip): "5 min: 11 · 36.4 % err ·
// TIMEOUT ×2" for the last 5 minutes, with p90 instead of the top kind for the last 15. A card stays
// about 300 px wide, so that five fit beside each other at 1,400 px.
QString cardLine(const QString &window, const ProviderHealth &h, bool withKind)
{
    if (h.attempts == 0)
        return HealthStrip::tr("%1: no attempts").arg(window);
    QString line = HealthStrip::tr("%1: %L2 · %3 % err").arg(window).arg(h.attempts).arg(QLocale().toString(h.errorPercent(), 'f', 1));
    if (withKind && h.topKind)
        line += QStringLiteral(" · %1 ×%L2").arg(enumName(*h.topKind)).arg(h.topKindCount);
    else if (!withKind)
        line += QStringLiteral(" · p90 %1").arg(units::duration(h.p90Ms));
    return line;
}

// "last probe 3 min ago: ok 840 ms" (docs/contract.md §13): a probe is synthetic, apart from the figures above it.
QString probeLine(const ProviderHealth::Probe &probe, qint64 nowMs)
{
    const qint64 seconds = std::max<qint64>(0, (nowMs - probe.atMs) / 1000);
    const QString ago = seconds < 90 ? HealthStrip::tr("%1 s").arg(seconds)
        : seconds < 5400             ? HealthStrip::tr("%1 min").arg(seconds / 60)
                                     : HealthStrip::tr("%1 h").arg(seconds / 3600);
    if (probe.ok)
        return HealthStrip::tr("last probe %1 ago: ok %2").arg(ago, units::duration(probe.durationMs));
    return HealthStrip::tr("last probe %1 ago: %2 after %3")
        .arg(ago, probe.kind ? enumName(*probe.kind) : HealthStrip::tr("failed"), units::duration(probe.durationMs));
}

QString clock(const QJsonValue &iso)
{
    const QDateTime t = QDateTime::fromString(iso.toString(), Qt::ISODateWithMs);
    return t.isValid() ? QLocale().toString(t.toLocalTime().time(), QStringLiteral("HH:mm:ss")) : QString();
}

} // namespace

HealthCard::HealthCard(QWidget *parent)
    : QLabel(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setCursor(Qt::PointingHandCursor);
}

void HealthCard::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && rect().contains(event->position().toPoint()))
        Q_EMIT activated();
    QLabel::mouseReleaseEvent(event);
}

void HealthCard::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter || event->key() == Qt::Key_Space) {
        Q_EMIT activated();
        return;
    }
    QLabel::keyPressEvent(event);
}

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
    auto *scroll = m_scroll = new QScrollArea;
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

void HealthStrip::setInterval(int ms)
{
    m_timer->setInterval(ms);
}

int HealthStrip::interval() const
{
    return m_timer->interval();
}

void HealthStrip::setPaused(bool paused)
{
    m_paused = paused;
    if (m_pause->isChecked() != paused)
        m_pause->setChecked(paused);
    m_pause->setText(paused ? tr("Resume") : tr("Pause"));
    if (!paused)
        refresh();
}

void HealthStrip::setEngine(EngineConnection *engine)
{
    m_engine = engine;
    if (!engine)
        return;
    connect(engine, &EngineConnection::providersChanged, this, [this](const QJsonObject &providers) {
        if (providers == m_providers)
            return;
        m_providers = providers;
        std::set<QString> open;
        for (const QJsonValue &pv : providers.value(QLatin1StringView("providers")).toArray()) {
            for (const QJsonValue &bv : pv.toObject().value(QLatin1StringView("breakers")).toArray()) {
                const QJsonObject b = bv.toObject();
                if (b.value(QLatin1StringView("state")).toString() != u"open")
                    continue;
                const QString key = QStringLiteral("%1/%2/%3")
                                        .arg(b.value(QLatin1StringView("provider")).toString(),
                                             b.value(QLatin1StringView("role")).toString(), b.value(QLatin1StringView("stage")).toString());
                open.insert(key);
                const auto provider = providerFromId(b.value(QLatin1StringView("provider")).toString());
                if (provider && !m_openBreakers.count(key))
                    Q_EMIT alert(*provider, tr("Bullpen: %1's breaker opened (%2)").arg(toId(*provider), key),
                                 localizedRecordText(b.value(QLatin1StringView("reason")).toString()));
            }
        }
        m_openBreakers = std::move(open);
        rebuildCards();
    });
    connect(engine, &EngineConnection::providerActionFailed, this, [this](const QString &message) {
        m_stamp->setText(tr("drain or restore refused"));
        m_stamp->setToolTip(message);
        m_stamp->setStyleSheet(tones::textStyle(tones::Tone::Failure));
    });
    engine->refreshProviders();
}

QString HealthStrip::controlLine(Provider provider, Role role, std::optional<Stage> stage) const
{
    QStringList parts;
    for (const QJsonValue &pv : m_providers.value(QLatin1StringView("providers")).toArray()) {
        const QJsonObject p = pv.toObject();
        if (p.value(QLatin1StringView("id")).toString() != toId(provider))
            continue;
        for (const QJsonValue &dv : p.value(QLatin1StringView("drains")).toArray()) {
            const QJsonObject d = dv.toObject();
            const QString dRole = d.value(QLatin1StringView("role")).toString();
            const QString dStage = d.value(QLatin1StringView("stage")).toString();
            if ((!dRole.isEmpty() && dRole != toId(role)) || (stage && !dStage.isEmpty() && dStage != toId(*stage)))
                continue;
            QString line =
                tr("DRAINED by %1 since %2").arg(d.value(QLatin1StringView("by")).toString(), clock(d.value(QLatin1StringView("since"))));
            if (d.value(QLatin1StringView("until")).isString())
                line += tr(", until %1").arg(clock(d.value(QLatin1StringView("until"))));
            parts << line + QStringLiteral(": ") + d.value(QLatin1StringView("reason")).toString();
        }
        for (const QJsonValue &bv : p.value(QLatin1StringView("breakers")).toArray()) {
            const QJsonObject b = bv.toObject();
            const QString state = b.value(QLatin1StringView("state")).toString();
            const QString bStage = b.value(QLatin1StringView("stage")).toString();
            if (b.value(QLatin1StringView("role")).toString() != toId(role) || state == u"closed" || (stage && bStage != toId(*stage)))
                continue;
            parts << (state == u"open"
                          ? tr("breaker OPEN (%1) since %2, next try %3")
                                .arg(bStage, clock(b.value(QLatin1StringView("since"))), clock(b.value(QLatin1StringView("retry_at"))))
                          : tr("breaker HALF-OPEN (%1): one trial request is testing it").arg(bStage));
        }
    }
    return parts.join(QLatin1Char('\n'));
}

void HealthStrip::askToDrain(Provider provider)
{
    if (!m_engine)
        return;
    bool ok = false;
    const QString reason =
        QInputDialog::getText(this, tr("Drain %1").arg(toId(provider)), tr("Why? (kept in the audit; other operators see it on this card)"),
                              QLineEdit::Normal, {}, &ok)
            .trimmed();
    if (!ok)
        return;
    if (reason.isEmpty()) {
        QMessageBox::information(this, tr("Drain %1").arg(toId(provider)), tr("A drain needs a reason; nothing was changed."));
        return;
    }
    const auto answer = QMessageBox::question(this, tr("Drain %1").arg(toId(provider)),
                                              tr("Every stage with %1 as its primary goes straight to its fallback, with the whole budget, "
                                                 "until %1 is restored. Stages with no fallback still call %1. Drain it?")
                                                  .arg(toId(provider)));
    if (answer == QMessageBox::Yes)
        m_engine->drainProvider(provider, reason, std::nullopt);
}

void HealthStrip::refresh()
{
    if (m_engine)
        m_engine->refreshProviders();
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
                m_stamp->setToolTip(
                    tr("Read from the store every %1 s: every engine writing there is counted").arg(m_timer->interval() / 1000.0));
                m_stamp->setStyleSheet(QString());
            }
            Q_EMIT updated();
        });
}

void HealthStrip::rebuildCards()
{
    while (QLayoutItem *item = m_cards->takeAt(0)) {
        if (item->widget() && item->widget() != m_empty) {
            item->widget()->hide(); // gone from the strip now, not when the event loop deletes it
            item->widget()->deleteLater();
        }
        delete item;
    }
    m_cards->addWidget(m_empty);
    m_empty->setVisible(m_model->rowCount() == 0);
    std::set<Provider> shown;
    std::set<std::tuple<Provider, Role, Stage>> failing;
    bool controls = false;
    bool probes = false;
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const ProviderHealth five = m_model->last5(row);
        const ProviderHealth fifteen = m_model->last15(row);
        const ProviderHealth::State state = five.state();
        const QString role = five.role == Role::Primary ? tr("primary") : tr("fallback");
        if (state == ProviderHealth::State::Failing) {
            failing.insert({ five.provider, five.role, five.stage });
            if (!m_failing.count({ five.provider, five.role, five.stage }))
                Q_EMIT alert(five.provider, tr("Bullpen: %1 (%2, %3) is failing now").arg(toId(five.provider), role, toId(five.stage)),
                             windowLine(tr("5 min"), five));
        }
        const tones::Tone tone = state == ProviderHealth::State::Failing ? tones::Tone::Failure
            : state == ProviderHealth::State::Degraded                   ? tones::Tone::Warning
            : state == ProviderHealth::State::TooFew                     ? tones::Tone::Muted
                                                                         : tones::Tone::Success;
        auto *card = newCard(QStringLiteral("healthCard_%1_%2_%3").arg(toId(five.provider), toId(five.role), toId(five.stage)), tone);
        card->setText(
            tr("<b>%1</b> %2 · %3 · <span style=\"color:%4\"><b>%5</b></span><br><small>%6<br>%7</small>")
                .arg(toId(five.provider), role, toId(five.stage),
                     // grey that reads: the palette's hint text, not the pale grid tone
                     tones::css(state == ProviderHealth::State::TooFew ? palette().color(QPalette::PlaceholderText) : tones::color(tone)),
                     ProviderHealthModel::stateText(state).toUpper(), cardLine(tr("5 min"), five, true).toHtmlEscaped(),
                     cardLine(tr("15 min"), fifteen, false).toHtmlEscaped()));
        if (fifteen.lastProbe) {
            probes = true;
            card->setText(card->text() + QStringLiteral("<br><small>%1</small>").arg(probeLine(*fifteen.lastProbe, nowMs).toHtmlEscaped()));
        }
        card->setToolTip(windowLine(tr("5 min"), five) + QLatin1Char('\n') + windowLine(tr("15 min"), fifteen) + QStringLiteral("\n\n")
                         + ProviderHealthModel::ruleText() + QStringLiteral("\n\n")
                         + tr("Probes are synthetic requests (bullpen-engine --probe-every); they are in none of the figures.")
                         + QStringLiteral("\n") + tr("Click to see these failures in Failures."));
        connect(card, &HealthCard::activated, this,
                [this, p = five.provider, r = five.role, st = five.stage] { Q_EMIT cardActivated(p, r, st); });
        controls = addControls(card, five.provider, five.role, five.stage) || controls;
        shown.insert(five.provider);
    }
    // A drained or broken provider keeps a card when it has had no traffic (a drained primary gets
    // none): that card is where it is restored.
    for (const Provider provider : ProviderRegistry::all()) {
        for (const Role role : { Role::Primary, Role::Fallback }) {
            if (shown.count(provider) || controlLine(provider, role).isEmpty())
                continue;
            shown.insert(provider); // one card per provider is enough to restore it
            controls = true;
            m_empty->hide();
            auto *card = newCard(QStringLiteral("healthCard_%1_%2").arg(toId(provider), toId(role)), tones::Tone::Warning);
            card->setText(tr("<b>%1</b> %2<br><small>no attempts in the last 15 minutes</small>")
                              .arg(toId(provider), role == Role::Primary ? tr("primary") : tr("fallback")));
            addControls(card, provider, role, std::nullopt);
        }
    }
    m_failing = std::move(failing);
    m_cards->addStretch(1);
    // A breaker or drain line, or a probe's, is one more line on its card: the strip grows for it, and
    // only then. It does not shrink back when the line goes: the tabs below stay where the operator's
    // eye and mouse are instead of moving with every breaker that opens and closes.
    const int lines = 4 + (controls ? 1 : 0) + (probes ? 1 : 0);
    m_scroll->setMinimumHeight(std::max(m_scroll->minimumHeight(), lines * fontMetrics().height() + 8 + (lines > 4 ? 4 : 0)));
}

HealthCard *HealthStrip::newCard(const QString &name, tones::Tone tone)
{
    auto *card = new HealthCard;
    card->setObjectName(name);
    card->setTextFormat(Qt::RichText);
    card->setStyleSheet(QStringLiteral("QLabel { border: 1px solid %1; border-left: 5px solid %1; padding: 3px 6px; }"
                                       "QLabel:focus { border-width: 2px; }")
                            .arg(tones::css(tones::color(tone))));
    m_cards->addWidget(card);
    return card;
}

bool HealthStrip::addControls(QLabel *card, Provider provider, Role role, std::optional<Stage> stage)
{
    const QString control = controlLine(provider, role, stage);
    if (!control.isEmpty()) {
        // Each breaker or drain line cut to the card's width; whole in the tooltip.
        QStringList lines = control.split(u'\n');
        for (QString &line : lines)
            line = (line.size() > kControlChars ? line.left(kControlChars - 1) + QChar(0x2026) : line).toHtmlEscaped();
        card->setText(card->text()
                      + QStringLiteral("<br><small><span style=\"color:%1\"><b>%2</b></span></small>")
                            .arg(tones::css(tones::color(tones::Tone::Warning)), lines.join(QStringLiteral("<br>"))));
        card->setToolTip(control + QStringLiteral("\n\n") + card->toolTip());
    }
    if (!m_engine)
        return !control.isEmpty();
    auto *drain = new QAction(tr("Drain %1…").arg(toId(provider)), card);
    drain->setObjectName(QStringLiteral("drainAction"));
    connect(drain, &QAction::triggered, this, [this, provider] { askToDrain(provider); });
    auto *restore = new QAction(tr("Restore %1").arg(toId(provider)), card);
    restore->setObjectName(QStringLiteral("restoreAction"));
    connect(restore, &QAction::triggered, this, [this, provider] { m_engine->restoreProvider(provider); });
    card->addActions({ drain, restore });
    card->setContextMenuPolicy(Qt::ActionsContextMenu);
    return !control.isEmpty();
}

} // namespace bullpen
