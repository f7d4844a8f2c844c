// SPDX-License-Identifier: MIT
#include "providertrust.h"

#include <QFile>
#include <QSslConfiguration>

namespace bullpen {

namespace {

// Read once per process: Qt reads the system's certificate files on every call.
const QList<QSslCertificate> &systemAuthorities()
{
    static const QList<QSslCertificate> certificates = QSslConfiguration::systemCaCertificates();
    return certificates;
}

} // namespace

std::optional<QList<QSslCertificate>> readPemCertificates(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    QList<QSslCertificate> certificates = QSslCertificate::fromData(file.read(1 << 20), QSsl::Pem);
    if (certificates.isEmpty()) {
        *error = QStringLiteral("%1: no PEM certificate in it (give the CA's certificate, the block from -----BEGIN CERTIFICATE----- "
                                "to -----END CERTIFICATE-----)")
                     .arg(path);
        return std::nullopt;
    }
    return certificates;
}

QSslConfiguration trustingAlso(const QList<QSslCertificate> &extra)
{
    // Set, not added: Qt loads the system's authorities on demand during a handshake only while a
    // configuration's list was never set explicitly, and adding to it counts as setting it.
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setCaCertificates(systemAuthorities() + extra);
    return configuration;
}

void ProviderTrust::install(const QList<QSslCertificate> &extra)
{
    std::optional<QSslConfiguration> configuration;
    if (!extra.isEmpty())
        configuration = trustingAlso(extra);
    std::lock_guard lock(m_mutex);
    m_configuration = std::move(configuration);
}

void ProviderTrust::apply(QNetworkRequest &request) const
{
    if (request.url().scheme() != u"https")
        return;
    std::lock_guard lock(m_mutex);
    if (m_configuration)
        request.setSslConfiguration(*m_configuration);
}

} // namespace bullpen
