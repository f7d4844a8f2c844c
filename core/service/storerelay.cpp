// SPDX-License-Identifier: MIT
#include "storerelay.h"

#include "engine/backgroundthread.h"

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
        QMetaObject::invokeMethod(
            m_poll, [this] { close(); }, Qt::BlockingQueuedConnection);
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

bool StoreRelay::readRange(QSqlDatabase &db, qint64 after, qint64 through, int limit, QList<StoredEvent> *rows, qint64 *oldest,
                           QString *why, const std::map<qint64, StoredEvent> *skip)
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
    q.prepare(
        QStringLiteral("SELECT store_order, generation_id, type, body, instance FROM events WHERE store_order > ? AND store_order <= ? "
                       "ORDER BY store_order LIMIT ?"));
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
        if (!skip || !skip->count(row.order)) {
            row.generationId = q.value(1).toString();
            row.type = q.value(2).toString();
            row.json = q.value(3).toString().toUtf8();
            // A line break would end the frame early: only the engine's compact JSON goes out as it is.
            if (row.json.contains('\n') || row.json.contains('\r'))
                row.json = QJsonDocument::fromJson(row.json).toJson(QJsonDocument::Compact);
            if (row.type.contains(QLatin1Char('\n')) || row.type.contains(QLatin1Char('\r')))
                row.type = QStringLiteral("unknown");
            // The stream names the instance that runs each generation; the row has it beside the event.
            if (row.type == u"generation_started") {
                QJsonObject o = QJsonDocument::fromJson(row.json).object();
                if (!o.contains(QLatin1StringView("instance")) && !q.value(4).isNull()) {
                    o.insert(QStringLiteral("instance"), q.value(4).toString());
                    row.json = QJsonDocument(o).toJson(QJsonDocument::Compact);
                }
            }
        }
        rows->append(std::move(row));
    }
    return true;
}

std::optional<StoreRelay::OpenTransactions> StoreRelay::openTransactions(QSqlDatabase &db)
{
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral(
            "SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT), CAST(EXTRACT(EPOCH FROM MIN(xact_start)) * 1000 AS "
            "BIGINT) "
            "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL"))
        || !q.next())
        return std::nullopt;
    OpenTransactions t;
    t.nowMs = q.value(0).toLongLong();
    if (!q.value(1).isNull())
        t.oldestMs = q.value(1).toLongLong();
    return t;
}

void StoreRelay::start(qint64 cursor)
{
    m_cursor = cursor;
    m_poll = new QTimer; // lives on the relay's thread, deleted there when it ends
    m_poll->setInterval(kPollMs);
    m_poll->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_poll, &QObject::deleteLater);
    connect(m_poll, &QTimer::timeout, m_poll, [this] { read(); });
    startInBackground(m_thread);
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
        // While a hole is open, the question about open transactions first, then the rows: a transaction
        // that had ended by the question has its rows in the read that follows, so a hole still empty
        // then is one no ended transaction will fill (the other order would give up a hole that commits
        // in between).
        ++m_reads;
        std::optional<OpenTransactions> open;
        const bool asked = !m_holes.empty();
        if (asked)
            open = openTransactions(db);
        // The rows already waiting come back too: ask for kBatch beyond them.
        const int limit = kBatch + static_cast<int>(m_waiting.size());
        QList<StoredEvent> rows;
        QString why;
        if (!readRange(db, m_cursor, std::numeric_limits<qint64>::max(), limit, &rows, nullptr, &why, &m_waiting)) {
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
            const qint64 order = row.order;
            highest = std::max(highest, order);
            if (m_waiting.try_emplace(order, std::move(row)).second) {
                ++added;
                m_holes.erase(order);
            }
        }
        // Holes between the cursor and the highest row read: waited for until no transaction can fill them.
        const qint64 now = m_clock.elapsed();
        for (qint64 order = m_cursor + 1; order < std::min(highest, m_cursor + 100'000); ++order) {
            if (!m_waiting.count(order))
                m_holes.try_emplace(order, Hole { now, m_reads, std::nullopt });
        }
        const auto settled = [&](Hole &hole) {
            if (hole.noticedInRead == m_reads)
                return false; // this read's question came before the read that saw it
            if (!open) // a hole seen first in this read waits for the next; an unanswered question, for the backstop
                return asked && now - hole.noticedMs > kGapPatienceMs;
            if (!hole.serverSeenMs) {
                hole.serverSeenMs = open->nowMs;
                return !open->oldestMs; // nothing open at all
            }
            return !open->oldestMs || *open->oldestMs > *hole.serverSeenMs || now - hole.noticedMs > kHoleBackstopMs;
        };
        QList<StoredEvent> out;
        for (;;) {
            const qint64 next = m_cursor + 1;
            if (const auto row = m_waiting.find(next); row != m_waiting.end()) {
                out.append(std::move(row->second));
                m_waiting.erase(row);
                m_cursor = next;
            } else if (const auto hole = m_holes.find(next); hole != m_holes.end() && settled(hole->second)) {
                m_holes.erase(hole);
                m_cursor = next;
            } else {
                break;
            }
        }
        for (auto &[order, hole] : m_holes) { // every open hole's server time, not only the lowest one's
            if (open && !hole.serverSeenMs && hole.noticedInRead < m_reads)
                hole.serverSeenMs = open->nowMs;
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
