// SPDX-License-Identifier: MIT
// libFuzzer target: what an attached console or bullpen-cli --engine parses from an engine (docs/api.md):
// an event of the stream (Event::fromJson) or a result (GenerationResult::fromJson). The first byte
// picks which; the rest is the JSON text. Anything is refused with a field or read; what is read writes
// back to JSON that reads again to the same JSON.
#include "engine/event.h"
#include "pipeline/generationresult.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cstddef>
#include <cstdint>

using namespace bullpen;

namespace {

template<typename T> void roundTrip(const QJsonObject &json)
{
    QString error;
    const std::optional<T> read = T::fromJson(json, &error);
    if (!read) {
        if (error.isEmpty())
            __builtin_trap(); // a refusal always says why
        return;
    }
    const QJsonObject written = read->toJson();
    const std::optional<T> again = T::fromJson(written, &error);
    if (!again || again->toJson() != written)
        __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray(reinterpret_cast<const char *>(data) + 1, static_cast<qsizetype>(size - 1)));
    if (!doc.isObject())
        return 0;
    if (data[0] & 1)
        roundTrip<GenerationResult>(doc.object());
    else
        roundTrip<Event>(doc.object());
    return 0;
}
