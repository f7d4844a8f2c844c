// SPDX-License-Identifier: MIT
#include "providertable.h"

namespace bullpen {

ProviderTable::ProviderTable()
{
    for (const Provider p : ProviderRegistry::builtIns())
        m_rows[p] = Row { ProviderRegistry::spec(p) };
}

QList<Provider> ProviderTable::all() const
{
    QList<Provider> out;
    for (const auto &[p, row] : m_rows) {
        if (row.listed())
            out << p;
    }
    return out;
}

QString ProviderTable::idList() const
{
    QStringList ids;
    for (const Provider p : all())
        ids << toId(p);
    return ids.join(QStringLiteral(", "));
}

QList<Provider> ProviderTable::serving(Stage stage) const
{
    QList<Provider> out;
    for (const auto &[p, row] : m_rows) {
        if (row.listed() && row.spec.serves(stage))
            out << p;
    }
    return out;
}

bool ProviderTable::lists(Provider provider) const
{
    const auto it = m_rows.find(provider);
    return it != m_rows.end() && it->second.listed();
}

ProviderSpec ProviderTable::spec(Provider provider) const
{
    const auto it = m_rows.find(provider);
    return it != m_rows.end() ? it->second.spec : ProviderRegistry::spec(provider);
}

std::optional<Provider> ProviderTable::find(QStringView id) const
{
    const std::optional<Provider> p = ProviderRegistry::find(id);
    return p && lists(*p) ? p : std::nullopt;
}

QList<Provider> ProviderTable::install(const QList<ProviderSpec> &added, bool Row::*flag)
{
    for (auto &[p, row] : m_rows)
        row.*flag = false;
    QList<Provider> out;
    for (const ProviderSpec &s : added) {
        const Provider p = ProviderRegistry::intern(s.id); // the id only: what it is stays in this table
        Row &row = m_rows[p];
        if (row.spec.builtIn)
            continue; // refused by the settings' validation; never replaces a built-in
        row.spec = s;
        row.spec.builtIn = false;
        row.*flag = true;
        out << p;
    }
    return out;
}

QList<Provider> ProviderTable::setAdded(const QList<ProviderSpec> &added)
{
    return install(added, &Row::configured);
}

QList<Provider> ProviderTable::adopt(const QList<ProviderSpec> &added)
{
    return install(added, &Row::adopted);
}

} // namespace bullpen
