// SPDX-License-Identifier: MIT
#include "durationhistogram.h"

#include <algorithm>
#include <cmath>

namespace bullpen {

namespace {
const double kLogRatio = std::log(DurationHistogram::kRatio);
}

double DurationHistogram::relativeError()
{
    return std::sqrt(kRatio) - 1.0;
}

int DurationHistogram::binOf(double durationMs)
{
    if (!(durationMs >= 1.0)) // also NaN
        return 0;
    // floor(log_r(d)) + 1, corrected for the rounding of log() at an edge: the edges are powers of r.
    int bin = static_cast<int>(std::floor(std::log(durationMs) / kLogRatio)) + 1;
    bin = std::clamp(bin, 1, kBins - 1);
    if (bin > 1 && durationMs < lowerEdge(bin))
        --bin;
    else if (bin < kBins - 1 && durationMs >= lowerEdge(bin + 1))
        ++bin;
    return bin;
}

double DurationHistogram::lowerEdge(int bin)
{
    return bin <= 0 ? 0.0 : std::pow(kRatio, bin - 1);
}

double DurationHistogram::valueOf(int bin)
{
    if (bin <= 0)
        return 0.5;
    return std::pow(kRatio, double(bin) - 0.5);
}

void DurationHistogram::addToBin(int bin, qint64 count)
{
    if (count <= 0)
        return;
    bin = std::clamp(bin, 0, kBins - 1);
    if (m_counts.empty())
        m_counts.assign(kBins, 0);
    m_counts[std::size_t(bin)] += count;
    m_total += count;
}

void DurationHistogram::merge(const DurationHistogram &other)
{
    if (other.m_total == 0)
        return;
    if (m_counts.empty())
        m_counts.assign(kBins, 0);
    for (std::size_t i = 0; i < other.m_counts.size(); ++i)
        m_counts[i] += other.m_counts[i];
    m_total += other.m_total;
}

double DurationHistogram::percentile(double p) const
{
    if (m_total == 0)
        return 0;
    const auto rank = std::clamp<qint64>(static_cast<qint64>(std::ceil(p / 100.0 * double(m_total))), 1, m_total);
    qint64 seen = 0;
    for (std::size_t i = 0; i < m_counts.size(); ++i) {
        seen += m_counts[i];
        if (seen >= rank)
            return valueOf(int(i));
    }
    return valueOf(kBins - 1);
}

qint64 DurationHistogram::countInBin(int bin) const
{
    return bin >= 0 && std::size_t(bin) < m_counts.size() ? m_counts[std::size_t(bin)] : 0;
}

std::vector<std::pair<int, qint64>> DurationHistogram::nonEmptyBins() const
{
    std::vector<std::pair<int, qint64>> out;
    for (std::size_t i = 0; i < m_counts.size(); ++i) {
        if (m_counts[i])
            out.emplace_back(int(i), m_counts[i]);
    }
    return out;
}

} // namespace bullpen
