// SPDX-License-Identifier: MIT
#include "storerelay.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>

#include <limits>

namespace bullpen {

StoreRelay::StoreRelay(StoreLocation location)
    : m_location(std::move(location))
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

std::optional<qint64> StoreRelay::newestOrder(const StoreLocation &location, QString *why)
{
    const QString name = QStringLiteral("bullpen-relay-start-") + QUuid::createUuid().toString(QUuid::Id128);
    std::optional<qint64> newest;
    {
        QSqlDatabase db = location.connect(name, StoreLocation::Access::ReadOnly, why);
        if (db.isOpen()) {
            QSqlQuery q(db);
            if (q.exec(QStringLiteral("SELECT COALESCE(MAX(store_order), 0) FROM events")) && q.next())
                newest = q.value(0).toLongLong();
            else if (why)
                *why = q.lastError().text();
        }
    }
    StoreLocation::disconnect(name);
    return newest;
}

bool StoreRelay::readRange(QSqlDatabase &db, qint64 after, qint64 through, int limit, QList<StoredEvent> *rows, qint64 *oldest, QString *why)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (oldest) {
        if (!q.exec(QStringLiteral("SELECT COALESCE(MIN(store_order), 0) FROM events")) || !q.next()) {
            *why = q.lastError().text();
            return false;
        }
        *oldest = q.value(0).toLongLong();
        q.finish();
    }
    q.prepare(QStringLiteral("SELECT store_order, instance, body FROM events WHERE store_order > ? AND store_order <= ? ORDER BY store_order LIMIT ?"));
    q.addBindValue(after);
    q.addBindValue(through);
    q.addBindValue(limit);
    if (!q.exec()) {
        *why = q.lastError().text();
        return false;
    }
    while (q.next()) {
        StoredEvent row;
        row.order = q.value(0).toLongLong();
        // A row this build cannot read keeps its place (an empty generation id), so that it is not
        // mistaken for a hole; the stream skips it, and the history still has it.
        if (std::optional<Event> e = Event::fromJson(QJsonDocument::fromJson(q.value(2).toString().toUtf8()).object())) {
            row.event = std::move(*e);
            if (auto *g = std::get_if<GenerationStarted>(&row.event.body); g && g->instance.isEmpty())
                g->instance = q.value(1).toString();
            row.event.shareJson();
        }
        rows->append(std::move(row));
    }
    return true;
}

std::optional<StoreRelay::Snapshot> StoreRelay::serverSnapshot(QSqlDatabase &db)
{
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT pg_snapshot_xmin(s)::text::bigint, pg_snapshot_xmax(s)::text::bigint FROM (SELECT pg_current_snapshot() AS s) AS now"))
        || !q.next())
        return std::nullopt;
    return Snapshot{q.value(0).toLongLong(), q.value(1).toLongLong()};
}

void StoreRelay::start(qint64 cursor)
{
    m_cursor = cursor;
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
        read(); // rows committed between the caller's newestOrder() and the LISTEN
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
    db.driver()->subscribeToNotification(QStringLiteral("bullpen_events"));
    connect(db.driver(), &QSqlDriver::notification, m_poll, [this] { read(); });
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
        // The rows already waiting come back too: ask for kBatch beyond them.
        const int limit = kBatch + static_cast<int>(m_waiting.size());
        QList<StoredEvent> rows;
        QString why;
        if (!readRange(db, m_cursor, std::numeric_limits<qint64>::max(), limit, &rows, nullptr, &why)) {
            if (why != m_lastFailure)
                Q_EMIT failed(why);
            m_lastFailure = why;
            close(); // re-made at the next poll (and LISTEN with it)
            m_poll->start();
            return;
        }
        qint64 highest = m_cursor;
        int added = 0;
        for (StoredEvent &row : rows) {
            highest = std::max(highest, row.order);
            if (m_waiting.try_emplace(row.order, std::move(row.event)).second) {
                ++added;
                m_holes.erase(row.order);
            }
        }
        // Holes between the cursor and the highest row read: waited for until no transaction can fill them.
        const qint64 now = m_clock.elapsed();
        for (qint64 order = m_cursor + 1; order < std::min(highest, m_cursor + 100'000); ++order) {
            if (!m_waiting.count(order))
                m_holes.try_emplace(order, Hole{now, std::nullopt});
        }
        const std::optional<Snapshot> snapshot = m_holes.empty() ? std::nullopt : serverSnapshot(db);
        const auto settled = [&](Hole &hole) {
            if (!snapshot)
                return now - hole.noticedMs > kGapPatienceMs;
            if (!hole.xidBar && now - hole.noticedMs >= kXidGraceMs)
                hole.xidBar = snapshot->nextXid;
            return hole.xidBar && snapshot->oldestRunningXid >= *hole.xidBar;
        };
        QList<StoredEvent> out;
        for (;;) {
            const qint64 next = m_cursor + 1;
            if (const auto row = m_waiting.find(next); row != m_waiting.end()) {
                if (!row->second.generationId.isEmpty()) // unreadable: skipped, in its place
                    out.append(StoredEvent{next, std::move(row->second)});
                m_waiting.erase(row);
                m_cursor = next;
            } else if (const auto hole = m_holes.find(next); hole != m_holes.end() && settled(hole->second)) {
                m_holes.erase(hole);
                m_cursor = next;
            } else {
                break;
            }
        }
        for (auto &[order, hole] : m_holes) { // the grace runs for every hole, not only the lowest
            if (snapshot && !hole.xidBar && now - hole.noticedMs >= kXidGraceMs)
                hole.xidBar = snapshot->nextXid;
        }
        if (!m_holes.empty() && !m_recheckScheduled) {
            m_recheckScheduled = true;
            QTimer::singleShot(kHoleRecheckMs, m_poll, [this] {
                m_recheckScheduled = false;
                read();
            });
        }
        if (!out.isEmpty()) {
            m_relayed += static_cast<quint64>(out.size());
            Q_EMIT relayed(out);
        }
        if (rows.size() < limit || added == 0)
            return;
    }
}

} // namespace bullpen
