// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"

#include <QMetaType>
#include <QString>

#include <chrono>
#include <optional>

namespace bullpen {

// One classified failure of one attempt (docs/contract.md §3): exactly one kind, its public code, a one-line detail.
struct Failure
{
    FailureKind kind = FailureKind::UNKNOWN;
    QString detail;
    bool capacity = false; // TRANSIENT_SERVER with a capacity marker (docs/contract.md §3.1)
    std::optional<std::chrono::milliseconds> retryAfter; // when the provider said the limit lifts

    PublicCode publicCode() const { return publicCodeFor(kind); }
    friend bool operator==(const Failure &, const Failure &) = default;
};

} // namespace bullpen

Q_DECLARE_METATYPE(bullpen::Failure)
