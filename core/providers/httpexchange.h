// SPDX-License-Identifier: MIT
#pragma once

#include "engine/attemptcontext.h"
#include "sseparser.h"
#include "wireformat.h"

#include <QNetworkRequest>
#include <QObject>

#include <memory>

namespace bullpen {

class HttpReply;
class NetworkPool;

// One HTTP request of one attempt. The one owner of its reply (its QObject child; aborted when dropped), reads the body or the
// event stream through the WireFormat, and delivers exactly one ProviderResponse to the context.
// Deletes itself (deleteLater) when done. An http:// request goes through the egress guard when
// `guarded` (guardedreply.h: the shipped path), anything else through Qt (QtHttpReply).
class HttpExchange final : public QObject
{
    Q_OBJECT
public:
    // A 2xx body at least this large is parsed on a pool thread, off the engine thread (docs/contract.md §12.3).
    static constexpr qint64 kParseOffLoopBytes = 256 * 1024;

    HttpExchange(const WireFormat &format, WireDialect dialect, std::shared_ptr<AttemptContext> context, bool stream, qint64 maxBodyBytes,
                 QObject *parent = nullptr);
    ~HttpExchange() override;

    // Sends at once: on the pool's guarded connections, or on one of its managers with a free connection (networkpool.h).
    void start(NetworkPool &pool, QNetworkRequest request, QByteArray body, bool guarded);
    void abort();

private:
    void onReadyRead();
    void onFinished();
    void finishWith(ProviderResponse response);
    void parseOffLoop(ProviderResponse response);
    void dropReply(); // aborts a running request; the reply is deleted from the event loop
    QString transportDetail(const QString &qtText) const;
    bool isSuccessStatus() const;
    bool isEventStream() const;

    const WireFormat &m_format;
    WireDialect m_dialect; // m_format's: a body parsed off this thread gets a format of its own
    std::shared_ptr<AttemptContext> m_context;
    HttpReply *m_reply = nullptr; // our child: this exchange is its one owner
    std::unique_ptr<StreamDecoder> m_decoder;
    SseParser m_sse;
    ProviderResponse m_response;
    QByteArray m_body;
    qint64 m_maxBodyBytes;
    qint64 m_received = 0;
    bool m_streamRequested;
    bool m_tooLarge = false;
    bool m_done = false;
    bool m_requestSent = false;
};

} // namespace bullpen
