// SPDX-License-Identifier: MIT
#include "privatefiles.h"

#include <QDir>
#include <QFileInfo>
#include <QRandomGenerator>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bullpen::PrivateFiles {

namespace {

QString sysError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

bool writeAll(int fd, const QByteArray &bytes)
{
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.constData() + done, static_cast<size_t>(bytes.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += n;
    }
    return ::fsync(fd) == 0;
}

bool writeNew(const QString &path, const QByteArray &bytes, QString *error)
{
    const QByteArray native = QFile::encodeName(path);
    const int fd = ::open(native.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        *error = QStringLiteral("%1: cannot create (%2)").arg(path, sysError());
        return false;
    }
    const bool ok = writeAll(fd, bytes);
    const QString why = ok ? QString() : sysError();
    ::close(fd);
    if (!ok) {
        ::unlink(native.constData());
        *error = QStringLiteral("%1: cannot write (%2); free space or fix the folder's permissions").arg(path, why);
    }
    return ok;
}

} // namespace

bool createNew(const QString &path, const QByteArray &bytes, QString *error)
{
    return writeNew(path, bytes, error);
}

bool replace(const QString &path, const QByteArray &bytes, QString *error)
{
    const QString tmp = path + QStringLiteral(".tmp-") + QString::number(QRandomGenerator::system()->generate64(), 36);
    if (!writeNew(tmp, bytes, error))
        return false;
    if (::rename(QFile::encodeName(tmp).constData(), QFile::encodeName(path).constData()) != 0) {
        *error = QStringLiteral("%1: cannot replace (%2); the previous file is unchanged").arg(path, sysError());
        ::unlink(QFile::encodeName(tmp).constData());
        return false;
    }
    return true;
}

bool ensureDirectory(const QString &dir, QString *error)
{
    const QString abs = QFileInfo(dir).absoluteFilePath();
    const QString parent = QFileInfo(abs).absolutePath();
    if (!QDir().mkpath(parent)) {
        *error = QStringLiteral("%1: cannot create the data folder; choose a writable folder").arg(parent);
        return false;
    }
    if (::mkdir(QFile::encodeName(abs).constData(), 0700) != 0 && errno != EEXIST) {
        *error = QStringLiteral("%1: cannot create the data folder (%2)").arg(abs, sysError());
        return false;
    }
    struct stat st
    {
    };
    if (::lstat(QFile::encodeName(abs).constData(), &st) != 0) {
        *error = QStringLiteral("%1: cannot inspect (%2)").arg(abs, sysError());
        return false;
    }
    if (S_ISLNK(st.st_mode)) {
        // A symlinked data folder is refused only when it is not ours; follow it to check the target.
        if (::stat(QFile::encodeName(abs).constData(), &st) != 0 || !S_ISDIR(st.st_mode)) {
            *error = QStringLiteral("%1: is a symlink to something that is not a folder; remove it: rm %1").arg(abs);
            return false;
        }
    }
    if (!S_ISDIR(st.st_mode)) {
        *error = QStringLiteral("%1: is not a folder").arg(abs);
        return false;
    }
    if (st.st_uid != ::geteuid()) {
        *error = QStringLiteral("%1: is owned by another user (uid %2); run: chown %3 %1").arg(abs).arg(st.st_uid).arg(::geteuid());
        return false;
    }
    if (st.st_mode & (S_IWGRP | S_IWOTH)) {
        *error = QStringLiteral("%1: others can write to this folder and could replace its files; run: chmod 700 %1").arg(abs);
        return false;
    }
    return true;
}

bool checkEntry(const QString &path, bool secret, QString *error)
{
    struct stat st
    {
    };
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return true; // absent: it will be created private
    if (S_ISLNK(st.st_mode)) {
        *error = QStringLiteral("%1: is a symlink; Bullpen does not follow symlinks in its data folder; remove it: rm %1").arg(path);
        return false;
    }
    if (st.st_uid != ::geteuid()) {
        *error = QStringLiteral("%1: is owned by another user (uid %2); run: chown %3 %1").arg(path).arg(st.st_uid).arg(::geteuid());
        return false;
    }
    if (secret && (st.st_mode & (S_IRWXG | S_IRWXO))) {
        *error = QStringLiteral("%1: others can read it; run: chmod 600 %1").arg(path);
        return false;
    }
    return true;
}

} // namespace bullpen::PrivateFiles
