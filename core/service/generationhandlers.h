// SPDX-License-Identifier: MIT
#pragma once

#include "apireply.h"
#include "contract/enums.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QSet>
#include <QString>

#include <deque>
#include <memory>

class QHttpServerRequest;
class QTcpSocket;

namespace bullpen {

struct ApiToken;
struct GenerationResult;
struct ServiceContext;

// The service's handlers under /v1/generations (docs/api.md, "Generations"): start, result, cancel.
// They own what this engine knows of its generations: which run, and the newest finished results.
class GenerationHandlers final
{
public:
    explicit GenerationHandlers(ServiceContext &context);

    ApiReply start(const QHttpServerRequest &request, const ApiToken &token);
    void result(const QString &id, QTcpSocket *socket);
    // 202 while it runs here; its final state (200) once ended, here or on another engine of the store.
    void cancel(const QString &id, const ApiToken &token, QTcpSocket *socket);

    // A generation started here by any front end (comparisons too), and its end: its log line, and its
    // result kept for GET.
    void started(const QString &id) { m_running.insert(id); }
    void finished(const GenerationResult &result);
    const QSet<QString> &running() const { return m_running; }

    // A result (or a comparison's side) as the API gives it: the comic by its URL and digest, never the
    // server's file path (docs/api.md).
    static QJsonObject withImageUrl(QJsonObject result);

private:
    // Finished generations, the newest ServiceOptions::resultsKept: the result (without its image bytes,
    // which are on disk) and its JSON, written when a client first asks for it, not on the thread's
    // way to the next event.
    struct KeptResult
    {
        FinalState state = FinalState::Failed;
        std::shared_ptr<const GenerationResult> result; // until its JSON is written, then released
        QByteArray json; // empty until asked for
    };
    static const QByteArray &resultJson(KeptResult &kept);
    // Its log line (docs/contract.md 12.4); `plain`: a success without fallback, logged at debug.
    static void logFinished(const GenerationResult &result, bool plain);

    ServiceContext &m_context;
    QSet<QString> m_running; // generations started and not yet finished (any front end)
    QHash<QString, KeptResult> m_results;
    std::deque<QString> m_resultOrder;
};

} // namespace bullpen
