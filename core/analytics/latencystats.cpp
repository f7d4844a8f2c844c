// SPDX-License-Identifier: MIT
#include "latencystats.h"

#include <algorithm>

namespace bullpen {

const std::vector<double> &LatencyStats::histogramEdges()
{
    static const std::vector<double> edges { 0, 250, 500, 1000, 2000, 3000, 5000, 7500, 10000, 20000, 30000, 60000, 90000 };
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
        m_extra.emplace_back();
    }
    m_toMs = std::max(m_toMs, m_fromMs + static_cast<qint64>(m_buckets.size()) * m_bucketMs);
}

void LatencyStats::countInHistogram(double durationMs, qint64 n, bool success)
{
    const auto bin = static_cast<std::size_t>(histogramBin(durationMs));
    m_all.add(durationMs, n);
    if (success) {
        m_successes += n;
        m_histOk[bin] += n;
        m_successHist.add(durationMs, n);
    } else {
        m_histFail[bin] += n;
    }
}

int LatencyStats::add(const LatencySample &s)
{
    const int index = bucketIndex(s.atMs);
    if (index < 0)
        return -1;
    ensureBucket(index);
    LatencyBucket &b = m_buckets[static_cast<std::size_t>(index)];
    b.durations.add(s.durationMs);
    b.successes += s.success ? 1 : 0;
    countInHistogram(s.durationMs, 1, s.success);
    return index;
}

void LatencyStats::addAll(const QList<LatencySample> &samples)
{
    for (const LatencySample &s : samples)
        add(s);
}

void LatencyStats::addCells(const QList<DurationCell> &cells)
{
    for (const DurationCell &c : cells) {
        const int index = bucketIndex(c.startMs);
        if (index < 0 || c.count <= 0)
            continue;
        ensureBucket(index);
        LatencyBucket &b = m_buckets[static_cast<std::size_t>(index)];
        b.durations.addToBin(c.bin, c.count);
        b.successes += c.success ? c.count : 0;
        // The coarse histogram places a bin by the duration it stands for (a bin straddling a coarse
        // edge goes wholly to one side).
        countInHistogram(DurationHistogram::valueOf(c.bin), c.count, c.success);
    }
}

void LatencyStats::setFallbackWaits(const QList<FallbackWait> &waits)
{
    for (auto &b : m_extra)
        b = {};
    m_extraAll = {};
    for (const FallbackWait &w : waits)
        addFallbackWait(w);
}

int LatencyStats::addFallbackWait(const FallbackWait &w)
{
    const int index = bucketIndex(w.atMs);
    if (index < 0)
        return -1;
    ensureBucket(index);
    m_extra[static_cast<std::size_t>(index)].add(w.primaryMs + w.fallbackMs);
    m_extraAll.add(w.primaryMs + w.fallbackMs);
    return index;
}

void LatencyStats::setFallbackWaitCells(const QList<FallbackWaitCell> &cells)
{
    for (auto &b : m_extra)
        b = {};
    m_extraAll = {};
    for (const FallbackWaitCell &c : cells) {
        const int index = bucketIndex(c.startMs);
        if (index < 0)
            continue;
        ensureBucket(index);
        m_extra[static_cast<std::size_t>(index)].addToBin(c.bin, c.count);
        m_extraAll.addToBin(c.bin, c.count);
    }
}

qint64 LatencyStats::extraWaitCount(int bucket) const
{
    return bucket >= 0 && bucket < static_cast<int>(m_extra.size()) ? m_extra[std::size_t(bucket)].total() : 0;
}

double LatencyStats::extraWaitPercentile(double p) const
{
    return m_extraAll.isEmpty() ? 0 : m_extraAll.percentile(p) - successMedian();
}

double LatencyStats::extraWaitPercentile(int bucket, double p) const
{
    if (extraWaitCount(bucket) == 0)
        return 0;
    return m_extra[std::size_t(bucket)].percentile(p) - successMedian();
}

} // namespace bullpen
