// SPDX-License-Identifier: MIT
#include "words.h"

#include <QCoreApplication>

namespace bullpen::words {

namespace {
struct Word
{
    const char *id;
    const char *text;
};
// One row per FinalState id (contract/enums.h), plus "running".
constexpr Word kStates[] = {
    { "running", QT_TRANSLATE_NOOP("bullpen::words", "running") },     { "succeeded", QT_TRANSLATE_NOOP("bullpen::words", "succeeded") },
    { "failed", QT_TRANSLATE_NOOP("bullpen::words", "failed") },       { "cancelled", QT_TRANSLATE_NOOP("bullpen::words", "cancelled") },
    { "abandoned", QT_TRANSLATE_NOOP("bullpen::words", "abandoned") },
};
} // namespace

QString state(const QString &id)
{
    for (const Word &w : kStates) {
        if (id == QLatin1StringView(w.id))
            return QCoreApplication::translate("bullpen::words", w.text);
    }
    return id;
}

QString role(Role role)
{
    return role == Role::Primary ? QCoreApplication::translate("bullpen::words", "primary")
                                 : QCoreApplication::translate("bullpen::words", "fallback");
}

QString stage(Stage stage)
{
    switch (stage) {
    case Stage::Storyboard:
        return QCoreApplication::translate("bullpen::words", "storyboard");
    case Stage::Image:
        return QCoreApplication::translate("bullpen::words", "image");
    case Stage::Captions:
        return QCoreApplication::translate("bullpen::words", "captions");
    }
    return toId(stage);
}

} // namespace bullpen::words
