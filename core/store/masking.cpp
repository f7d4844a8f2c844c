// SPDX-License-Identifier: MIT
#include "masking.h"

#include "privatefiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>

namespace bullpen {

namespace {
constexpr int kKeyBytes = 32;
constexpr QFileDevice::Permissions kOthers = QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ExeGroup
    | QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther;
} // namespace

Masking::Masking(QByteArray key)
    : m_key(std::move(key))
{
}

std::optional<Masking> Masking::loadOrCreate(const QString &path, QString *error)
{
    QFile f(path);
    if (!PrivateFiles::checkEntry(path, true, error))
        return std::nullopt;
    if (f.exists()) {
        if (QFileInfo(path).permissions() & kOthers) {
            *error = QStringLiteral("%1: the masking key is readable by others; run: chmod 600 %1").arg(path);
            return std::nullopt;
        }
        if (!f.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("%1: cannot read the masking key (%2)").arg(path, f.errorString());
            return std::nullopt;
        }
        const QByteArray key = f.readAll();
        if (key.size() != kKeyBytes) {
            *error = QStringLiteral("%1: the masking key must be %2 bytes, found %3; restore it from a backup (a new key would "
                                    "split every user's history)")
                         .arg(path)
                         .arg(kKeyBytes)
                         .arg(key.size());
            return std::nullopt;
        }
        return Masking(key);
    }
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        *error = QStringLiteral("%1: cannot create the folder for the masking key").arg(path);
        return std::nullopt;
    }
    QByteArray key(kKeyBytes, Qt::Uninitialized);
    QRandomGenerator::system()->generate(key.begin(), key.end());
    // Created 0600 by open(2) itself: there is no moment at which another user could read it.
    QString why;
    if (!PrivateFiles::createNew(path, key, &why)) {
        *error = QStringLiteral("cannot write the masking key: %1; check the data folder's permissions and free space").arg(why);
        return std::nullopt;
    }
    return Masking(key);
}

QString Masking::userKey(const QString &rawUserId) const
{
    return QString::fromLatin1(QMessageAuthenticationCode::hash(rawUserId.toUtf8(), m_key, QCryptographicHash::Sha256).toHex());
}

QString Masking::fingerprint() const
{
    return QString::fromLatin1(
        QMessageAuthenticationCode::hash(QByteArrayLiteral("bullpen masking key fingerprint"), m_key, QCryptographicHash::Sha256)
            .toHex()
            .left(16));
}

} // namespace bullpen
