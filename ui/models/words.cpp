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

QString eventType(const QString &id)
{
    // By the id's ending; a stage's events begin with the stage's id.
    static constexpr Word kEvents[] = {
        { "generation_started", QT_TRANSLATE_NOOP("bullpen::words", "generation started") },
        { "generation_finished", QT_TRANSLATE_NOOP("bullpen::words", "generation finished") },
        { "late_result_discarded", QT_TRANSLATE_NOOP("bullpen::words", "late answer discarded") },
        { "attempt_started", QT_TRANSLATE_NOOP("bullpen::words", "attempt started") },
        { "attempt_completed", QT_TRANSLATE_NOOP("bullpen::words", "attempt ended") },
        { "fallback_triggered", QT_TRANSLATE_NOOP("bullpen::words", "fallback called") },
        { "retry_scheduled", QT_TRANSLATE_NOOP("bullpen::words", "retry scheduled") },
        { "primary_skipped", QT_TRANSLATE_NOOP("bullpen::words", "primary skipped") },
        { "queued", QT_TRANSLATE_NOOP("bullpen::words", "queued") },
        { "admitted", QT_TRANSLATE_NOOP("bullpen::words", "admitted") },
    };
    for (const Word &w : kEvents) {
        const QLatin1StringView ending(w.id);
        if (!id.endsWith(ending))
            continue;
        const QString text = QCoreApplication::translate("bullpen::words", w.text);
        const QStringView stageId = QStringView(id).chopped(ending.size());
        if (stageId.isEmpty())
            return text;
        const auto s = stageFromId(stageId.chopped(1).toString()); // "storyboard_"
        return s ? QStringLiteral("%1 · %2").arg(stage(*s), text) : id;
    }
    return id;
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
