// SPDX-License-Identifier: MIT
#include "latencystats.h"

#include <algorithm>
#include <cmath>

namespace bullpen {

double LatencyBucket::percentile(double p) const
{
    if (durations.empty())
        return 0;
    const auto n = durations.size();
    const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * double(n)));
    return durations[std::clamp<std::size_t>(rank, 1, n) - 1];
}

const std::vector<double> &LatencyStats::histogramEdges()
{
    static const std::vector<double> edges{0, 250, 500, 1000, 2000, 3000, 5000, 7500, 10000, 20000, 30000, 60000, 90000};
    return edges;
}

int LatencyStats::histogramBin(double durationMs)
{
    const auto &e = histogramEdges();
    const auto it = std::upper_bound(e.begin(), e.end(), durationMs);
    return std::max(0, static_cast<int>(it - e.begin()) - 1);
}

LatencyStats::LatencyStats(qint64 fromMs, qint64 toMs, qint64 bucketMs)
    : m_fromMs(fromMs)
    , m_toMs(std::max(toMs, fromMs + 1))
    , m_bucketMs(std::max<qint64>(bucketMs, 1))
    , m_histOk(histogramEdges().size(), 0)
    , m_histFail(histogramEdges().size(), 0)
{
    ensureBucket(static_cast<int>((m_toMs - m_fromMs - 1) / m_bucketMs));
}

int LatencyStats::bucketIndex(qint64 atMs) const
{
    if (atMs < m_fromMs)
        return -1;
    return static_cast<int>((atMs - m_fromMs) / m_bucketMs);
}

void LatencyStats::ensureBucket(int index)
{
    while (static_cast<int>(m_buckets.size()) <= index) {
        LatencyBucket b;
        b.startMs = m_fromMs + static_cast<qint64>(m_buckets.size()) * m_bucketMs;
        m_buckets.push_back(std::move(b));
        m_extraRaw.emplace_back();
    }
    m_toMs = std::max(m_toMs, m_fromMs + static_cast<qint64>(m_buckets.size()) * m_bucketMs);
}

int LatencyStats::add(const LatencySample &s)
{
    const int index = bucketIndex(s.atMs);
    if (index < 0)
        return -1;
    ensureBucket(index);
    LatencyBucket &b = m_buckets[static_cast<std::size_t>(index)];
    b.durations.insert(std::upper_bound(b.durations.begin(), b.durations.end(), s.durationMs), s.durationMs);
    ++m_total;
    const auto bin = static_cast<std::size_t>(histogramBin(s.durationMs));
    if (s.success) {
        ++b.successes;
        ++m_successes;
        ++m_histOk[bin];
        m_successDurations.insert(std::upper_bound(m_successDurations.begin(), m_successDurations.end(), s.durationMs), s.durationMs);
    } else {
        ++m_histFail[bin];
    }
    return index;
}

void LatencyStats::addAll(const QList<LatencySample> &samples)
{
    for (const LatencySample &s : samples) {
        const int index = bucketIndex(s.atMs);
        if (index < 0)
            continue;
        ensureBucket(index);
        LatencyBucket &b = m_buckets[static_cast<std::size_t>(index)];
        b.durations.push_back(s.durationMs);
        ++m_total;
        const auto bin = static_cast<std::size_t>(histogramBin(s.durationMs));
        if (s.success) {
            ++b.successes;
            ++m_successes;
            ++m_histOk[bin];
            m_successDurations.push_back(s.durationMs);
        } else {
            ++m_histFail[bin];
        }
    }
    for (LatencyBucket &b : m_buckets)
        std::sort(b.durations.begin(), b.durations.end());
    std::sort(m_successDurations.begin(), m_successDurations.end());
}

double LatencyStats::successMedian() const
{
    if (m_successDurations.empty())
        return 0;
    return m_successDurations[(m_successDurations.size() - 1) / 2];
}

void LatencyStats::setFallbackWaits(const QList<FallbackWait> &waits)
{
    for (auto &b : m_extraRaw)
        b.clear();
    for (const FallbackWait &w : waits)
        addFallbackWait(w);
}

int LatencyStats::addFallbackWait(const FallbackWait &w)
{
    const int index = bucketIndex(w.atMs);
    if (index < 0)
        return -1;
    ensureBucket(index);
    m_extraRaw[static_cast<std::size_t>(index)].push_back(w.primaryMs + w.fallbackMs);
    return index;
}

std::vector<double> LatencyStats::extraWaits() const
{
    const double median = successMedian();
    std::vector<double> out;
    for (const auto &b : m_extraRaw) {
        for (double total : b)
            out.push_back(total - median);
    }
    return out;
}

double LatencyStats::percentileOf(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    const auto n = values.size();
    const auto rank = std::clamp<std::size_t>(static_cast<std::size_t>(std::ceil(p / 100.0 * double(n))), 1, n) - 1;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(rank), values.end());
    return values[rank];
}

double LatencyStats::extraWaitPercentile(int bucket, double p) const
{
    if (bucket < 0 || bucket >= static_cast<int>(m_extraRaw.size()) || m_extraRaw[static_cast<std::size_t>(bucket)].empty())
        return 0;
    return percentileOf(m_extraRaw[static_cast<std::size_t>(bucket)], p) - successMedian();
}

} // namespace bullpen
