// SPDX-License-Identifier: MIT
// libFuzzer target: the engine service's history query strings (GET /v1/history, /v1/stats/…;
// docs/contract.md §12.1). Every input is either refused naming the parameter, or becomes a filter whose own query string
// (what RemoteHistory sends) parses back to the same filter.
#include "api/historyjson.h"

#include <cstddef>
#include <cstdint>

using namespace bullpen;

namespace {
bool same(const HistoryFilter &a, const HistoryFilter &b)
{
    return a.fromMs == b.fromMs && a.toMs == b.toMs && a.states == b.states && a.publicCode == b.publicCode && a.kind == b.kind
        && a.stage == b.stage && a.provider == b.provider && a.userKey == b.userKey && a.fallbackApplied == b.fallbackApplied
        && a.beforeMs == b.beforeMs && a.beforeId == b.beforeId;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QUrlQuery query(QString::fromUtf8(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size)));
    const auto parsed = HistoryJson::filterFromQuery(query, { QStringLiteral("limit") });
    if (const auto *error = std::get_if<FieldError>(&parsed)) {
        if (error->message.isEmpty() || error->field.isEmpty())
            __builtin_trap(); // a refusal names the parameter and says why
        return 0;
    }
    const HistoryFilter &filter = std::get<HistoryFilter>(parsed);
    const auto back = HistoryJson::filterFromQuery(HistoryJson::filterQuery(filter));
    const auto *f = std::get_if<HistoryFilter>(&back);
    if (!f || !same(*f, filter))
        __builtin_trap(); // what a remote client sends for a filter must select the same rows
    return 0;
}
