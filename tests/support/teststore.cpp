// SPDX-License-Identifier: MIT
#include "teststore.h"

#include <QCoreApplication>
#include <QDir>
#include <QHash>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>

#include <atomic>
#include <memory>
#include <pwd.h>
#include <unistd.h>

namespace bullpen::test {

namespace {

// The newest PostgreSQL server binaries Debian installed (/usr/lib/postgresql/N/bin).
QString serverBinDir()
{
    const QDir versions(QStringLiteral("/usr/lib/postgresql"));
    QStringList found = versions.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    std::sort(found.begin(), found.end(), [](const QString &a, const QString &b) { return a.toInt() > b.toInt(); });
    for (const QString &v : found) {
        if (QFile::exists(versions.filePath(v + QStringLiteral("/bin/initdb"))))
            return versions.filePath(v + QStringLiteral("/bin"));
    }
    return {};
}

class Cluster
{
public:
    ~Cluster() { stop(); }

    bool start(QString *why)
    {
        const QString bin = serverBinDir();
        if (bin.isEmpty()) {
            *why = QStringLiteral("no PostgreSQL server binaries under /usr/lib/postgresql (Debian package postgresql)");
            return false;
        }
        m_bin = bin;
        if (::geteuid() == 0) {
            const passwd *pw = ::getpwnam("postgres");
            if (!pw) {
                *why = QStringLiteral("running as root and there is no `postgres` user to run initdb and pg_ctl as (they refuse root)");
                return false;
            }
            m_asUser = { QStringLiteral("runuser"), QStringLiteral("-u"), QStringLiteral("postgres"), QStringLiteral("--") };
            m_uid = pw->pw_uid;
            m_gid = pw->pw_gid;
        }
        QByteArray pattern = QDir(QDir::tempPath()).filePath(QStringLiteral("bullpen-pg-XXXXXX")).toLocal8Bit();
        if (!::mkdtemp(pattern.data())) {
            *why = QStringLiteral("cannot make a temporary folder for the cluster");
            return false;
        }
        m_dir = QString::fromLocal8Bit(pattern);
        if (m_uid != static_cast<uid_t>(-1) && ::chown(pattern.constData(), m_uid, m_gid) != 0) {
            *why = QStringLiteral("cannot give %1 to the postgres user").arg(m_dir);
            return false;
        }
        const QString data = m_dir + QStringLiteral("/data");
        if (!run(m_bin + QStringLiteral("/initdb"),
                 { QStringLiteral("-D"), data, QStringLiteral("-U"), QStringLiteral("bullpen"), QStringLiteral("--auth=trust"),
                   QStringLiteral("-E"), QStringLiteral("UTF8"), QStringLiteral("--no-locale"), QStringLiteral("-N") },
                 why))
            return false;
        // A unix socket in the cluster's folder only: nothing listens on the network. fsync off: a test
        // cluster that dies is thrown away anyway.
        m_options =
            QStringLiteral("-k %1 -c listen_addresses='' -p 5432 -c fsync=off -c full_page_writes=off -c max_connections=400").arg(m_dir);
        if (!resume(why))
            return false;
        m_running = true;
        // If this process is killed, a watchdog stops the server and removes its folder.
        const QString stop = QString(m_asUser.join(QLatin1Char(' ')) + QLatin1Char(' ') + m_bin + QStringLiteral("/pg_ctl -D ") + data
                                     + QStringLiteral(" stop -m immediate"))
                                 .trimmed();
        QProcess::startDetached(QStringLiteral("sh"),
                                { QStringLiteral("-c"),
                                  QStringLiteral("while kill -0 %1 2>/dev/null; do sleep 1; done; %2 "
                                                 ">/dev/null 2>&1; rm -rf %3")
                                      .arg(QCoreApplication::applicationPid())
                                      .arg(stop, m_dir) });
        QString error;
        const std::optional<StoreLocation> admin =
            StoreLocation::fromUrl(QStringLiteral("postgresql://bullpen@/postgres?host=%1&port=5432").arg(m_dir), &error);
        if (!admin) {
            *why = error;
            return false;
        }
        m_admin = *admin;
        return true;
    }

    bool pause(QString *why)
    {
        return run(m_bin + QStringLiteral("/pg_ctl"),
                   { QStringLiteral("-D"), m_dir + QStringLiteral("/data"), QStringLiteral("-w"), QStringLiteral("stop"),
                     QStringLiteral("-m"), QStringLiteral("fast") },
                   why);
    }

    bool resume(QString *why)
    {
        return run(m_bin + QStringLiteral("/pg_ctl"),
                   { QStringLiteral("-D"), m_dir + QStringLiteral("/data"), QStringLiteral("-l"), m_dir + QStringLiteral("/server.log"),
                     QStringLiteral("-w"), QStringLiteral("-t"), QStringLiteral("60"), QStringLiteral("-o"), m_options,
                     QStringLiteral("start") },
                   why);
    }

    void stop()
    {
        if (m_running) {
            QString ignored;
            run(m_bin + QStringLiteral("/pg_ctl"),
                { QStringLiteral("-D"), m_dir + QStringLiteral("/data"), QStringLiteral("stop"), QStringLiteral("-m"),
                  QStringLiteral("immediate") },
                &ignored);
            m_running = false;
        }
        if (!m_dir.isEmpty())
            QDir(m_dir).removeRecursively();
        m_dir.clear();
    }

    StoreLocation m_admin;

private:
    bool run(const QString &program, const QStringList &args, QString *why)
    {
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.setWorkingDirectory(QDir::tempPath());
        if (m_asUser.isEmpty())
            p.start(program, args);
        else
            p.start(m_asUser.first(), m_asUser.mid(1) + QStringList { program } + args);
        if (!p.waitForFinished(120'000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            *why = QStringLiteral("%1 failed: %2")
                       .arg(QFileInfo(program).fileName(), QString::fromLocal8Bit(p.readAll()).trimmed().right(600));
            return false;
        }
        return true;
    }

    QString m_bin;
    QString m_dir;
    QString m_options;
    QStringList m_asUser;
    uid_t m_uid = static_cast<uid_t>(-1);
    gid_t m_gid = static_cast<gid_t>(-1);
    bool m_running = false;
};

struct State
{
    bool tried = false;
    bool ok = false;
    QString why;
    std::unique_ptr<Cluster> cluster; // null with BULLPEN_TEST_DATABASE_URL
    StoreLocation admin;
    QStringList created;
};

State &state()
{
    static State s;
    return s;
}

bool adminExec(const QString &sql, QString *why)
{
    static std::atomic<int> next { 0 };
    const QString name = QStringLiteral("bullpen-test-admin-%1").arg(next++);
    bool ok = false;
    {
        QSqlDatabase db = state().admin.connect(name, StoreLocation::Access::ReadWrite, why);
        if (db.isOpen()) {
            QSqlQuery q(db);
            ok = q.exec(sql);
            if (!ok)
                *why = q.lastError().text();
        }
    }
    StoreLocation::disconnect(name);
    return ok;
}

void cleanUp()
{
    State &s = state();
    if (!s.cluster) {
        QString ignored;
        for (const QString &db : std::as_const(s.created))
            adminExec(QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(db), &ignored);
    }
    s.cluster.reset();
}

} // namespace

bool TestStore::postgres()
{
    return qEnvironmentVariable("BULLPEN_TEST_STORE") == u"postgres";
}

bool TestStore::required()
{
    return qEnvironmentVariable("BULLPEN_TEST_REQUIRE_POSTGRES") == u"1";
}

QString TestStore::backendName()
{
    return postgres() ? QStringLiteral("postgres") : QStringLiteral("sqlite");
}

bool TestStore::ready(QString *why)
{
    if (!postgres())
        return true;
    State &s = state();
    if (!s.tried) {
        s.tried = true;
        const QString url = qEnvironmentVariable("BULLPEN_TEST_DATABASE_URL");
        if (!url.isEmpty()) {
            const std::optional<StoreLocation> admin = StoreLocation::fromUrl(url, &s.why);
            s.ok = admin.has_value();
            if (admin)
                s.admin = *admin;
        } else {
            s.cluster = std::make_unique<Cluster>();
            s.ok = s.cluster->start(&s.why);
            if (s.ok)
                s.admin = s.cluster->m_admin;
        }
        qAddPostRoutine(cleanUp);
    }
    if (!s.ok)
        *why = QStringLiteral("PostgreSQL tests cannot run: ") + s.why;
    return s.ok;
}

StoreLocation TestStore::of(const QString &dataDir)
{
    static QHash<QString, StoreLocation> known;
    const auto it = known.constFind(dataDir);
    if (it != known.constEnd())
        return *it;
    return *known.insert(dataDir, fresh(dataDir));
}

bool TestStore::stopServer(QString *why)
{
    if (!state().cluster) {
        *why = QStringLiteral("not on the throwaway cluster");
        return false;
    }
    return state().cluster->pause(why);
}

bool TestStore::startServer(QString *why)
{
    if (!state().cluster) {
        *why = QStringLiteral("not on the throwaway cluster");
        return false;
    }
    return state().cluster->resume(why);
}

int TestStore::dropConnections(const StoreLocation &location, QString *why)
{
    static std::atomic<int> next { 0 };
    const QString name = QStringLiteral("bullpen-test-dropper-%1").arg(next++);
    int ended = -1;
    {
        QSqlDatabase db = location.connect(name, StoreLocation::Access::ReadWrite, why);
        QSqlQuery q(db);
        if (db.isOpen()
            && q.exec(QStringLiteral("SELECT COUNT(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = "
                                     "current_database() AND pid <> pg_backend_pid()) ended"))
            && q.next())
            ended = q.value(0).toInt();
        else if (db.isOpen())
            *why = q.lastError().text();
    }
    StoreLocation::disconnect(name);
    return ended;
}

StoreLocation TestStore::fresh(const QString &dataDir)
{
    if (!postgres())
        return StoreLocation::sqliteIn(dataDir);
    static std::atomic<int> next { 0 };
    const QString name = QStringLiteral("bullpen_t%1_%2").arg(QCoreApplication::applicationPid()).arg(next++);
    QString why;
    if (!ready(&why) || !adminExec(QStringLiteral("CREATE DATABASE %1").arg(name), &why))
        qFatal("TestStore: cannot create database %s: %s", qPrintable(name), qPrintable(why));
    state().created << name;
    StoreLocation l = state().admin.withDatabase(name);
    l.setDataDir(dataDir);
    return l;
}

} // namespace bullpen::test
