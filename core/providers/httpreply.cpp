// SPDX-License-Identifier: MIT
#include "httpreply.h"

#include "networkpool.h"

namespace bullpen {

QtHttpReply::QtHttpReply(NetworkPool &pool, const QNetworkRequest &request, QIODevice *body, QObject *parent)
    : HttpReply(parent)
    , m_pool(&pool)
    , m_url(request.url())
{
    m_manager = pool.acquire(m_url);
    QNetworkReply *reply = m_manager->post(request, body);
    // One owner: this object. Qt makes the manager the reply's parent; the reply dies with us instead
    // (the pool deletes every exchange, and with it its reply, before any manager, networkpool.h).
    reply->setParent(this);
    m_reply = reply;
    // Qt's network thread stops reading from the socket while this much is waiting for us, so a
    // flooding provider is held back at the socket, not buffered in memory (we read as bytes arrive).
    reply->setReadBufferSize(kReadBufferBytes);
    // Qt 6.4 passes a size set now to its HTTP thread only if that thread has already created its
    // side of the request, which it may not have: set it again when the head has arrived, before
    // any body byte is read.
    connect(reply, &QNetworkReply::metaDataChanged, this, [this] {
        m_reply->setReadBufferSize(kReadBufferBytes);
        Q_EMIT headReceived();
    });
    connect(reply, &QNetworkReply::requestSent, this, &HttpReply::requestSent);
    connect(reply, &QNetworkReply::readyRead, this, &HttpReply::readyRead);
    connect(reply, &QNetworkReply::finished, this, [this] {
        releaseLease(); // the connection is free for the next request
        Q_EMIT finished();
    });
}

QtHttpReply::~QtHttpReply()
{
    abort();
}

void QtHttpReply::releaseLease()
{
    if (m_pool && m_manager)
        m_pool->release(m_manager, m_url);
    m_manager = nullptr;
}

std::optional<int> QtHttpReply::status() const
{
    const QVariant status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    return status.isValid() ? std::optional(status.toInt()) : std::nullopt;
}

QByteArray QtHttpReply::rawHeader(QByteArrayView name) const
{
    return m_reply->rawHeader(name.toByteArray());
}

qint64 QtHttpReply::bytesAvailable() const
{
    return m_reply->isOpen() ? m_reply->bytesAvailable() : 0;
}

QByteArray QtHttpReply::read(qint64 maxSize)
{
    return m_reply->read(maxSize);
}

bool QtHttpReply::isRunning() const
{
    return m_reply->isRunning();
}

void QtHttpReply::abort()
{
    // Only our own connections: QNetworkReplyHttpImpl::abort() emits finished() *before* it signals
    // its HTTP thread to drop the connection, and a blanket disconnect from inside finished() cuts that
    // signal too, leaving the aborted request open on the wire.
    QObject::disconnect(m_reply, nullptr, this, nullptr);
    if (m_reply->isRunning())
        m_reply->abort();
    releaseLease();
}

QNetworkReply::NetworkError QtHttpReply::error() const
{
    return m_reply->error();
}

QString QtHttpReply::errorString() const
{
    return m_reply->errorString();
}

} // namespace bullpen
