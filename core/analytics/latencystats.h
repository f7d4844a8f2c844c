// SPDX-License-Identifier: MIT
#pragma once

#include "history/durationhistogram.h"
#include "history/historyreader.h"

#include <QList>

#include <vector>

namespace bullpen {

// One time bucket of one provider and role: its completed attempts' durations in log-spaced bins, so
// that a live attempt is added in constant time (docs/contract.md §9.5) and the store's hourly aggregates load as
// they are. Percentiles are within DurationHistogram::relativeError() of the exact ones.
struct LatencyBucket
{
    qint64 startMs = 0;
    DurationHistogram durations;
    qint64 successes = 0;

    qint64 count() const { return durations.total(); }
    bool isEmpty() const { return durations.isEmpty(); }
    double percentile(double p) const { return durations.percentile(p); } // nearest rank; 0 when empty
    double successRate() const { return count() == 0 ? 0.0 : double(successes) / double(count()); }
};

// Percentiles over time, a histogram and the extra wait fallback added, for one provider and role in a
// time range. Built once from the store (off the GUI thread) and then updated one attempt at a time.
class LatencyStats final
{
public:
    // Histogram bin edges in milliseconds; the last bin is open-ended.
    static const std::vector<double> &histogramEdges();

    LatencyStats() = default;
    LatencyStats(qint64 fromMs, qint64 toMs, qint64 bucketMs);

    qint64 fromMs() const { return m_fromMs; }
    qint64 toMs() const { return m_toMs; }
    qint64 bucketMs() const { return m_bucketMs; }

    // Adds one attempt; returns the index of the bucket it went to, or -1 if it lies outside the range.
    // Samples past the end extend the range (a live view keeps running).
    int add(const LatencySample &sample);
    void addAll(const QList<LatencySample> &samples);
    // A store load: attempts already counted per bucket and bin (HistoryReader::latencyHistogram).
    void addCells(const QList<DurationCell> &cells);
    const std::vector<LatencyBucket> &buckets() const { return m_buckets; }
    int bucketIndex(qint64 atMs) const;

    // Histogram over the whole range: per bin, successes and failures.
    const std::vector<qint64> &histogramSuccess() const { return m_histOk; }
    const std::vector<qint64> &histogramFailure() const { return m_histFail; }
    static int histogramBin(double durationMs);

    qint64 total() const { return m_all.total(); }
    qint64 successes() const { return m_successes; }
    // Over the whole range.
    double percentile(double p) const { return m_all.percentile(p); }
    // Median of successful attempts over the whole range: what the primary "would have taken".
    double successMedian() const { return m_successHist.percentile(50); }

    // Extra wait that fallback added: for each stage handed to the fallback, the primary's time plus the fallback's time
    // minus what the primary takes when it succeeds (its success median in this range).
    void setFallbackWaits(const QList<FallbackWait> &waits);
    int addFallbackWait(const FallbackWait &wait); // returns the bucket index or -1
    // A store load: stages handed to the fallback already counted per bucket and bin (the caller keeps the cells of
    // the provider and role shown).
    void setFallbackWaitCells(const QList<FallbackWaitCell> &cells);
    qint64 extraWaitCount() const { return m_extraAll.total(); }
    qint64 extraWaitCount(int bucket) const;
    double extraWaitPercentile(double p) const; // over the whole range
    double extraWaitPercentile(int bucket, double p) const;

private:
    void ensureBucket(int index);
    void countInHistogram(double durationMs, qint64 n, bool success);

    qint64 m_fromMs = 0;
    qint64 m_toMs = 0;
    qint64 m_bucketMs = 3'600'000;
    std::vector<LatencyBucket> m_buckets;
    std::vector<qint64> m_histOk;
    std::vector<qint64> m_histFail;
    DurationHistogram m_all;
    DurationHistogram m_successHist; // for the success median
    qint64 m_successes = 0;
    std::vector<DurationHistogram> m_extra; // per bucket: primary + fallback time (the median is subtracted when read)
    DurationHistogram m_extraAll;
};

} // namespace bullpen
