// SPDX-License-Identifier: MIT
#include "engineendpoint.h"

#include "config/providertrust.h"

#include <QFile>
#include <QJsonDocument>
#include <QNetworkReply>
#include <QSslConfiguration>

namespace bullpen {

QNetworkRequest EngineEndpoint::request(const QString &path, const QUrlQuery &query) const
{
    QUrl url = base;
    url.setPath(path);
    if (!query.isEmpty())
        url.setQuery(query);
    QNetworkRequest r(url);
    r.setRawHeader("Authorization", "Bearer " + token);
    r.setRawHeader("Accept", "application/json");
    r.setTransferTimeout(static_cast<int>(timeout.count()));
    // Every request is answered or refused by the engine itself: nothing is resent on a dropped
    // connection (a POST must never start a generation twice, docs/contract.md §4.4).
    r.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    r.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    if (!trusted.isEmpty())
        r.setSslConfiguration(trustingAlso(trusted));
    return r;
}

bool EngineEndpoint::trustFromEnvironment(QString *error)
{
    const QString path = qEnvironmentVariable("BULLPEN_ENGINE_CA");
    if (path.isEmpty())
        return true;
    QString why;
    const std::optional<QList<QSslCertificate>> certificates = readPemCertificates(path, &why);
    if (!certificates) {
        *error = QStringLiteral("BULLPEN_ENGINE_CA=%1 (the engine's CA certificate, or its own if self-signed)").arg(why);
        return false;
    }
    trusted = *certificates;
    return true;
}

QString EngineEndpoint::display() const
{
    return base.toString(QUrl::RemoveUserInfo | QUrl::RemovePath | QUrl::RemoveQuery);
}

QString EngineEndpoint::errorOf(int status, const QByteArray &body, const QString &transportError)
{
    const QString message =
        QJsonDocument::fromJson(body).object().value(QLatin1StringView("error")).toObject().value(QLatin1StringView("message")).toString();
    if (!message.isEmpty())
        return status > 0 ? QStringLiteral("%1 (HTTP %2)").arg(message.left(500)).arg(status) : message.left(500);
    if (status > 0)
        return QStringLiteral("HTTP %1 from the engine").arg(status);
    if (transportError.contains(QLatin1StringView("SSL"), Qt::CaseInsensitive) || transportError.contains(QLatin1StringView("certificate")))
        return transportError
            + QStringLiteral(" (an engine whose certificate is its own or a private CA's: point BULLPEN_ENGINE_CA at that PEM file)");
    return transportError.isEmpty() ? QStringLiteral("no answer from the engine") : transportError;
}

bool EngineEndpoint::parseUrl(const QString &text, QUrl *url, QString *error)
{
    const QUrl u = QUrl::fromUserInput(text.trimmed());
    if (!u.isValid() || (u.scheme() != u"http" && u.scheme() != u"https") || u.host().isEmpty()) {
        *error = QStringLiteral("\"%1\" is not an engine address; expected e.g. http://127.0.0.1:8700").arg(text.left(200));
        return false;
    }
    if (!u.userInfo().isEmpty()) {
        *error = QStringLiteral("put the token in BULLPEN_ENGINE_TOKEN (or Connect…), not in the URL");
        return false;
    }
    if (!u.path().isEmpty() && u.path() != u"/") {
        *error = QStringLiteral("the engine's address has no path (the API lives under /v1 of it): use %1")
                     .arg(u.toString(QUrl::RemovePath | QUrl::RemoveQuery));
        return false;
    }
    QUrl clean = u.adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment);
    *url = clean;
    return true;
}

void EngineEndpoint::cap(QNetworkReply *reply, qint64 maxBytes)
{
    // Qt's HTTP thread reads ahead of the signals: on loopback it had taken in 100-400 MB by the time a
    // cap was seen passed (tst_attachmemory). A read buffer just over the cap makes it stop reading
    // there, so the cap is passed, seen and acted on with at most one buffer in memory; an answer
    // within the cap still arrives whole (callers read it at finished).
    reply->setReadBufferSize(maxBytes + kReadAhead);
    const auto refuse = [reply, maxBytes] {
        if (!reply->property("bullpen_capped").toString().isEmpty())
            return;
        reply->setProperty("bullpen_capped",
                           QStringLiteral("the engine's answer passed %1 MiB; is %2 a Bullpen engine?")
                               .arg(maxBytes / (1024 * 1024))
                               .arg(reply->url().adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveUserInfo).toString()));
        reply->abort();
    };
    // An answer whose head says it is over the cap is refused before its body is read.
    QObject::connect(reply, &QNetworkReply::metaDataChanged, reply, [reply, maxBytes, refuse] {
        bool known = false;
        const qint64 declared = reply->header(QNetworkRequest::ContentLengthHeader).toLongLong(&known);
        if (known && declared > maxBytes)
            refuse();
    });
    // Counted as the bytes arrive: Qt reports downloadProgress at most every 100 ms (by then it had
    // read 100 MB on loopback), and never again once a full read buffer stops the reading.
    QObject::connect(reply, &QIODevice::readyRead, reply, [reply, maxBytes, refuse] {
        if (reply->bytesAvailable() > maxBytes)
            refuse();
    });
    QObject::connect(reply, &QNetworkReply::downloadProgress, reply, [maxBytes, refuse](qint64 received, qint64 total) {
        if (received > maxBytes || total > maxBytes)
            refuse();
    });
}

QString EngineEndpoint::capped(const QNetworkReply *reply)
{
    return reply->property("bullpen_capped").toString();
}

} // namespace bullpen
