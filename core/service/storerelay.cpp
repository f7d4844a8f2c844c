// SPDX-License-Identifier: MIT
#include "storerelay.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>

namespace bullpen {

StoreRelay::StoreRelay(StoreLocation location, QString instance)
    : m_location(std::move(location))
    , m_instance(std::move(instance))
    , m_connection(QStringLiteral("bullpen-relay-") + QUuid::createUuid().toString(QUuid::Id128))
{
    m_thread.setObjectName(QStringLiteral("bullpen-relay"));
}

StoreRelay::~StoreRelay()
{
    if (m_thread.isRunning()) {
        QMetaObject::invokeMethod(m_poll, [this] { close(); }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
}

void StoreRelay::start()
{
    m_poll = new QTimer; // lives on the relay's thread, deleted there when it ends
    m_poll->setInterval(kPollMs);
    m_poll->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_poll, &QObject::deleteLater);
    connect(m_poll, &QTimer::timeout, m_poll, [this] { read(); });
    m_thread.start();
    QMetaObject::invokeMethod(m_poll, [this] {
        m_clock.start();
        open();
        m_poll->start();
    });
}

void StoreRelay::open()
{
    QString why;
    QSqlDatabase db = m_location.connect(m_connection, StoreLocation::Access::ReadOnly, &why);
    if (!db.isOpen()) {
        if (why != m_lastFailure)
            Q_EMIT failed(why);
        m_lastFailure = why;
        return; // tried again at the next poll
    }
    QSqlQuery q(db);
    if (!m_open && m_cursor == 0) { // first start: from what the store holds now
        if (!q.exec(QStringLiteral("SELECT COALESCE(MAX(store_order), 0) FROM events")) || !q.next()) {
            Q_EMIT failed(q.lastError().text());
            return;
        }
        m_cursor = q.value(0).toLongLong();
    }
    q.finish();
    db.driver()->subscribeToNotification(QStringLiteral("bullpen_events"));
    connect(db.driver(), &QSqlDriver::notification, m_poll, [this] { read(); }, Qt::UniqueConnection);
    m_open = true;
    m_lastFailure.clear();
}

void StoreRelay::close()
{
    if (m_poll)
        m_poll->stop();
    {
        QSqlDatabase db = QSqlDatabase::database(m_connection, false);
        if (db.isValid() && db.isOpen())
            db.driver()->unsubscribeFromNotification(QStringLiteral("bullpen_events"));
    }
    StoreLocation::disconnect(m_connection);
    m_open = false;
}

void StoreRelay::read()
{
    if (!m_open) {
        open();
        if (!m_open)
            return;
    }
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    for (;;) {
        QSqlQuery q(db);
        q.setForwardOnly(true);
        q.prepare(QStringLiteral("SELECT store_order, instance, body FROM events WHERE store_order > ? ORDER BY store_order LIMIT %1").arg(kBatch));
        q.addBindValue(m_cursor);
        if (!q.exec()) {
            const QString why = q.lastError().text();
            if (why != m_lastFailure)
                Q_EMIT failed(why);
            m_lastFailure = why;
            close(); // re-made at the next poll (and LISTEN with it)
            m_poll->start();
            return;
        }
        QList<Event> events;
        qint64 highest = m_cursor;
        int rows = 0;
        while (q.next()) {
            ++rows;
            const qint64 order = q.value(0).toLongLong();
            highest = std::max(highest, order);
            if (!m_seenAbove.insert(order).second)
                continue; // read before, while a hole below kept the cursor back
            m_missingSince.erase(order);
            const QString instance = q.value(1).toString();
            if (instance == m_instance)
                continue; // this engine's own: its stream had it live
            std::optional<Event> e = Event::fromJson(QJsonDocument::fromJson(q.value(2).toString().toUtf8()).object());
            if (!e)
                continue; // a row this build cannot read: the history still has it
            if (auto *g = std::get_if<GenerationStarted>(&e->body); g && g->instance.isEmpty())
                g->instance = instance;
            events << *e;
        }
        // Holes between the cursor and the highest row seen: waited for, then given up.
        const qint64 now = m_clock.elapsed();
        for (qint64 order = m_cursor + 1; order < std::min(highest, m_cursor + 100'000); ++order) {
            if (!m_seenAbove.count(order))
                m_missingSince.try_emplace(order, now);
        }
        for (;;) {
            const qint64 next = m_cursor + 1;
            if (m_seenAbove.erase(next)) {
                m_cursor = next;
            } else if (const auto hole = m_missingSince.find(next); hole != m_missingSince.end() && now - hole->second > kGapPatienceMs) {
                m_missingSince.erase(hole);
                m_cursor = next;
            } else {
                break;
            }
        }
        if (!events.isEmpty()) {
            m_relayed += static_cast<quint64>(events.size());
            Q_EMIT relayed(events);
        }
        if (rows < kBatch)
            return;
    }
}

} // namespace bullpen
