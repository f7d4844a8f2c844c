// SPDX-License-Identifier: MIT
#pragma once

#include "contract/storyboard.h"

#include <QByteArray>
#include <QNetworkReply>
#include <QString>

#include <chrono>
#include <optional>

namespace bullpen {

// What an adapter saw of one provider call, in the provider's own words. The classifier turns it into
// a Failure (or none); the runner parses `text` into a Storyboard. Adapters never decide the kind.
struct ProviderResponse
{
    // Transport
    std::optional<int> httpStatus; // absent when no status line arrived
    QNetworkReply::NetworkError networkError = QNetworkReply::NoError;
    QString networkErrorString;
    QString localConfigError; // found before sending: missing key, bad base URL, unsupported scheme
    int requestsSent = 0; // HttpReply::requestSent count for this attempt (docs/contract.md §4.4)
    // Set when the egress guard (guardedreply.h) ended the exchange instead of the provider's answer:
    // its verdict code ("head-too-large", "interim-flood", "not-http", "body-too-large", "closed",
    // "unreachable") and what it saw.
    QByteArray guardCode;
    QString guardDetail;
    bool notSent = false; // the request never reached the provider (the guard could not connect)

    // Error body: the HTTP error body, or the error payload found inside a 2xx stream.
    QByteArray errorBody;
    bool errorInStream = false;
    std::optional<std::chrono::milliseconds> retryAfterHeader; // Retry-After / retry-after-ms

    // Success body, already reduced by the adapter
    bool bodyTruncated = false; // 2xx body or stream ended before its terminal marker
    QString malformedBody; // set when a 2xx body could not be read: says what was wrong
    QString finishReason; // provider spelling: STOP, length, max_tokens, ...
    QString blockReason; // Gemini promptFeedback.blockReason
    QString refusal; // OpenAI message.refusal
    QString text; // model text, thought/thinking parts skipped
    QByteArray binary; // inline data (an image), decoded
    QString binaryMime;
    TokenUsage usage;
    QString modelVersion;
};

} // namespace bullpen
