// SPDX-License-Identifier: MIT
#include "masking.h"

#include "failure/secretscrubber.h"
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

QString Masking::displayUser(const QString &rawUserId)
{
    // Control and format characters never reach a mask (they would reach terminals and exports).
    QString id;
    for (const QChar c : rawUserId.trimmed()) {
        if (!SecretScrubber::isControl(c))
            id += c;
    }
    if (id.isEmpty())
        return QStringLiteral("(anonymous)");
    // A mask shows at most a third of the id's characters ('@' and '.' of an address are its shape,
    // not counted), so a short id is never given away by its mask.
    qsizetype budget = id.size() / 3;
    auto take = [&budget](QStringView part, qsizetype want) {
        const qsizetype n = std::min(want, budget);
        budget -= n;
        return part.left(n).toString();
    };
    const qsizetype at = id.indexOf(QLatin1Char('@'));
    if (at > 0 && at < id.size() - 1) {
        const QString domain = id.mid(at + 1);
        const qsizetype dot = domain.lastIndexOf(QLatin1Char('.'));
        const QString local = take(id, 1);
        const QString host = take(domain, 1);
        const QString tld = dot > 0 && domain.size() - dot - 1 <= budget ? domain.mid(dot) : QString();
        return local + QStringLiteral("***@") + host + QStringLiteral("***") + tld;
    }
    const qsizetype shown = std::min<qsizetype>(budget, 4);
    const qsizetype head = (shown + 1) / 2, tail = shown / 2;
    return id.left(head) + QStringLiteral("****") + id.right(tail);
}

QString Masking::displayGenerationId(const QString &generationId)
{
    static const QString prefix = QStringLiteral("gen_");
    const QString hex = generationId.startsWith(prefix) ? generationId.mid(prefix.size()) : generationId;
    if (hex.size() <= 8)
        return generationId;
    return prefix + hex.left(4) + QChar(0x2026) + hex.right(4);
}

} // namespace bullpen
