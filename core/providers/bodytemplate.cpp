// SPDX-License-Identifier: MIT
#include "bodytemplate.h"

#include "contract/jsonstring.h"

namespace bullpen {

namespace {

// Plain ASCII that JSON never escapes, and no text a story would hold by chance; if one does, the
// splice is by position, so the story is still sent as written.
const QString kMarker = QStringLiteral("BULLPEN-STAGE-TEXT-3c1f0e9a57b24d86");

// The one text of a request that varies: the story, or the stage's input.
template<class Request> auto &textOf(Request &request)
{
    return request.stage == Stage::Storyboard ? request.story : request.stageInput;
}

} // namespace

BodyTemplate::BodyTemplate(const WireFormat &format, ProviderEndpoint endpoint)
    : m_format(format)
    , m_endpoint(std::move(endpoint))
{
}

const BodyTemplate::Parts *BodyTemplate::partsFor(Stage stage)
{
    auto &slot = m_parts.at(static_cast<size_t>(stage));
    if (!slot) {
        StageRequest probe;
        probe.stage = stage;
        textOf(probe) = kMarker;
        const QByteArray whole = m_format.body(m_endpoint, probe);
        const QByteArray marker = kMarker.toLatin1();
        const qsizetype at = whole.indexOf(marker);
        if (at < 0 || whole.indexOf(marker, at + 1) >= 0)
            slot.emplace(std::nullopt);
        else
            slot.emplace(Parts { whole.first(at), whole.sliced(at + marker.size()) });
    }
    return *slot ? &**slot : nullptr;
}

QByteArray BodyTemplate::body(const StageRequest &request)
{
    const Parts *parts = partsFor(request.stage);
    if (!parts)
        return m_format.body(m_endpoint, request);
    const QString &text = textOf(request);
    QByteArray out;
    out.reserve(parts->before.size() + text.size() + 16 + parts->after.size());
    out += parts->before;
    appendJsonStringContents(out, text);
    out += parts->after;
    return out;
}

} // namespace bullpen
