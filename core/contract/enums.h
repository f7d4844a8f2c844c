// SPDX-License-Identifier: MIT
#pragma once

#include "provider.h"
#include "wiredialect.h"

#include <QList>
#include <QMetaEnum>
#include <QObject>
#include <QString>

#include <optional>

// The small vocabularies every part of Bullpen shares. They are Q_ENUM_NS so they print by name in
// logs, JSON and QCOMPARE failures.
namespace bullpen {
Q_NAMESPACE

// docs/contract.md §3: exactly one kind per failed attempt. Names are the contract's, so they are also the JSON spelling.
enum class FailureKind {
    TIMEOUT,
    RATE_LIMITED,
    QUOTA_EXHAUSTED,
    OUTPUT_TRUNCATED,
    OUTPUT_INVALID,
    NETWORK,
    TRANSIENT_SERVER,
    AUTH_CONFIG,
    TLS,
    REQUEST_REJECTED,
    REFUSED,
    CANCELLED,
    INTERNAL,
    NOT_SENT, // ours, never the provider's: the request did not leave Bullpen (queue full, or ended before it left)
    UNKNOWN,
};
Q_ENUM_NS(FailureKind)

// docs/contract.md §3: the broad code shown to users. Fallback decisions never use it.
enum class PublicCode {
    AI_PROVIDER_TIMEOUT,
    AI_PROVIDER_RATE_LIMITED,
    AI_PROVIDER_INVALID_OUTPUT,
    AI_PROVIDER_ERROR,
    AI_PROVIDER_CONFIG,
    AI_PROVIDER_REFUSED,
    GENERATION_CANCELLED,
    INTERNAL_ERROR,
};
Q_ENUM_NS(PublicCode)

enum class Role { Primary, Fallback };
Q_ENUM_NS(Role)

enum class Stage { Storyboard, Image, Captions };
Q_ENUM_NS(Stage)

// Why *we* ended an attempt. Qt reports every one of these as OperationCanceledError, so the engine
// keeps its own record and classifies from it (docs/contract.md §3).
enum class AbortReason { None, Deadline, Operator, Shutdown };
Q_ENUM_NS(AbortReason)

// Abandoned: its process ended before it finished (found and written once by the next opener; docs/contract.md §4.5).
enum class FinalState { Succeeded, Failed, Cancelled, Abandoned };
Q_ENUM_NS(FinalState)

// A generation as the history holds it: still running, or in its final state.
enum class HistoryState { Running, Succeeded, Failed, Cancelled, Abandoned };
Q_ENUM_NS(HistoryState)

PublicCode publicCodeFor(FailureKind kind);

// Lower-case identifiers used on the command line, in settings, JSON and event names
// ("gemini", "primary", "storyboard", "deadline", "succeeded").
QString toId(Role role);
QString toId(Stage stage);
QString toId(AbortReason reason);
QString toId(FinalState state);
QString toId(HistoryState state);
std::optional<Role> roleFromId(QStringView id);
std::optional<Stage> stageFromId(QStringView id);
std::optional<AbortReason> abortReasonFromId(QStringView id);
std::optional<FinalState> finalStateFromId(QStringView id);
std::optional<HistoryState> historyStateFromId(QStringView id);

// Upper-case contract spelling for kinds and public codes ("RATE_LIMITED", "AI_PROVIDER_CONFIG").
// Every value of a Q_ENUM_NS enum, in declaration order (a list of them is never written out by hand).
template<typename E> QList<E> enumValues()
{
    const QMetaEnum meta = QMetaEnum::fromType<E>();
    QList<E> out;
    for (int i = 0; i < meta.keyCount(); ++i)
        out << static_cast<E>(meta.value(i));
    return out;
}

template<typename E> QString enumName(E value)
{
    return QString::fromLatin1(QMetaEnum::fromType<E>().valueToKey(static_cast<int>(value)));
}

template<typename E> std::optional<E> enumFromName(QStringView name)
{
    bool ok = false;
    const int v = QMetaEnum::fromType<E>().keyToValue(name.toLatin1().constData(), &ok);
    if (!ok)
        return std::nullopt;
    return static_cast<E>(v);
}

} // namespace bullpen
