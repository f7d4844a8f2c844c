// SPDX-License-Identifier: MIT
#include "nextstep.h"

#include "config/settings.h"

#include <QCoreApplication>

namespace bullpen {

QString NextStep::actionId() const
{
    switch (action) {
    case Action::Retry:
        return QStringLiteral("retry");
    case Action::FixSettings:
        return QStringLiteral("fix_settings");
    case Action::ChangeInput:
        return QStringLiteral("change_input");
    case Action::Report:
        return QStringLiteral("report");
    case Action::None:
        break;
    }
    return QStringLiteral("none");
}

QJsonObject NextStep::toJson() const
{
    return QJsonObject { { QStringLiteral("action"), actionId() },
                         { QStringLiteral("message"), message },
                         { QStringLiteral("retry_after"),
                           retryAfterAt.isValid() ? QJsonValue(retryAfterAt.toString(Qt::ISODate)) : QJsonValue() } };
}

NextStep NextStep::fromJson(const QJsonObject &json)
{
    NextStep s;
    const QString action = json.value(QLatin1StringView("action")).toString();
    for (Action a : { Action::Retry, Action::FixSettings, Action::ChangeInput, Action::Report }) {
        s.action = a;
        if (s.actionId() == action)
            break;
        s.action = Action::None;
    }
    s.message = json.value(QLatin1StringView("message")).toString();
    s.retryAfterAt = QDateTime::fromString(json.value(QLatin1StringView("retry_after")).toString(), Qt::ISODate);
    return s;
}

NextStep NextStep::forFailure(const Failure &f, Provider provider, Stage stage, const QDateTime &now)
{
    NextStep s = build(f, provider, stage, now, false);
    s.m_inputs = Inputs { f, provider, stage };
    return s;
}

QString NextStep::localizedMessage() const
{
    if (!m_inputs)
        return message;
    // The same text in the application's language; the time a rate limit lifts is kept as computed.
    NextStep t = build(m_inputs->failure, m_inputs->provider, m_inputs->stage, QDateTime::currentDateTimeUtc(), true);
    if (retryAfterAt.isValid() && t.retryAfterAt.isValid() && m_inputs->failure.retryAfter) {
        t = build(m_inputs->failure, m_inputs->provider, m_inputs->stage, retryAfterAt.addMSecs(-m_inputs->failure.retryAfter->count()),
                  true);
    }
    return t.message;
}

NextStep NextStep::build(const Failure &f, Provider provider, Stage stage, const QDateTime &now, bool translate)
{
    // English for records; the application's language for a console (localizedMessage()). Every
    // source text is marked with QT_TRANSLATE_NOOP so that lupdate finds it.
    const auto T = [translate](const char *source) {
        return translate ? QCoreApplication::translate("bullpen::NextStep", source) : QString::fromUtf8(source);
    };
    const QString who = toId(provider);
    const QString where =
        stage == Stage::Storyboard ? QString() : T(QT_TRANSLATE_NOOP("bullpen::NextStep", " (%1 stage)")).arg(toId(stage));
    NextStep s;
    switch (f.kind) {
    case FailureKind::RATE_LIMITED:
        s.action = Action::Retry;
        if (f.retryAfter) {
            s.retryAfterAt = now.addMSecs(f.retryAfter->count());
            s.message = T(QT_TRANSLATE_NOOP(
                              "bullpen::NextStep",
                              "%1 is rate-limiting requests%2. The limit should lift in about %3 s (at %4 UTC); try again after that."))
                            .arg(who, where)
                            .arg((f.retryAfter->count() + 999) / 1000)
                            .arg(s.retryAfterAt.toString(QStringLiteral("HH:mm:ss")));
        } else {
            s.message =
                T(QT_TRANSLATE_NOOP("bullpen::NextStep",
                                    "%1 is rate-limiting requests%2 and did not say for how long; per-minute limits usually lift within "
                                    "a minute. Try again then."))
                    .arg(who, where);
        }
        break;
    case FailureKind::QUOTA_EXHAUSTED:
        s.action = Action::FixSettings;
        s.message = T(QT_TRANSLATE_NOOP(
                          "bullpen::NextStep",
                          "%1's quota or billing is used up%2. Retrying will not help until credit is added or the quota is raised in "
                          "the provider's console (or a fallback provider is configured)."))
                        .arg(who, where);
        break;
    case FailureKind::TIMEOUT:
    case FailureKind::NETWORK:
    case FailureKind::TRANSIENT_SERVER:
    case FailureKind::OUTPUT_TRUNCATED:
    case FailureKind::OUTPUT_INVALID:
        s.action = Action::Retry;
        s.message =
            T(QT_TRANSLATE_NOOP(
                  "bullpen::NextStep",
                  "%1 failed in a way that is usually temporary (%2)%3. The same request sent again (Retry on the Result view, or "
                  "Generate) usually succeeds%4."))
                .arg(who, enumName(f.kind), where,
                     f.capacity ? T(QT_TRANSLATE_NOOP("bullpen::NextStep", "; the provider reported overload, so waiting a minute helps"))
                                : QString());
        break;
    case FailureKind::AUTH_CONFIG:
        s.action = Action::FixSettings;
        s.message =
            T(QT_TRANSLATE_NOOP("bullpen::NextStep",
                                "%1 rejected Bullpen's configuration%2. Check %3 (the key), %4 (the endpoint) and %5 (the model) in "
                                "Settings or the environment, then run the generation again."))
                .arg(who, where, apiKeyVariable(provider), baseUrlVariable(provider), modelVariable(provider));
        break;
    case FailureKind::TLS:
        s.action = Action::FixSettings;
        s.message =
            T(QT_TRANSLATE_NOOP("bullpen::NextStep",
                                "The secure connection to %1 failed%2 (certificate or handshake). Check %3 and the system's certificate "
                                "store; Bullpen never ignores TLS errors."))
                .arg(who, where, baseUrlVariable(provider));
        break;
    case FailureKind::REFUSED:
        s.action = Action::ChangeInput;
        s.message = T(QT_TRANSLATE_NOOP(
                          "bullpen::NextStep",
                          "%1 refused this input%2 (safety or content policy). The same input will be refused again: change the story "
                          "before retrying."))
                        .arg(who, where);
        break;
    case FailureKind::REQUEST_REJECTED:
        s.action = Action::Report;
        s.message =
            T(QT_TRANSLATE_NOOP("bullpen::NextStep",
                                "%1 rejected the request itself as invalid%2; retrying sends the same request. Check the model in the "
                                "settings; if it is right, report it with the generation's event log."))
                .arg(who, where);
        break;
    case FailureKind::CANCELLED:
        s.action = Action::Retry;
        s.message =
            T(QT_TRANSLATE_NOOP("bullpen::NextStep",
                                "Cancelled. Retry starts the generation again. A cancelled request may still have been computed and billed "
                                "by the provider."));
        break;
    case FailureKind::INTERNAL:
        s.action = Action::Report;
        s.message =
            T(QT_TRANSLATE_NOOP("bullpen::NextStep", "A fault in Bullpen itself%1. Please report it with the generation's event log."))
                .arg(where);
        break;
    case FailureKind::NOT_SENT:
        s.action = Action::Retry;
        s.message =
            T(QT_TRANSLATE_NOOP("bullpen::NextStep",
                                "The request never reached %1%2: Bullpen itself was at its limit (its own queue was full, or it was too "
                                "busy to send before the deadline). The provider is not to blame. Retry when fewer generations are "
                                "in flight, or raise the in-flight limit (BULLPEN_MAX_IN_FLIGHT) if the provider allows it."))
                .arg(who, where);
        break;
    case FailureKind::UNKNOWN:
        s.action = Action::Retry;
        s.message = T(QT_TRANSLATE_NOOP("bullpen::NextStep",
                                        "%1 failed in a way Bullpen does not recognise%2, so it was not treated as temporary. Retry if you "
                                        "believe it was."))
                        .arg(who, where);
        break;
    }
    return s;
}

} // namespace bullpen
