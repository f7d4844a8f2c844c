// SPDX-License-Identifier: MIT
// bench_tuneagree: the tuner checked against reality (docs/contract.md §17 against §14). For sampled
// generations of a history of mixed scenarios (HistoryFiller, as tst_cost seeds it), the tuner's
// prediction of each one under a candidate beside `bullpen-cli replay GEN --settings` of that generation
// under the same candidate: outcome equal, stage latency within the replay's tolerance
// (ReplayAgreement). Replays run in real time, a few at once. Judges kUsage's target.
//   build/release/tests/bench/bench_tuneagree [on-record [at-once]]
#include "benchstats.h"
#include "devsupport/historyfiller.h"
#include "replay/replayagreement.h"
#include "replay/replaysource.h"
#include "store/store.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>

#include <limits>
#include <memory>
#include <vector>

using namespace bullpen;
using namespace std::chrono_literals;

namespace {

// The target, stated before the first measurement and never fitted to it: of the sampled generations
// whose prediction rests on their own record, at most 5 % disagree with their replay.
constexpr double kMaxDisagreementPercent = 5;
// Generations whose prediction rests on a stand-in (a censored primary, an imputed fallback): their
// replay plays what the record does not hold (the simulator's own healthy answer), so their figure is
// printed, not judged.
constexpr int kStandIns = 3; // per candidate
// Primary timeouts far below today's 60 s: 2 s cuts nearly every healthy-but-slow primary (about 4 s
// median) and every recorded 60 s hang, 8 s lets nearly every healthy primary answer and still cuts the
// hangs; with a fallback timeout that cuts the slower half of the fallback's recorded answers. Both
// timeouts decide outcomes, and each replay ends within seconds.
// The third is the other preset (capacity: only a capacity failure falls back) under the second's timeouts.
const TuneCandidate kCandidates[] { { 2s, 5s, false }, { 8s, 5s, false }, { 8s, 5s, false, QStringLiteral("capacity") } };
constexpr qint64 kHistoryAttempts = 4'000;
constexpr quint32 kSeed = 7;

constexpr char kUsage[] = R"(bench_tuneagree: the tuner's per-generation predictions against real replays (docs/contract.md §17).
A history of mixed scenarios (HistoryFiller, 4,000 attempts, seed 7), the tuner over it under three
candidates (primary timeout 2 s and 8 s, fallback timeout 5 s, preset relief; and 8 s / 5 s under the
other preset, capacity), then `bullpen-cli replay GEN --settings
FILE --json --no-store` of sampled generations under the same candidate, AT-ONCE at a time (default 3).
Judges: of ON-RECORD generations per candidate (default 15) whose prediction rests on their own record,
agreement >= 95 %, i.e. disagreement <= 5 % (outcome, fallback called/answered, or stage latency outside
10 % / 50 ms). Also prints the figure for 3 generations per candidate predicted on a stand-in (censored
or imputed), not judged. BENCH_TIGHTEN=F tightens it F times.
  bench_tuneagree [on-record [at-once]]
)";

// One sampled generation: its prediction, the settings file of its replay, and what the replay did.
struct Check
{
    TuneCandidate candidate;
    PredictedGeneration prediction;
    QString settingsFile;
    std::optional<ReplayRun> replayed;
    QString error;

    bool standIn() const { return prediction.censored || prediction.imputed; }
};

// The generation's recorded policy with the candidate's timeouts: the settings file of its replay.
bool writeSettings(Store &store, const QString &id, const TuneCandidate &candidate, const QString &path, QString *error)
{
    const std::optional<ReplaySource> source = ReplaySource::read(store, id, error);
    if (!source || !source->policy) {
        *error = id + QStringLiteral(": no policy to replay: ") + *error;
        return false;
    }
    RecordedPolicy policy = *source->policy;
    policy.primaryTimeout = candidate.primaryTimeout;
    policy.fallbackTimeout = candidate.fallbackTimeout;
    policy.preset = candidate.preset;
    QFile f(path);
    const QByteArray json = QJsonDocument(policy.settingsJson(ProviderTable())).toJson();
    if (f.open(QIODevice::WriteOnly) && f.write(json) == json.size())
        return true;
    *error = path + QStringLiteral(": cannot be written");
    return false;
}

// The history, the tuner over it, and the sample, for each candidate: the first `onRecord` generations
// (in the store's order) predicted from their record, and the first kStandIns predicted on a stand-in.
std::vector<Check> sample(const QTemporaryDir &dir, int onRecord, QString *error)
{
    const std::optional<StoreLocation> location = StoreLocation::resolve(dir.path(), QProcessEnvironment(), error);
    std::unique_ptr<Store> store = location ? Store::open(*location, error) : nullptr;
    if (!store)
        return {};
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (const HistoryFillResult filled = HistoryFiller::fill(*location, { kHistoryAttempts, now - 86'400'000, now, kSeed, {}, 0, true });
        !filled.error.isEmpty()) {
        *error = filled.error;
        return {};
    }
    Tuner tuner(Stage::Storyboard);
    tuner.keepIds();
    if (!store->forEachAttempt(
            Stage::Storyboard, 0, std::numeric_limits<qint64>::max(), [&tuner](const TraceAttempt &a) { tuner.add(a); }, error))
        return {};
    std::vector<Check> checks;
    for (const TuneCandidate &candidate : kCandidates) {
        int taken[2] = { 0, 0 };
        for (const PredictedGeneration &g : tuner.generations(candidate)) {
            Check c { candidate, g, {}, std::nullopt, {} };
            int &n = taken[c.standIn() ? 1 : 0];
            if (n >= (c.standIn() ? kStandIns : onRecord))
                continue;
            ++n;
            c.settingsFile = dir.filePath(QStringLiteral("candidate-%1.json").arg(checks.size()));
            if (!writeSettings(*store, g.generationId, candidate, c.settingsFile, error))
                return {};
            checks.push_back(std::move(c));
        }
        if (taken[0] < onRecord) { // the judged sample; fewer stand-ins only shrink the printed figure
            *error = QStringLiteral("the history holds %1 generations predicted from their record under %2/%3 ms; fewer than asked")
                         .arg(taken[0])
                         .arg(candidate.primaryTimeout.count())
                         .arg(candidate.fallbackTimeout.count());
            return {};
        }
    }
    return checks;
}

// `bullpen-cli replay ID --settings FILE --json --no-store` for every check, `atOnce` at a time, on
// this process's event loop; each result lands in its check.
class Replays final : public QObject
{
public:
    Replays(const QTemporaryDir &dir, std::vector<Check> &checks, int atOnce)
        : m_dir(dir)
        , m_checks(checks)
        , m_atOnce(atOnce)
    {
        m_env = QProcessEnvironment::systemEnvironment();
        m_env.insert(QStringLiteral("HOME"), dir.path()); // no user settings
        m_env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    }

    void run()
    {
        for (int i = 0; i < m_atOnce; ++i)
            startNext();
        if (m_done < m_checks.size())
            QCoreApplication::exec();
    }

private:
    void startNext()
    {
        if (m_next >= m_checks.size())
            return;
        Check &c = m_checks[m_next++];
        QProcess *p = m_running.emplace_back(std::make_unique<QProcess>()).get();
        p->setProcessEnvironment(m_env);
        connect(p, &QProcess::finished, this, [this, p, &c](int code) {
            const QJsonObject out = QJsonDocument::fromJson(p->readAllStandardOutput()).object();
            if (code == 0 && out.contains(QLatin1StringView("replayed")))
                c.replayed = ReplayRun::fromJson(out.value(QLatin1StringView("replayed")).toObject());
            else
                c.error = QStringLiteral("exit %1: %2").arg(code).arg(QString::fromUtf8(p->readAllStandardError()).trimmed());
            if (++m_done == m_checks.size())
                QCoreApplication::exit(0);
            startNext();
        });
        p->start(QStringLiteral(BULLPEN_CLI),
                 { QStringLiteral("replay"), c.prediction.generationId, QStringLiteral("--settings"), c.settingsFile,
                   QStringLiteral("--json"), QStringLiteral("--no-store"), QStringLiteral("--data-dir"), m_dir.path() });
    }

    const QTemporaryDir &m_dir;
    std::vector<Check> &m_checks;
    int m_atOnce;
    QProcessEnvironment m_env;
    std::size_t m_next = 0;
    std::size_t m_done = 0;
    std::vector<std::unique_ptr<QProcess>> m_running;
};

} // namespace

int main(int argc, char *argv[])
{
    if (bench::helpRequested(argc, argv, kUsage))
        return 0;
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int onRecord = args.size() > 1 ? args.at(1).toInt() : 15;
    const int atOnce = args.size() > 2 ? args.at(2).toInt() : 3;
    QTextStream out(stdout);
    if (onRecord < 1 || atOnce < 1) {
        QTextStream(stderr) << "bench_tuneagree: give on-record and at-once as whole numbers above 0\n" << kUsage;
        return 2;
    }
    QTemporaryDir dir;
    QString error;
    std::vector<Check> checks = sample(dir, onRecord, &error);
    if (!error.isEmpty()) {
        QTextStream(stderr) << "bench_tuneagree: " << error << "\n";
        return 2;
    }
    QElapsedTimer clock;
    clock.start();
    Replays(dir, checks, atOnce).run();
    const double seconds = static_cast<double>(clock.elapsed()) / 1000.0;
    int disagree[2] = { 0, 0 };
    int byPrimary = 0, byFallback = 0, failed = 0; // the predicted outcomes of the sample, on record
    for (const Check &c : checks) {
        if (!c.standIn())
            (c.prediction.fallbackAnswered ? byFallback : c.prediction.success ? byPrimary : failed) += 1;
        if (!c.replayed) {
            QTextStream(stderr) << "bench_tuneagree: the replay of " << c.prediction.generationId << " did not run: " << c.error << "\n";
            return 2;
        }
        const ReplayAgreement a = ReplayAgreement::judge(c.prediction, *c.replayed, Stage::Storyboard);
        disagree[c.standIn() ? 1 : 0] += a.agrees ? 0 : 1;
        if (!a.agrees)
            out << "  " << c.prediction.generationId.left(20) << " at " << c.candidate.primaryTimeout.count() << "/"
                << c.candidate.fallbackTimeout.count() << " ms " << c.candidate.preset << (c.standIn() ? " (stand-in): " : " (on record): ")
                << a.difference << "\n";
    }
    out << QStringLiteral("  %1 replays in %2 s, %3 at a time, under %4 candidates (primary/fallback timeout in ms, preset:")
               .arg(checks.size())
               .arg(seconds, 0, 'f', 1)
               .arg(atOnce)
               .arg(std::size(kCandidates));
    for (const TuneCandidate &c : kCandidates)
        out << " " << c.primaryTimeout.count() << "/" << c.fallbackTimeout.count() << " " << c.preset;
    out << ")\n";
    out << QStringLiteral("  predicted from their record: %1 answered by the primary, %2 by the fallback, %3 failed\n")
               .arg(byPrimary)
               .arg(byFallback)
               .arg(failed);
    bench::Judge judge(QStringLiteral("bench_tuneagree"));
    // Gated as agreement (at least 95 %, the same bound as disagreement at most 5 %), so that
    // BENCH_TIGHTEN can make it miss even when nothing disagrees.
    const int judged = onRecord * static_cast<int>(std::size(kCandidates));
    const int standIns = static_cast<int>(checks.size()) - judged;
    const double disagreement = 100.0 * disagree[0] / judged;
    judge.atLeast("agreement_on_record", 100.0 - disagreement, 100.0 - kMaxDisagreementPercent, "%",
                  QStringLiteral("of %1 generations predicted from their record, those whose replay under the same candidate "
                                 "ends the same way within the replay's tolerance")
                      .arg(judged));
    judge.report("disagreement_on_record", disagreement, "%",
                 QStringLiteral("of %1 generations predicted from their record, those whose replay under the same candidate "
                                "differs in outcome or stage latency")
                     .arg(judged));
    judge.report("disagreement_stand_in", standIns > 0 ? 100.0 * disagree[1] / standIns : 0.0, "%",
                 QStringLiteral("of %1 generations predicted on a stand-in (censored or imputed), not judged").arg(standIns));
    return judge.exitCode();
}
