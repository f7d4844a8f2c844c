// SPDX-License-Identifier: MIT
// bench_console: the console's history views over a store with one million attempts. Fills a
// store over 7 days (HistoryFiller), then times, on the real widgets with a real SQLite file:
//   - opening the failures view: first page in the table, then the charts (reader thread);
//   - applying a filter (public code): table reset, then charts;
//   - scrolling the failures table to the end (fetchMore page by page, as QTableView asks for it; each
//     page read on the reader thread);
//   - building the latency chart for 7 days at 1-hour buckets: reading + statistics, then drawing.
// Prints medians (and p90 where repeated) over several runs. Not part of the test run:
//   build/dev/tests/bench/bench_console [attempts] [runs]
#include "benchstats.h"
#include "devsupport/historyfiller.h"
#include "models/failurehistorymodel.h"
#include "models/historyqueue.h"
#include "store/store.h"
#include "views/failuresview.h"
#include "views/latencyview.h"

#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>
#include <vector>

using namespace bullpen;

namespace {

struct Figures
{
    std::vector<double> values;
    void add(double v) { values.push_back(v); }
    double at(double p) const
    {
        std::vector<double> v = values;
        std::sort(v.begin(), v.end());
        return v.empty() ? 0 : v[std::min(v.size() - 1, std::size_t(p / 100.0 * double(v.size())))];
    }
};

double ms(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

bool waitFor(QSignalSpy &spy, int timeoutMs = 60'000)
{
    return !spy.isEmpty() || spy.wait(timeoutMs);
}

long residentKb()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLong();
    }
    return -1;
}

constexpr char kUsage[] = R"(bench_console: the console's history views over a store with N attempts (default 1,000,000) on the real
widgets: opening the failures view, filtering, scrolling to the end, the latency chart. Prints medians and
p90; states no target (the dashboards' reads are judged by bench_store).
  bench_console [attempts] [runs, default 5]
)";

} // namespace

int main(int argc, char *argv[])
{
    if (bench::helpRequested(argc, argv, kUsage))
        return 0;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QTextStream out(stdout);
    const qint64 attempts = argc > 1 ? QString::fromLatin1(argv[1]).toLongLong() : 1'000'000;
    const int runs = argc > 2 ? QString::fromLatin1(argv[2]).toInt() : 5;
    QTemporaryDir dir;
    QString error;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    HistoryFillResult filled;
    const std::unique_ptr<Store> store = HistoryFiller::filledStore(StoreLocation::sqliteIn(dir.path()),
                                                                    { attempts, now - 7LL * 24 * 3'600'000, now, 42, {} }, &filled, &error);
    if (!store) {
        out << "bench_console: " << error << "\n";
        return 1;
    }
    out << QStringLiteral("store: %L1 attempts, %L2 generations over 7 days, filled in %3 s; %4 runs each\n")
               .arg(filled.attempts)
               .arg(filled.generations)
               .arg(double(filled.elapsedMs) / 1000.0, 0, 'f', 1)
               .arg(runs);

    HistoryQueue queue(store.get());
    Figures openTable, openCharts, filterTable, filterCharts, scrollAll, scrollPage, latencyLoad, latencyDraw, latencyTotal;
    qint64 scrolledRows = 0;
    int latencyPoints = 0;
    qint64 latencySamples = 0;
    for (int run = 0; run < runs; ++run) {
        // Opening: construct the view (its first page is read in the constructor), then the charts.
        QElapsedTimer t;
        t.start();
        auto *view = new FailuresView(store.get(), &queue, ProviderTable());
        QSignalSpy charts(view, &FailuresView::chartsUpdated);
        QSignalSpy paged(view->model(), &FailureHistoryModel::pageLoaded);
        view->resize(1280, 800);
        view->show();
        if (!waitFor(paged))
            return 2;
        openTable.add(ms(t));
        if (!waitFor(charts))
            return 2;
        openCharts.add(ms(t));

        // A filter: one public code, over the same 7 days.
        charts.clear();
        auto *code = view->findChild<QComboBox *>(QStringLiteral("codeCombo"));
        code->setCurrentIndex(code->findData(run % 2 ? QStringLiteral("AI_PROVIDER_TIMEOUT") : QStringLiteral("AI_PROVIDER_ERROR")));
        t.restart();
        paged.clear();
        view->applyFilter();
        if (!waitFor(paged))
            return 2;
        filterTable.add(ms(t));
        if (!waitFor(charts))
            return 2;
        filterCharts.add(ms(t));

        // Scrolling to the end of all failures: the table asks for more as it reaches the bottom.
        code->setCurrentIndex(0);
        charts.clear();
        view->applyFilter();
        waitFor(charts);
        QTableView *table = view->table();
        t.restart();
        int pages = 0;
        while (!view->model()->isExhausted()) {
            QElapsedTimer page;
            page.start();
            table->scrollToBottom();
            QApplication::processEvents(); // QTableView calls fetchMore() from here; the reader thread reads the page
            while (view->model()->isLoading())
                QApplication::processEvents(QEventLoop::WaitForMoreEvents);
            scrollPage.add(ms(page));
            ++pages;
            if (pages > 100'000)
                break;
        }
        table->scrollToBottom();
        QApplication::processEvents();
        scrollAll.add(ms(t));
        scrolledRows = view->model()->rowCount();
        delete view;

        // Latency: 7 days at 1-hour buckets for gemini as primary (storyboard).
        auto *latency = new LatencyView(store.get(), &queue, ProviderTable());
        QSignalSpy loaded(latency, &LatencyView::loaded);
        latency->resize(1280, 800);
        latency->show();
        waitFor(loaded); // the constructor's default range
        loaded.clear();
        latency->setSelection(QStringLiteral("gemini"), QStringLiteral("primary"), QStringLiteral("storyboard"));
        latency->setRange(7LL * 24 * 3'600'000, 3'600'000);
        t.restart();
        latency->reload();
        if (!waitFor(loaded))
            return 2;
        QApplication::processEvents(); // painted
        latencyTotal.add(ms(t));
        latencyLoad.add(latency->lastLoadMs());
        latencyDraw.add(latency->lastDrawMs());
        latencyPoints = latency->pointCount();
        latencySamples = latency->stats().total();
        delete latency;
    }

    auto row = [&](const QString &name, const Figures &f) {
        out << QStringLiteral("  %1 %2 %3\n").arg(name, -58).arg(f.at(50), 10, 'f', 1).arg(f.at(90), 10, 'f', 1);
    };
    out << QStringLiteral("  %1 %2 %3\n")
               .arg(QStringLiteral("measure (ms)"), -58)
               .arg(QStringLiteral("median"), 10)
               .arg(QStringLiteral("p90"), 10);
    row(QStringLiteral("failures view: open, first page shown"), openTable);
    row(QStringLiteral("failures view: open, charts drawn (background)"), openCharts);
    row(QStringLiteral("failures view: filter by public code, table"), filterTable);
    row(QStringLiteral("failures view: filter by public code, charts"), filterCharts);
    row(QStringLiteral("failures view: scroll to the end (%L1 rows)").arg(scrolledRows), scrollAll);
    row(QStringLiteral("failures view: one page of %1, asked → shown").arg(FailureHistoryModel::kPageSize), scrollPage);
    row(QStringLiteral("latency 7 d / 1 h: read + statistics (%L1 attempts)").arg(latencySamples), latencyLoad);
    row(QStringLiteral("latency 7 d / 1 h: draw %1 points, histogram, extra wait").arg(latencyPoints), latencyDraw);
    row(QStringLiteral("latency 7 d / 1 h: reload to painted"), latencyTotal);
    out << QStringLiteral("  resident memory at the end: %1 MiB\n").arg(double(residentKb()) / 1024.0, 0, 'f', 0);
    return 0;
}
