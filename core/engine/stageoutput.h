// SPDX-License-Identifier: MIT
#pragma once

#include "contract/storyboard.h"
#include "failure/failure.h"
#include "failure/providerresponse.h"

#include <QByteArray>
#include <QStringList>

#include <optional>
#include <variant>

namespace bullpen {

// What a successful attempt of a stage produced, checked against that stage's contract.
struct StageOutput
{
    std::optional<Storyboard> storyboard; // storyboard stage (docs/contract.md §2.1)
    QStringList captions; // captions stage: one line per panel
    QByteArray image; // image stage: PNG or JPEG bytes
    QString imageMime;
};

// Checks a classified-successful response against its stage's contract: the storyboard validator,
// four non-empty captions of at most kMaxCaptionChars, or an image whose bytes are PNG/JPEG/WebP.
std::variant<Failure, StageOutput> validateStageOutput(Stage stage, const ProviderResponse &response);

inline constexpr int kCaptionCount = 4;
inline constexpr int kMaxCaptionChars = 300;

} // namespace bullpen
