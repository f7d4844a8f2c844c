// SPDX-License-Identifier: MIT
#include "loopbackrig.h"

#include "config/proxyrules.h"

#include <QSignalSpy>

namespace bullpen::test {

LoopbackRig::LoopbackRig(const QString &scenario, Provider primary, std::optional<Provider> fallback, bool stream,
                         const std::function<void(Settings &)> &adjust)
{
    const auto sc = Scenario::load(scenario, &m_error);
    if (!sc)
        return;
    m_sim = std::make_unique<ProviderSimulator>();
    if (!m_sim->start(0, &m_error))
        return;
    m_sim->setScenario(*sc);
    m_sim->setRoles(primary, fallback);
    m_settings = Settings::defaults();
    for (auto &entry : m_settings.providers) {
        entry.second.baseUrl = m_sim->baseUrl(entry.first);
        entry.second.apiKey = QStringLiteral("test-key-") + toId(entry.first);
        entry.second.stream = stream;
    }
    if (adjust)
        adjust(m_settings);
    m_pool = std::make_unique<NetworkPool>(m_routes, m_trust);
    m_client = std::make_unique<StoryboardClient>(m_settings, m_pool.get());
    m_service = std::make_unique<StageService>(SteadyClock::instance());
    m_client->registerWith(*m_service);
    QObject::connect(m_service.get(), &StageService::eventRecorded, m_service.get(), [this](const Event &e) { events << e; });
    m_ok = true;
}

LoopbackRig::~LoopbackRig()
{
    if (m_service)
        m_service->shutdown();
}

std::optional<StageResult> LoopbackRig::run(const StagePolicy &policy, const QString &story, int waitMs)
{
    QSignalSpy finished(m_service.get(), &StageService::finished);
    m_service->start(StageRequest::forStory(story, QStringLiteral("tester@example.com")), policy);
    if (!finished.wait(waitMs))
        return std::nullopt;
    return finished.first().first().value<StageResult>();
}

} // namespace bullpen::test
