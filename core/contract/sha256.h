// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QByteArrayView>

namespace bullpen {

// SHA-256 of `data` as 64 lower-case hex digits: a comic's content address. Through OpenSSL where the
// build found it (SHA extensions: ~1.2 GB/s here), else Qt's QCryptographicHash (~0.1 GB/s in Qt 6.4):
// a comic is hashed once per generation, and at ~65 KB Qt's took more than half a millisecond of it.
QByteArray sha256Hex(QByteArrayView data);

} // namespace bullpen
