// SPDX-License-Identifier: MIT
#include "walcheckpointer.h"

#include "engine/backgroundthread.h"

#include <QSqlQuery>
#include <QUuid>

#ifdef Q_OS_LINUX
#include <pthread.h>
#endif

#ifdef BULLPEN_HAVE_SQLITE3
#include <sqlite3.h>
#endif

namespace bullpen {

namespace {

#ifdef BULLPEN_HAVE_SQLITE3
// Called by SQLite in the writer's thread after each commit, with the WAL's length in pages.
int afterCommit(void *checkpointer, sqlite3 *, const char *, int frames)
{
    if (frames >= WalCheckpointer::kWakeFrames)
        static_cast<WalCheckpointer *>(checkpointer)->wake();
    return SQLITE_OK;
}
#endif

} // namespace

WalCheckpointer::WalCheckpointer(StoreLocation location)
    : m_location(std::move(location))
{
    if (m_location.isPostgres()) {
        m_connected = false;
        return;
    }
    m_thread = std::thread([this] { run(); });
#ifdef Q_OS_LINUX
    pthread_setname_np(m_thread.native_handle(), "bullpen-wal"); // named before it runs, for whoever looks
#endif
}

WalCheckpointer::~WalCheckpointer()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_cv.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

bool WalCheckpointer::takeOver(const QSqlDatabase &db)
{
#ifdef BULLPEN_HAVE_SQLITE3
    {
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [this] { return m_connected.has_value(); });
        if (!*m_connected)
            return false; // nobody would checkpoint: SQLite keeps doing it in the commits
    }
    sqlite3 *connection = StoreLocation::sqliteHandle(db);
    if (!connection)
        return false;
    sqlite3_wal_hook(connection, afterCommit, this); // replaces SQLite's automatic checkpoint on this connection
    return true;
#else
    Q_UNUSED(db)
    return false;
#endif
}

void WalCheckpointer::wake()
{
    {
        std::lock_guard lock(m_mutex);
        m_wanted = true;
    }
    m_cv.notify_one();
}

int WalCheckpointer::checkpoints() const
{
    std::lock_guard lock(m_mutex);
    return m_checkpoints;
}

void WalCheckpointer::run()
{
    becomeBackgroundThread("bullpen-wal");
    const QString name = QStringLiteral("bullpen-checkpointer-") + QUuid::createUuid().toString(QUuid::Id128);
    QString error;
    {
        QSqlDatabase db = m_location.connect(name, StoreLocation::Access::ReadWrite, &error);
        {
            std::lock_guard lock(m_mutex);
            m_connected = db.isOpen();
        }
        m_cv.notify_all();
        for (;;) {
            {
                std::unique_lock lock(m_mutex);
                m_cv.wait(lock, [this] { return m_wanted || m_stop; });
                if (m_stop)
                    break;
                m_wanted = false;
            }
            if (!db.isOpen())
                break;
            QSqlQuery q(db);
            if (q.exec(QStringLiteral("PRAGMA wal_checkpoint(PASSIVE)"))) {
                while (q.next()) { }
                std::lock_guard lock(m_mutex);
                ++m_checkpoints;
            }
        }
    }
    StoreLocation::disconnect(name);
}

} // namespace bullpen
