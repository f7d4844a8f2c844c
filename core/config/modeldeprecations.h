// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"

#include <QDate>
#include <QString>

#include <optional>

namespace bullpen {

// Models their providers have announced an end of life for, with the date (from the official SDKs'
// own deprecation tables; docs/simulator-fidelity.md says which release). Bullpen warns when one is
// configured, and names the model to move to.
struct ModelDeprecation
{
    Provider provider;
    QString model;
    QDate endOfLife;
    QString replacement;
};

std::optional<ModelDeprecation> deprecationOf(Provider provider, const QString &model);

// One line for people: "anthropic model claude-sonnet-4-5 reached its end of life on 2026-11-30; set
// ANTHROPIC_MODEL (or providers.anthropic.model) to claude-sonnet-4-6". Empty when not deprecated.
QString deprecationWarning(Provider provider, const QString &model, const QDate &today = QDate::currentDate());

} // namespace bullpen
