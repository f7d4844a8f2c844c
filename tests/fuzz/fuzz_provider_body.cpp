// SPDX-License-Identifier: MIT
// libFuzzer target: one provider's complete response body, as a 2xx answer and as an error body.
// Byte 0 picks the provider, byte 1 the HTTP status class; the rest is the body.
#include "failure/failureclassifier.h"
#include "providers/wireformat.h"

#include <cstddef>
#include <cstdint>

using namespace bullpen;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const Provider provider = Provider::atIndex(data[0] % 4);
    static const int kStatuses[] = { 200, 400, 401, 403, 404, 408, 429, 500, 502, 503, 504, 529, 302, 413 };
    const int status = kStatuses[data[1] % std::size(kStatuses)];
    const QByteArray body(reinterpret_cast<const char *>(data + 2), static_cast<qsizetype>(size - 2));
    const auto format = WireFormat::create(provider);
    ProviderResponse response;
    response.httpStatus = status;
    response.requestsSent = 1;
    if (status == 200)
        format->parseBody(body, response);
    else
        response.errorBody = body;
    // Whatever the body held, the classifier gives exactly one kind and never crashes.
    const std::optional<Failure> failure = FailureClassifier::classify(provider, response, AbortReason::None);
    if (status != 200 && !failure)
        __builtin_trap(); // an HTTP error must never read as success
    return 0;
}
