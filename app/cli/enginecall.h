// SPDX-License-Identifier: MIT
#pragma once

#include "remote/engineendpoint.h"

#include <QByteArray>
#include <QString>
#include <QUrlQuery>

namespace bullpen::cli {

// One answer of a running engine to a CLI command (docs/api.md).
struct EngineAnswer
{
    int status = 0; // 0: no HTTP answer
    QByteArray body;
    QString error; // what went wrong, ready to print; empty on a 2xx
};

// One request to the engine, waited for here (the CLI has nothing else to do meanwhile); the answer is
// capped at `maxBytes` as it arrives. A POST when `postBody` is given, else a GET.
EngineAnswer callEngine(const EngineEndpoint &endpoint, const QString &path, const QUrlQuery &query, const QByteArray *postBody,
                        qint64 maxBytes = 4 * 1024 * 1024);

} // namespace bullpen::cli
