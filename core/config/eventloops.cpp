// SPDX-License-Identifier: MIT
#include "eventloops.h"

#include <QByteArray>
#include <QtGlobal>

namespace bullpen {

void chooseEventLoops(GlibLoops glib)
{
    if (qEnvironmentVariableIsSet("QT_NO_GLIB") || qEnvironmentVariableIsSet("QT_NO_THREADED_GLIB"))
        return;
    // Read by Qt when it makes each thread's event dispatcher: the main thread's by the platform
    // plugin (QT_NO_GLIB only), every other thread's as it starts (either variable).
    qputenv(glib == GlibLoops::None ? "QT_NO_GLIB" : "QT_NO_THREADED_GLIB", QByteArrayLiteral("1"));
}

} // namespace bullpen
