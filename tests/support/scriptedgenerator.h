// SPDX-License-Identifier: MIT
#pragma once

#include "contract/providerregistry.h"
#include "engine/attemptcontext.h"
#include "engine/clock.h"
#include "engine/event.h"
#include "engine/stagegenerator.h"
#include "engine/stageresult.h"
#include "failure/providerresponse.h"

#include <QList>
#include <QStringList>

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

namespace bullpen::test {

// In-process stand-in for a provider adapter, for unit tests of pure engine logic only (the real
// adapters are tested over loopback HTTP). Each call to generate() takes the next scripted step.
struct Step
{
    std::chrono::milliseconds after { 0 };
    std::optional<ProviderResponse> response; // nothing: hang until cancelled
    bool ignoreCancel = false; // keep going after cancel and deliver anyway (a late result)

    static Step ok(std::chrono::milliseconds after, const QString &title = QStringLiteral("Sample"), TokenUsage usage = { 120, 340 });
    static Step respond(std::chrono::milliseconds after, ProviderResponse response);
    static Step hang();
    // A Gemini-shaped response that the classifier maps to `kind` (not for CANCELLED).
    static Step failWith(FailureKind kind, std::chrono::milliseconds after);
    static Step http(std::chrono::milliseconds after, int status, const QByteArray &body);
};

QString sampleStoryboardJson(const QString &title);
ProviderResponse geminiResponseFor(FailureKind kind);

class ScriptedGenerator final : public StageGenerator
{
public:
    ScriptedGenerator(Clock &clock, Provider provider, QString model, QStringList *sharedLog);
    ~ScriptedGenerator() override;

    void script(std::initializer_list<Step> steps);
    void setConfigured(bool configured) { m_configured = configured; }

    Provider provider() const override { return m_provider; }
    WireDialect dialect() const override { return dialectOf(m_provider); } // a built-in's (the registry describes no other)
    QString model() const override { return m_model; }
    bool isConfigured() const override { return m_configured; }
    void generate(const StageRequest &request, std::shared_ptr<AttemptContext> context) override;

    int calls() const { return m_calls; }
    int cancelHandlerRuns() const { return m_cancelHandlerRuns; }
    QList<bool> contextCancelledAtStart() const { return m_cancelledAtStart; }
    QList<Clock::time_point> deadlines() const { return m_deadlines; }
    QStringList stories() const { return m_stories; }

private:
    struct Pending
    {
        std::unique_ptr<Timer> timer;
    };
    Clock &m_clock;
    Provider m_provider;
    QString m_model;
    QStringList *m_log;
    std::deque<Step> m_steps;
    std::vector<std::shared_ptr<Pending>> m_pending;
    bool m_configured = true;
    int m_calls = 0;
    int m_cancelHandlerRuns = 0;
    QList<bool> m_cancelledAtStart;
    QList<Clock::time_point> m_deadlines;
    QStringList m_stories;
};

// Runs `n` storyboard generations on a ManualClock through real engine code: in turn a primary success,
// an overload the fallback answered, and an auth failure. Events and results go to the callbacks (for feeding models
// and stores in tests).
void runMixedGenerations(int n, const std::function<void(const Event &)> &onEvent,
                         const std::function<void(const StageResult &)> &onFinished = {});

// One line per event, with times in whole milliseconds, for comparing event logs in tests.
QString formatEvent(const Event &event);

} // namespace bullpen::test
