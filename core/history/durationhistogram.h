// SPDX-License-Identifier: MIT
#pragma once

#include <QtGlobal>

#include <vector>

namespace bullpen {

// Durations counted in log-spaced bins, so that percentiles can be kept per hour in the store and
// merged over any range (docs/store.md, "Hourly aggregates"). Bin 0 holds durations under 1 ms; bin k
// (1 ≤ k < kBins - 1) holds [r^(k-1), r^k) ms with r = 1.05; the last bin is open-ended (from about
// 7 hours). A bin stands for its geometric middle, so a percentile read from the bins is within 2.5 %
// of the exact one (r^½ − 1 = 2.47 %), and within 0.5 ms under 1 ms.
class DurationHistogram final
{
public:
    static constexpr int kBins = 352;
    static constexpr double kRatio = 1.05;
    // The largest relative error of a percentile above 1 ms.
    static double relativeError();

    static int binOf(double durationMs);
    static double valueOf(int bin); // the duration a bin stands for
    static double lowerEdge(int bin);

    void add(double durationMs, qint64 count = 1) { addToBin(binOf(durationMs), count); }
    void addToBin(int bin, qint64 count);
    void merge(const DurationHistogram &other);

    qint64 total() const { return m_total; }
    bool isEmpty() const { return m_total == 0; }
    // Nearest rank, as LatencyStats always read them: the value of the bin holding rank ⌈p/100·n⌉.
    // 0 when empty.
    double percentile(double p) const;
    qint64 countInBin(int bin) const;
    // The bins that hold anything, lowest first (for storing and sending).
    std::vector<std::pair<int, qint64>> nonEmptyBins() const;

private:
    std::vector<qint64> m_counts; // sized on first use: most buckets of a long range stay empty
    qint64 m_total = 0;
};

} // namespace bullpen
