// SPDX-License-Identifier: MIT
#include "engineprocess.h"

#include "teststore.h"

#include <QRegularExpression>

#include <csignal>

namespace bullpen::test {

Engine::Engine(const QString &dataDir)
    : store(TestStore::of(dataDir))
    , m_dataDir(dataDir)
{
}

QProcessEnvironment Engine::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &k : env.keys()) {
        if (k.endsWith(QLatin1StringView("_API_KEY")) || k.startsWith(QLatin1StringView("STORYBOARD_")) || k.startsWith(QLatin1StringView("BULLPEN_")))
            env.remove(k);
    }
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dataDir + QStringLiteral("/config")); // no settings of the machine's user
    env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("bullpen.*=true")); // every log line, to check none leaks
    if (store.isPostgres())
        env.insert(QString::fromLatin1(StoreLocation::kUrlVariable), store.url());
    for (auto it = extraEnvironment.cbegin(); it != extraEnvironment.cend(); ++it)
        env.insert(it.key(), it.value());
    return env;
}

QString Engine::token(const QString &name, const QString &role)
{
    QProcess p;
    p.setProcessEnvironment(environment());
    p.start(QStringLiteral(BULLPEN_ENGINE), {QStringLiteral("token"), QStringLiteral("add"), name, QStringLiteral("--role"), role,
                                             QStringLiteral("--data-dir"), m_dataDir});
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        return {};
    return QString::fromLatin1(p.readAllStandardOutput().trimmed());
}

int Engine::tokenCommand(const QStringList &args)
{
    QProcess p;
    p.setProcessEnvironment(environment());
    p.start(QStringLiteral(BULLPEN_ENGINE), QStringList{QStringLiteral("token")} + args + QStringList{QStringLiteral("--data-dir"), m_dataDir});
    return p.waitForFinished(30000) ? p.exitCode() : -1;
}

bool Engine::start(const QStringList &extra, quint16 port)
{
    m_process.setProcessEnvironment(environment());
    m_process.start(QStringLiteral(BULLPEN_ENGINE), QStringList{QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port),
                                                                QStringLiteral("--data-dir"), m_dataDir, QStringLiteral("--simulator")}
                                                        + extra);
    if (!m_process.waitForStarted(10000))
        return false;
    static const QRegularExpression listening(QStringLiteral("listening on (https?://127\\.0\\.0\\.1:(\\d+))"));
    QByteArray out;
    while (m_process.state() == QProcess::Running && m_process.waitForReadyRead(30000)) {
        out += m_process.readAllStandardOutput();
        const QRegularExpressionMatch m = listening.match(QString::fromUtf8(out));
        if (m.hasMatch()) {
            url = QUrl(m.captured(1));
            m_port = static_cast<quint16>(m.captured(2).toUInt());
            return true;
        }
    }
    m_stderr += m_process.readAllStandardError(); // kept for stderrText()
    qWarning() << "engine did not start:" << out << m_stderr;
    return false;
}

void Engine::stop()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.terminate();
    if (!m_process.waitForFinished(60000))
        m_process.kill();
    m_process.waitForFinished(5000);
    m_stderr += m_process.readAllStandardError();
}

void Engine::kill()
{
    ::kill(static_cast<pid_t>(m_process.processId()), SIGKILL);
    m_process.waitForFinished(10000);
    m_stderr += m_process.readAllStandardError();
}

QByteArray Engine::stderrText()
{
    m_stderr += m_process.readAllStandardError();
    return m_stderr;
}

} // namespace bullpen::test
