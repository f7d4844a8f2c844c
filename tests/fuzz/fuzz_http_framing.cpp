// SPDX-License-Identifier: MIT
// libFuzzer target: what the egress guard reads from a provider (docs/hostile-providers.md): a
// response head's framing, and a chunked body fed in two pieces split where byte 0 says, whose decoded
// data is the same as when fed whole.
#include "providers/httpframing.h"

#include <QByteArray>

#include <cstddef>
#include <cstdint>

using namespace bullpen;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const QByteArrayView bytes(reinterpret_cast<const char *>(data + 1), static_cast<qsizetype>(size - 1));
    const MessageHead response = readResponseHead(bytes, "POST");
    if (response.framing == BodyFraming::UntilClose && response.reusable)
        __builtin_trap(); // a body that ends only at close never leaves its connection reusable
    if (response.length < 0)
        __builtin_trap();
    (void)readRequestHead(bytes);

    ChunkedTracker tracker;
    QByteArray decoded;
    const qsizetype split = bytes.isEmpty() ? 0 : data[0] % (bytes.size() + 1);
    qsizetype taken = tracker.consume(bytes.first(split), &decoded);
    if (taken > split)
        __builtin_trap();
    if (!tracker.done() && !tracker.failed()) {
        if (taken != split)
            __builtin_trap(); // an unfinished body takes every byte it is given
        taken += tracker.consume(bytes.sliced(split), &decoded);
    }
    if (taken > bytes.size() || (tracker.done() && tracker.failed()) || decoded.size() > taken)
        __builtin_trap();
    ChunkedTracker whole;
    QByteArray decodedWhole;
    const qsizetype takenWhole = whole.consume(bytes, &decodedWhole);
    if (whole.done() != tracker.done() || whole.failed() != tracker.failed())
        __builtin_trap(); // where the pieces are split changes nothing
    if (!whole.failed() && (takenWhole != taken || decodedWhole != decoded))
        __builtin_trap();
    return 0;
}
