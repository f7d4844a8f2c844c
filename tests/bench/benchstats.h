// SPDX-License-Identifier: MIT
// Shared by the benchmark programs: percentiles of a sample, the median time of a repeated read, and the
// process's CPU time and memory.
#pragma once

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QTextStream>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <sys/resource.h>
#include <vector>

namespace bullpen::bench {

struct Sample
{
    std::vector<double> values;

    void add(double v) { values.push_back(v); }
    bool empty() const { return values.empty(); }
    double at(double p) const // nearest rank
    {
        if (values.empty())
            return 0;
        std::vector<double> v = values;
        std::sort(v.begin(), v.end());
        const auto n = v.size();
        const auto rank = static_cast<std::size_t>(p / 100.0 * double(n) + 0.999999);
        return v[std::clamp<std::size_t>(rank, 1, n) - 1];
    }
    double max() const { return values.empty() ? 0 : *std::max_element(values.begin(), values.end()); }
    // "median 0.31 · p90 0.40 · p99 0.82 · max 1.20 (n 500)"
    QString summary(int decimals = 2) const
    {
        return QStringLiteral("median %1 · p90 %2 · p99 %3 · max %4 (n %5)")
            .arg(at(50), 0, 'f', decimals)
            .arg(at(90), 0, 'f', decimals)
            .arg(at(99), 0, 'f', decimals)
            .arg(max(), 0, 'f', decimals)
            .arg(values.size());
    }
};

// The median wall time, in milliseconds, of `runs` calls of `f` (monotonic clock): what the benchmarks
// judge a repeated read by, so that one run disturbed by the machine's other work does not decide.
inline double medianMs(const std::function<void()> &f, int runs = 7)
{
    Sample t;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer timer;
        timer.start();
        f();
        t.add(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    return t.at(50);
}

// BENCH_TIGHTEN (see Judge): the factor, 1 when unset; a value that is not a factor above 0 ends the
// program with exit 2 before it measures anything.
inline double tightenFactor()
{
    const char *text = std::getenv("BENCH_TIGHTEN");
    const double f = text ? std::atof(text) : 1.0;
    if (f > 0)
        return f;
    std::fprintf(stderr, "BENCH_TIGHTEN=%s: give a factor above 0, e.g. BENCH_TIGHTEN=10\n", text);
    std::exit(2);
}

// `--help` or `-h` among the arguments: prints `usage` and returns true, and the program exits 0
// without running the benchmark.
inline bool helpRequested(int argc, char *argv[], const char *usage)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
            std::fputs(usage, stdout);
            return true;
        }
    }
    tightenFactor(); // a wrong BENCH_TIGHTEN is said now, not after minutes of measuring
    return false;
}

// User + system CPU of this process, in milliseconds.
inline double cpuMs()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000.0 + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1000.0;
}

// Linux schedstat of this process's threads whose name starts with `prefix` (or of the main thread for
// an empty prefix), summed: time on a core, time runnable but waiting for one, and the number of waits.
struct SchedTotals
{
    double cpuMs = 0;
    double waitMs = 0;
    qint64 waits = 0;
    int threads = 0;

    SchedTotals operator-(const SchedTotals &o) const { return { cpuMs - o.cpuMs, waitMs - o.waitMs, waits - o.waits, threads }; }
};

inline SchedTotals schedTotals(const QByteArray &prefix)
{
    SchedTotals t;
    QDir tasks(QStringLiteral("/proc/self/task"));
    const QString self = QString::number(QCoreApplication::applicationPid());
    const auto named = [&tasks](const QString &tid) {
        QFile comm(tasks.filePath(tid + QStringLiteral("/comm")));
        return comm.open(QIODevice::ReadOnly) ? comm.readAll() : QByteArray();
    };
    for (const QString &tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const bool wanted = prefix.isEmpty() ? tid == self : named(tid).startsWith(prefix);
        if (!wanted)
            continue;
        QFile f(tasks.filePath(tid + QStringLiteral("/schedstat"))); // "run ns, run-queue wait ns, slices"
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QList<QByteArray> fields = f.readAll().trimmed().split(' ');
        if (fields.size() < 3)
            continue;
        t.cpuMs += fields[0].toDouble() / 1e6;
        t.waitMs += fields[1].toDouble() / 1e6;
        t.waits += fields[2].toLongLong();
        ++t.threads;
    }
    return t;
}

// The fields of /proc/PID/stat after the command name (state first), or none.
inline QList<QByteArray> statFieldsOf(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray line = f.readAll();
    return line.mid(line.lastIndexOf(')') + 2).split(' ');
}

// User + system CPU of another process (from /proc), in milliseconds.
inline double cpuMsOf(qint64 pid)
{
    const QList<QByteArray> fields = statFieldsOf(pid);
    if (fields.size() < 13)
        return 0;
    const double ticks = double(sysconf(_SC_CLK_TCK));
    return (fields[11].toDouble() + fields[12].toDouble()) * 1000.0 / ticks; // utime, stime
}

// Minor page faults of another process so far (from /proc): a heap that returns its memory to the
// system and takes it back faults on every page again.
inline qint64 minorFaultsOf(qint64 pid)
{
    const QList<QByteArray> fields = statFieldsOf(pid);
    return fields.size() > 7 ? fields[7].toLongLong() : 0; // minflt
}

// Resident set size of this process, in MiB.
inline double residentMiB()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
    }
    return -1;
}

// A benchmark's verdict (docs/performance.md): every figure is printed as one JSON line (what
// scripts/bench.sh collects) and one line for people. A gated figure has a target and a missed one
// makes the program exit 1; gates are ratios and paired differences measured in the same run, or
// memory, which hold on a noisy machine. Absolute times are reported, never gated.
//
// BENCH_TIGHTEN=F (F > 1) tightens every target by F (an upper bound divided by F, a lower bound
// multiplied): the mutation that shows a benchmark can miss (docs/performance.md).
class Judge
{
public:
    explicit Judge(QString bench)
        : m_bench(std::move(bench))
        , m_tighten(tightenFactor())
    {
        if (m_tighten != 1.0)
            QTextStream(stdout) << QStringLiteral("  (BENCH_TIGHTEN=%1: every target tightened by that factor)\n").arg(m_tighten);
    }
    void atMost(const char *figure, double value, double bound, const char *unit, const QString &what = {})
    {
        gate(figure, value, bound, true, unit, what);
    }
    void atLeast(const char *figure, double value, double bound, const char *unit, const QString &what = {})
    {
        gate(figure, value, bound, false, unit, what);
    }
    void report(const char *figure, double value, const char *unit, const QString &what = {})
    {
        print(figure, value, unit, QJsonValue(), true, what);
    }
    bool met() const { return m_met; }
    int exitCode() const { return m_met ? 0 : 1; }

private:
    void gate(const char *figure, double value, double stated, bool atMost, const char *unit, const QString &what)
    {
        const double bound = atMost ? stated / m_tighten : stated * m_tighten;
        const bool ok = atMost ? value <= bound : value >= bound;
        m_met = m_met && ok;
        print(figure, value, unit, QStringLiteral("%1 %2").arg(atMost ? QStringLiteral("<=") : QStringLiteral(">=")).arg(bound), ok, what);
    }
    void print(const char *figure, double value, const char *unit, const QJsonValue &target, bool ok, const QString &what)
    {
        QTextStream out(stdout);
        out << QJsonDocument(QJsonObject { { QStringLiteral("bench"), m_bench },
                                           { QStringLiteral("figure"), QLatin1StringView(figure) },
                                           { QStringLiteral("value"), value },
                                           { QStringLiteral("unit"), QLatin1StringView(unit) },
                                           { QStringLiteral("target"), target },
                                           { QStringLiteral("met"), target.isNull() ? QJsonValue() : QJsonValue(ok) },
                                           { QStringLiteral("what"), what } })
                   .toJson(QJsonDocument::Compact)
            << '\n';
        out << QStringLiteral("  %1 %2 %3%4%5\n")
                   .arg(QLatin1StringView(figure), -40)
                   .arg(value, 12, 'f', 3)
                   .arg(QLatin1StringView(unit))
                   .arg(target.isNull() ? QString() : QStringLiteral("  target %1").arg(target.toString()))
                   .arg(target.isNull() ? QString()
                            : ok        ? QStringLiteral("  met")
                                        : QStringLiteral("  MISSED"));
    }
    QString m_bench;
    double m_tighten = 1.0;
    bool m_met = true;
};

// The week bench_store filled in a data dir, noted for bench_tune (the gate fills it once for both):
// "bench-history attempts end_ms" in DIR/bench-history.txt.
inline bool writeHistoryNote(const QString &dir, qint64 attempts, qint64 endMs, QString *error)
{
    QFile f(QDir(dir).filePath(QStringLiteral("bench-history.txt")));
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        *error = QStringLiteral("cannot write %1: %2").arg(f.fileName(), f.errorString());
        return false;
    }
    f.write(QStringLiteral("bench-history %1 %2\n").arg(attempts).arg(endMs).toLatin1());
    return true;
}

// The end of the week noted in DIR, when it holds `attempts` attempts; nothing, and why, otherwise.
inline std::optional<qint64> readHistoryNote(const QString &dir, qint64 attempts, QString *why)
{
    QFile f(QDir(dir).filePath(QStringLiteral("bench-history.txt")));
    if (!f.open(QIODevice::ReadOnly)) {
        *why = QStringLiteral("no bench-history.txt there (bench_store did not fill it)");
        return std::nullopt;
    }
    const QList<QByteArray> words = f.readLine(128).trimmed().split(' ');
    bool countOk = false;
    bool endOk = false;
    const qint64 count = words.size() == 3 && words[0] == "bench-history" ? words[1].toLongLong(&countOk) : 0;
    const qint64 end = countOk ? words[2].toLongLong(&endOk) : 0;
    if (!endOk) {
        *why = QStringLiteral("%1 is not bench_store's note").arg(f.fileName());
        return std::nullopt;
    }
    if (count != attempts) {
        *why = QStringLiteral("it holds %1 attempts, not %2").arg(count).arg(attempts);
        return std::nullopt;
    }
    return end;
}

} // namespace bullpen::bench
