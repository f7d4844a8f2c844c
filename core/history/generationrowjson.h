// SPDX-License-Identifier: MIT
#pragma once

#include "historyreader.h"

#include <QJsonObject>

#include <optional>

namespace bullpen {

// One history row as JSON, both ways: the one codec behind GET /v1/history (and a result read back from
// the history), the attached console's remote reader, `bullpen-cli history --json`, the export and the
// replay's bug report. Its fields carry the contract's names (docs/contract.md §5), the same as a result
// kept in memory: `primary_final_model_provider`, `final_model_provider`, `final_model_id`.
namespace GenerationRowJson {

QJsonObject toJson(const GenerationRow &row);
// Null without a generation id or a creation time. Also reads the names older engines wrote
// (`primary_provider`, `final_provider`, `final_model`), so that a console attached to one still reads it.
std::optional<GenerationRow> fromJson(const QJsonObject &json);

} // namespace GenerationRowJson

} // namespace bullpen
