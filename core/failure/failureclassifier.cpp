// SPDX-License-Identifier: MIT
#include "failureclassifier.h"

#include "contract/providerregistry.h"
#include "contract/recordtext.h"
#include "errorrules.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>

namespace bullpen {

using namespace std::chrono;

namespace {

constexpr qsizetype kMaxDetail = 300;

std::optional<milliseconds> parseDurationText(QStringView text)
{
    static const QRegularExpression re(QStringLiteral(R"(^\s*([0-9]+(?:\.[0-9]+)?)\s*(ms|s)\s*$)"));
    const auto m = re.match(text.toString());
    if (!m.hasMatch())
        return std::nullopt;
    const double value = m.captured(1).toDouble();
    const double ms = m.capturedView(2) == u"ms" ? value : value * 1000.0;
    if (!std::isfinite(ms) || ms < 0 || ms > 7.0 * 24 * 3600 * 1000)
        return std::nullopt;
    return milliseconds(std::llround(ms));
}

ErrorInfo parseErrorBody(const QByteArray &body)
{
    ErrorInfo info;
    QJsonParseError perr {};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &perr);
    if (perr.error != QJsonParseError::NoError || !doc.isObject())
        return info;
    const QJsonObject root = doc.object();
    QJsonObject e;
    if (root.value(QLatin1StringView("error")).isObject()) {
        e = root.value(QLatin1StringView("error")).toObject();
    } else if (root.contains(QLatin1StringView("code")) || root.contains(QLatin1StringView("message"))) {
        e = root; // DashScope native
    } else {
        return info;
    }
    info.parsed = true;
    info.message = e.value(QLatin1StringView("message")).toString();
    info.status = e.value(QLatin1StringView("status")).toString();
    info.type = e.value(QLatin1StringView("type")).toString();
    const QJsonValue code = e.value(QLatin1StringView("code"));
    if (code.isString())
        info.code = code.toString();

    const QJsonValue details = e.value(QLatin1StringView("details"));
    if (details.isObject()) {
        info.detailsErrorCode = details.toObject().value(QLatin1StringView("error_code")).toString();
    } else if (details.isArray()) {
        const QJsonArray detailArray = details.toArray();
        for (const QJsonValue &dv : detailArray) {
            const QJsonObject d = dv.toObject();
            const QString type = d.value(QLatin1StringView("@type")).toString();
            if (type.endsWith(QLatin1StringView("google.rpc.ErrorInfo"))) {
                info.reason = d.value(QLatin1StringView("reason")).toString();
            } else if (type.endsWith(QLatin1StringView("google.rpc.QuotaFailure"))) {
                const QJsonArray violations = d.value(QLatin1StringView("violations")).toArray();
                for (const QJsonValue &v : violations) {
                    const QJsonObject vo = v.toObject();
                    info.quotaIds << vo.value(QLatin1StringView("quotaId")).toString()
                                  << vo.value(QLatin1StringView("quotaMetric")).toString();
                }
            } else if (type.endsWith(QLatin1StringView("google.rpc.RetryInfo"))) {
                info.retryDelay = parseDurationText(d.value(QLatin1StringView("retryDelay")).toString());
            }
        }
    }
    return info;
}

QString oneLine(QString s)
{
    s.replace(QLatin1Char('\r'), QLatin1Char(' '));
    s.replace(QLatin1Char('\n'), QLatin1Char(' '));
    s = s.simplified();
    if (s.size() > kMaxDetail)
        s = s.left(kMaxDetail - 1) + QChar(0x2026);
    return s;
}

// Kind from the HTTP status alone: used when the body does not parse or names nothing we know.
FailureKind kindFromStatus(int status)
{
    if (status >= 300 && status < 400)
        return FailureKind::AUTH_CONFIG; // redirects are off: the base URL is wrong
    switch (status) {
    case 401:
    case 403:
    case 404:
    case 407:
        return FailureKind::AUTH_CONFIG;
    case 402:
        return FailureKind::QUOTA_EXHAUSTED;
    case 408:
        return FailureKind::TIMEOUT;
    case 409:
        return FailureKind::TRANSIENT_SERVER;
    case 429:
        return FailureKind::RATE_LIMITED;
    case 499:
        return FailureKind::NETWORK; // the server saw our connection close, and we did not close it
    case 400:
    case 413:
    case 422:
    case 501:
        return FailureKind::REQUEST_REJECTED;
    case 500:
    case 502:
    case 503:
    case 504:
    case 529:
        return FailureKind::TRANSIENT_SERVER;
    default:
        break;
    }
    // docs/contract.md §3: a status not in the table (418, 520, …) with a body not recognised is UNKNOWN, never
    // guessed transient or the request's fault.
    return FailureKind::UNKNOWN;
}

std::optional<Failure> transportFailure(const ProviderResponse &r)
{
    using E = QNetworkReply::NetworkError;
    const QString qtText = r.networkErrorString.isEmpty() ? QString() : QStringLiteral(": ") + r.networkErrorString;
    auto fail = [&](FailureKind kind, const QString &what) {
        return Failure { kind, oneLine(what + qtText), false, {} };
    };
    switch (r.networkError) {
    case E::NoError:
        return std::nullopt;
    case E::OperationCanceledError:
        return fail(FailureKind::INTERNAL, QStringLiteral("the request was cancelled but the engine recorded no reason (a Bullpen bug)"));
    case E::TimeoutError:
    case E::ProxyTimeoutError:
        return fail(FailureKind::TIMEOUT, QStringLiteral("the connection timed out"));
    case E::SslHandshakeFailedError:
        return fail(FailureKind::TLS,
                    QStringLiteral("TLS handshake or certificate check failed (a proxy that inspects TLS, or a private CA: "
                                   "give its CA certificate as BULLPEN_PROVIDER_CA)"));
    case E::InsecureRedirectError:
    case E::ProxyAuthenticationRequiredError:
        return fail(FailureKind::AUTH_CONFIG, QStringLiteral("the endpoint or proxy settings are wrong"));
    case E::ConnectionRefusedError:
        return fail(FailureKind::NETWORK, QStringLiteral("connection refused"));
    case E::RemoteHostClosedError:
        return fail(FailureKind::NETWORK, QStringLiteral("the server closed the connection before answering"));
    case E::HostNotFoundError:
        return fail(FailureKind::NETWORK, QStringLiteral("host not found"));
    case E::ContentReSendError:
        return fail(FailureKind::NETWORK, QStringLiteral("the connection dropped after the request was sent; not resent"));
    case E::TemporaryNetworkFailureError:
    case E::NetworkSessionFailedError:
    case E::BackgroundRequestNotAllowedError:
    case E::UnknownNetworkError:
    case E::ProxyConnectionRefusedError:
    case E::ProxyConnectionClosedError:
    case E::ProxyNotFoundError:
    case E::UnknownProxyError:
    case E::ProtocolFailure:
    case E::ProtocolUnknownError:
    case E::TooManyRedirectsError:
    case E::UnknownServerError:
        return fail(FailureKind::NETWORK, QStringLiteral("network error"));
    default:
        break;
    }
    return fail(FailureKind::UNKNOWN, QStringLiteral("unrecognised network error %1").arg(static_cast<int>(r.networkError)));
}

QString errorDetail(std::optional<int> status, bool inStream, const ErrorInfo &e, const QByteArray &body)
{
    QString head = inStream ? QStringLiteral("error inside the stream") : QStringLiteral("HTTP %1").arg(status.value_or(0));
    if (!e.parsed) {
        const QString raw = QString::fromUtf8(body.left(160)).trimmed();
        return oneLine(raw.isEmpty() ? head : head + QStringLiteral(" (unreadable body): ") + raw);
    }
    QStringList names;
    for (const QString &n : { e.status, e.type, e.code, e.reason, e.detailsErrorCode }) {
        if (!n.isEmpty() && !names.contains(n))
            names << n;
    }
    if (!names.isEmpty())
        head += QLatin1Char(' ') + names.join(QLatin1Char('/'));
    return oneLine(e.message.isEmpty() ? head : head + QStringLiteral(": ") + e.message);
}

} // namespace

bool FailureClassifier::hasCapacityMarker(QStringView text)
{
    static const QStringView markers[] = {
        u"503", u"unavailable", u"high demand", u"overloaded", u"temporarily unavailable", u"try again later"
    };
    for (QStringView m : markers) {
        if (text.contains(m, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

std::optional<milliseconds> FailureClassifier::retryHintFromText(QStringView text)
{
    if (auto direct = parseDurationText(text))
        return direct;
    static const QRegularExpression re(QStringLiteral(R"((?:retry|try again) in ([0-9]+(?:\.[0-9]+)?)\s*(ms|s)\b)"),
                                       QRegularExpression::CaseInsensitiveOption);
    const auto m = re.match(text.toString());
    if (!m.hasMatch())
        return std::nullopt;
    return parseDurationText(QString(m.capturedView(1) + m.capturedView(2)));
}

std::optional<Failure> FailureClassifier::classify(Provider provider, const ProviderResponse &r, AbortReason abortedBy)
{
    return classify(dialectOf(provider), r, abortedBy);
}

std::optional<Failure> FailureClassifier::classify(WireDialect dialect, const ProviderResponse &r, AbortReason abortedBy)
{
    const ErrorRules &rules = ErrorRules::of(dialect);
    // 1. Our own abort decides, whatever Qt reported for it.
    switch (abortedBy) {
    case AbortReason::Operator:
        return Failure { FailureKind::CANCELLED, recordText(RecordText::CancelledByOperator), false, {} };
    case AbortReason::Shutdown:
        return Failure { FailureKind::CANCELLED, recordText(RecordText::CancelledShuttingDown), false, {} };
    case AbortReason::Deadline:
        return Failure { FailureKind::TIMEOUT, QStringLiteral("the attempt deadline passed; the request was aborted"), false, {} };
    case AbortReason::None:
        break;
    }

    // 2. Found wrong before anything was sent.
    if (!r.localConfigError.isEmpty())
        return Failure { FailureKind::AUTH_CONFIG, oneLine(r.localConfigError), false, {} };

    // 3. The egress guard answered: the provider broke HTTP (a verdict on its output) or was unreachable.
    if (!r.guardCode.isEmpty()) {
        const QString detail = oneLine(r.guardDetail.isEmpty() ? QString::fromLatin1(r.guardCode) : r.guardDetail);
        if (r.guardCode == "closed" || r.guardCode == "unreachable")
            return Failure { FailureKind::NETWORK, detail, false, {} };
        return Failure { FailureKind::OUTPUT_INVALID, detail, false, {} };
    }

    // 4. Transport failure with no status line.
    if (!r.httpStatus)
        return transportFailure(r).value_or(
            Failure { FailureKind::UNKNOWN, QStringLiteral("no HTTP status and no network error"), false, {} });

    const int status = *r.httpStatus;
    const bool success = status >= 200 && status < 300;
    if (status >= 300 && status < 400) // redirects are never followed (a 307 would re-post the body)
        return Failure { FailureKind::AUTH_CONFIG,
                         QStringLiteral("HTTP %1 redirect; Bullpen does not follow redirects: check the base URL").arg(status),
                         false,
                         {} };

    // 5. An error body: the HTTP error, or an error event inside a 2xx stream.
    if (!success || (r.errorInStream && !r.errorBody.isEmpty())) {
        const ErrorInfo e = parseErrorBody(r.errorBody);
        const std::optional<int> decisive = success ? std::nullopt : std::optional<int>(status);
        FailureKind kind =
            (e.parsed ? rules.errorKind(decisive, e) : std::nullopt).value_or(success ? FailureKind::UNKNOWN : kindFromStatus(status));
        const QString bodyText = QString::fromUtf8(r.errorBody);
        const bool marker = hasCapacityMarker(bodyText) || status == 503 || e.reason == u"MODEL_CAPACITY_EXHAUSTED";
        if (kind == FailureKind::UNKNOWN && marker)
            kind = FailureKind::TRANSIENT_SERVER; // docs/contract.md §3: error text with a capacity marker
        Failure f { kind, errorDetail(decisive, success, e, r.errorBody), kind == FailureKind::TRANSIENT_SERVER && marker, {} };
        if (kind == FailureKind::RATE_LIMITED || kind == FailureKind::QUOTA_EXHAUSTED || kind == FailureKind::TRANSIENT_SERVER) {
            f.retryAfter = r.retryAfterHeader;
            if (!f.retryAfter)
                f.retryAfter = e.retryDelay;
            if (!f.retryAfter)
                f.retryAfter = retryHintFromText(e.message);
        }
        return f;
    }

    // 6. A 2xx whose body or stream was cut off before its terminal marker, or whose compressed body
    // was refused (Qt's client: it expands past Qt's safety limit or is corrupt; the egress guard:
    // compressed though none was asked for). A decompression bomb is an answer we refuse, not a
    // network fault.
    if (r.networkErrorString.startsWith(u"Decompression failed", Qt::CaseInsensitive))
        return Failure {
            FailureKind::OUTPUT_INVALID, oneLine(QStringLiteral("the compressed body was refused: ") + r.networkErrorString), false, {}
        };
    if (r.bodyTruncated || r.networkError != QNetworkReply::NoError) {
        QString what = QStringLiteral("HTTP %1 but the body or stream ended before its terminal marker").arg(status);
        if (!r.networkErrorString.isEmpty())
            what += QStringLiteral(": ") + r.networkErrorString;
        return Failure { FailureKind::NETWORK, oneLine(what), false, {} };
    }

    // 7. A complete 2xx: can its content be used?
    if (!r.malformedBody.isEmpty())
        return Failure { FailureKind::OUTPUT_INVALID, oneLine(QStringLiteral("unreadable response body: ") + r.malformedBody), false, {} };
    if (!r.blockReason.isEmpty())
        return Failure { FailureKind::REFUSED, oneLine(QStringLiteral("prompt blocked: ") + r.blockReason), false, {} };
    if (!r.refusal.isEmpty())
        return Failure { FailureKind::REFUSED, oneLine(QStringLiteral("the model refused: ") + r.refusal), false, {} };
    if (!r.finishReason.isEmpty() && r.finishReason != u"null") {
        if (auto f = rules.finishFailure(r.finishReason))
            return f;
    }
    if (r.text.trimmed().isEmpty() && r.binary.isEmpty())
        return Failure { FailureKind::OUTPUT_INVALID, QStringLiteral("the response holds no text"), false, {} };
    if (status != 200 && status != 201)
        return Failure { FailureKind::UNKNOWN, QStringLiteral("unexpected success status %1").arg(status), false, {} };
    return std::nullopt;
}

} // namespace bullpen
