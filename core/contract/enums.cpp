// SPDX-License-Identifier: MIT
#include "enums.h"

namespace bullpen {

PublicCode publicCodeFor(FailureKind kind)
{
    switch (kind) {
    case FailureKind::TIMEOUT:
        return PublicCode::AI_PROVIDER_TIMEOUT;
    case FailureKind::RATE_LIMITED:
    case FailureKind::QUOTA_EXHAUSTED:
        return PublicCode::AI_PROVIDER_RATE_LIMITED;
    case FailureKind::OUTPUT_TRUNCATED:
    case FailureKind::OUTPUT_INVALID:
        return PublicCode::AI_PROVIDER_INVALID_OUTPUT;
    case FailureKind::NETWORK:
    case FailureKind::TRANSIENT_SERVER:
    case FailureKind::REQUEST_REJECTED:
    case FailureKind::UNKNOWN:
        return PublicCode::AI_PROVIDER_ERROR;
    case FailureKind::AUTH_CONFIG:
    case FailureKind::TLS:
        return PublicCode::AI_PROVIDER_CONFIG;
    case FailureKind::REFUSED:
        return PublicCode::AI_PROVIDER_REFUSED;
    case FailureKind::CANCELLED:
        return PublicCode::GENERATION_CANCELLED;
    case FailureKind::INTERNAL:
    case FailureKind::NOT_SENT:
        return PublicCode::INTERNAL_ERROR;
    }
    return PublicCode::INTERNAL_ERROR;
}

namespace {

template<typename E> QString lowerId(E value)
{
    return enumName(value).toLower();
}

template<typename E> std::optional<E> fromLowerId(QStringView id)
{
    const QMetaEnum me = QMetaEnum::fromType<E>();
    for (int i = 0; i < me.keyCount(); ++i) {
        if (id.compare(QLatin1StringView(me.key(i)), Qt::CaseInsensitive) == 0)
            return static_cast<E>(me.value(i));
    }
    return std::nullopt;
}

} // namespace

QString toId(Role role)
{
    return lowerId(role);
}
QString toId(Stage stage)
{
    return lowerId(stage);
}
QString toId(AbortReason reason)
{
    return lowerId(reason);
}
QString toId(FinalState state)
{
    return lowerId(state);
}
QString toId(HistoryState state)
{
    return lowerId(state);
}
std::optional<Role> roleFromId(QStringView id)
{
    return fromLowerId<Role>(id);
}
std::optional<Stage> stageFromId(QStringView id)
{
    return fromLowerId<Stage>(id);
}
std::optional<AbortReason> abortReasonFromId(QStringView id)
{
    return fromLowerId<AbortReason>(id);
}
std::optional<FinalState> finalStateFromId(QStringView id)
{
    return fromLowerId<FinalState>(id);
}
std::optional<HistoryState> historyStateFromId(QStringView id)
{
    return fromLowerId<HistoryState>(id);
}

} // namespace bullpen
