// SPDX-License-Identifier: MIT
#include "httpserving.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QHttpServerRequest>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslSocket>

namespace bullpen {

std::optional<QSslConfiguration> loadServerTls(const QString &certificatePath, const QString &keyPath, QString *error)
{
    QFile keyFile(keyPath);
    if (!keyFile.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("--tls-key %1: %2").arg(keyPath, keyFile.errorString());
        return std::nullopt;
    }
    if (keyFile.permissions() & (QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ReadOther | QFileDevice::WriteOther)) {
        *error =
            QStringLiteral("--tls-key %1: other users may read this private key; make it the engine's own (chmod 600 %1)").arg(keyPath);
        return std::nullopt;
    }
    const QByteArray keyPem = keyFile.read(1 << 20);
    QSslKey key(keyPem, QSsl::Ec, QSsl::Pem, QSsl::PrivateKey);
    if (key.isNull())
        key = QSslKey(keyPem, QSsl::Rsa, QSsl::Pem, QSsl::PrivateKey);
    if (key.isNull()) {
        *error = QStringLiteral("--tls-key %1: not a PEM private key (RSA or EC, without a passphrase)").arg(keyPath);
        return std::nullopt;
    }
    QFile certificateFile(certificatePath);
    if (!certificateFile.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("--tls-cert %1: %2").arg(certificatePath, certificateFile.errorString());
        return std::nullopt;
    }
    const QList<QSslCertificate> chain = QSslCertificate::fromData(certificateFile.read(1 << 20), QSsl::Pem);
    if (chain.isEmpty() || chain.first().isNull()) {
        *error = QStringLiteral("--tls-cert %1: no PEM certificate in it").arg(certificatePath);
        return std::nullopt;
    }
    const QSslCertificate &leaf = chain.first();
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (leaf.expiryDate() < now || leaf.effectiveDate() > now) {
        *error = QStringLiteral("--tls-cert %1: valid from %2 to %3, not now; renew it")
                     .arg(certificatePath, leaf.effectiveDate().toString(Qt::ISODate), leaf.expiryDate().toString(Qt::ISODate));
        return std::nullopt;
    }
    QSslConfiguration c = QSslConfiguration::defaultConfiguration();
    c.setLocalCertificateChain(chain);
    c.setPrivateKey(key);
    c.setPeerVerifyMode(QSslSocket::VerifyNone); // clients show a bearer token, not a certificate
    c.setProtocol(QSsl::TlsV1_2OrLater);
    return c;
}

QByteArray httpReasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 202:
        return "Accepted";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 402:
        return "Payment Required";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 413:
        return "Payload Too Large";
    case 431:
        return "Request Header Fields Too Large";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    case 529:
        return "Overloaded";
    case 418:
        return "I'm a teapot";
    default:
        return "Status";
    }
}

QByteArray httpHeader(const QHttpServerRequest &request, QByteArrayView name)
{
    const auto headers = request.headers();
    for (const auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return {};
}

} // namespace bullpen
