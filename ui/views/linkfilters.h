// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>

#include <utility>

class QComboBox;
class QVariant;

namespace bullpen {

// The filters and time range a view's `bullpen://` link carries (docs/console.md, "Links"): one row per
// combo box, the link's key and the box. A link names an item by its data: an id as it is ("gemini",
// "TIMEOUT"), a time span in milliseconds as "1h", "24h", "7d" ("all" for 0). A box whose current item
// has empty data ("any kind") is left out of the link; opened, a link without it picks that item again.
struct LinkFilter
{
    const char *key;
    QComboBox *combo;
};
using LinkFilterValues = QList<std::pair<QString, QString>>;

// A combo item's data as a link says it.
QString linkValue(const QVariant &data);
// The link's pairs for the boxes as they are, in the table's order.
LinkFilterValues linkFilterValues(const QList<LinkFilter> &table);
// Sets the boxes from a link's pairs. Every pair is checked first: an unknown key or a value no item has
// changes nothing and says what the link may hold instead (false, *error).
bool applyLinkFilterValues(const QList<LinkFilter> &table, const LinkFilterValues &values, QString *error);

} // namespace bullpen
