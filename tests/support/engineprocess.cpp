// SPDX-License-Identifier: MIT
#include "engineprocess.h"

#include "teststore.h"

#include <QRegularExpression>
#include <QTest>

#include <csignal>
#include <cstdio>
#include <cstdlib>

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
        if (k.endsWith(QLatin1StringView("_API_KEY")) || k.startsWith(QLatin1StringView("STORYBOARD_"))
            || k.startsWith(QLatin1StringView("BULLPEN_")))
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
    p.start(
        QStringLiteral(BULLPEN_ENGINE),
        { QStringLiteral("token"), QStringLiteral("add"), name, QStringLiteral("--role"), role, QStringLiteral("--data-dir"), m_dataDir });
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        return {};
    return QString::fromLatin1(p.readAllStandardOutput().trimmed());
}

int Engine::tokenCommand(const QStringList &args)
{
    QProcess p;
    p.setProcessEnvironment(environment());
    p.start(QStringLiteral(BULLPEN_ENGINE),
            QStringList { QStringLiteral("token") } + args + QStringList { QStringLiteral("--data-dir"), m_dataDir });
    return p.waitForFinished(30000) ? p.exitCode() : -1;
}

bool Engine::start(const QStringList &extra, quint16 port)
{
    m_process.setProcessEnvironment(environment());
    const QStringList arguments = QStringList { QStringLiteral(BULLPEN_ENGINE),
                                                QStringLiteral("--listen"),
                                                QStringLiteral("127.0.0.1:%1").arg(port),
                                                QStringLiteral("--data-dir"),
                                                m_dataDir,
                                                QStringLiteral("--simulator") }
        + extra;
    const QStringList command = launcher + arguments;
    m_process.start(command.constFirst(), command.mid(1));
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
    if (m_process.state() == QProcess::NotRunning) {
        judge(false);
        return;
    }
    m_process.terminate();
    if (!m_process.waitForFinished(60000))
        m_process.kill();
    m_process.waitForFinished(5000);
    judge(true);
}

void Engine::kill()
{
    ::kill(static_cast<pid_t>(m_process.processId()), SIGKILL);
    m_process.waitForFinished(10000);
    judge(false);
}

QByteArray Engine::sanitizerReport(const QByteArray &text)
{
    for (const char *marker : { "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "WARNING: ThreadSanitizer",
                                "runtime error: ", "ERROR: UndefinedBehaviorSanitizer" }) {
        const qsizetype at = text.indexOf(marker);
        if (at < 0)
            continue;
        const qsizetype lineStart = text.lastIndexOf('\n', at) + 1;
        qsizetype end = lineStart;
        for (int lines = 0; lines < 12 && end >= 0 && end < text.size(); ++lines)
            end = text.indexOf('\n', end + 1);
        return text.mid(lineStart, end < 0 ? -1 : end - lineStart);
    }
    return {};
}

void Engine::judge(bool terminated)
{
    m_stderr += m_process.readAllStandardError();
    const QByteArray report = sanitizerReport(m_stderr.mid(m_judgedUpTo));
    m_judgedUpTo = m_stderr.size();
    QByteArray problem;
    if (!report.isEmpty())
        problem = "bullpen-engine's stderr holds a sanitizer report:\n" + report;
    else if (terminated && (m_process.exitStatus() != QProcess::NormalExit || m_process.exitCode() != 0))
        problem = "bullpen-engine did not exit 0 after SIGTERM (exit code " + QByteArray::number(m_process.exitCode())
            + (m_process.exitStatus() == QProcess::NormalExit ? QByteArray(")") : QByteArray(", crashed)")) + "; its stderr ends:\n"
            + m_stderr.right(2000);
    if (problem.isEmpty())
        return;
    if (QTest::currentTestFunction()) {
        QTest::qFail(problem.constData(), __FILE__, __LINE__);
        return;
    }
    // Outside any test function (a fixture torn down after the last one): nothing else would say it.
    std::fprintf(stderr, "FAIL: %s\n", problem.constData());
    std::fflush(stderr);
    std::_Exit(1);
}

QByteArray Engine::stderrText()
{
    m_stderr += m_process.readAllStandardError();
    return m_stderr;
}

} // namespace bullpen::test
