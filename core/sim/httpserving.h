// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QSslConfiguration>

#include <optional>

class QHttpServerRequest;

namespace bullpen {

// Pieces both of Bullpen's HTTP servers (the provider simulator and bullpen-engine) use.

// A server certificate (PEM, its chain after it) and its private key (PEM, RSA or EC, no passphrase)
// as a server-side TLS configuration. Refused, with what to do in *error: an unreadable or empty
// file, a certificate that has expired or is not yet valid, a key that is not a private key, or a key
// file that anyone but its owner may read (chmod 600, as ssh asks).
std::optional<QSslConfiguration> loadServerTls(const QString &certificatePath, const QString &keyPath, QString *error);

QByteArray httpReasonPhrase(int status);
// A request header's value, the name compared without case; empty when absent.
QByteArray httpHeader(const QHttpServerRequest &request, QByteArrayView name);

} // namespace bullpen
