// SPDX-License-Identifier: MIT
// core/contract/recordtext.h: the English sentences records keep, and the same sentences read back in
// the reader's language by matching the one table of templates.
#include "contract/recordtext.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QTest>
#include <QTranslator>

using namespace bullpen;

namespace {
// A "language" in which every record text reads ⟦its English⟧ with each argument in ‹›: shows which
// template a sentence was matched to, and where each argument began and ended.
class BracketTranslator : public QTranslator
{
public:
    QString translate(const char *context, const char *source, const char *, int) const override
    {
        if (qstrcmp(context, "bullpen::RecordText") != 0)
            return {};
        static const QRegularExpression placeholder(QStringLiteral("%([1-9])"));
        return u'⟦' + QString::fromUtf8(source).replace(placeholder, QStringLiteral("‹%\\1›")) + u'⟧';
    }
    bool isEmpty() const override { return false; }
};
} // namespace

class tst_RecordText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void argumentsAreFilledInOnePass()
    {
        QCOMPARE(recordText(RecordText::FallbackSucceeded, { QStringLiteral("TIMEOUT"), QStringLiteral("qwen") }),
                 QStringLiteral("the primary failed with TIMEOUT; the fallback provider qwen succeeded"));
        // An argument's own "%2" is text, not a place for the next argument.
        QCOMPARE(recordText(RecordText::DrainedByBecause, { QStringLiteral("ops"), QStringLiteral("50%2 off") }),
                 QStringLiteral("drained by ops: 50%2 off"));
        QCOMPARE(recordText(RecordText::NoFallbackBecause, { recordText(RecordText::FallbackIsSameModel) }),
                 QStringLiteral("no fallback: the fallback provider is the same provider and model"));
    }

    // Every template, filled with distinct words, is read back as itself and nothing else: the most
    // specific template wins ("drained by ops: why (until …)" is not "drained by %1" with a long name).
    void everyTemplateIsReadBackAsItself()
    {
        BracketTranslator brackets;
        QVERIFY(QCoreApplication::installTranslator(&brackets));
        QStringList wrong;
        for (int i = 0; i < static_cast<int>(RecordText::Count); ++i) {
            const auto text = static_cast<RecordText>(i);
            const QString english = recordText(
                text, { QStringLiteral("w1"), QStringLiteral("w2"), QStringLiteral("w3"), QStringLiteral("w4"), QStringLiteral("w5") });
            const QString read = localizedRecordText(english);
            const QString marked = recordText(
                text,
                { QStringLiteral("‹w1›"), QStringLiteral("‹w2›"), QStringLiteral("‹w3›"), QStringLiteral("‹w4›"), QStringLiteral("‹w5›") });
            if (read != u'⟦' + marked + u'⟧')
                wrong << QStringLiteral("%1: %2 → %3").arg(i).arg(english, read);
        }
        QCoreApplication::removeTranslator(&brackets);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u'\n')));
    }

    void sentencesInsideSentencesAreReadToo()
    {
        const QString drained =
            recordText(RecordText::DrainedByBecauseUntil,
                       { QStringLiteral("kim"), QStringLiteral("vendor incident #42"), QStringLiteral("2026-12-04T03:00:00Z") });
        const QString decision =
            recordText(RecordText::SkippedPrimaryFallbackSucceeded, { QStringLiteral("gemini"), drained, QStringLiteral("qwen") });
        BracketTranslator brackets;
        QVERIFY(QCoreApplication::installTranslator(&brackets));
        const QString read = localizedRecordText(decision);
        const QString notOurs = localizedRecordText(QStringLiteral("upstream connect error or disconnect/reset before headers"));
        const QString empty = localizedRecordText(QString());
        QCoreApplication::removeTranslator(&brackets);
        QCOMPARE(read,
                 QStringLiteral("⟦the primary ‹gemini› was skipped (‹⟦drained by ‹kim›: ‹vendor incident #42› (until "
                                "‹2026-12-04T03:00:00Z›)⟧›); the fallback provider ‹qwen› succeeded⟧"));
        QCOMPARE(notOurs, QStringLiteral("upstream connect error or disconnect/reset before headers"));
        QVERIFY(empty.isEmpty());
        // Without a translator the English comes back unchanged.
        QCOMPARE(localizedRecordText(decision), decision);
    }
};

QTEST_GUILESS_MAIN(tst_RecordText)
#include "tst_recordtext.moc"
