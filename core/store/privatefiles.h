// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

namespace bullpen {

// Files only their owner may read (docs/contract.md §5.1; docs/hostile-providers.md "Hostile neighbours"). The
// mode is given to open(2) itself, never set afterwards: a chmod after creation leaves a window in
// which another local user can open the file.
namespace PrivateFiles {

// Creates `path` with `bytes` as a new file, mode 0600, failing if it exists (O_EXCL, no symlink followed).
bool createNew(const QString &path, const QByteArray &bytes, QString *error);
// Replaces `path` atomically: a 0600 temporary beside it, fsync, rename over the old file.
bool replace(const QString &path, const QByteArray &bytes, QString *error);
// Makes `dir` (and missing parents) with mode 0700 for the last one, then checks it: a directory
// owned by this user, not a symlink, not writable by others. The error says which chmod/chown to run.
bool ensureDirectory(const QString &dir, QString *error);
// When `path` exists: not a symlink, owned by this user, and (secret) not readable by others.
bool checkEntry(const QString &path, bool secret, QString *error);

} // namespace PrivateFiles

} // namespace bullpen
