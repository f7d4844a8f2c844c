// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"
#include "tones.h"

#include <QDateTime>
#include <QJsonObject>
#include <QLabel>
#include <QWidget>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <tuple>

class QHBoxLayout;
class QScrollArea;
class QTimer;
class QToolButton;

namespace bullpen {

class EngineConnection;
class HistoryQueue;
class ProviderHealthModel;

// "Is anything wrong right now" (docs/contract.md §9.8): one card per provider, role and stage with the
// last 5 and 15 minutes' attempts, error %, top failure kind, share handed to the fallback provider and
// p50/p90, and its state (failing now, degraded, healthy; the rule is in the tooltip). Read from the
// store on the console's reader thread, so it counts every engine writing there, not only this
// console's; refreshed every interval (5 s by default) with "updated hh:mm:ss" and a pause. A card is
// a way in: clicking it (or Enter on it) asks for Failures filtered to it (cardActivated).
// One card of the strip: a label that can be clicked, or focused and activated with Enter or Space.
// A card is made once for its provider, role and stage and then only updated (or hidden while it has
// nothing to show): a refresh never deletes a card whose menu, dialog, tooltip or focus is in use.
class HealthCard final : public QLabel
{
    Q_OBJECT
public:
    explicit HealthCard(QWidget *parent = nullptr);

    Provider provider = Provider::Gemini;
    Role role = Role::Primary;
    std::optional<Stage> stage; // none: a card of a provider with no traffic

Q_SIGNALS:
    void activated();

protected:
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
};

class HealthStrip final : public QWidget
{
    Q_OBJECT
public:
    explicit HealthStrip(HistoryQueue *queue, QWidget *parent = nullptr);

    ProviderHealthModel *model() const { return m_model; }
    // The engine whose breakers and drains the cards show (docs/contract.md §13), and through which
    // each card's menu drains or restores its provider. Without it, the cards show the history alone.
    void setEngine(EngineConnection *engine);
    // The breaker and drain line of a card, as shown (empty: closed and not drained); no stage: the card
    // of a provider with no traffic, which shows every stage's.
    QString controlLine(Provider provider, Role role, std::optional<Stage> stage = std::nullopt) const;
    // Reads both windows now (unless a read is already on its way); updated() follows.
    void refresh();
    void setInterval(int ms);
    int interval() const;
    void setPaused(bool paused);
    bool isPaused() const { return m_paused; }
    QDateTime lastUpdated() const { return m_updated; }
    QString lastError() const { return m_error; }
    // The windows end at clock() (ms since the epoch; the wall clock unless set): a test pins them.
    void setClock(std::function<qint64()> clock) { m_clock = std::move(clock); }
    qint64 lastReadAtMs() const { return m_readAtMs; }

Q_SIGNALS:
    void updated();
    // A card turned *failing now*, or a breaker of its provider opened: for a desktop notification.
    void alert(bullpen::Provider provider, const QString &summary, const QString &body);
    // A card was clicked: show the failures of this provider in this role at this stage.
    void cardActivated(bullpen::Provider provider, bullpen::Role role, bullpen::Stage stage);

public:
    // The card's menu: Failures, Drain… and, where something of its provider is drained, Restore.
    // Built when asked for (right click, the Menu key) and owned by the strip, never by the card.
    QList<QAction *> cardActions(HealthCard *card, QObject *owner);
    // The drain dialog for a card's provider, role and stage, opened window-modal without a nested
    // event loop; the drain is sent when it is accepted.
    void askToDrain(Provider provider, std::optional<Role> role, std::optional<Stage> stage);

private:
    void updateCards();
    // The card for `name`: the one made before, or a new one at the end of the strip.
    HealthCard *cardNamed(const QString &name, Provider provider, Role role, std::optional<Stage> stage);
    void setTone(HealthCard *card, tones::Tone tone);
    void showCardMenu(HealthCard *card, const QPoint &pos);
    // The breaker and drain lines; how many it added.
    int addControls(HealthCard *card);
    // A drain of the engine's covers this provider in this role (at this stage; none: at any).
    bool drained(Provider provider, Role role, std::optional<Stage> stage) const;

    HistoryQueue *m_queue;
    ProviderHealthModel *m_model;
    QTimer *m_timer;
    QHBoxLayout *m_cards;
    QLabel *m_empty;
    QLabel *m_stamp;
    QScrollArea *m_scroll;
    QToolButton *m_pause;
    QDateTime m_updated;
    QString m_error;
    bool m_paused = false;
    bool m_reading = false;
    std::function<qint64()> m_clock;
    qint64 m_readAtMs = 0;
    EngineConnection *m_engine = nullptr;
    QJsonObject m_providers; // GET /v1/providers' shape
    std::set<std::tuple<Provider, Role, Stage>> m_failing; // cards failing now at the last rebuild
    std::set<QString> m_openBreakers; // "provider/role/stage" open at the last answer
    std::map<QString, HealthCard *> m_cardsByName; // every card made, shown or hidden; none is deleted before the strip
    QString m_actedOn; // the card a drain or restore came from: kept in view once the engine answers
};

} // namespace bullpen
