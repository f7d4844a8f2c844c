// SPDX-License-Identifier: MIT
#include "qtnoise.h"

#include <QtGlobal>

#include <cstdio>
#include <cstring>

namespace bullpen {

namespace {

QtMessageHandler g_previous = nullptr;

void filter(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (isQtNoise(context.category, message))
        return;
    if (g_previous) {
        g_previous(type, context, message);
        return;
    }
    const QByteArray line = qFormatLogMessage(type, context, message).toLocal8Bit() + '\n';
    std::fwrite(line.constData(), 1, static_cast<size_t>(line.size()), stderr);
    std::fflush(stderr);
    if (type == QtFatalMsg)
        std::abort();
}

} // namespace

bool isQtNoise(const char *category, const QString &message)
{
    if (category && std::strncmp(category, "qt.httpserver", 13) == 0)
        return true;
    return message.startsWith(QLatin1StringView("QStandardPaths: XDG_RUNTIME_DIR not set"));
}

void muteQtNoise()
{
    g_previous = qInstallMessageHandler(filter);
}

} // namespace bullpen
