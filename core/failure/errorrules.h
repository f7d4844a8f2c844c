// SPDX-License-Identifier: MIT
#pragma once

#include "contract/provider.h"
#include "contract/wiredialect.h"
#include "failure.h"

#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

namespace bullpen {

// The fields of every provider's error body that the decision needs, whichever shape carried them:
// Gemini {"error":{code,message,status,details[]}}, OpenAI/DashScope-compat {"error":{message,type,code}},
// Anthropic {"type":"error","error":{type,message,details}}, DashScope native {code,message,request_id}.
struct ErrorInfo
{
    bool parsed = false;
    QString status; // Gemini google.rpc status name
    QString type; // OpenAI / Anthropic / DashScope-compat error.type
    QString code; // OpenAI / DashScope string code
    QString message;
    QString reason; // Gemini ErrorInfo.reason
    QString detailsErrorCode; // Anthropic error.details.error_code
    QStringList quotaIds; // Gemini QuotaFailure violations
    std::optional<std::chrono::milliseconds> retryDelay; // Gemini RetryInfo.retryDelay
};

// What one wire dialect's words mean (docs/contract.md §3): the kind its error bodies name and the
// failure its finish reasons mean. Each dialect has its rules in its own folder (core/dialects/); the
// classifier asks the provider's dialect through of(), which core/dialects/dialects.cpp defines: the
// failure folder names no dialect, and no dialect is compiled into it.
class ErrorRules
{
public:
    virtual ~ErrorRules() = default;
    // The kind the body names, or nothing when it names nothing the dialect knows (the HTTP status
    // then decides). `status` is the HTTP error status; nothing for an error inside a 2xx stream.
    virtual std::optional<FailureKind> errorKind(std::optional<int> status, const ErrorInfo &error) const = 0;
    // The failure a 2xx's finish or stop reason means, or nothing for a normal end. Never called with
    // an empty reason.
    virtual std::optional<Failure> finishFailure(const QString &reason) const = 0;

    // A dialect's rules (an engine's provider speaks the dialect its own table gives it).
    static const ErrorRules &of(WireDialect dialect);

protected:
    // "finish reason MAX_TOKENS: the output hit the token limit".
    static Failure finished(const QString &reason, FailureKind kind, const char *what)
    {
        return Failure { kind, QStringLiteral("finish reason %1: %2").arg(reason, QLatin1StringView(what)), false, {} };
    }
    static bool mentions(QStringView text, QStringView words) { return text.contains(words, Qt::CaseInsensitive); }
};

} // namespace bullpen
