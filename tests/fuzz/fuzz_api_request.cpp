// SPDX-License-Identifier: MIT
// libFuzzer target: the engine service's `POST /v1/generations` body (docs/contract.md §12.1). Every input is either
// refused naming what is wrong, or becomes a request whose own body parses back to the same request.
#include "api/generationrequestjson.h"

#include <QJsonDocument>

#include <cstddef>
#include <cstdint>

using namespace bullpen;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const StagePolicy defaults = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
    static const ProviderTable providers; // the built-ins
    const QByteArray body(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    const auto parsed = GenerationRequestJson::parse(body, defaults, {}, providers);
    if (const auto *error = std::get_if<FieldError>(&parsed)) {
        if (error->message.isEmpty())
            __builtin_trap(); // a refusal always says why
        return 0;
    }
    const GenerationRequest &request = std::get<GenerationRequest>(parsed);
    const QByteArray again = QJsonDocument(GenerationRequestJson::toJson(request)).toJson(QJsonDocument::Compact);
    const auto back = GenerationRequestJson::parse(again, defaults, {}, providers);
    const auto *r = std::get_if<GenerationRequest>(&back);
    if (!r || r->story != request.story || r->userId != request.userId || r->fresh != request.fresh
        || r->scenario.name != request.scenario.name || r->generationId != request.generationId
        || !(r->storyboardPolicy == request.storyboardPolicy))
        __builtin_trap(); // what a client would send for an accepted request must mean the same request
    return 0;
}
