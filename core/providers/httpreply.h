// SPDX-License-Identifier: MIT
#pragma once

#include <QNetworkReply>
#include <QObject>
#include <QPointer>
#include <QUrl>

#include <optional>

class QNetworkAccessManager;

namespace bullpen {

class NetworkPool;

// One HTTP request on the wire, as an exchange (httpexchange.h) reads it: the response head, the body
// as it arrives, and how it ended. Two kinds: Qt's (QtHttpReply, for https://) and the egress guard's
// own client on the calling thread (GuardedReply, for http://). Signals are emitted on the thread the
// reply lives on; after abort() none is.
class HttpReply : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    // What the egress guard says instead of a provider's answer: the provider broke HTTP or could
    // not be reached (docs/hostile-providers.md). `reached`: any byte of the request left.
    struct GuardVerdict
    {
        QByteArray code; // "not-http", "head-too-large", "interim-flood", "closed", "unreachable"
        QString detail;
        bool reached = true;
    };

    // Puts the request on the wire (or queues it for the connection): called once, after the
    // signals are connected.
    virtual void start() { }
    virtual std::optional<int> status() const = 0; // the final response's status, once its head is read
    virtual QByteArray rawHeader(QByteArrayView name) const = 0; // of the final head; case-insensitive
    virtual qint64 bytesAvailable() const = 0; // body bytes, decoded from the transfer coding
    virtual QByteArray read(qint64 maxSize) = 0;
    virtual bool isRunning() const = 0;
    // Stops the request and drops it on the wire; emits nothing, not even finished().
    virtual void abort() = 0;
    virtual QNetworkReply::NetworkError error() const = 0;
    virtual QString errorString() const = 0;
    virtual std::optional<GuardVerdict> guardVerdict() const { return std::nullopt; }

Q_SIGNALS:
    void headReceived(); // the final head (after any interim 1xx ones)
    void requestSent(); // the whole request is written
    void readyRead();
    void finished(); // the body ended, or the exchange failed: error() and guardVerdict() say how
};

// Qt's: a QNetworkReply (its one owner), on a manager leased from the pool for as long as it runs.
class QtHttpReply final : public HttpReply
{
    Q_OBJECT
public:
    static constexpr qint64 kReadBufferBytes = 256 * 1024;

    // Posts `body` to request.url() on a manager of `pool` with a free connection (networkpool.h).
    QtHttpReply(NetworkPool &pool, const QNetworkRequest &request, QIODevice *body, QObject *parent);
    ~QtHttpReply() override;

    std::optional<int> status() const override;
    QByteArray rawHeader(QByteArrayView name) const override;
    qint64 bytesAvailable() const override;
    QByteArray read(qint64 maxSize) override;
    bool isRunning() const override;
    void abort() override;
    QNetworkReply::NetworkError error() const override;
    QString errorString() const override;

private:
    void releaseLease();

    QNetworkReply *m_reply = nullptr; // our child (not the manager's)
    QPointer<NetworkPool> m_pool; // the lease: m_manager holds one of the pool's slots to m_url
    QNetworkAccessManager *m_manager = nullptr;
    QUrl m_url;
};

} // namespace bullpen
