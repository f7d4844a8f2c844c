// SPDX-License-Identifier: MIT
// bullpen-tour: the scripted screenshot tour (ui/tour/screenshottour.h) that makes the pictures in
// docs/console.md, in English (DIR), Korean (DIR/ko) and on a dark palette (DIR/dark). A developer's
// tool, built beside the console and never installed: the shipped `bullpen` links neither the tour nor
// the synthetic history it seeds (devsupport/), and tst_tour_apart checks that.
#include "config/exitcode.h"
#include "guistart.h"
#include "tour/screenshottour.h"
#include "translations.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTextStream>

int main(int argc, char *argv[])
{
    bullpen::prepareConsoleProcess(); // event loops, Qt's noise, offscreen without a display (guistart.h)
    QApplication app(argc, argv);
    // The console's names: the tour's settings and translations are the console's.
    bullpen::nameConsoleApplication();
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Bullpen's screenshot tour: runs the demo on a fresh store with synthetic history and saves a PNG of each "
                       "view to DIR (English), DIR/ko (Korean) and DIR/dark (a dark palette), then exits."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("dir"), QStringLiteral("Where the pictures go (made if missing)."), QStringLiteral("DIR"));
    parser.process(app);
    if (parser.positionalArguments().size() != 1) {
        QTextStream(stderr) << "bullpen-tour: give one folder for the pictures, e.g. bullpen-tour docs/screenshots\n";
        return bullpen::kExitUsage;
    }
    // The tour, once per language and then in English on a dark palette, each on a fresh store.
    bullpen::Translations translations;
    return bullpen::tour::run(parser.positionalArguments().constFirst(),
                              [&translations](const QString &language) { translations.use(language); });
}
