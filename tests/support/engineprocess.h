// SPDX-License-Identifier: MIT
#pragma once

#include "store/storelocation.h"

#include <QMap>
#include <QProcess>
#include <QUrl>

namespace bullpen::test {

// One bullpen-engine child process on its own data folder, and its store there (or, in a suite's
// PostgreSQL run, its own database: teststore.h).
class Engine
{
public:
    explicit Engine(const QString &dataDir);
    ~Engine() { stop(); }

    QProcessEnvironment environment() const;
    // A new API token (`bullpen-engine token add NAME --role ROLE`), printed once: empty on failure.
    QString token(const QString &name, const QString &role);
    // `bullpen-engine token ARGS --data-dir DIR`; its exit code.
    int tokenCommand(const QStringList &args);
    // Starts `bullpen-engine --simulator --listen 127.0.0.1:PORT` and waits for its "listening on" line.
    bool start(const QStringList &extra = {}, quint16 port = 0);
    // SIGTERM, then waits for the drain. The engine must then have exited 0, and its stderr must hold no
    // sanitizer report (ASan, UBSan, LSan, TSan): otherwise the test that owns it fails.
    void stop();
    void kill(); // SIGKILL (its stderr is still searched for sanitizer reports)
    // The first sanitizer report in `text` (its first lines), or nothing.
    static QByteArray sanitizerReport(const QByteArray &text);
    QByteArray stderrText();

    QProcess m_process;
    QUrl url;
    quint16 m_port = 0;
    StoreLocation store;
    QMap<QString, QString> extraEnvironment; // set in the child's environment after the cleaning
    QStringList launcher; // a command the engine runs under (`prlimit --nofile=160:160 --`)

private:
    void judge(bool terminated);
    QString m_dataDir;
    qsizetype m_judgedUpTo = 0; // stderr bytes already searched
    QByteArray m_stderr;
};

} // namespace bullpen::test
