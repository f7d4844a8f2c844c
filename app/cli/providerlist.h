// SPDX-License-Identifier: MIT
#pragma once

#include "remote/engineendpoint.h"

#include <QString>

#include <optional>

namespace bullpen::cli {

// `bullpen-cli provider list [--engine URL | --settings FILE] [--json]` (docs/cli.md): every provider an
// engine or the local settings know, one row each, its columns one table (providerlist.cpp); from an
// engine also its breakers, drains and last 5 and 15 minutes. Returns the exit code.
int listProviders(const std::optional<EngineEndpoint> &engine, const QString &settingsFile, bool settingsNamed, bool json);

} // namespace bullpen::cli
