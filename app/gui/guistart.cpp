// SPDX-License-Identifier: MIT
#include "guistart.h"

#include "config/eventloops.h"
#include "config/qtnoise.h"

#include <QApplication>

namespace bullpen {

void prepareConsoleProcess()
{
    chooseEventLoops(GlibLoops::GuiThreadOnly); // before Qt makes any event loop
    muteQtNoise(); // Qt lines that say nothing to act on, or too much
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
        && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

void nameConsoleApplication()
{
    QApplication::setApplicationName(QStringLiteral("bullpen"));
    QApplication::setOrganizationName(QStringLiteral("bullpen"));
    QApplication::setApplicationVersion(QStringLiteral(BULLPEN_VERSION));
}

} // namespace bullpen
