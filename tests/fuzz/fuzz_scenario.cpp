// SPDX-License-Identifier: MIT
// libFuzzer target: a simulator scenario file's bytes (resources/scenarios/*.json is the seed corpus).
#include "sim/scenario.h"

#include <cstddef>
#include <cstdint>

using namespace bullpen;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    QString error;
    const std::optional<Scenario> s =
        Scenario::fromJson(QByteArray(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size)), &error);
    if (!s && error.isEmpty())
        __builtin_trap(); // a refusal always says why
    return 0;
}
