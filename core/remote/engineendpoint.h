// SPDX-License-Identifier: MIT
#pragma once

#include "config/proxyrules.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QNetworkRequest>
#include <QSslCertificate>
#include <QString>
#include <QUrl>
#include <QUrlQuery>

#include <chrono>
#include <memory>

class QNetworkReply;

namespace bullpen {

// Where a running bullpen-engine is and the bearer token to show it (docs/api.md). The token is kept
// here and in the Authorization header only: never in a URL, a log line or the settings file.
struct EngineEndpoint
{
    QUrl base; // http://127.0.0.1:8700
    QByteArray token;
    std::chrono::milliseconds timeout { 15000 }; // each request, except the event stream
    // Certificate authorities trusted for an https engine besides the system's (an engine with a
    // private CA or a self-signed certificate): from BULLPEN_ENGINE_CA.
    QList<QSslCertificate> trusted {};
    // The proxy this client reaches the engine through: the settings file's and the environment's
    // rules, read by whoever made the endpoint (EngineSetup::proxyRoutes); none by default (direct).
    // Each endpoint's own: two clients in one process may each follow their own.
    std::shared_ptr<const ProxyRoutes> routes = std::make_shared<ProxyRoutes>();

    // Reads BULLPEN_ENGINE_CA, a PEM file of one or more CA certificates, into `trusted`. True when it
    // is unset; false with the reason in *error when it is set but unreadable or holds no certificate.
    bool trustFromEnvironment(QString *error);

    // `path` under the base ("/v1/history"), with `query` if any.
    QNetworkRequest request(const QString &path, const QUrlQuery &query = {}) const;
    // "http://127.0.0.1:8700", for people (no token, no credentials).
    QString display() const;
    // The message of an error answer ({"error":{"message":…}}), else the reply's own; never the token.
    static QString errorOf(int status, const QByteArray &body, const QString &transportError);
    // The attach path reads an engine that may be hostile (or not an engine): a reply is aborted once
    // it brings more than `maxBytes`, counted as they arrive; capped() then says why, for the caller.
    static void cap(QNetworkReply *reply, qint64 maxBytes);
    static constexpr qint64 kReadAhead = 256 * 1024; // read past a cap, to see it passed
    static QString capped(const QNetworkReply *reply); // empty: not capped
    // Checks a URL a person typed: http or https, a host, no path beyond "/", no credentials.
    static bool parseUrl(const QString &text, QUrl *url, QString *error);
};

} // namespace bullpen
