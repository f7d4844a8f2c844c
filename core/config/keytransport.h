// SPDX-License-Identifier: MIT
#pragma once

#include "config/settings.h"

#include <QList>
#include <QString>
#include <QUrl>

namespace bullpen {

// An API key sent over plain http to a host other than this machine can be read by anyone on the way
// (docs/configuration.md, "Keys"). Not refused (a lab network may be trusted), but said at startup, in
// GET /v1/config and where keys are set.
struct KeyTransportWarning
{
    Provider provider = Provider::Gemini;
    QUrl url;
    QString text; // what is wrong and what to do, in one line
};

// True when `url` is plain http to a host that is not a loopback address (localhost, 127.0.0.0/8, ::1).
bool sendsInTheClear(const QUrl &url);
// One warning per provider that has a key and an endpoint sendsInTheClear().
QList<KeyTransportWarning> keyTransportWarnings(const Settings &settings);

} // namespace bullpen
