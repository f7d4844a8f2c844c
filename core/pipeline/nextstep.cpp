// SPDX-License-Identifier: MIT
#include "nextstep.h"

#include "config/settings.h"
#include "contract/recordtext.h"

namespace bullpen {

namespace {

// Where a provider's key is set: its variable; for a provider that takes none (an added one without
// key_variable), the settings-file field that would name one, should its server want a key after all.
QString keySetting(const ProviderTable &providers, Provider provider)
{
    const QString variable = apiKeyVariable(providers, provider);
    return variable.isEmpty() ? QStringLiteral("providers.%1.key_variable").arg(toId(provider)) : variable;
}

} // namespace

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

NextStep NextStep::forFailure(const Failure &f, const ProviderTable &providers, Provider provider, Stage stage, const QDateTime &now)
{
    const QString who = toId(provider);
    const QString where = stage == Stage::Storyboard ? QString() : recordText(RecordText::StepInStage, { toId(stage) });
    NextStep s;
    switch (f.kind) {
    case FailureKind::RATE_LIMITED:
        s.action = Action::Retry;
        if (f.retryAfter) {
            s.retryAfterAt = now.addMSecs(f.retryAfter->count());
            s.message = recordText(
                RecordText::StepRateLimitedFor,
                { who, where, QString::number((f.retryAfter->count() + 999) / 1000), s.retryAfterAt.toString(QStringLiteral("HH:mm:ss")) });
        } else {
            s.message = recordText(RecordText::StepRateLimited, { who, where });
        }
        break;
    case FailureKind::QUOTA_EXHAUSTED:
        s.action = Action::FixSettings;
        s.message = recordText(RecordText::StepQuota, { who, where });
        break;
    case FailureKind::TIMEOUT:
    case FailureKind::NETWORK:
    case FailureKind::TRANSIENT_SERVER:
    case FailureKind::OUTPUT_TRUNCATED:
    case FailureKind::OUTPUT_INVALID:
        s.action = Action::Retry;
        s.message = recordText(RecordText::StepTemporary,
                               { who, enumName(f.kind), where, f.capacity ? recordText(RecordText::StepOverloadSuffix) : QString() });
        break;
    case FailureKind::AUTH_CONFIG:
        s.action = Action::FixSettings;
        s.message = recordText(
            RecordText::StepAuthConfig,
            { who, where, keySetting(providers, provider), baseUrlVariable(providers, provider), modelVariable(providers, provider) });
        break;
    case FailureKind::TLS:
        s.action = Action::FixSettings;
        s.message = recordText(RecordText::StepTls, { who, where, baseUrlVariable(providers, provider) });
        break;
    case FailureKind::REFUSED:
        s.action = Action::ChangeInput;
        s.message = recordText(RecordText::StepRefused, { who, where });
        break;
    case FailureKind::REQUEST_REJECTED:
        s.action = Action::Report;
        s.message = recordText(RecordText::StepRequestRejected, { who, where });
        break;
    case FailureKind::CANCELLED:
        s.action = Action::Retry;
        s.message = recordText(RecordText::StepCancelled);
        break;
    case FailureKind::INTERNAL:
        s.action = Action::Report;
        s.message = recordText(RecordText::StepInternal, { where });
        break;
    case FailureKind::NOT_SENT:
        s.action = Action::Retry;
        s.message = recordText(RecordText::StepNotSent, { who, where });
        break;
    case FailureKind::UNKNOWN:
        s.action = Action::Retry;
        s.message = recordText(RecordText::StepUnknown, { who, where });
        break;
    }
    return s;
}

QString NextStep::localizedMessage() const
{
    return localizedRecordText(message);
}

} // namespace bullpen
