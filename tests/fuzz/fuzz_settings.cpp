// SPDX-License-Identifier: MIT
// libFuzzer target: the settings file and the 0600 key file, read from disk as Bullpen reads them.
// Byte 0 picks which file the rest becomes.
#include "config/settings.h"

#include <QDir>
#include <QFile>
#include <QProcessEnvironment>

#include <cstddef>
#include <cstdint>
#include <unistd.h>

using namespace bullpen;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const QString dir = QDir::temp().filePath(QStringLiteral("bullpen-fuzz-settings-%1").arg(::getpid()));
    static const bool made = QDir().mkpath(dir);
    (void)made;
    const bool keyFile = data[0] & 1;
    const QString path = QDir(dir).filePath(keyFile ? QStringLiteral("keys.env") : QStringLiteral("bullpen.json"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return 0;
    f.write(reinterpret_cast<const char *>(data + 1), static_cast<qint64>(size - 1));
    f.close();
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    const SettingsLoad load = keyFile ? SettingsLoader::load(QString(), path, QProcessEnvironment(), false)
                                      : SettingsLoader::load(path, QString(), QProcessEnvironment(), false);
    for (const ConfigError &e : load.errors) {
        if (e.setting.isEmpty() || e.message.isEmpty())
            __builtin_trap(); // every refusal names the setting and says what is wrong
    }
    return 0;
}
