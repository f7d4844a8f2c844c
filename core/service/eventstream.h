// SPDX-License-Identifier: MIT
#pragma once

#include "events/event.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <chrono>
#include <deque>
#include <vector>

class QTcpSocket;

namespace bullpen {

// `GET /v1/events` (docs/api.md): every event the engine records, as Server-Sent Events, each with an
// `id:` cursor "<epoch>-<n>" (epoch: random per engine start; n counts up from 1). The last
// `retention` events are kept; a subscriber that sends `Last-Event-ID` gets every later event it would
// have seen, in order, then the live ones, with nothing lost or repeated. A cursor this engine cannot
// continue from (another start, or older than what is kept) gets `event: reset` first, naming the oldest
// cursor kept, so the client knows to reconcile from the generations' results. A comment line is
// written every `heartbeat`. A subscriber whose unsent bytes pass `backlogBytes` gets `event: overflow`
// and is closed: its socket never buffers without bound.
class EventStream final : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        std::size_t retention = 65536;
        qint64 backlogBytes = 4 * 1024 * 1024;
        std::chrono::milliseconds heartbeat{15000};
        int maxSubscribers = 64;
    };
    explicit EventStream(Options options, QObject *parent = nullptr);
    ~EventStream() override;

    void publish(const Event &event);
    // False when the subscriber limit is reached (the caller answers 429).
    bool subscribe(QTcpSocket *socket, const QString &generationFilter, const QString &lastEventId);
    int subscribers() const { return static_cast<int>(m_subscribers.size()); }
    quint64 overflows() const { return m_overflows; }
    // Ends every stream (shutdown): subscribers see the connection close and reconnect elsewhere.
    void closeAll();

private:
    struct Entry
    {
        quint64 n = 0;
        QString generationId;
        QByteArray frame;
    };
    struct Subscriber
    {
        QPointer<QTcpSocket> socket;
        QString generation; // empty: all
    };
    bool send(Subscriber &s, const QByteArray &frame); // false: overflowed and closed
    void heartbeat();
    void prune();

    Options m_options;
    QString m_epoch;
    quint64 m_next = 1;
    std::deque<Entry> m_kept;
    std::vector<Subscriber> m_subscribers;
    QTimer m_heartbeat;
    quint64 m_overflows = 0;
};

} // namespace bullpen
