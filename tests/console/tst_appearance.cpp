// SPDX-License-Identifier: MIT
// How the console looks and reads: every colour from the palette helper (so dark mode holds), and the
// Korean translation complete, loaded, and used for the engine's stored English text.
#include "contract/recordtext.h"
#include "pipeline/nextstep.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTest>
#include <QTranslator>

using namespace bullpen;

class tst_Appearance : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Dark mode holds only if every colour comes from the palette helper (ui/views/tones.cpp): no colour
    // literal anywhere else in the console's sources.
    void noColourOutsideThePaletteHelper()
    {
        const QRegularExpression literal(QStringLiteral(
            R"(QColor\s*\(|QColor::fromRgb|QColor::fromHsv|#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b|Qt::(red|green|blue|white|black|gray|darkGray|lightGray|yellow|cyan|magenta|darkRed|darkGreen|darkBlue|darkYellow)\b|rgba?\s*\(|:\s*(white|black|red|green|blue|gray|grey|silver|yellow|orange)\s*[;}])"));
        QStringList offenders;
        int files = 0;
        for (const QString &dir : { QStringLiteral("ui"), QStringLiteral("app/gui") }) {
            QDirIterator it(QStringLiteral(BULLPEN_SOURCE_DIR) + QLatin1Char('/') + dir, { QStringLiteral("*.cpp"), QStringLiteral("*.h") },
                            QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                if (path.endsWith(u"/views/tones.cpp"))
                    continue;
                QFile f(path);
                QVERIFY(f.open(QIODevice::ReadOnly));
                ++files;
                int line = 0;
                while (!f.atEnd()) {
                    const QString text = QString::fromUtf8(f.readLine());
                    ++line;
                    if (literal.match(text).hasMatch())
                        offenders << QStringLiteral("%1:%2: %3").arg(path.section(QLatin1Char('/'), -3)).arg(line).arg(text.trimmed());
                }
            }
        }
        QVERIFY(files > 30);
        QVERIFY2(offenders.isEmpty(), qPrintable(offenders.join(QLatin1Char('\n'))));
    }

    void koreanTranslationIsCompleteAndLoads()
    {
        QTranslator ko;
        QVERIFY(ko.load(QStringLiteral(":/i18n/bullpen_ko.qm")));
        QCOMPARE(ko.translate("bullpen::MainWindow", "Failures"), QStringLiteral("실패"));
        QCOMPARE(ko.translate("bullpen::FailuresView", "Count by public code"), QStringLiteral("공개 코드별 건수"));
        QFile ts(QStringLiteral(BULLPEN_TS_FILE));
        QVERIFY(ts.open(QIODevice::ReadOnly));
        const QByteArray text = ts.readAll();
        QVERIFY(text.contains("<message"));
        QCOMPARE(text.count("type=\"unfinished\""), 0); // every string has its Korean

        // The engine's text a console shows: its own file, as complete, and used for next steps.
        QFile coreTs(QStringLiteral(BULLPEN_CORE_TS_FILE));
        QVERIFY(coreTs.open(QIODevice::ReadOnly));
        const QByteArray coreText = coreTs.readAll();
        QVERIFY(coreText.count("<message") >= 20);
        QCOMPARE(coreText.count("type=\"unfinished\""), 0);
        QTranslator core;
        QVERIFY(core.load(QStringLiteral(":/i18n/bullpen_core_ko.qm")));
        const NextStep step = NextStep::forFailure(Failure { FailureKind::AUTH_CONFIG, QStringLiteral("401"), false, std::nullopt },
                                                   ProviderTable(), Provider::Gemini, Stage::Storyboard);
        QVERIFY(step.message.contains(u"rejected Bullpen's configuration")); // what records keep
        QVERIFY(QCoreApplication::installTranslator(&core));
        const QString korean = step.localizedMessage();
        QCoreApplication::removeTranslator(&core);
        QVERIFY2(korean.contains(u"설정을 거부했습니다") && korean.contains(u"GEMINI_API_KEY"), qPrintable(korean));
        QVERIFY(step.message.contains(u"rejected Bullpen's configuration")); // unchanged

        // What a store or another engine kept is English only: it reads translated all the same,
        // by its template, nested sentences too; words no template made stay as they are.
        QVERIFY(QCoreApplication::installTranslator(&core));
        QCOMPARE(NextStep::fromJson(step.toJson()).localizedMessage(), korean);
        const NextStep imageRateLimited =
            NextStep::forFailure(Failure { FailureKind::RATE_LIMITED, QStringLiteral("429"), false, std::chrono::milliseconds(30000) },
                                 ProviderTable(), Provider::OpenAI, Stage::Image, QDateTime(QDate(2026, 12, 4), QTime(1, 2, 3), Qt::UTC));
        const QString stored = imageRateLimited.message; // "openai is rate-limiting requests (image stage). … 30 s (at 01:02:33 UTC) …"
        const QString skipped =
            recordText(RecordText::SkippedPrimaryFallbackFailed,
                       { QStringLiteral("gemini"),
                         recordText(RecordText::DrainedByBecause, { QStringLiteral("ops"), QStringLiteral("vendor outage") }),
                         QStringLiteral("qwen") });
        const QString readStored = localizedRecordText(stored);
        const QString readSkipped = localizedRecordText(skipped);
        const QString providerWords = QStringLiteral("upstream connect error or disconnect/reset before headers");
        const QString readProviderWords = localizedRecordText(providerWords);
        QCoreApplication::removeTranslator(&core);
        QVERIFY2(!readStored.contains(u"rate-limiting") && readStored.contains(u"openai") && readStored.contains(u"01:02:33")
                     && readStored.contains(u"30") && readStored.contains(u"단계"),
                 qPrintable(readStored));
        QVERIFY2(!readSkipped.contains(u"drained by") && !readSkipped.contains(u"skipped") && readSkipped.contains(u"vendor outage")
                     && readSkipped.contains(u"ops") && readSkipped.contains(u"qwen"),
                 qPrintable(readSkipped));
        QCOMPARE(readProviderWords, providerWords);
        QCOMPARE(localizedRecordText(skipped), skipped); // no translator: the English as it was
    }
};

QTEST_MAIN(tst_Appearance)
#include "tst_appearance.moc"
