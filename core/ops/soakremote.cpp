// SPDX-License-Identifier: MIT
#include "config/exitcode.h"
#include "config/settings.h"
#include "contract/providerregistry.h"
#include "engine/stageservice.h"
#include "ops/interrupts.h"
#include "ops/soakledger.h"
#include "ops/soakrun.h"
#include "remote/remoteengine.h"
#include "remote/remotehistory.h"
#include "runtime/enginesetup.h"
#include "runtime/enginestack.h"
#include "runtime/localengine.h"
#include "runtime/logsink.h"
#include "sim/providersimulator.h"
#include "sim/simulatorthread.h"
#include "store/masking.h"
#include "store/owner.h"
#include "store/store.h"
#include "wire/apiroutes.h"
#include "wire/engineconfigjson.h"
#include "wire/storyboardpolicyjson.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <map>
#include <set>

namespace bullpen::ops {

using namespace std::chrono;

namespace {

// The counters `GET /metrics` gives a soak: what the engine's built-in simulator received per provider
// (present only when the engine runs on it), and how many generations the engine has started in all.
struct EngineCounters
{
    std::map<Provider, int> simulatorRequests;
    bool hasSimulator = false;
    qint64 started = -1;
};

// One GET of the read-back, patient with the engine's rate: a 429 (the same token has just sent a whole
// run) is asked again a second later, for up to a minute.
RemoteHistory::Answer readBack(RemoteHistory &engine, const QString &path)
{
    QElapsedTimer patience;
    patience.start();
    for (;;) {
        RemoteHistory::Answer a = engine.get(path);
        if ((a.status != 429 && a.status != 503) || patience.hasExpired(60'000))
            return a;
        QThread::sleep(1);
    }
}

std::optional<EngineCounters> readCounters(RemoteHistory &engine, QString *error)
{
    const RemoteHistory::Answer a = readBack(engine, ApiRoutes::path(ApiRoute::Metrics));
    if (!a.error.isEmpty()) {
        *error = a.error;
        return std::nullopt;
    }
    EngineCounters c;
    for (const QByteArray &line : a.body.split('\n')) {
        if (line.startsWith("bullpen_generations_started_total ")) {
            c.started = line.mid(line.indexOf(' ') + 1).toLongLong();
        } else if (line.startsWith("bullpen_simulator_requests_total{provider=\"")) {
            const qsizetype from = line.indexOf('"') + 1;
            const auto provider = providerFromId(QString::fromLatin1(line.mid(from, line.indexOf('"', from) - from)));
            if (provider) {
                c.simulatorRequests[*provider] = line.mid(line.lastIndexOf(' ') + 1).toInt();
                c.hasSimulator = true;
            }
        }
    }
    return c;
}

// One engine of `soak --engine URL[,URL…]`: its API client, its history reader, and what the run saw of it.
struct EngineLane
{
    EngineEndpoint endpoint;
    std::unique_ptr<RemoteHistory> reader;
    std::unique_ptr<RemoteEngine> engine;
    QJsonObject config;
    std::optional<EngineCounters> before;
    bool up = false;
    bool lost = false; // its stream ended during the run (killed, restarted, cut off)
    qint64 lostAtMs = 0; // the last time it did
    std::set<QString> inFlight;
    int ran = 0;
    std::set<QString> relayedFinished; // other engines' generations whose end this engine's stream carried
};

// A remote run that has ended nothing for 20 s says, every 10 s, what it waits on: its own slots and
// each engine client's state (stderr, flushed at once: a stall must be readable while it lasts).
void reportIfStalled(QTextStream &err, const QElapsedTimer &sinceLastEnd, std::size_t inFlight, int waiting,
                     const std::vector<EngineLane> &lanes)
{
    const qint64 quiet = sinceLastEnd.isValid() ? sinceLastEnd.elapsed() : 0; // monotonic: a wall-clock step is no stall
    if (quiet < 20'000 || (inFlight == 0 && waiting == 0))
        return;
    err << "bullpen-cli soak: nothing has ended for " << quiet / 1000 << " s; " << inFlight << " in flight, " << waiting
        << " waiting to be sent\n";
    for (const EngineLane &l : lanes)
        err << "  " << l.engine->describeState() << (l.up ? "" : " (down)") << "; " << l.engine->pendingSummary() << "\n";
    err.flush();
}

// "bullpen-cli soak: 1500 generations on URL (engine-2), …"; the engines' names, for the report.
QStringList announceRun(QTextStream &err, const std::vector<EngineLane> &lanes, int total, qsizetype scenarios, int inFlight)
{
    QStringList names;
    for (const EngineLane &lane : lanes)
        names << lane.endpoint.display() + QStringLiteral(" (") + EngineConfigJson::identity(lane.config).instance + QLatin1Char(')');
    err << "bullpen-cli soak: " << total << " generations on " << names.join(QStringLiteral(", ")) << ", " << scenarios
        << " scenario(s), concurrency " << inFlight << "\n";
    err.flush();
    return names;
}

// A generation whose engine was lost while it ran: judged from the store alone (docs/contract.md §12.2's leases).
struct Orphan
{
    int lane = 0;
    qint64 lostAtMs = 0; // 0: not known (its result said ABANDONED; through a balancer no lane was lost)
};

// A generation that ran and answered, with the engine (lane) that ran it.
struct Answered
{
    QString id;
    FinalState state;
    int lane;
    qint64 atMs;
};

// What reading the run back from the history found (invariants 6, 7, 9, 10).
struct ReadBack
{
    int checked = 0;
    int answeredNotCommitted = 0; // answered by an engine that was then lost before its writer committed it
    qint64 attempts = 0;
    std::map<QString, std::set<QString>> keysOfUser; // raw user → the keyed hashes the history gave it (one per deployment)
    std::set<QString> instancesSeen;
    int orphansFinal = 0, orphansAbandoned = 0, orphansUnrecorded = 0;
    qint64 abandonedMaxMs = 0;
};

// `soak --engine URL[,URL…]`: the load test of running bullpen-engines. The same requests, through their
// API, spread round-robin over the engines that are up; each generation judged from the events its
// stream carried and the result it answered, then read back from the history (the records the engines
// wrote; with several engines, through another engine than the one that ran it: one store), and the
// simulators' request counts from /metrics. An engine that is lost mid-run (killed and restarted) gets
// no new work until its stream is back; what it was running is judged from the store: final, within
// two lease periods of the loss when abandoned (`--lease`, the engines' lease).
// Plan (open), run, judge (relays, counters, history, orphans), report: one member each.
class RemoteSoak
{
public:
    RemoteSoak(const SoakOptions &options, milliseconds lease, QTextStream &out, QTextStream &err)
        : o(options)
        , m_lease(lease)
        , m_out(out)
        , m_err(err)
        , m_ledger(options.policy.effectiveBudget())
    {
    }

    // The engines: their config, counters and clients. False (said on stderr) when one cannot be used.
    bool open(const QList<EngineEndpoint> &endpoints);
    // Runs every generation; false when an engine refused the client (said on stderr).
    bool run();
    int judgeAndReport();

private:
    void send(int slot);
    void sendLater(int slot, milliseconds delay);
    void startNext()
    {
        if (!m_interrupted && m_started < o.total)
            send(m_started++);
    }
    void maybeQuit()
    {
        if (m_slotOf.empty() && m_waiting == 0 && (m_interrupted || m_started >= o.total))
            QCoreApplication::quit();
    }
    void onEvent(std::size_t lane, const Event &e);
    void onFinished(std::size_t lane, const GenerationResult &g);
    void onStateChanged(std::size_t lane, RemoteEngine::State state);
    QStringList judgeRelays();
    void judgeCounters(int admitted, bool anyLost);
    RemoteHistory *readerFor(int lane);
    void noteRow(ReadBack &r, const QString &id, const QJsonObject &row);
    void readBackFinished(ReadBack &r);
    void readBackOrphans(ReadBack &r);
    QJsonObject summary(const ReadBack &r, int admitted) const;
    QString recordsLine(const ReadBack &r, int admitted, const QStringList &relayLines, bool anyLost) const;

    const SoakOptions &o;
    const milliseconds m_lease;
    QTextStream &m_out;
    QTextStream &m_err;
    SoakLedger m_ledger;
    std::vector<EngineLane> m_lanes;
    QStringList m_scenarios;
    bool m_onSimulator = true;
    std::map<QString, int> m_slotOf; // generation id → its slot (its story and scenario), while it runs
    std::map<QString, int> m_laneOf; // generation id → the engine it was sent to
    std::vector<Answered> m_finished; // the generations that ran and answered
    std::map<QString, Orphan> m_orphans;
    int m_started = 0; // slots handed out; a refused start keeps its slot and tries again
    int m_refused = 0;
    int m_waiting = 0; // refused slots waiting out their Retry-After, or for an engine to be up
    int m_nextLane = 0;
    bool m_interrupted = false;
    bool m_sending = false;
    QElapsedTimer m_wall;
    QElapsedTimer m_sinceLastEnd; // since the last generation that ended (started with the run)
    QStringList m_names;
};

bool RemoteSoak::open(const QList<EngineEndpoint> &endpoints)
{
    QString why;
    m_lanes.resize(std::size_t(endpoints.size()));
    for (std::size_t i = 0; i < m_lanes.size(); ++i) {
        EngineLane &lane = m_lanes[i];
        lane.endpoint = endpoints.at(qsizetype(i));
        lane.reader = std::make_unique<RemoteHistory>(lane.endpoint);
        const auto config = lane.reader->getObject(ApiRoutes::path(ApiRoute::Config), {}, &why);
        if (!config) {
            m_err << "bullpen-cli soak: " << why << "\n";
            return false;
        }
        lane.config = *config;
        m_onSimulator = m_onSimulator && EngineConfigJson::identity(*config).simulator;
        lane.before = readCounters(*lane.reader, &why);
        if (!lane.before) {
            m_err << "bullpen-cli soak: " << why << "\n";
            return false;
        }
        lane.engine = std::make_unique<RemoteEngine>(lane.endpoint);
    }
    m_scenarios = o.scenarios;
    if (!m_onSimulator) {
        if (o.scenariosGiven) {
            m_err << "bullpen-cli soak: an engine given by --engine talks to real providers; --scenario-mix applies only to engines on "
                     "their simulator (bullpen-engine --simulator)\n";
            return false;
        }
        m_scenarios = { QString() }; // the engine's own providers, no scenario
    }
    m_ledger.setServiceChecked(true);
    m_ledger.setAdvisory(o.advisory);
    return true;
}

// A slot that cannot go now (a 429's Retry-After, or no engine up) waits, then tries again.
void RemoteSoak::sendLater(int slot, milliseconds delay)
{
    ++m_waiting;
    QTimer::singleShot(delay, m_lanes.front().engine.get(), [this, slot] {
        --m_waiting;
        if (!m_interrupted)
            send(slot);
        else
            maybeQuit();
    });
}

void RemoteSoak::send(int slot)
{
    int chosen = -1;
    for (std::size_t k = 0; k < m_lanes.size() && chosen < 0; ++k) {
        const int i = (m_nextLane + int(k)) % int(m_lanes.size());
        if (m_lanes[std::size_t(i)].up)
            chosen = i;
    }
    if (chosen < 0) { // every engine is down: the slot waits for one
        sendLater(slot, milliseconds(200));
        return;
    }
    m_nextLane = (chosen + 1) % int(m_lanes.size());
    EngineLane &lane = m_lanes[std::size_t(chosen)];
    const QString scenario = m_scenarios.at(slot % m_scenarios.size());
    using Field = StoryboardPolicyJson::RequestField;
    QJsonObject body { { QStringLiteral("story"), soakStories().at(slot % soakStories().size()) },
                       { QStringLiteral("generation_id"), StageService::newGenerationId() },
                       { StoryboardPolicyJson::requestField(Field::Primary), toId(o.policy.primary) },
                       { StoryboardPolicyJson::requestField(Field::Fallback), toId(*o.policy.fallback) },
                       { StoryboardPolicyJson::requestField(Field::Timeouts),
                         StoryboardPolicyJson::timeouts(o.policy.primaryTimeout, o.policy.fallbackTimeout) },
                       { QStringLiteral("fresh"), true } };
    body.insert(QStringLiteral("user_id"), rawUserFor(body.value(QLatin1StringView("generation_id")).toString()));
    if (!scenario.isEmpty())
        body.insert(QStringLiteral("scenario"), scenario);
    const QString id = lane.engine->startBody(body);
    m_slotOf[id] = slot;
    m_laneOf[id] = chosen;
    lane.inFlight.insert(id);
}

void RemoteSoak::onEvent(std::size_t i, const Event &e)
{
    // Engines sharing a PostgreSQL store relay one another's events: each is judged from the
    // stream of the engine that runs its generation; the others' streams are counted (11).
    const auto it = m_laneOf.find(e.generationId);
    if (it != m_laneOf.end() && it->second != int(i)) {
        if (std::holds_alternative<GenerationFinished>(e.body))
            m_lanes[i].relayedFinished.insert(e.generationId);
        return;
    }
    if (m_slotOf.count(e.generationId))
        m_ledger.event(e);
}

void RemoteSoak::onFinished(std::size_t i, const GenerationResult &g)
{
    m_sinceLastEnd.start();
    m_lanes[i].inFlight.erase(g.generationId);
    const auto it = m_slotOf.find(g.generationId);
    if (it == m_slotOf.end())
        return; // an orphan's late result (its engine came back and answered from the history): the store judges it
    const int slot = it->second;
    const QString scenario = m_scenarios.at(slot % m_scenarios.size());
    m_slotOf.erase(it);
    const bool ranNothing = g.attempts().isEmpty() && !m_ledger.hasEvents(g.generationId);
    if (ranNothing && g.failure && g.failure->kind == FailureKind::RATE_LIMITED && g.failure->retryAfter) {
        // 429 (or 503 while draining) with Retry-After: honoured, and the same slot tries again.
        ++m_refused;
        sendLater(slot, *g.failure->retryAfter);
        return;
    }
    const bool unrecorded =
        ranNothing && g.failure && g.failure->kind == FailureKind::NOT_SENT; // the engine that took it died before writing it
    if (g.state == FinalState::Abandoned || unrecorded) {
        // Its engine died under it while this lane stayed up (a balancer in front of several
        // engines): judged from the store like a lost lane's, without the loss time.
        m_orphans[g.generationId] = Orphan { int(i), 0 };
        m_ledger.forget(g.generationId);
    } else if (ranNothing && g.failure) {
        if (m_lanes[i].lost && !m_lanes[i].up) { // sent as its engine went away: the store says whether it ran
            m_orphans[g.generationId] = Orphan { int(i), m_lanes[i].lostAtMs };
            m_ledger.forget(g.generationId);
        } else {
            m_ledger.violate(0, g.generationId + QStringLiteral(": ") + g.failure->detail);
            m_ledger.forget(g.generationId);
        }
    } else {
        m_ledger.finished(g, scenario.isEmpty() ? QStringLiteral("(the engine's providers)") : scenario, rawUserFor(g.generationId));
        m_finished.push_back({ g.generationId, g.state, int(i), QDateTime::currentMSecsSinceEpoch() });
        ++m_lanes[i].ran;
    }
    startNext();
    maybeQuit();
}

void RemoteSoak::onStateChanged(std::size_t i, RemoteEngine::State state)
{
    EngineLane &l = m_lanes[i];
    if (state == RemoteEngine::State::Refused) {
        m_err << "bullpen-cli soak: " << l.engine->describeState() << "\n";
        QCoreApplication::exit(2);
        return;
    }
    if (state == RemoteEngine::State::Reconnecting && l.up) {
        // Lost: what it runs is judged from the store; the others take its share of the load.
        l.up = false;
        l.lost = true;
        l.lostAtMs = QDateTime::currentMSecsSinceEpoch();
        m_err << "bullpen-cli soak: " << l.engine->describeState() << "; its " << l.inFlight.size()
              << " generation(s) in flight are judged from the store\n";
        m_err.flush();
        const std::set<QString> lost = std::exchange(l.inFlight, {});
        for (const QString &id : lost) {
            if (m_slotOf.erase(id) == 0)
                continue;
            m_orphans[id] = Orphan { int(i), l.lostAtMs };
            m_ledger.forget(id);
            startNext();
        }
        maybeQuit();
    } else if (state == RemoteEngine::State::Reconnecting) {
        m_err << "bullpen-cli soak: " << l.engine->describeState() << "\n";
    }
    if (state == RemoteEngine::State::Connected) {
        if (l.lost)
            m_err << "bullpen-cli soak: " << l.endpoint.display() << " is back\n";
        l.up = true;
        // Sending starts once every stream is open: every event will be seen.
        if (!m_sending && std::all_of(m_lanes.begin(), m_lanes.end(), [](const EngineLane &x) { return x.up; })) {
            m_sending = true;
            m_wall.start();
            m_sinceLastEnd.start();
            for (int k = 0; k < std::min(o.inFlight, o.total); ++k)
                startNext();
        }
    }
}

bool RemoteSoak::run()
{
    for (std::size_t i = 0; i < m_lanes.size(); ++i) {
        RemoteEngine *engine = m_lanes[i].engine.get();
        QObject::connect(engine, &EngineClient::eventRecorded, engine, [this, i](const Event &e) { onEvent(i, e); });
        QObject::connect(engine, &EngineClient::finished, engine, [this, i](const GenerationResult &g) { onFinished(i, g); });
        QObject::connect(engine, &RemoteEngine::stateChanged, engine, [this, i](RemoteEngine::State s) { onStateChanged(i, s); });
    }
    QTimer watchdog; // every 10 s: a run that stopped moving says what it waits on
    QObject::connect(&watchdog, &QTimer::timeout, [this] { reportIfStalled(m_err, m_sinceLastEnd, m_slotOf.size(), m_waiting, m_lanes); });
    watchdog.start(10'000);
    Interrupts interrupts([this] {
        m_err << "bullpen-cli soak: interrupted; cancelling " << m_slotOf.size()
              << " in flight on the engine(s) (a second signal exits at once)\n";
        m_err.flush();
        m_interrupted = true;
        const auto pending = m_slotOf;
        for (const auto &[id, slot] : pending)
            m_lanes[std::size_t(m_laneOf[id])].engine->cancel(id);
        maybeQuit();
    });
    m_names = announceRun(m_err, m_lanes, o.total, m_scenarios.size(), o.inFlight);
    for (EngineLane &lane : m_lanes)
        lane.engine->connectToEngine();
    return QCoreApplication::exec() != 2;
}

// 11: each engine's stream carries the other engines' generations (relayed through the store within
// about a second of their commit). Judged for the engines that were never lost (a lost one's
// stream missed what ran while it was down). One line per engine.
QStringList RemoteSoak::judgeRelays()
{
    QStringList relayLines;
    if (m_lanes.size() < 2)
        return relayLines;
    m_ledger.setSeveralEngines(true);
    QEventLoop settle; // the last relays arrive
    QTimer::singleShot(2500, &settle, &QEventLoop::quit);
    settle.exec();
    for (std::size_t i = 0; i < m_lanes.size(); ++i) {
        const EngineLane &lane = m_lanes[i];
        int others = 0, carried = 0;
        for (const Answered &f : m_finished) {
            if (f.lane == int(i))
                continue;
            ++others;
            if (lane.relayedFinished.count(f.id))
                ++carried;
            else if (!lane.lost)
                m_ledger.violate(11,
                                 QStringLiteral("%1 (run by %2) never reached the event stream of %3")
                                     .arg(f.id, m_lanes[std::size_t(f.lane)].endpoint.display(), lane.endpoint.display()));
        }
        relayLines << QStringLiteral("%1 carried %2 of %3").arg(EngineConfigJson::identity(lane.config).instance).arg(carried).arg(others);
    }
    return relayLines;
}

// 1 and 12: the simulators' request counts (from the engines' /metrics) against the attempts.
void RemoteSoak::judgeCounters(int admitted, bool anyLost)
{
    std::map<Provider, int> requestsPer;
    qint64 startedOnEngines = 0;
    bool countersWhole = !anyLost;
    for (EngineLane &lane : m_lanes) {
        QString why;
        const auto after = readCounters(*lane.reader, &why);
        if (!after) {
            m_ledger.violate(0, QStringLiteral("GET /metrics of %1 after the run: %2").arg(lane.endpoint.display(), why));
            countersWhole = false;
            continue;
        }
        countersWhole = countersWhole && after->hasSimulator;
        startedOnEngines += after->started - lane.before->started;
        for (const auto &[p, n] : after->simulatorRequests)
            requestsPer[p] += n - (lane.before->simulatorRequests.count(p) ? lane.before->simulatorRequests.at(p) : 0);
    }
    if (m_onSimulator && countersWhole && startedOnEngines == admitted)
        m_ledger.compareRequests(requestsPer);
    else if (m_onSimulator)
        m_err << "bullpen-cli soak: "
              << (anyLost ? QStringLiteral("an engine was lost (its counters started again)")
                          : QStringLiteral("the engines started %1 generations during this run, %2 of them this run's")
                                .arg(startedOnEngines)
                                .arg(admitted))
              << ": invariants 1 and 12 are judged by each attempt's own count only\n";
    m_ledger.checkDeadlineOverruns();
}

// A reader of an engine that is up, preferring another engine than `lane` (one history: any engine
// answers for all).
RemoteHistory *RemoteSoak::readerFor(int lane)
{
    for (std::size_t k = 1; k <= m_lanes.size(); ++k) {
        EngineLane &l = m_lanes[(std::size_t(lane) + k) % m_lanes.size()];
        if (l.up)
            return l.reader.get();
    }
    return m_lanes[std::size_t(lane)].reader.get();
}

void RemoteSoak::noteRow(ReadBack &r, const QString &id, const QJsonObject &row)
{
    // The keyed hash is written with the final state: an abandoned generation has none.
    if (const QString key = row.value(QLatin1StringView("user_key")).toString(); !key.isEmpty())
        r.keysOfUser[rawUserFor(id)].insert(key);
    r.instancesSeen.insert(row.value(QLatin1StringView("instance")).toString());
}

// 6, 7, 9, 10: each generation as the history has it. A writer commits in batches, so a row may
// still say running for a moment after the result: it is asked again for up to 10 s.
void RemoteSoak::readBackFinished(ReadBack &r)
{
    for (const Answered &f : m_finished) {
        QElapsedTimer patience;
        patience.start();
        RemoteHistory::Answer a;
        QJsonObject detail;
        for (;;) {
            a = readBack(*readerFor(f.lane), ApiRoutes::path(ApiRoute::HistoryEntry, { f.id }));
            detail = QJsonDocument::fromJson(a.body).object();
            const QString rowState = detail.value(QLatin1StringView("generation")).toObject().value(QLatin1StringView("state")).toString();
            if ((a.status == 200 && rowState != u"running") || (a.status != 200 && a.status != 404) || patience.hasExpired(10'000))
                break;
            QThread::msleep(50);
        }
        const EngineLane &lane = m_lanes[std::size_t(f.lane)];
        const bool lostRightAfter = lane.lost && lane.lostAtMs >= f.atMs && lane.lostAtMs - f.atMs < 1000;
        if (a.status != 200) {
            m_ledger.violate(6, QStringLiteral("%1: not in the history (%2)").arg(f.id, a.error));
            continue;
        }
        ++r.checked;
        const QJsonObject row = detail.value(QLatin1StringView("generation")).toObject();
        noteRow(r, f.id, row);
        const QString rowState = row.value(QLatin1StringView("state")).toString();
        if (rowState == u"running") {
            m_ledger.violate(10, QStringLiteral("%1: still running in the history 10 s after its result").arg(f.id));
        } else if (rowState != toId(f.state)) {
            if (lostRightAfter && rowState == u"abandoned")
                ++r.answeredNotCommitted; // the result went out, then the process died before its batch committed
            else
                m_ledger.violate(6, QStringLiteral("%1: the result says %2, the history %3").arg(f.id, toId(f.state), rowState));
        }
        const QJsonArray attempts = detail.value(QLatin1StringView("attempts")).toArray();
        const QJsonArray events = detail.value(QLatin1StringView("events")).toArray();
        r.attempts += attempts.size();
        qsizetype startedEvents = 0, finishedEvents = 0;
        for (const QJsonValue &e : events) {
            const QString type = e.toObject().value(QLatin1StringView("type")).toString();
            startedEvents += type.endsWith(u"_attempt_started") ? 1 : 0;
            finishedEvents += type == u"generation_finished" ? 1 : 0;
        }
        if (finishedEvents != 1 && !(lostRightAfter && rowState == u"abandoned"))
            m_ledger.violate(6, QStringLiteral("%1: %2 generation_finished records in the history").arg(f.id).arg(finishedEvents));
        if (startedEvents != attempts.size() && !lostRightAfter)
            m_ledger.violate(
                7,
                QStringLiteral("%1: %2 attempt rows, %3 started events in the history").arg(f.id).arg(attempts.size()).arg(startedEvents));
        if (a.body.contains(rawUserFor(f.id).toUtf8()))
            m_ledger.violate(9, QStringLiteral("%1: the raw user id in the history").arg(f.id));
    }
    if (r.attempts != m_ledger.attemptsTotal() && r.answeredNotCommitted == 0)
        m_ledger.violate(
            7, QStringLiteral("the history: %1 attempt rows for %2 attempts in the results").arg(r.attempts).arg(m_ledger.attemptsTotal()));
}

// The lost engines' generations: each final in the store, an abandoned one within two lease periods
// of the loss (the lease runs out, then the next renewal of any engine finishes it).
void RemoteSoak::readBackOrphans(ReadBack &r)
{
    for (const auto &[id, orphan] : m_orphans) {
        QElapsedTimer patience;
        patience.start();
        const qint64 limitMs = 2 * m_lease.count() + 10'000;
        RemoteHistory::Answer a;
        QJsonObject row;
        for (;;) {
            a = readBack(*readerFor(orphan.lane), ApiRoutes::path(ApiRoute::HistoryEntry, { id }));
            row = QJsonDocument::fromJson(a.body).object().value(QLatin1StringView("generation")).toObject();
            const bool final = a.status == 200 && row.value(QLatin1StringView("state")).toString() != u"running";
            // No row 2 s after the loss: the engine died before its writer recorded the start.
            if (final || (a.status == 404 && QDateTime::currentMSecsSinceEpoch() - orphan.lostAtMs > 2000)
                || (a.status != 200 && a.status != 404) || patience.hasExpired(limitMs))
                break;
            QThread::msleep(100);
        }
        const QString lostEngine = m_lanes[std::size_t(orphan.lane)].endpoint.display();
        if (a.status == 404) {
            ++r.orphansUnrecorded;
            continue;
        }
        if (a.status != 200) {
            m_ledger.violate(10, QStringLiteral("%1 (of the lost engine %2): %3").arg(id, lostEngine, a.error));
            continue;
        }
        noteRow(r, id, row);
        const QString state = row.value(QLatin1StringView("state")).toString();
        if (state == u"running") {
            m_ledger.violate(10,
                             QStringLiteral("%1 (of the lost engine %2): still running %3 s after the loss")
                                 .arg(id, lostEngine)
                                 .arg(double(QDateTime::currentMSecsSinceEpoch() - orphan.lostAtMs) / 1000.0, 0, 'f', 1));
            continue;
        }
        ++r.orphansFinal;
        if (state != u"abandoned")
            continue;
        ++r.orphansAbandoned;
        if (orphan.lostAtMs == 0)
            continue; // the loss time is not known here: not timed
        const qint64 tookMs = row.value(QLatin1StringView("finished_at_ms")).toInteger() - orphan.lostAtMs;
        r.abandonedMaxMs = std::max(r.abandonedMaxMs, tookMs);
        if (tookMs > 2 * m_lease.count())
            m_ledger.violate(
                10,
                QStringLiteral("%1: recorded as abandoned %2 ms after its engine was lost; the lease is %3 ms (at most two periods)")
                    .arg(id)
                    .arg(tookMs)
                    .arg(m_lease.count()));
    }
}

QJsonObject RemoteSoak::summary(const ReadBack &r, int admitted) const
{
    QJsonArray engineList;
    for (const EngineLane &lane : m_lanes)
        engineList.append(QJsonObject { { QStringLiteral("url"), lane.endpoint.display() },
                                        { QStringLiteral("instance"), EngineConfigJson::identity(lane.config).instance },
                                        { QStringLiteral("version"), EngineConfigJson::identity(lane.config).version },
                                        { QStringLiteral("ran"), lane.ran },
                                        { QStringLiteral("lost"), lane.lost } });
    return QJsonObject { { QStringLiteral("engines"), engineList },
                         { QStringLiteral("url"), m_lanes.front().endpoint.display() },
                         { QStringLiteral("instance"), EngineConfigJson::identity(m_lanes.front().config).instance },
                         { QStringLiteral("simulator"), m_onSimulator },
                         { QStringLiteral("admitted"), admitted },
                         { QStringLiteral("refused_429"), m_refused },
                         { QStringLiteral("history_checked"), r.checked },
                         { QStringLiteral("history_attempts"), static_cast<double>(r.attempts) },
                         { QStringLiteral("instances_in_history"), static_cast<int>(r.instancesSeen.size()) },
                         { QStringLiteral("users"), static_cast<int>(r.keysOfUser.size()) },
                         { QStringLiteral("orphans"), static_cast<int>(m_orphans.size()) },
                         { QStringLiteral("orphans_final"), r.orphansFinal },
                         { QStringLiteral("orphans_abandoned"), r.orphansAbandoned },
                         { QStringLiteral("orphans_unrecorded"), r.orphansUnrecorded },
                         { QStringLiteral("abandoned_within_ms"), static_cast<double>(r.abandonedMaxMs) },
                         { QStringLiteral("lease_ms"), static_cast<double>(m_lease.count()) },
                         { QStringLiteral("answered_not_committed"), r.answeredNotCommitted } };
}

QString RemoteSoak::recordsLine(const ReadBack &r, int admitted, const QStringList &relayLines, bool anyLost) const
{
    int usersOnOne = 0;
    for (const auto &[user, keys] : r.keysOfUser)
        usersOnOne += keys.size() == 1 ? 1 : 0;
    QString line =
        QStringLiteral("engine(s): %1 — %2 generations ran and answered, %3 read back from the history (%4 attempts, %5 "
                       "instance(s)); %6 starts answered 429 and sent again after Retry-After; %7 user(s), each with one keyed hash")
            .arg(m_names.join(QStringLiteral(", ")))
            .arg(admitted)
            .arg(r.checked)
            .arg(r.attempts)
            .arg(r.instancesSeen.size())
            .arg(m_refused)
            .arg(usersOnOne);
    if (!relayLines.isEmpty())
        line += QStringLiteral("\n  other engines' generations in each stream (relayed through the store): ")
            + relayLines.join(QStringLiteral(", "));
    if (anyLost)
        line += QStringLiteral(
                    "\n  lost engine(s): %1 generation(s) in flight judged from the store: %2 final (%3 abandoned, at most %4 ms after "
                    "the loss; lease %5 ms), %6 never recorded (the engine died before writing their start); %7 answered "
                    "just before the loss and recorded abandoned (the engine answers before its writer commits)")
                    .arg(m_orphans.size())
                    .arg(r.orphansFinal)
                    .arg(r.orphansAbandoned)
                    .arg(r.abandonedMaxMs)
                    .arg(m_lease.count())
                    .arg(r.orphansUnrecorded)
                    .arg(r.answeredNotCommitted);
    return line;
}

int RemoteSoak::judgeAndReport()
{
    const double seconds = static_cast<double>(m_wall.elapsed()) / 1000.0;
    const int admitted = static_cast<int>(m_finished.size());
    const bool anyLost = std::any_of(m_lanes.begin(), m_lanes.end(), [](const EngineLane &l) { return l.lost; });
    const QStringList relayLines = judgeRelays();
    // --- after the run: the engines' own records.
    judgeCounters(admitted, anyLost);
    ReadBack r;
    readBackFinished(r);
    readBackOrphans(r);
    // One masking key per deployment: a user's keyed hash is the same whichever engine served them.
    for (const auto &[user, keys] : r.keysOfUser) {
        if (keys.size() > 1)
            m_ledger.violate(9, QStringLiteral("%1 has %2 different keyed hashes across the engines").arg(user).arg(keys.size()));
    }
    report(m_out, m_ledger, m_ledger.summary(std::max(1, admitted), seconds, QStringLiteral("engine"), summary(r, admitted)), o.json,
           recordsLine(r, admitted, relayLines, anyLost));
    return m_ledger.allPass() ? 0 : 1;
}

} // namespace

int runRemote(const QList<EngineEndpoint> &endpoints, const SoakOptions &o, milliseconds lease)
{
    QTextStream out(stdout);
    QTextStream err(logging::stderrDevice());
    RemoteSoak soak(o, lease, out, err);
    if (!soak.open(endpoints) || !soak.run())
        return kExitUsage;
    return soak.judgeAndReport();
}

} // namespace bullpen::ops
