// SPDX-License-Identifier: MIT
#include "storyboardsynth.h"

#include "contract/providerregistry.h"
#include "contract/storyboardvalidator.h"
#include "dialects/dialects.h"

#include <QRegularExpression>

#include <algorithm>

namespace bullpen {

namespace {

QString clip(const QString &s, int max)
{
    const QString t = s.simplified();
    return t.size() <= max ? t : t.left(max - 1) + QChar(0x2026);
}

QStringList sentencesOf(const QString &story)
{
    static const QRegularExpression split(QStringLiteral(R"((?<=[.!?。！？])\s+|\n+)"));
    QStringList out;
    const QStringList parts = story.split(split, Qt::SkipEmptyParts);
    for (const QString &p : parts) {
        const QString s = p.simplified();
        if (!s.isEmpty())
            out << s;
    }
    return out;
}

QStringList quotesOf(const QString &text)
{
    static const QRegularExpression quote(QStringLiteral(R"([\"“]([^\"”]{1,300})[\"”])"));
    QStringList out;
    auto it = quote.globalMatch(text);
    while (it.hasNext())
        out << it.next().captured(1).simplified();
    return out;
}

QStringList namesOf(const QString &text)
{
    // English capitalised words that are not sentence starts, and Korean words before 이/가/은/는 (subjects).
    static const QRegularExpression english(QStringLiteral(R"(\b([A-Z][a-z]{1,20})\b)"));
    static const QRegularExpression korean(QStringLiteral(R"(([가-힣]{2,4})(?:가|은|는|와|과)(?=\s))"));
    // Words that start sentences or name times, not people.
    static const QStringList notNames {
        QStringLiteral("The"),   QStringLiteral("A"),        QStringLiteral("An"),        QStringLiteral("They"),   QStringLiteral("He"),
        QStringLiteral("She"),   QStringLiteral("It"),       QStringLiteral("You"),       QStringLiteral("We"),     QStringLiteral("I"),
        QStringLiteral("Then"),  QStringLiteral("But"),      QStringLiteral("And"),       QStringLiteral("When"),   QStringLiteral("One"),
        QStringLiteral("Today"), QStringLiteral("Tomorrow"), QStringLiteral("Yesterday"), QStringLiteral("Thanks"), QStringLiteral("오늘"),
        QStringLiteral("내일"),  QStringLiteral("어제"),     QStringLiteral("아침"),      QStringLiteral("저녁"),   QStringLiteral("그날"),
        QStringLiteral("우리"),  QStringLiteral("모두"),     QStringLiteral("둘"),        QStringLiteral("그것"),   QStringLiteral("마리"),
        QStringLiteral("사람"),  QStringLiteral("한 마리")
    };
    QStringList out;
    for (const QRegularExpression *re : { &english, &korean }) {
        auto it = re->globalMatch(text);
        while (it.hasNext()) {
            const QString name = it.next().captured(1);
            if (!out.contains(name) && !notNames.contains(name))
                out << name;
        }
    }
    return out;
}

} // namespace

Storyboard StoryboardSynth::fromStory(const QString &story)
{
    QStringList sentences = sentencesOf(story);
    if (sentences.isEmpty())
        sentences << QStringLiteral("An empty page waits for a story.");
    const QStringList allNames = namesOf(story);
    const QString fallbackName =
        story.contains(QRegularExpression(QStringLiteral("[가-힣]"))) ? QStringLiteral("주인공") : QStringLiteral("Narrator");
    Storyboard board;
    board.title = clip(sentences.first(), 40);

    const qsizetype n = sentences.size();
    for (int i = 0; i < StoryboardValidator::kPanelCount; ++i) {
        // Sentences [from, to) for this panel; with fewer than four sentences, panels share them.
        const qsizetype from = n >= 4 ? (n * i) / 4 : std::min<qsizetype>(i, n - 1);
        const qsizetype to = n >= 4 ? std::max(from + 1, (n * (i + 1)) / 4) : from + 1;
        const QStringList group = sentences.mid(from, to - from);
        const QString text = group.join(QLatin1Char(' '));

        Panel p;
        p.index = i + 1;
        p.role = panelRoles().at(i);
        p.scene = clip(text, 160);
        QStringList names = namesOf(text);
        if (names.isEmpty())
            names = allNames.mid(0, 1);
        if (names.isEmpty())
            names << fallbackName;
        p.characters = names.mid(0, 3);
        QStringList lines = quotesOf(text);
        if (lines.isEmpty())
            lines << clip(group.first(), 80);
        for (const QString &line : std::as_const(lines)) {
            if (p.dialogue.size() == StoryboardValidator::kMaxDialogueLines)
                break;
            p.dialogue.append(DialogueLine { p.characters.at(p.dialogue.size() % p.characters.size()),
                                             clip(line, StoryboardValidator::kMaxDialogueChars - 1) });
        }
        board.panels.append(p);
    }
    return board;
}

Storyboard StoryboardSynth::brokenFromStory(const QString &story)
{
    Storyboard board = fromStory(story);
    board.panels.removeLast();
    return board;
}

Storyboard StoryboardSynth::fromStory(const QString &story, WireDialect dialect)
{
    Storyboard board = fromStory(story);
    Dialects::of(dialect).flavour(board);
    return board;
}

Storyboard StoryboardSynth::fromStory(const QString &story, Provider provider)
{
    return fromStory(story, dialectOf(provider));
}

} // namespace bullpen
