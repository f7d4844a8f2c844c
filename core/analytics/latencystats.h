// SPDX-License-Identifier: MIT
#pragma once

#include "store/store.h"

#include <QList>

#include <vector>

namespace bullpen {

// One time bucket of one provider and role: its completed attempts' durations, kept sorted so that a
// live attempt can be added without recomputing the others (SPEC 9.5).
struct LatencyBucket
{
    qint64 startMs = 0;
    std::vector<double> durations; // sorted
    qint64 successes = 0;

    qint64 count() const { return static_cast<qint64>(durations.size()); }
    double percentile(double p) const; // nearest rank; 0 when empty
    double successRate() const { return durations.empty() ? 0.0 : double(successes) / double(durations.size()); }
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
    // Many at once (a store load): appended, then each bucket sorted once.
    void addAll(const QList<LatencySample> &samples);
    const std::vector<LatencyBucket> &buckets() const { return m_buckets; }
    int bucketIndex(qint64 atMs) const;

    // Histogram over the whole range: per bin, successes and failures.
    const std::vector<qint64> &histogramSuccess() const { return m_histOk; }
    const std::vector<qint64> &histogramFailure() const { return m_histFail; }
    static int histogramBin(double durationMs);

    qint64 total() const { return m_total; }
    qint64 successes() const { return m_successes; }
    // Median of successful attempts over the whole range: what the primary "would have taken".
    double successMedian() const;

    // Extra wait that fallback added: for each relieved stage, the primary's time plus the relief's time
    // minus what the primary takes when it succeeds (its success median in this range).
    void setFallbackWaits(const QList<FallbackWait> &waits);
    int addFallbackWait(const FallbackWait &wait); // returns the bucket index or -1
    std::vector<double> extraWaits() const;        // every relieved stage's extra wait, unsorted
    const std::vector<std::vector<double>> &extraWaitBuckets() const { return m_extraRaw; }
    double extraWaitPercentile(int bucket, double p) const;
    static double percentileOf(std::vector<double> values, double p);

private:
    void ensureBucket(int index);

    qint64 m_fromMs = 0;
    qint64 m_toMs = 0;
    qint64 m_bucketMs = 3'600'000;
    std::vector<LatencyBucket> m_buckets;
    std::vector<qint64> m_histOk;
    std::vector<qint64> m_histFail;
    std::vector<double> m_successDurations; // sorted, for the success median
    qint64 m_total = 0;
    qint64 m_successes = 0;
    std::vector<std::vector<double>> m_extraRaw; // per bucket: primary + relief time (the median is subtracted when read)
};

} // namespace bullpen
