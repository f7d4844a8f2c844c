// SPDX-License-Identifier: MIT
// libFuzzer target: model text into the storyboard parser and validator (docs/contract.md §2.1). What it accepts
// must survive a round trip through toJson() unchanged.
#include "contract/storyboardparser.h"
#include "contract/storyboardvalidator.h"

#include <QJsonDocument>

#include <cstddef>
#include <cstdint>

using namespace bullpen;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const StoryboardCheck check =
        StoryboardParser::parse(QByteArrayView(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size)));
    if (check.ok() == check.violation.has_value())
        __builtin_trap(); // exactly one of the two
    if (check.ok()) {
        const StoryboardCheck again = StoryboardValidator::validate(check.storyboard->toJson());
        if (!again.ok() || *again.storyboard != *check.storyboard)
            __builtin_trap();
    }
    return 0;
}
