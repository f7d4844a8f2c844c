// SPDX-License-Identifier: MIT
#pragma once

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
    static std::optional<Failure> classify(Provider provider, const ProviderResponse &response, AbortReason abortedBy = AbortReason::None);

    // docs/contract.md §3.1: "503", "unavailable", "high demand", "overloaded", "temporarily unavailable",
    // "try again later", case-insensitive.
    static bool hasCapacityMarker(QStringView text);

    // "59s", "1.5s", "Please retry in 45.57s.", "Please try again in 1.574s." → milliseconds.
    static std::optional<std::chrono::milliseconds> retryHintFromText(QStringView text);
};

} // namespace bullpen
