// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <utility>
#include <variant>

namespace bullpen {

// A console view's state as a link (docs/console.md, "Links"):
// bullpen://open/<view>[?generation=gen_…][&key=value…], the view one of views() (the tabs' order), the
// generation the one whose detail is open, and the view's filters and time range (Failures: range,
// outcome, code, kind, stage, provider, reason; Latency: provider, role, stage, range, bucket), which the
// view itself checks when the link is opened. What `Copy link` puts on the clipboard and `bullpen --open
// LINK` opens.
struct ViewLink
{
    QString view; // run, live, result, failures, latency, compare, settings, control
    QString generation; // gen_…, or empty
    QList<std::pair<QString, QString>> filters; // in the view's order: ("range", "7d"), ("kind", "TIMEOUT")

    // The views a link may name, in the tabs' order.
    static const QStringList &views();
    QString toString() const;
    // The link, or what is wrong with it and what to do instead.
    static std::variant<ViewLink, QString> parse(const QString &text);
    friend bool operator==(const ViewLink &, const ViewLink &) = default;
};

} // namespace bullpen
