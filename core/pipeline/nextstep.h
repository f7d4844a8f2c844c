// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"
#include "contract/providertable.h"
#include "failure/failure.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace bullpen {

// docs/contract.md §7: what a person should do about a final failure, not only what happened.
struct NextStep
{
    enum class Action { Retry, FixSettings, ChangeInput, Report, None };
    Action action = Action::None;
    QString message; // one or two sentences for the operator
    QDateTime retryAfterAt; // RATE_LIMITED: when the limit should lift (UTC), if known

    QString actionId() const; // retry, fix_settings, change_input, report, none
    QJsonObject toJson() const;
    static NextStep fromJson(const QJsonObject &json);

    // `now` is injected so tests can check the time the limit lifts. The message is English
    // (core/contract/recordtext.h): it is what the store, the API and logs keep, whatever language a
    // console shows.
    // `providers`: what each provider is for the engine that ran it (the settings a fix goes in).
    static NextStep forFailure(const Failure &failure, const ProviderTable &providers, Provider provider, Stage stage,
                               const QDateTime &now = QDateTime::currentDateTimeUtc());

    // The message in the application's language (localizedRecordText), whether this process made
    // the next step or read it back from JSON or a store.
    QString localizedMessage() const;
};

} // namespace bullpen
