// SPDX-License-Identifier: MIT
#include "generationpipeline.h"

#include "contract/displaymask.h"
#include "contract/recordtext.h"
#include "contract/sha256.h"
#include "engine/backgroundthread.h"
#include "store/masking.h"
#include "store/privatefiles.h"
#include "store/store.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFutureWatcher>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QPromise>
#include <QSaveFile>
#include <QThreadPool>

Q_LOGGING_CATEGORY(lcPipeline, "bullpen.pipeline")

namespace bullpen {

using namespace std::chrono;

struct GenerationPipeline::Run
{
    GenerationRequest request;
    Clock::time_point start;
    quint64 nextSequence = 0;
    Stage current = Stage::Storyboard;
    GenerationResult result;
    QString userKey;
    QString userMask;
    bool finished = false;
};

GenerationPipeline::GenerationPipeline(Clock &clock, StageService &storyboard, StageService &captions, StageService &image, QObject *parent)
    : QObject(parent)
    , m_clock(clock)
    , m_storyboard(storyboard)
    , m_captions(captions)
    , m_image(image)
{
    for (StageService *s : { &m_storyboard, &m_captions, &m_image }) {
        s->setEventSink([this](const QString &generationId, EventBody body) { onStageEvent(generationId, std::move(body)); });
    }
    connect(&m_storyboard, &StageService::finished, this, &GenerationPipeline::onStoryboardDone);
    connect(&m_captions, &StageService::finished, this, &GenerationPipeline::onCaptionsDone);
    connect(&m_image, &StageService::finished, this, &GenerationPipeline::onImageDone);
}

GenerationPipeline::~GenerationPipeline()
{
    if (m_storage)
        m_storage->waitForDone(); // a write in progress ends; its watcher, our child, never reports
    for (StageService *s : { &m_storyboard, &m_captions, &m_image }) {
        disconnect(s, nullptr, this, nullptr);
        s->setEventSink({});
    }
}

void GenerationPipeline::setStore(Store *store, const Masking *masking)
{
    m_store = store;
    m_masking = masking;
}

QString GenerationPipeline::cacheKey(const QString &story, const QString &settingsDigest)
{
    return QString::fromLatin1(
        QCryptographicHash::hash((story.trimmed() + QChar(0x1f) + settingsDigest).toUtf8(), QCryptographicHash::Sha256).toHex());
}

QString GenerationPipeline::settingsDigest(const StagePolicy &storyboard, const ScenarioChoice &scenario) const
{
    const auto modelOf = [](const StageService &stage, Provider provider) {
        const StageGenerator *g = stage.generator(provider);
        return g ? g->model() : QStringLiteral("-");
    };
    QStringList digest { storyboard.preset, toId(storyboard.primary), modelOf(m_storyboard, storyboard.primary) };
    if (storyboard.fallback)
        digest << toId(*storyboard.fallback) << modelOf(m_storyboard, *storyboard.fallback);
    else
        digest << QStringLiteral("none");
    digest << modelOf(m_image, m_options.image.primary)
           << (m_options.captionsEnabled ? QStringLiteral("captions") : QStringLiteral("no-captions")) << m_options.providerOrigin
           << (scenario.isSet()
                   ? QStringLiteral("scenario:") + scenario.name + QLatin1Char(':') + QString::fromLatin1(scenario.rolesHeader())
                   : QString());
    return digest.join(QLatin1Char('|'));
}

QString GenerationPipeline::start(const GenerationRequest &request)
{
    const StagePolicy &p = request.storyboardPolicy ? *request.storyboardPolicy : m_options.storyboard;
    auto run = std::make_unique<Run>();
    run->request = request;
    if (run->request.generationId.isEmpty())
        run->request.generationId = StageService::newGenerationId();
    if (run->request.scenario.isSet() && !run->request.scenario.primary) {
        run->request.scenario.primary = p.primary;
        run->request.scenario.fallback = p.fallback;
    }
    run->start = m_clock.now();
    run->result.generationId = run->request.generationId;
    run->result.cacheKey = cacheKey(request.story, settingsDigest(p, run->request.scenario));
    if (m_masking && !request.userId.isEmpty()) {
        run->userKey = m_masking->userKey(request.userId);
        run->userMask = DisplayMask::user(request.userId);
    }
    Run &r = *run;
    const QString id = r.request.generationId;
    m_runs.emplace(id, std::move(run));

    if (r.request.probe) {
        startProbe(r);
        return id;
    }
    GenerationStarted started = GenerationStarted::of(p, request.userId);
    started.replayOf = request.replayOf;
    emitEvent(r, started);

    // docs/contract.md §6: an identical request within the window is served from the store.
    if (m_store && m_options.storeContent && !request.fresh) {
        const qint64 since = QDateTime::currentMSecsSinceEpoch() - duration_cast<milliseconds>(m_options.cacheWindow).count();
        if (const auto cached = m_store->cachedResult(r.result.cacheKey, since)) {
            if (auto hit = GenerationResult::fromJson(*cached); hit && hit->state == FinalState::Succeeded && hit->storyboard.storyboard) {
                const QString key = r.result.cacheKey;
                r.result = *hit;
                // The answer is served again; the attempts that made it belong to the generation that ran them.
                r.result.storyboard.attempts.clear();
                r.result.storyboard.elapsed = {};
                r.result.captions.reset();
                r.result.image.reset();
                r.result.elapsed = {};
                r.result.generationId = id;
                r.result.cacheKey = key;
                r.result.fromCache = true;
                r.result.storyboard.generationId = id;
                r.result.storyboard.decision = recordText(RecordText::ServedFromCache);
                // Deliver from the event loop, like every other result.
                QMetaObject::invokeMethod(
                    this,
                    [this, id] {
                        const auto it = m_runs.find(id);
                        if (it != m_runs.end())
                            finish(*it->second, FinalState::Succeeded, std::nullopt, Stage::Storyboard);
                    },
                    Qt::QueuedConnection);
                return id;
            }
        }
    }

    StageRequest sr = StageRequest::forStory(request.story, request.userId);
    sr.generationId = id;
    sr.scenario = r.request.scenario;
    m_storyboard.start(sr, p);
    return id;
}

bool GenerationPipeline::cancel(const QString &generationId, AbortReason reason)
{
    const auto it = m_runs.find(generationId);
    if (it == m_runs.end())
        return false;
    switch (it->second->current) {
    case Stage::Storyboard:
        return m_storyboard.cancel(generationId, reason);
    case Stage::Captions:
        return m_captions.cancel(generationId, reason);
    case Stage::Image:
        return m_image.cancel(generationId, reason);
    }
    return false;
}

void GenerationPipeline::onStageEvent(const QString &generationId, EventBody body)
{
    const auto it = m_runs.find(generationId);
    if (it == m_runs.end())
        return;
    emitEvent(*it->second, std::move(body));
}

void GenerationPipeline::onStoryboardDone(const StageResult &sr)
{
    const auto it = m_runs.find(sr.generationId);
    if (it == m_runs.end())
        return;
    Run &run = *it->second;
    if (probeDone(run, sr))
        return;
    run.result.storyboard = sr;
    if (sr.state != FinalState::Succeeded) {
        finish(run, sr.state, sr.failure, Stage::Storyboard);
        return;
    }
    if (!m_options.captionsEnabled) {
        startImage(run);
        return;
    }
    run.current = Stage::Captions;
    StageRequest cr = StageRequest::forStory(run.request.story);
    cr.generationId = run.request.generationId;
    cr.scenario = run.request.scenario;
    cr.stage = Stage::Captions;
    cr.stageInput = QString::fromUtf8(QJsonDocument(sr.storyboard->toJson()).toJson(QJsonDocument::Compact));
    StagePolicy cp = m_options.captions;
    cp.primary = sr.fallback.finalProvider.value_or(cp.primary); // the provider that just answered
    if (!m_captions.generator(cp.primary))
        cp.primary = m_options.captions.primary;
    m_captions.start(cr, cp);
}

void GenerationPipeline::onCaptionsDone(const StageResult &cr)
{
    const auto it = m_runs.find(cr.generationId);
    if (it == m_runs.end())
        return;
    Run &run = *it->second;
    if (probeDone(run, cr))
        return;
    run.result.captions = cr;
    if (cr.state == FinalState::Cancelled) { // operator or shutdown: no default captions, no image
        finish(run, FinalState::Cancelled, cr.failure, Stage::Captions);
        return;
    }
    if (cr.state == FinalState::Succeeded) {
        run.result.captionLines = cr.captions;
    } else {
        // Nice to have: on any failure, a default caption from each panel's scene, and the result is degraded.
        for (const Panel &p : std::as_const(run.result.storyboard.storyboard->panels))
            run.result.captionLines << QStringLiteral("Panel %1: %2").arg(p.index).arg(p.scene);
        run.result.captionsDefaulted = true;
        run.result.degraded = true;
    }
    startImage(run);
}

namespace {

// What a probe asks for: a story of one line, and for the later stages a storyboard of four short panels.
// Nothing of any user's is in it.
const QString kProbeStory = QStringLiteral("Probe: a cat finds a hat.");

QString probeStoryboardJson()
{
    Storyboard board;
    board.title = QStringLiteral("Probe");
    for (int i = 0; i < panelRoles().size(); ++i)
        board.panels << Panel {
            i + 1, panelRoles().at(i), QStringLiteral("A cat and a hat, panel %1.").arg(i + 1), { QStringLiteral("Cat") }, {}
        };
    return QString::fromUtf8(QJsonDocument(board.toJson()).toJson(QJsonDocument::Compact));
}

} // namespace

void GenerationPipeline::startProbe(Run &run)
{
    const ProbeTarget target = *run.request.probe;
    const StagePolicy &policy = target.stage == Stage::Storyboard ? m_options.storyboard
        : target.stage == Stage::Captions                         ? m_options.captions
                                                                  : m_options.image;
    run.result.probe = target;
    run.current = target.stage;
    GenerationStarted started = GenerationStarted::of(policy, {});
    started.probe = target;
    emitEvent(run, started);

    StageRequest sr = StageRequest::forStory(kProbeStory);
    sr.generationId = run.request.generationId;
    sr.scenario = run.request.scenario;
    sr.stage = target.stage;
    sr.probeRole = target.role;
    if (target.stage != Stage::Storyboard)
        sr.stageInput = probeStoryboardJson();
    const std::optional<Provider> configured = target.role == Role::Primary ? std::optional(policy.primary) : policy.fallback;
    if (configured != target.provider) {
        const QString why = QStringLiteral("probe not sent: %1 is not the %2 of the %3 stage")
                                .arg(toId(target.provider), toId(target.role), toId(target.stage));
        QMetaObject::invokeMethod(
            this,
            [this, id = sr.generationId, why, stage = target.stage] {
                const auto it = m_runs.find(id);
                if (it != m_runs.end())
                    finish(*it->second, FinalState::Failed, Failure { FailureKind::NOT_SENT, why, false, {} }, stage);
            },
            Qt::QueuedConnection);
        return;
    }
    StageService &service = target.stage == Stage::Storyboard ? m_storyboard : target.stage == Stage::Captions ? m_captions : m_image;
    service.start(sr, policy);
}

bool GenerationPipeline::probeDone(Run &run, const StageResult &result)
{
    if (!run.request.probe)
        return false;
    const Stage stage = run.request.probe->stage;
    if (stage == Stage::Storyboard)
        run.result.storyboard = result;
    else if (stage == Stage::Captions)
        run.result.captions = result;
    else
        run.result.image = result;
    if (result.state == FinalState::Succeeded && stage == Stage::Image)
        run.result.imageSha256 = QString::fromLatin1(sha256Hex(result.image)); // a probe's comic is not kept
    finish(run, result.state, result.failure, run.request.probe->stage);
    return true;
}

void GenerationPipeline::startImage(Run &run)
{
    run.current = Stage::Image;
    StageRequest ir = StageRequest::forStory(run.request.story);
    ir.generationId = run.request.generationId;
    ir.scenario = run.request.scenario;
    ir.stage = Stage::Image;
    ir.stageInput = QString::fromUtf8(QJsonDocument(run.result.storyboard.storyboard->toJson()).toJson(QJsonDocument::Compact));
    m_image.start(ir, m_options.image);
}

void GenerationPipeline::onImageDone(const StageResult &ir)
{
    const auto it = m_runs.find(ir.generationId);
    if (it == m_runs.end())
        return;
    Run &run = *it->second;
    if (probeDone(run, ir))
        return;
    run.result.image = ir;
    if (ir.state != FinalState::Succeeded) {
        // Final for the generation: the storyboard is never generated again for an image failure.
        finish(run, ir.state, ir.failure, Stage::Image);
        return;
    }
    // Storage: content-addressed, written atomically, off the engine thread (hashing a comic and the
    // fsync of a new file take milliseconds that other attempts' deadlines need, docs/contract.md §12.3).
    struct Stored
    {
        QString sha256;
        QString path;
        QString error;
    };
    if (m_options.imageDir.isEmpty()) { // nothing to write (no store): only the digest, here
        run.result.imageSha256 = QString::fromLatin1(sha256Hex(ir.image));
        finish(run, FinalState::Succeeded, std::nullopt, Stage::Image);
        return;
    }
    if (!m_storage) {
        m_storage = std::make_unique<QThreadPool>();
        m_storage->setMaxThreadCount(1);
    }
    auto promise = std::make_shared<QPromise<Stored>>();
    auto *watcher = new QFutureWatcher<Stored>(this);
    const QString id = run.result.generationId;
    connect(watcher, &QFutureWatcher<Stored>::finished, this, [this, watcher, id] {
        watcher->deleteLater();
        const Stored stored = watcher->future().result();
        const auto found = m_runs.find(id);
        if (found == m_runs.end())
            return;
        Run &r = *found->second;
        r.result.imageSha256 = stored.sha256;
        if (!stored.error.isEmpty()) {
            finish(r, FinalState::Failed, Failure { FailureKind::INTERNAL, stored.error, false, {} }, Stage::Image);
            return;
        }
        r.result.imagePath = stored.path;
        finish(r, FinalState::Succeeded, std::nullopt, Stage::Image);
    });
    watcher->setFuture(promise->future());
    m_storage->start([promise, image = ir.image, mime = ir.imageMime, imageDir = m_options.imageDir] {
        becomeBackgroundThread(); // hashing and writing a comic yields a busy core to the engine threads
        promise->start();
        Stored out;
        const QByteArray digest = sha256Hex(image);
        out.sha256 = QString::fromLatin1(digest);
        {
            const QString ext = mime == u"image/jpeg" ? QStringLiteral("jpg")
                : mime == u"image/webp"               ? QStringLiteral("webp")
                                                      : QStringLiteral("png");
            const QString dir = QDir(imageDir).filePath(QString::fromLatin1(digest.left(2)));
            const QString path = QDir(dir).filePath(QString::fromLatin1(digest) + QLatin1Char('.') + ext);
            QString why;
            QFile existing(path);
            // A comic made again is touched: retention removes only files nothing made for its period.
            const bool reused = existing.exists() && existing.open(QIODevice::ReadWrite | QIODevice::ExistingOnly)
                && existing.setFileTime(QDateTime::currentDateTimeUtc(), QFileDevice::FileModificationTime);
            existing.close();
            // Owner-only (0600 from open(2)): with content storage off, the comic is the story's only trace.
            if (!reused
                && (!PrivateFiles::ensureDirectory(imageDir, &why) || !PrivateFiles::ensureDirectory(dir, &why)
                    || !PrivateFiles::replace(path, image, &why))) {
                out.error =
                    QStringLiteral("cannot write the image to %1 (%2); free space or fix the data folder's permissions").arg(path, why);
            } else {
                out.path = path;
            }
        }
        promise->addResult(out);
        promise->finish();
    });
}

void GenerationPipeline::finish(Run &run, FinalState state, std::optional<Failure> failure, Stage stage)
{
    if (run.finished)
        return;
    run.finished = true;
    GenerationResult &r = run.result;
    r.state = state;
    r.failure = std::move(failure);
    r.failedStage = stage;
    r.elapsed = duration_cast<microseconds>(m_clock.now() - run.start);
    if (r.failure) {
        const StageResult *stageResult = stage == Stage::Image ? &*r.image : stage == Stage::Captions ? &*r.captions : &r.storyboard;
        const Provider provider =
            stageResult && !stageResult->attempts.isEmpty() ? stageResult->attempts.constLast().provider : m_options.storyboard.primary;
        r.nextStep = NextStep::forFailure(*r.failure, m_options.providers, provider, stage);
    }

    GenerationFinished fin;
    fin.state = state;
    if (r.failure) {
        fin.publicCode = r.failure->publicCode();
        fin.kind = r.failure->kind;
        fin.stage = stage;
        fin.detail = r.failure->detail;
    }
    fin.fallbackApplied = r.storyboard.fallback.applied;
    emitEvent(run, fin);

    if (m_store) {
        FinishedExtras extras;
        extras.degraded = r.degraded;
        extras.fromCache = r.fromCache;
        extras.imagePath = r.imagePath;
        extras.nextStep = r.nextStep ? r.nextStep->message : QString();
        extras.resultJson = r.toJson();
        if (m_options.storeContent && !r.probe) { // a probe's answer is never served to anyone
            extras.cacheKey = r.cacheKey;
        } else {
            // Metadata only: what the user's story became is not kept (docs/contract.md §5.1).
            extras.resultJson.remove(QStringLiteral("storyboard"));
            extras.resultJson.remove(QStringLiteral("captions"));
        }
        // The stage the generation is judged by: the storyboard's, or the one stage a probe ran.
        StageResult stored = !r.probe || r.probe->stage == Stage::Storyboard ? r.storyboard
            : r.probe->stage == Stage::Captions                              ? r.captions.value_or(StageResult {})
                                                                             : r.image.value_or(StageResult {});
        stored.generationId = r.generationId;
        stored.state = state;
        stored.failure = r.failure;
        stored.failedStage = stage;
        stored.elapsed = r.elapsed;
        m_store->recordFinished(stored, run.userKey, run.userMask, extras);
    }
    const GenerationResult result = r;
    m_runs.erase(result.generationId); // Run is gone from here on
    Q_EMIT finished(result);
}

void GenerationPipeline::emitEvent(Run &run, EventBody body, std::optional<microseconds> at)
{
    Event e;
    e.generationId = run.request.generationId;
    e.sequence = run.nextSequence++;
    e.at = at.value_or(duration_cast<microseconds>(m_clock.now() - run.start));
    e.wallTime = QDateTime::currentDateTimeUtc();
    e.body = std::move(body);
    if (m_store) {
        e.shareJson(); // written once, by the store's writer or an event stream, whichever asks first
        m_store->recordEvent(e);
    }
    Q_EMIT eventRecorded(e);
}

} // namespace bullpen
