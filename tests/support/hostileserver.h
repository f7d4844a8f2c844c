// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QMutex>
#include <QThread>
#include <QUrl>

#include <chrono>
#include <optional>

namespace bullpen::test {

// A provider that attacks the client, speaking raw bytes over loopback from a thread of its own (so
// it floods at full speed whatever the engine's thread is doing). Written for the tests only; the
// simulator cannot express these answers.
class HostileServer
{
public:
    enum class Mode {
        ContinueFlood, // endless "HTTP/1.1 100 Continue" heads
        HeaderFlood, // a 200 status line, then endless header lines
        EndlessHeaderLine, // one header line that never ends
        EndlessStatusLine, // a status line that never ends
        HeaderDrip, // a header line every 20 ms, never the end of the head
        SseDataFlood, // a 200 event stream of endless "data: {}\n\n"
        SseCrFlood, // a 200 event stream of endless bare "\r"
        JsonBodyFlood, // a 200 application/json body that never ends
        GzipBomb, // a small gzip body that inflates to 4 GiB
        Fixed, // one scripted answer (setAnswer), then close
        KeepAlive, // the scripted answer to every request on a connection, which stays open (setIdleClose)
    };

    explicit HostileServer(Mode mode);
    ~HostileServer();

    bool start(QString *error);
    QUrl baseUrl() const; // http://127.0.0.1:PORT
    void setAnswer(const QByteArray &raw) { m_answer = raw; }
    // Fixed mode: wait this long after the request head before answering.
    void setAnswerDelay(std::chrono::milliseconds delay) { m_answerDelay = delay; }
    // KeepAlive mode: close a connection this long after each answer (as servers close idle ones); 0: never.
    void setIdleClose(std::chrono::milliseconds after) { m_idleClose = after; }

    using Clock = std::chrono::steady_clock;
    struct Record
    {
        int connections = 0;
        int requests = 0; // request heads read
        QByteArray lastRequestHead;
        qint64 bytesSent = 0;
        std::optional<Clock::time_point> firstClose; // when the client closed its side
        int closes = 0; // connections ended, by either side
    };
    Record record() const;

private:
    friend class HostileWorker;
    Mode m_mode;
    QByteArray m_answer;
    std::chrono::milliseconds m_answerDelay { 0 };
    std::chrono::milliseconds m_idleClose { 0 };
    QThread m_thread;
    QObject *m_home = nullptr;
    QObject *m_worker = nullptr;
    quint16 m_port = 0;
    mutable QMutex m_mutex;
    Record m_record;
};

} // namespace bullpen::test
