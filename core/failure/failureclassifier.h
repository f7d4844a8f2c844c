// SPDX-License-Identifier: MIT
#pragma once

#include "contract/wiredialect.h"
#include "failure.h"
#include "providerresponse.h"

#include <QStringView>

#include <optional>

namespace bullpen {

// docs/contract.md §3: a pure function from (provider, HTTP status, error body, Qt network error, finish reason,
// who aborted) to one failure kind. Order of evaluation (docs/contract.md §3): our own abort first, then
// local configuration, transport errors without a status, errors inside a stream, cut-off bodies,
// HTTP error statuses with the provider's body, then 2xx finish reasons and refusals.
// Returns nothing when the response is a success whose text should now be parsed.
class FailureClassifier final
{
public:
    // By the dialect of the provider that answered, as the engine's own table describes it.
    static std::optional<Failure> classify(WireDialect dialect, const ProviderResponse &response,
                                           AbortReason abortedBy = AbortReason::None);
    // By the dialect the process's registry knows for `provider` (a built-in's never changes): for
    // tools and tests. An engine passes its own dialect (an added id may mean another dialect to
    // another engine in the process).
    static std::optional<Failure> classify(Provider provider, const ProviderResponse &response, AbortReason abortedBy = AbortReason::None);

    // docs/contract.md §3.1: "503", "unavailable", "high demand", "overloaded", "temporarily unavailable",
    // "try again later", case-insensitive.
    static bool hasCapacityMarker(QStringView text);

    // "59s", "1.5s", "Please retry in 45.57s.", "Please try again in 1.574s." → milliseconds.
    static std::optional<std::chrono::milliseconds> retryHintFromText(QStringView text);
};

} // namespace bullpen
