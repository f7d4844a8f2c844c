// SPDX-License-Identifier: MIT
#include "cellsums.h"

#include "history/durationhistogram.h"

#include <algorithm>
#include <numeric>

namespace bullpen {

namespace {

constexpr int kBinBits = 15; // DurationHistogram's bins, with room
constexpr quint64 kBinMask = (quint64(1) << kBinBits) - 1;
static_assert(DurationHistogram::kBins <= int(kBinMask) + 1);

// Sorts by `less`, then folds neighbours that `same` calls equal into the first (their counts summed).
template<typename Cell, typename Less, typename Same> void sortAndFold(std::vector<Cell> &cells, Less less, Same same)
{
    if (!std::is_sorted(cells.begin(), cells.end(), less))
        std::sort(cells.begin(), cells.end(), less);
    std::size_t out = 0;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (out > 0 && same(cells[out - 1], cells[i]))
            cells[out - 1].n += cells[i].n;
        else
            cells[out++] = cells[i];
    }
    cells.resize(out);
}

} // namespace

void DurationCellSums::add(qint64 bucket, bool success, int bin, qint64 n)
{
    Q_ASSERT(bucket >= 0 && bin >= 0 && quint64(bin) <= kBinMask);
    m_cells.push_back({ (quint64(bucket) << (kBinBits + 1)) | (quint64(success ? 1 : 0) << kBinBits) | quint64(bin), n });
}

QList<DurationCell> DurationCellSums::cells(qint64 fromMs, qint64 bucketMs)
{
    sortAndFold(
        m_cells, [](const Cell &a, const Cell &b) { return a.key < b.key; }, [](const Cell &a, const Cell &b) { return a.key == b.key; });
    QList<DurationCell> out;
    out.reserve(qsizetype(m_cells.size()));
    for (const Cell &c : m_cells)
        out << DurationCell { fromMs + qint64(c.key >> (kBinBits + 1)) * bucketMs, ((c.key >> kBinBits) & 1) != 0, int(c.key & kBinMask),
                              c.n };
    return out;
}

int FallbackWaitCellSums::intern(const QString &name)
{
    for (qsizetype i = m_names.size() - 1; i >= 0; --i) // a handful of providers
        if (m_names.at(i) == name)
            return int(i);
    m_names << name;
    return int(m_names.size() - 1);
}

void FallbackWaitCellSums::add(qint64 bucket, const QString &primary, const QString &fallback, int bin, qint64 n)
{
    m_cells.push_back({ bucket, intern(primary), intern(fallback), bin, n });
}

QList<FallbackWaitCell> FallbackWaitCellSums::cells(qint64 fromMs, qint64 bucketMs)
{
    // The names' order, as ranks: cells compare on small integers and come out as a map keyed by the names would give them.
    std::vector<int> byName(std::size_t(m_names.size()));
    std::iota(byName.begin(), byName.end(), 0);
    std::sort(byName.begin(), byName.end(), [this](int a, int b) { return m_names.at(a) < m_names.at(b); });
    std::vector<int> rank(byName.size());
    for (std::size_t i = 0; i < byName.size(); ++i)
        rank[std::size_t(byName[i])] = int(i);
    const auto key = [&rank](const Cell &c) {
        return std::tuple(c.bucket, rank[std::size_t(c.primary)], rank[std::size_t(c.fallback)], c.bin);
    };
    sortAndFold(
        m_cells, [&key](const Cell &a, const Cell &b) { return key(a) < key(b); },
        [](const Cell &a, const Cell &b) {
            return a.bucket == b.bucket && a.primary == b.primary && a.fallback == b.fallback && a.bin == b.bin;
        });
    QList<FallbackWaitCell> out;
    out.reserve(qsizetype(m_cells.size()));
    for (const Cell &c : m_cells)
        out << FallbackWaitCell { fromMs + c.bucket * bucketMs, m_names.at(c.primary), m_names.at(c.fallback), c.bin, c.n };
    return out;
}

} // namespace bullpen
