// SPDX-License-Identifier: MIT
#include "healthstrip.h"

#include "charts.h"
#include "contract/providerregistry.h"
#include "contract/recordtext.h"
#include "draindialog.h"
#include "history/historyreader.h"
#include "models/historyqueue.h"
#include "models/providerhealthmodel.h"
#include "models/units.h"
#include "models/words.h"
#include "pipeline/engineconnection.h"
#include "tones.h"
#include "wire/providersjson.h"

#include <QAction>
#include <QFrame>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMouseEvent>
#include <QScrollArea>
#include <QScrollBar>
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

QString clock(const QDateTime &t)
{
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
    m_cards->addStretch(1); // the cards go between the notice and this
    auto *scroll = m_scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("healthCards"));
    scroll->setWidget(cards);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    scroll->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    scroll->setMinimumHeight(4 * fontMetrics().height() + 8);
    scroll->setFocusPolicy(Qt::NoFocus); // the cards take the focus, one by one; the area never does
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

    connect(m_model, &QAbstractItemModel::modelReset, this, &HealthStrip::updateCards);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &HealthStrip::updateCards);
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
        for (const BreakerView &b : ProvidersJson::breakers(providers)) {
            if (b.state != BreakerState::Open)
                continue;
            const QString key = QStringLiteral("%1/%2/%3").arg(toId(b.key.provider), toId(b.key.role), toId(b.key.stage));
            open.insert(key);
            if (!m_openBreakers.count(key))
                Q_EMIT alert(b.key.provider, tr("Bullpen: %1's breaker opened (%2)").arg(toId(b.key.provider), key),
                             localizedRecordText(b.reason));
        }
        m_openBreakers = std::move(open);
        updateCards();
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
    for (const Drain &d : ProvidersJson::drains(m_providers)) {
        if (d.provider != provider || (d.role && *d.role != role) || (stage && d.stage && *d.stage != *stage))
            continue;
        // by: a token's name; "console": an embedded console's own
        QString line = tr("DRAINED by %1 since %2").arg(d.by == u"console" ? tr("this console") : d.by, clock(d.since));
        if (d.until)
            line += tr(", until %1").arg(clock(*d.until));
        parts << line + QStringLiteral(": ") + d.reason;
    }
    for (const BreakerView &b : ProvidersJson::breakers(m_providers)) {
        if (b.key.provider != provider || b.key.role != role || b.state == BreakerState::Closed || (stage && b.key.stage != *stage))
            continue;
        const QString stageWord = words::stage(b.key.stage);
        parts << (b.state == BreakerState::Open
                      ? tr("breaker OPEN (%1) since %2, next try %3").arg(stageWord, clock(b.since), clock(b.retryAt.value_or(QDateTime())))
                      : tr("breaker HALF-OPEN (%1): one trial request is testing it").arg(stageWord));
    }
    return parts.join(QLatin1Char('\n'));
}

void HealthStrip::askToDrain(Provider provider, std::optional<Role> role, std::optional<Stage> stage)
{
    if (!m_engine)
        return;
    auto *dialog = new DrainDialog(provider, role, stage, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &DrainDialog::drainAccepted, this, [this](const DrainRequest &r) {
        if (m_engine)
            m_engine->drainProvider(r);
    });
    dialog->open(); // window-modal, and no nested event loop: timers and refreshes go on behind it
}

bool HealthStrip::drained(Provider provider, Role role, std::optional<Stage> stage) const
{
    const QList<Drain> drains = ProvidersJson::drains(m_providers);
    return std::any_of(drains.begin(), drains.end(), [&](const Drain &d) {
        return d.provider == provider && (!d.role || *d.role == role) && (!stage || !d.stage || *d.stage == *stage);
    });
}

QList<QAction *> HealthStrip::cardActions(HealthCard *card, QObject *owner)
{
    const QString name = card->objectName();
    const Provider provider = card->provider;
    const Role role = card->role;
    const std::optional<Stage> stage = card->stage;
    QList<QAction *> actions;
    if (stage) {
        auto *failures = new QAction(tr("Show these failures"), owner);
        failures->setObjectName(QStringLiteral("failuresAction"));
        connect(failures, &QAction::triggered, this, [this, provider, role, stage] { Q_EMIT cardActivated(provider, role, *stage); });
        actions << failures;
    }
    if (!m_engine)
        return actions;
    auto *drain = new QAction(tr("Drain %1…").arg(toId(provider)), owner);
    drain->setObjectName(QStringLiteral("drainAction"));
    drain->setEnabled(m_engine->usable());
    if (!m_engine->usable())
        drain->setToolTip(tr("The engine is not reachable; nothing can be drained until it is back"));
    connect(drain, &QAction::triggered, this, [this, name, provider, role, stage] {
        m_actedOn = name;
        askToDrain(provider, role, stage);
    });
    actions << drain;
    if (drained(provider, role, stage)) { // Restore only on a card that is drained
        auto *restore = new QAction(tr("Restore %1 (ends every drain of it)").arg(toId(provider)), owner);
        restore->setObjectName(QStringLiteral("restoreAction"));
        restore->setEnabled(m_engine->usable());
        connect(restore, &QAction::triggered, this, [this, name, provider] {
            m_actedOn = name;
            if (m_engine)
                m_engine->restoreProvider(provider);
        });
        actions << restore;
    }
    return actions;
}

void HealthStrip::showCardMenu(HealthCard *card, const QPoint &pos)
{
    // The menu and its actions belong to the strip: a refresh behind the open menu updates the card
    // (never deletes it), and an action chosen runs after the menu has closed.
    auto *menu = new QMenu(this);
    menu->setObjectName(QStringLiteral("healthCardMenu"));
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addActions(cardActions(card, menu));
    menu->popup(card->mapToGlobal(pos));
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
            if (!w.error.isEmpty() && m_engine && !m_engine->usable()) {
                // The engine is away (the status bar names it): that, not the store, is why.
                m_stamp->setText(tr("not updated: the engine is not reachable"));
                m_stamp->setToolTip(m_engine->describe());
                m_stamp->setStyleSheet(tones::textStyle(tones::Tone::Failure));
            } else if (!w.error.isEmpty()) {
                m_stamp->setText(tr("not updated: the store could not be read"));
                m_stamp->setToolTip(w.error);
                m_stamp->setStyleSheet(tones::textStyle(tones::Tone::Failure));
            } else {
                m_updated = QDateTime::currentDateTime();
                m_model->setHealth(w.last5, w.last15);
                m_stamp->setText(charts::updatedText(m_updated, m_paused));
                m_stamp->setToolTip(tr("Read from the store every %1: every engine writing there is counted")
                                        .arg(units::duration(std::chrono::milliseconds(m_timer->interval()))));
                m_stamp->setStyleSheet(QString());
            }
            Q_EMIT updated();
        });
}

void HealthStrip::updateCards()
{
    std::set<QString> shownNames;
    std::set<Provider> shown;
    std::set<std::tuple<Provider, Role, Stage>> failing;
    int controls = 0; // the most breaker and drain lines on one card
    bool probes = false;
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const ProviderHealth five = m_model->last5(row);
        const ProviderHealth fifteen = m_model->last15(row);
        const ProviderHealth::State state = five.state();
        const QString role = words::role(five.role);
        if (state == ProviderHealth::State::Failing) {
            failing.insert({ five.provider, five.role, five.stage });
            if (!m_failing.count({ five.provider, five.role, five.stage }))
                Q_EMIT alert(five.provider,
                             tr("Bullpen: %1 (%2, %3) is failing now").arg(toId(five.provider), role, words::stage(five.stage)),
                             windowLine(tr("5 min"), five));
        }
        const tones::Tone tone = state == ProviderHealth::State::Failing ? tones::Tone::Failure
            : state == ProviderHealth::State::Degraded                   ? tones::Tone::Warning
            : state == ProviderHealth::State::TooFew                     ? tones::Tone::Muted
                                                                         : tones::Tone::Success;
        const QString name = QStringLiteral("healthCard_%1_%2_%3").arg(toId(five.provider), toId(five.role), toId(five.stage));
        HealthCard *card = cardNamed(name, five.provider, five.role, five.stage);
        setTone(card, tone);
        QString text =
            tr("<b>%1</b> %2 · %3 · <span style=\"color:%4\"><b>%5</b></span><br><small>%6<br>%7</small>")
                .arg(toId(five.provider), role, words::stage(five.stage),
                     // grey that reads: the palette's hint text, not the pale grid tone
                     tones::css(state == ProviderHealth::State::TooFew ? palette().color(QPalette::PlaceholderText) : tones::color(tone)),
                     // a drain is what happens to this card now, whatever its last 5 minutes were
                     drained(five.provider, five.role, five.stage) ? tr("DRAINED") : ProviderHealthModel::stateText(state).toUpper(),
                     cardLine(tr("5 min"), five, true).toHtmlEscaped(), cardLine(tr("15 min"), fifteen, false).toHtmlEscaped());
        if (fifteen.lastProbe) {
            probes = true;
            text += QStringLiteral("<br><small>%1</small>").arg(probeLine(*fifteen.lastProbe, nowMs).toHtmlEscaped());
        }
        card->setText(text);
        card->setToolTip(
            windowLine(tr("5 min"), five) + QLatin1Char('\n') + windowLine(tr("15 min"), fifteen) + QStringLiteral("\n\n")
            + ProviderHealthModel::ruleText() + QStringLiteral("\n\n")
            + tr("Probes are synthetic requests (bullpen-engine --probe-every); they are in none of the figures.") + QStringLiteral("\n")
            + tr("Click to see these failures in Failures; right-click (or the Menu key) to drain or restore.") + QLatin1Char('\n')
            + tr("Every drain and breaker, with Restore, Reset and the audit trail: Engine ▸ Control (Ctrl+Shift+K)."));
        controls = std::max(controls, addControls(card));
        shown.insert(five.provider);
        shownNames.insert(name);
    }
    // A drained or broken provider keeps a card when it has had no traffic (a drained primary gets
    // none): that card is where it is restored. The engine's providers as they are now (an attached
    // engine's arrive with its configuration, after the strip is shown).
    for (const Provider provider : m_engine ? m_engine->providers().all() : QList<Provider> {}) {
        for (const Role role : { Role::Primary, Role::Fallback }) {
            if (shown.count(provider) || controlLine(provider, role).isEmpty())
                continue;
            shown.insert(provider); // one card per provider is enough to restore it
            const QString name = QStringLiteral("healthCard_%1_%2").arg(toId(provider), toId(role));
            HealthCard *card = cardNamed(name, provider, role, std::nullopt);
            setTone(card, tones::Tone::Warning);
            card->setText(tr("<b>%1</b> %2<br><small>no attempts in the last 15 minutes</small>").arg(toId(provider), words::role(role)));
            card->setToolTip(tr("Right-click (or the Menu key) to drain or restore."));
            controls = std::max(controls, addControls(card));
            shownNames.insert(name);
        }
    }
    // Cards with nothing to show are hidden, not deleted: one may own an open menu or the focus.
    for (auto &[name, card] : m_cardsByName)
        card->setVisible(shownNames.count(name) > 0);
    m_empty->setVisible(shownNames.empty());
    m_failing = std::move(failing);
    if (const auto acted = m_cardsByName.find(m_actedOn); acted != m_cardsByName.end() && acted->second->isVisible()) {
        m_scroll->ensureWidgetVisible(acted->second); // the card a drain or restore came from stays in view
        m_actedOn.clear();
    }
    // A breaker or drain line, or a probe's, is one more line on its card: the strip grows for it, and
    // only then. It does not shrink back when the line goes: the tabs below stay where the operator's
    // eye and mouse are instead of moving with every breaker that opens and closes.
    // The cards' own height counts too: a Korean card's lines are taller than the Latin font's metrics
    // say (its glyphs come from a CJK font). And the horizontal scroll bar, shown as soon as the cards
    // are wider than the window, takes its height from the area: without it, the last line is cut.
    const int lines = 4 + controls + (probes ? 1 : 0);
    int cardsHeight = 0;
    for (const auto &[cardName, card] : m_cardsByName)
        if (card->isVisible())
            cardsHeight = std::max(cardsHeight, card->sizeHint().height());
    const int bar = m_scroll->horizontalScrollBar()->sizeHint().height();
    m_scroll->setMinimumHeight(
        std::max({ m_scroll->minimumHeight(), lines * fontMetrics().height() + 8 + (lines > 4 ? 4 : 0), cardsHeight + bar + 2 }));
}

HealthCard *HealthStrip::cardNamed(const QString &name, Provider provider, Role role, std::optional<Stage> stage)
{
    if (const auto it = m_cardsByName.find(name); it != m_cardsByName.end())
        return it->second;
    auto *card = new HealthCard;
    card->setObjectName(name);
    card->setTextFormat(Qt::RichText);
    card->provider = provider;
    card->role = role;
    card->stage = stage;
    card->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(card, &QWidget::customContextMenuRequested, this, [this, card](const QPoint &pos) { showCardMenu(card, pos); });
    if (stage)
        connect(card, &HealthCard::activated, this, [this, card] { Q_EMIT cardActivated(card->provider, card->role, *card->stage); });
    m_cards->insertWidget(m_cards->count() - 1, card); // before the stretch
    m_cardsByName.emplace(name, card);
    return card;
}

void HealthStrip::setTone(HealthCard *card, tones::Tone tone)
{
    const QString sheet = QStringLiteral("QLabel { border: 1px solid %1; border-left: 5px solid %1; padding: 3px 6px; }"
                                         "QLabel:focus { border-width: 2px; }")
                              .arg(tones::css(tones::color(tone)));
    if (card->styleSheet() != sheet)
        card->setStyleSheet(sheet);
}

int HealthStrip::addControls(HealthCard *card)
{
    const QString control = controlLine(card->provider, card->role, card->stage);
    if (control.isEmpty())
        return 0;
    // Each breaker or drain line cut to the card's width; whole in the tooltip.
    QStringList lines = control.split(u'\n');
    for (QString &line : lines)
        line = (line.size() > kControlChars ? line.left(kControlChars - 1) + QChar(0x2026) : line).toHtmlEscaped();
    card->setText(card->text()
                  + QStringLiteral("<br><small><span style=\"color:%1\"><b>%2</b></span></small>")
                        .arg(tones::css(tones::color(tones::Tone::Warning)), lines.join(QStringLiteral("<br>"))));
    card->setToolTip(control + QStringLiteral("\n\n") + card->toolTip());
    return int(lines.size());
}

} // namespace bullpen
