// SPDX-License-Identifier: MIT
#include "price.h"

namespace bullpen {

std::optional<double> attemptCost(const Price &price, const AttemptBill &bill)
{
    if (bill.image) {
        if (price.perImage)
            return *price.perImage;
        if (!bill.tokens.known())
            return std::nullopt;
    }
    if (bill.tokens.known()) {
        // A count the provider reported with no price for it cannot be priced.
        if ((bill.tokens.input > 0 && !price.inputPerMillion) || (bill.tokens.output > 0 && !price.outputPerMillion))
            return std::nullopt;
        double cost = 0;
        if (bill.tokens.input > 0)
            cost += static_cast<double>(bill.tokens.input) * *price.inputPerMillion / 1e6;
        if (bill.tokens.output > 0)
            cost += static_cast<double>(bill.tokens.output) * *price.outputPerMillion / 1e6;
        return cost;
    }
    if (bill.httpStatus && *bill.httpStatus >= 400)
        return 0.0; // refused before anything was generated
    return std::nullopt;
}

} // namespace bullpen
