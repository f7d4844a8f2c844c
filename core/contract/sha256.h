// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QStringView>

namespace bullpen {

// SHA-256 of `data` as 64 lower-case hex digits: a comic's content address. Through OpenSSL where the
// build found it (SHA extensions: ~1.2 GB/s here), else Qt's QCryptographicHash (~0.1 GB/s in Qt 6.4):
// a comic is hashed once per generation, and at ~65 KB Qt's took more than half a millisecond of it.
QByteArray sha256Hex(QByteArrayView data);

// Whether `text` is such a digest (64 lower-case hex digits). A plain loop, not a function-local static
// QRegularExpression: the store writer's thread asks while a process exits, after such a static may have
// been destroyed (the service fuzzer's exit once read a destroyed one).
bool isSha256Hex(QStringView text);

} // namespace bullpen
