// SPDX-License-Identifier: MIT
#include "httpexchange.h"

#include "config/providertrust.h"
#include "engine/tsanseed.h"
#include "guardedreply.h"
#include "httpstagegenerator.h"
#include "networkpool.h"
#include "oneshotbody.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QPromise>
#include <QThreadPool>

namespace bullpen {

void HttpExchange::dropReply()
{
    if (!m_reply)
        return;
    HttpReply *reply = std::exchange(m_reply, nullptr);
    QObject::disconnect(reply, nullptr, this, nullptr);
    reply->abort(); // drops a running request on the wire; nothing if it ended
    reply->deleteLater(); // never delete a reply inside its own signal; our child, so gone with us at the latest
}

HttpExchange::HttpExchange(const WireFormat &format, WireDialect dialect, std::shared_ptr<AttemptContext> context, bool stream,
                           qint64 maxBodyBytes, QObject *parent)
    : QObject(parent)
    , m_format(format)
    , m_dialect(dialect)
    , m_context(std::move(context))
    , m_maxBodyBytes(maxBodyBytes)
    , m_streamRequested(stream)
{
}

HttpExchange::~HttpExchange()
{
    dropReply(); // aborts a running request first
}

void HttpExchange::start(NetworkPool &pool, QNetworkRequest request, QByteArray body, bool guarded)
{
    // docs/contract.md §4.4: exactly one transmission. Redirects off; on Qt's managers the body comes from a
    // device Qt may not buffer or rewind, so a dropped connection fails with ContentReSendError instead
    // of a resend (the guard never resends).
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::DoNotBufferUploadDataAttribute, true);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    request.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    request.setAttribute(QNetworkRequest::CookieSaveControlAttribute, QNetworkRequest::Manual);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setHeader(QNetworkRequest::ContentLengthHeader, body.size());
    request.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("Bullpen/0.1"));
    request.setRawHeader("Accept", m_streamRequested ? "text/event-stream" : "application/json");
    pool.trust().apply(request); // https: its engine's provider_ca authorities too, if any
    if (m_streamRequested)
        m_decoder = m_format.streamDecoder();

    if (guarded && request.url().scheme() == u"http")
        m_reply = new GuardedReply(pool.guarded(), request, std::move(body), this);
    else
        m_reply = new QtHttpReply(pool, request, new OneShotBody(std::move(body), this), this);
    connect(m_reply, &HttpReply::headReceived, this, [this] {
        if (m_context)
            m_context->noteReceived(0, isEventStream() ? 0 : -1);
    });
    connect(m_reply, &HttpReply::requestSent, this, [this] {
        m_requestSent = true;
        m_context->noteRequestSent();
    });
    connect(m_reply, &HttpReply::readyRead, this, &HttpExchange::onReadyRead);
    connect(m_reply, &HttpReply::finished, this, &HttpExchange::onFinished);

    // The cancel handler is the abort: it runs on deadline, operator cancel or shutdown.
    m_context->onCancel([self = QPointer<HttpExchange>(this)] {
        if (self)
            self->abort();
    });
    if (m_reply) // a context cancelled already has run the handler: nothing to start
        m_reply->start();
}

void HttpExchange::abort()
{
    // The attempt's owner cancelled it (deadline, operator, shutdown) and has already ended the attempt:
    // nothing is delivered. Our slots go first, so the abort is only the transport's own work (it runs
    // for every due deadline before anything else, docs/contract.md §12.3); the request is dropped on the wire all the same.
    if (m_done || !m_reply)
        return;
    m_done = true;
    dropReply(); // aborts the running request
    m_context.reset();
    deleteLater();
}

bool HttpExchange::isSuccessStatus() const
{
    const int status = m_reply->status().value_or(0);
    return status >= 200 && status < 300;
}

bool HttpExchange::isEventStream() const
{
    return m_streamRequested && m_decoder && isSuccessStatus() && m_reply->rawHeader("content-type").contains("text/event-stream");
}

void HttpExchange::onReadyRead()
{
    // In slices: a flood never turns into one huge buffer or one huge list of events at once.
    constexpr qint64 kSlice = 64 * 1024;
    while (m_reply && m_reply->bytesAvailable() > 0) {
        const QByteArray chunk = m_reply->read(kSlice);
        m_received += chunk.size();
        if (m_received > m_maxBodyBytes) {
            m_tooLarge = true;
            m_reply->abort(); // emits nothing: the answer ends here
            onFinished();
            return;
        }
        if (isEventStream()) {
            const QList<SseEvent> events = m_sse.feed(chunk);
            for (const SseEvent &e : events)
                m_decoder->onEvent(e, m_response);
            m_context->noteReceived(chunk.size(), static_cast<int>(events.size()));
        } else {
            m_body += chunk;
            m_context->noteReceived(chunk.size());
        }
    }
}

void HttpExchange::onFinished()
{
    if (m_done)
        return;
    m_done = true;
    // The last byte is here: whether the attempt is on time is decided now (docs/contract.md §12.3).
    m_context->noteAnswerComplete(m_context->now());
    if (!m_tooLarge)
        onReadyRead(); // whatever is left in the buffer

    ProviderResponse &r = m_response;
    const QNetworkReply::NetworkError error = m_reply->error();
    if (const std::optional<HttpReply::GuardVerdict> guard = m_reply->guardVerdict()) {
        // The egress guard ended the exchange: the provider broke HTTP or could not be reached.
        r.guardCode = guard->code;
        r.guardDetail = guard->detail;
        r.notSent = !guard->reached;
        finishWith(std::move(r));
        return;
    }
    r.httpStatus = m_reply->status();
    if (m_tooLarge) {
        r.networkError = QNetworkReply::NoError;
        r.malformedBody = QStringLiteral("response larger than %1 MiB; not read").arg(m_maxBodyBytes / (1024 * 1024));
    } else if (!r.httpStatus || (*r.httpStatus >= 200 && *r.httpStatus < 300)) {
        r.networkError = error; // a 2xx cut off keeps its transport error: the classifier calls it NETWORK
        if (error != QNetworkReply::NoError)
            r.networkErrorString = transportDetail(m_reply->errorString());
    }

    if (r.httpStatus && (*r.httpStatus < 200 || *r.httpStatus >= 300)) {
        r.errorBody = m_body.left(64 * 1024);
        r.retryAfterHeader = HttpStageGenerator::retryAfter(m_reply->rawHeader("retry-after-ms"), m_reply->rawHeader("retry-after"));
    } else if (r.httpStatus && !m_tooLarge) {
        if (isEventStream()) {
            if (!m_decoder->terminated())
                r.bodyTruncated = true;
        } else if (error == QNetworkReply::NoError) {
            if (m_body.size() >= kParseOffLoopBytes) {
                parseOffLoop(std::move(r));
                return;
            }
            m_format.parseBody(m_body, r);
        }
    }
    finishWith(std::move(r));
}

void HttpExchange::parseOffLoop(ProviderResponse response)
{
    // A large body (an image, a padded answer) is read on a pool thread: the engine thread goes on
    // aborting other attempts at their deadlines meanwhile. The connection is free already; the task
    // owns everything it reads (its own copy of the stateless wire format, the body), so it may outlive
    // this exchange, whose watcher then simply never reports.
    dropReply();
    auto promise = std::make_shared<QPromise<ProviderResponse>>();
    auto *watcher = new QFutureWatcher<ProviderResponse>(this);
    connect(watcher, &QFutureWatcher<ProviderResponse>::finished, this, [this, watcher] {
        ProviderResponse parsed = watcher->future().result();
        finishWith(std::move(parsed));
    });
    watcher->setFuture(promise->future());
    std::shared_ptr<const WireFormat> format(WireFormat::create(m_dialect, m_context->provider()));
    QThreadPool::globalInstance()->start([promise, format, body = std::move(m_body), response = std::move(response)]() mutable {
        BULLPEN_TSAN_SEED_READ("parse"); // on a pool thread (tsanseed.h)
        promise->start();
        format->parseBody(body, response);
        promise->addResult(std::move(response));
        promise->finish();
    });
    // On the engine's thread, after the hand-over, racing the pool thread's read (tsanseed.h).
    BULLPEN_TSAN_SEED_AWAITED("parse");
}

QString HttpExchange::transportDetail(const QString &qtText) const
{
    // Qt often says only "Unknown error" or "Connection closed": say how far the exchange got.
    QString where;
    if (!m_requestSent)
        where = QStringLiteral("before the request was sent");
    else if (!m_reply->status())
        where = QStringLiteral("after the request was sent, before any byte of the answer");
    else
        where = QStringLiteral("after %1 bytes of the answer").arg(m_received);
    const bool vague = qtText.isEmpty() || qtText == u"Unknown error" || qtText == u"Connection closed";
    return vague ? QStringLiteral("closed %1").arg(where) : QStringLiteral("%1 (%2)").arg(qtText, where);
}

void HttpExchange::finishWith(ProviderResponse r)
{
    r.requestsSent = m_context->requestsSent();
    dropReply(); // the connection is free for the next request
    auto context = std::move(m_context);
    deleteLater();
    context->deliver(std::move(r));
}

} // namespace bullpen
