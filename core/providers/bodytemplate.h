// SPDX-License-Identifier: MIT
#pragma once

#include "wireformat.h"

#include <QByteArray>

#include <array>
#include <optional>

namespace bullpen {

// A stage's request body by splicing. Everything in one endpoint's request body except the story (or,
// for captions and image, the stage input) is the same for every request: the instruction, the JSON
// schema, the model and limits. It is serialised once per stage, with a marker where the text goes,
// and each request is that template with the text, JSON-escaped, put in the marker's place. The result
// is byte for byte what WireFormat::body() writes (tst_wireformats checks it), at a fraction of the cost.
// A format that does not write the text exactly once, unchanged, is simply built in full every time.
// One per generator; not shared between threads.
class BodyTemplate final
{
public:
    BodyTemplate(const WireFormat &format, ProviderEndpoint endpoint);

    QByteArray body(const StageRequest &request);
    // Whether this stage's bodies are spliced (false: built in full each time).
    bool splices(Stage stage) { return partsFor(stage) != nullptr; }

private:
    struct Parts
    {
        QByteArray before;
        QByteArray after;
    };
    const Parts *partsFor(Stage stage); // made at the first request of the stage; null: not spliced

    const WireFormat &m_format;
    ProviderEndpoint m_endpoint;
    std::array<std::optional<std::optional<Parts>>, 3> m_parts; // per stage: not made yet / unusable / parts
};

} // namespace bullpen
