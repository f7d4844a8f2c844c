// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

#include <variant>

namespace bullpen {

// A console view's state as a link (docs/console.md, "Links"): bullpen://open/<view>[?generation=gen_…],
// the view one of views() (the tabs' order), the generation the one whose detail is open. What
// `Copy link` puts on the clipboard and `bullpen --open LINK` opens.
struct ViewLink
{
    QString view; // run, live, result, failures, latency, compare, settings, control
    QString generation; // gen_…, or empty

    // The views a link may name, in the tabs' order.
    static const QStringList &views();
    QString toString() const;
    // The link, or what is wrong with it and what to do instead.
    static std::variant<ViewLink, QString> parse(const QString &text);
    friend bool operator==(const ViewLink &, const ViewLink &) = default;
};

} // namespace bullpen
