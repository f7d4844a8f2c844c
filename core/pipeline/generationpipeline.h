// SPDX-License-Identifier: MIT
#pragma once

#include "contract/providertable.h"
#include "engine/clock.h"
#include "engine/event.h"
#include "engine/stagepolicy.h"
#include "engine/stageservice.h"
#include "generationrequest.h"
#include "generationresult.h"

#include <QObject>
#include <QThreadPool>

#include <map>
#include <memory>

namespace bullpen {

class Store;
class Masking;

struct PipelineOptions
{
    StagePolicy storyboard = StagePolicy::relief(Provider::Gemini, std::nullopt);
    StagePolicy captions = StagePolicy::captionsStage(Provider::Gemini);
    StagePolicy image = StagePolicy::imageStage(Provider::Gemini);
    bool captionsEnabled = true;
    QString imageDir; // content-addressed image files go here; empty: images are not written
    // Where the providers are ("live", or the simulator and the scenario it started with). With the
    // request's own policy, models and scenario it makes the cache key (settingsDigest).
    QString providerOrigin = QStringLiteral("live");
    std::chrono::hours cacheWindow { 24 };
    // Off (the default, docs/contract.md §5.1): no storyboard or captions are stored, and so nothing is served from cache.
    bool storeContent = false;
    // What each provider is for this engine (its settings' table): the settings a next step names.
    ProviderTable providers;
};

// docs/contract.md §2: story → storyboard stage (with fallback) → captions stage (optional; defaults on any failure,
// result degraded) → image stage (its own client, timeout and retries; a failure is final and never
// re-runs the storyboard) → storage. One generation_started and one generation_finished around all of
// it; the stages' events re-numbered into one stream. Identical requests within 24 h are served from
// the store (docs/contract.md §6) unless `fresh`.
class GenerationPipeline final : public QObject
{
    Q_OBJECT
public:
    GenerationPipeline(Clock &clock, StageService &storyboard, StageService &captions, StageService &image, QObject *parent = nullptr);
    ~GenerationPipeline() override;

    void setOptions(const PipelineOptions &options) { m_options = options; }
    const PipelineOptions &options() const { return m_options; }
    // Optional: records every event and final state; answers cache look-ups.
    void setStore(Store *store, const Masking *masking);

    QString start(const GenerationRequest &request);
    bool cancel(const QString &generationId, AbortReason reason = AbortReason::Operator);
    int activeCount() const { return static_cast<int>(m_runs.size()); }

    static QString cacheKey(const QString &story, const QString &settingsDigest);
    // What makes two requests the same (docs/contract.md §6), computed from the request's own settings: the storyboard
    // policy's preset, providers and their models, the image model, captions on or off, where the
    // providers are, and the simulator scenario it asked for.
    QString settingsDigest(const StagePolicy &storyboard, const ScenarioChoice &scenario) const;

Q_SIGNALS:
    void eventRecorded(const bullpen::Event &event);
    void finished(const bullpen::GenerationResult &result);

private:
    struct Run;
    void onStageEvent(const QString &generationId, EventBody body);
    void onStoryboardDone(const StageResult &r);
    void onCaptionsDone(const StageResult &r);
    void onImageDone(const StageResult &r);
    void startImage(Run &run);
    void startProbe(Run &run);
    // A probe's one stage ended: the generation ends with it.
    bool probeDone(Run &run, const StageResult &result);
    void finish(Run &run, FinalState state, std::optional<Failure> failure, Stage stage);
    void emitEvent(Run &run, EventBody body, std::optional<std::chrono::microseconds> at = std::nullopt);

    Clock &m_clock;
    StageService &m_storyboard;
    StageService &m_captions;
    StageService &m_image;
    PipelineOptions m_options;
    Store *m_store = nullptr;
    const Masking *m_masking = nullptr;
    std::map<QString, std::unique_ptr<Run>> m_runs;
    std::unique_ptr<QThreadPool> m_storage; // writes comics off the engine thread
};

} // namespace bullpen
