// SPDX-License-Identifier: MIT
#pragma once

#include "storyboard.h"

#include <QString>

#include <optional>

namespace bullpen {

// What one provider charges (docs/contract.md §16; the built-ins' list prices and their date are in
// docs/configuration.md, "Prices"). A price that is not known stays absent: a cost is never made up.
struct Price
{
    std::optional<double> inputPerMillion; // per 1M input (prompt) tokens
    std::optional<double> outputPerMillion; // per 1M output tokens
    std::optional<double> perImage; // per image generated
    QString currency = QStringLiteral("USD");
    QString asOf; // the date of the price list the defaults come from ("2025-06"); empty: set by the operator

    bool known() const { return inputPerMillion || outputPerMillion || perImage; }
    friend bool operator==(const Price &, const Price &) = default;
};

// What an attempt that ended this way cost. Tokens the provider reported are billed whether the
// attempt then succeeded or not (a truncated answer is billed); an attempt the provider refused with
// an HTTP error before generating anything is not billed (0); anything else with no tokens reported
// (a timeout, a reset, a cut stream) cost something nobody told us: absent, never 0.
struct AttemptBill
{
    TokenUsage tokens;
    std::optional<int> httpStatus;
    bool image = false; // an image-stage attempt that delivered its image
};
std::optional<double> attemptCost(const Price &price, const AttemptBill &bill);

} // namespace bullpen
