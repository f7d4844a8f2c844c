// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QNetworkRequest>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QString>

#include <mutex>
#include <optional>

namespace bullpen {

// The certificates in a PEM file (one or more "BEGIN CERTIFICATE" blocks; at most 1 MiB is read).
// nullopt with *error said, naming `path`, when the file cannot be read or holds no certificate.
std::optional<QList<QSslCertificate>> readPemCertificates(const QString &path, QString *error);

// Qt's default TLS configuration, trusting `extra` as well as the system's certificate authorities
// (read once per process).
QSslConfiguration trustingAlso(const QList<QSslCertificate> &extra);

// Certificate authorities that one engine's provider calls trust besides the system's: the
// `provider_ca` setting (BULLPEN_PROVIDER_CA), for a proxy that inspects TLS with a CA of its own or a
// gateway with a private CA (docs/contract.md, "Proxies"). An engine's (EngineContext), made by
// EngineSetup and handed down to its network pools, so that two engines in one process each trust their
// own. Thread-safe: every engine thread's exchanges read it.
class ProviderTrust final
{
public:
    // Installed once per engine set-up; an empty list means the system's authorities only.
    void install(const QList<QSslCertificate> &extra);
    // Gives an https request the installed authorities (no change for http, or with none installed).
    void apply(QNetworkRequest &request) const;

private:
    mutable std::mutex m_mutex;
    std::optional<QSslConfiguration> m_configuration; // the system's authorities plus the extra ones
};

} // namespace bullpen
