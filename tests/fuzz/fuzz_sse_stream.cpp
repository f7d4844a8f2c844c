// SPDX-License-Identifier: MIT
// libFuzzer target: a server-sent event stream, split into network reads at fuzzer-chosen points, fed
// through the SSE parser into one provider's stream decoder, then classified.
// Byte 0 picks the provider, byte 1 the read size; the rest is the stream.
#include "failure/failureclassifier.h"
#include "providers/sseparser.h"
#include "providers/wireformat.h"

#include <cstddef>
#include <cstdint>

using namespace bullpen;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const Provider provider = Provider::atIndex(data[0] % 4);
    const size_t step = 1 + data[1] % 64;
    const auto format = WireFormat::create(provider);
    const auto decoder = format->streamDecoder();
    SseParser parser;
    ProviderResponse response;
    response.httpStatus = 200;
    response.requestsSent = 1;
    int events = 0;
    for (size_t at = 2; at < size && !decoder->terminated(); at += step) {
        const size_t n = std::min(step, size - at);
        const QList<SseEvent> batch = parser.feed(QByteArrayView(reinterpret_cast<const char *>(data + at), static_cast<qsizetype>(n)));
        for (const SseEvent &e : batch) {
            ++events;
            decoder->onEvent(e, response);
            if (decoder->terminated())
                break;
        }
    }
    if (!decoder->terminated())
        response.bodyTruncated = true;
    const std::optional<Failure> failure = FailureClassifier::classify(provider, response, AbortReason::None);
    // A stream cut before its terminal marker is never a success.
    if (response.bodyTruncated && !failure)
        __builtin_trap();
    (void)events;
    return 0;
}
