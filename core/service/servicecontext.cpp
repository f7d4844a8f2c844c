// SPDX-License-Identifier: MIT
#include "servicecontext.h"

#include "runtime/enginesetup.h"

#include <QHttpServerRequest>

namespace bullpen {

std::variant<GenerationRequest, ApiReply> ServiceContext::admitted(const QHttpServerRequest &request, const QString &work) const
{
    if (draining) {
        ApiReply r =
            ApiReply::error(503, QStringLiteral("this engine is shutting down and takes no new %1; send it to another instance").arg(work));
        r.headers.append({ QByteArray("Retry-After"), QByteArray("5") });
        return r;
    }
    std::variant<GenerationRequest, FieldError> parsed =
        GenerationRequestJson::parse(request.body(), setup.storyboardPolicy(), options.request, setup.providers());
    if (const auto *e = std::get_if<FieldError>(&parsed))
        return ApiReply::error(e->tooLarge ? 413 : 400, e->toString(), e->field);
    return std::get<GenerationRequest>(std::move(parsed));
}

std::optional<ApiReply> ServiceContext::overInFlightLimit(int more) const
{
    if (setup.engine().activeCount() + more <= options.maxInFlight)
        return std::nullopt;
    ApiReply r = ApiReply::error(429,
                                 QStringLiteral("%1 generations in flight, this engine's limit; retry after 1 s, or raise --max-in-flight")
                                     .arg(options.maxInFlight));
    r.headers.append({ QByteArray("Retry-After"), QByteArray("1") });
    return r;
}

} // namespace bullpen
