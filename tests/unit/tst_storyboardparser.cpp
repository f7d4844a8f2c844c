// SPDX-License-Identifier: MIT
// docs/contract.md §2.1: one parser and one validator for every provider; each rule has its own detail text.
#include "contract/storyboardparser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace bullpen;
using Rule = StoryboardRule;

namespace {

QJsonObject validObject()
{
    QJsonArray panels;
    const QStringList roles = panelRoles();
    for (int i = 0; i < 4; ++i)
        panels.append(QJsonObject { { QStringLiteral("index"), i + 1 },
                                    { QStringLiteral("role"), roles.at(i) },
                                    { QStringLiteral("scene"), QStringLiteral("Scene %1").arg(i + 1) },
                                    { QStringLiteral("characters"), QJsonArray { QStringLiteral("하루") } },
                                    { QStringLiteral("dialogue"),
                                      QJsonArray { QJsonObject { { QStringLiteral("speaker"), QStringLiteral("하루") },
                                                                 { QStringLiteral("text"), QStringLiteral("안녕!") } } } } });
    return QJsonObject { { QStringLiteral("title"), QStringLiteral("고양이의 하루") }, { QStringLiteral("panels"), panels } };
}

QByteArray toText(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// Applies `edit` to panels[panel] of a valid storyboard.
template<typename F> QByteArray withPanel(int panel, F edit)
{
    QJsonObject o = validObject();
    QJsonArray panels = o.value(QStringLiteral("panels")).toArray();
    QJsonObject p = panels.at(panel).toObject();
    edit(p);
    panels[panel] = p;
    o[QStringLiteral("panels")] = panels;
    return toText(o);
}

} // namespace

class tst_StoryboardParser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void accepts_data()
    {
        QTest::addColumn<QByteArray>("text");
        const QByteArray json = toText(validObject());
        QTest::addRow("bare JSON") << json;
        QTest::addRow("surrounding whitespace") << QByteArray("\n  " + json + "\n\n");
        QTest::addRow("```json fence") << QByteArray("```json\n" + json + "\n```");
        QTest::addRow("``` fence") << QByteArray("```\n" + json + "\n```\n");
        QTest::addRow("fence with CRLF") << QByteArray("```json\r\n" + json + "\r\n```");
        QTest::addRow("pretty printed") << QJsonDocument(validObject()).toJson(QJsonDocument::Indented);
        QTest::addRow("empty dialogue and characters") << withPanel(1, [](QJsonObject &p) {
            p[QStringLiteral("dialogue")] = QJsonArray();
            p[QStringLiteral("characters")] = QJsonArray();
        });
        QTest::addRow("200 Korean characters") << withPanel(0, [](QJsonObject &p) {
            p[QStringLiteral("dialogue")] = QJsonArray { QJsonObject { { QStringLiteral("speaker"), QStringLiteral("하루") },
                                                                       { QStringLiteral("text"), QString(200, QChar(0xD558)) } } };
        });
        QTest::addRow("200 emoji (surrogate pairs)") << withPanel(0, [](QJsonObject &p) {
            QString text;
            for (int i = 0; i < 200; ++i)
                text += QString::fromUcs4(U"\U0001F431", 1);
            p[QStringLiteral("dialogue")] =
                QJsonArray { QJsonObject { { QStringLiteral("speaker"), QStringLiteral("Cat") }, { QStringLiteral("text"), text } } };
        });
    }

    void accepts()
    {
        QFETCH(QByteArray, text);
        const StoryboardCheck check = StoryboardParser::parse(QByteArrayView(text));
        QVERIFY2(check.ok(), check.violation ? qPrintable(check.violation->detail) : "");
        QCOMPARE(check.storyboard->panels.size(), 4);
        QCOMPARE(check.storyboard->panels.at(2).role, QStringLiteral("TURN"));
        QCOMPARE(check.storyboard->panels.at(3).index, 4);
        QVERIFY(!check.violation);
    }

    void roundTripsThroughToJson()
    {
        const StoryboardCheck first = StoryboardParser::parse(QByteArrayView(toText(validObject())));
        QVERIFY(first.ok());
        const StoryboardCheck second = StoryboardParser::parse(QByteArrayView(toText(first.storyboard->toJson())));
        QVERIFY(second.ok());
        QCOMPARE(*second.storyboard, *first.storyboard);
    }

    void rejects_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<Rule>("rule");
        QTest::addColumn<QString>("detailContains");
        const QByteArray json = toText(validObject());

        QTest::addRow("invalid UTF-8") << QByteArray("{\"title\":\"\xff\xfe\"}") << Rule::Utf8 << QStringLiteral("offset 10");
        QTest::addRow("overlong UTF-8") << QByteArray("{\"title\":\"\xc0\xaf\"}") << Rule::Utf8 << QStringLiteral("UTF-8");
        QTest::addRow("truncated UTF-8 sequence") << QByteArray("{\"title\":\"\xed\x95") << Rule::Utf8 << QStringLiteral("UTF-8");
        QTest::addRow("UTF-16 surrogate encoded") << QByteArray("\"\xed\xa0\x80\"") << Rule::Utf8 << QStringLiteral("UTF-8");
        QTest::addRow("empty") << QByteArray("  \n") << Rule::Json << QStringLiteral("empty");
        QTest::addRow("prose before the JSON") << QByteArray("Here is your storyboard: " + json) << Rule::Json
                                               << QStringLiteral("not JSON");
        QTest::addRow("prose before a fence") << QByteArray("Sure!\n```json\n" + json + "\n```") << Rule::Fence << QStringLiteral("before");
        QTest::addRow("prose after a fence") << QByteArray("```json\n" + json + "\n```\nHope it helps") << Rule::Fence
                                             << QStringLiteral("not closed");
        QTest::addRow("unclosed fence") << QByteArray("```json\n" + json) << Rule::Fence << QStringLiteral("not closed");
        QTest::addRow("two fences") << QByteArray("```json\n" + json + "\n```\n```json\n" + json + "\n```") << Rule::Fence
                                    << QStringLiteral("more than one");
        QTest::addRow("fence of another language") << QByteArray("```python\n" + json + "\n```") << Rule::Fence << QStringLiteral("python");
        QTest::addRow("fence on one line") << QByteArray("```" + json + "```") << Rule::Fence << QStringLiteral("new line");
        QTest::addRow("trailing comma (JSON5)") << QByteArray("{\"title\":\"x\",}") << Rule::Json << QStringLiteral("offset");
        QTest::addRow("truncated JSON") << json.left(json.size() / 2) << Rule::Json << QStringLiteral("not JSON");
        QTest::addRow("array at top level") << QByteArray("[" + json + "]") << Rule::TopLevelObject << QStringLiteral("not an object");

        QJsonObject o = validObject();
        o.remove(QStringLiteral("title"));
        QTest::addRow("missing title") << toText(o) << Rule::Title << QStringLiteral("title: expected a string, got missing");
        o = validObject();
        o[QStringLiteral("title")] = QStringLiteral("   ");
        QTest::addRow("blank title") << toText(o) << Rule::Title << QStringLiteral("must not be empty");
        o = validObject();
        o[QStringLiteral("panels")] = QJsonObject();
        QTest::addRow("panels not an array") << toText(o) << Rule::PanelsArray << QStringLiteral("got an object");
        o = validObject();
        QJsonArray three = o.value(QStringLiteral("panels")).toArray();
        three.removeLast();
        o[QStringLiteral("panels")] = three;
        QTest::addRow("three panels") << toText(o) << Rule::PanelCount << QStringLiteral("exactly 4 panels, got 3");
        QJsonArray five = validObject().value(QStringLiteral("panels")).toArray();
        five.append(five.at(0));
        o[QStringLiteral("panels")] = five;
        QTest::addRow("five panels") << toText(o) << Rule::PanelCount << QStringLiteral("got 5");
        QJsonArray withString = validObject().value(QStringLiteral("panels")).toArray();
        withString[1] = QStringLiteral("panel two");
        o[QStringLiteral("panels")] = withString;
        QTest::addRow("panel is a string") << toText(o) << Rule::PanelObject << QStringLiteral("panels[1]");

        QTest::addRow("indices out of order") << withPanel(1, [](QJsonObject &p) { p[QStringLiteral("index")] = 3; }) << Rule::PanelIndex
                                              << QStringLiteral("panels[1].index: expected 2");
        QTest::addRow("index as string") << withPanel(0, [](QJsonObject &p) { p[QStringLiteral("index")] = QStringLiteral("1"); })
                                         << Rule::PanelIndex << QStringLiteral("got a string");
        QTest::addRow("fractional index") << withPanel(0, [](QJsonObject &p) { p[QStringLiteral("index")] = 1.5; }) << Rule::PanelIndex
                                          << QStringLiteral("got 1.5");
        QTest::addRow("roles swapped") << withPanel(2, [](QJsonObject &p) { p[QStringLiteral("role")] = QStringLiteral("CONCLUSION"); })
                                       << Rule::PanelRole << QStringLiteral("expected \"TURN\"");
        QTest::addRow("role lower case") << withPanel(0, [](QJsonObject &p) { p[QStringLiteral("role")] = QStringLiteral("setup"); })
                                         << Rule::PanelRole << QStringLiteral("\"setup\"");
        QTest::addRow("empty scene") << withPanel(3, [](QJsonObject &p) { p[QStringLiteral("scene")] = QString(); }) << Rule::Scene
                                     << QStringLiteral("panels[3].scene");
        QTest::addRow("scene missing") << withPanel(3, [](QJsonObject &p) { p.remove(QStringLiteral("scene")); }) << Rule::Scene
                                       << QStringLiteral("got missing");
        QTest::addRow("characters missing") << withPanel(0, [](QJsonObject &p) { p.remove(QStringLiteral("characters")); })
                                            << Rule::Characters << QStringLiteral("characters");
        QTest::addRow("character is a number") << withPanel(0, [](QJsonObject &p) { p[QStringLiteral("characters")] = QJsonArray { 1 }; })
                                               << Rule::Characters << QStringLiteral("characters[0]");
        QTest::addRow("dialogue missing") << withPanel(0, [](QJsonObject &p) { p.remove(QStringLiteral("dialogue")); })
                                          << Rule::DialogueArray << QStringLiteral("dialogue");
        QTest::addRow("five dialogue lines") << withPanel(1, [](QJsonObject &p) {
            QJsonArray lines;
            for (int i = 0; i < 5; ++i)
                lines.append(
                    QJsonObject { { QStringLiteral("speaker"), QStringLiteral("A") }, { QStringLiteral("text"), QStringLiteral("x") } });
            p[QStringLiteral("dialogue")] = lines;
        }) << Rule::DialogueCount << QStringLiteral("at most 4 lines per panel, got 5");
        QTest::addRow("dialogue line is a string")
            << withPanel(1, [](QJsonObject &p) { p[QStringLiteral("dialogue")] = QJsonArray { QStringLiteral("A: hi") }; })
            << Rule::DialogueLineObject << QStringLiteral("dialogue[0]");
        QTest::addRow("speaker empty") << withPanel(1, [](QJsonObject &p) {
            p[QStringLiteral("dialogue")] =
                QJsonArray { QJsonObject { { QStringLiteral("speaker"), QString() }, { QStringLiteral("text"), QStringLiteral("hi") } } };
        }) << Rule::DialogueSpeaker << QStringLiteral("speaker");
        QTest::addRow("text missing") << withPanel(1, [](QJsonObject &p) {
            p[QStringLiteral("dialogue")] = QJsonArray { QJsonObject { { QStringLiteral("speaker"), QStringLiteral("A") } } };
        }) << Rule::DialogueText << QStringLiteral("text");
        QTest::addRow("201 characters") << withPanel(2, [](QJsonObject &p) {
            p[QStringLiteral("dialogue")] = QJsonArray { QJsonObject { { QStringLiteral("speaker"), QStringLiteral("A") },
                                                                       { QStringLiteral("text"), QString(201, QLatin1Char('a')) } } };
        }) << Rule::DialogueLength << QStringLiteral("at most 200 characters, got 201");
    }

    void rejects()
    {
        QFETCH(QByteArray, text);
        QFETCH(Rule, rule);
        QFETCH(QString, detailContains);
        const StoryboardCheck check = StoryboardParser::parse(QByteArrayView(text));
        QVERIFY(!check.ok());
        QVERIFY(check.violation);
        QCOMPARE(check.violation->rule, rule);
        QVERIFY2(check.violation->detail.contains(detailContains), qPrintable(check.violation->detail));
        QVERIFY2(!check.violation->detail.contains(QLatin1Char('\n')), "detail must be one line");
    }
};

QTEST_GUILESS_MAIN(tst_StoryboardParser)
#include "tst_storyboardparser.moc"
