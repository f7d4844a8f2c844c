// SPDX-License-Identifier: MIT
#include "enginethreads.h"

namespace bullpen {

EngineThreads::EngineThreads(int count)
    : m_running(static_cast<std::size_t>(count))
{
    Q_ASSERT(count >= 1 && count <= 64);
    for (int i = 0; i < count; ++i) {
        auto thread = std::make_unique<QThread>();
        thread->setObjectName(QStringLiteral("bullpen-engine-%1").arg(i));
        thread->start();
        m_threads.push_back(std::move(thread));
    }
}

EngineThreads::~EngineThreads()
{
    for (auto &thread : m_threads) {
        thread->quit();
        thread->wait();
    }
}

} // namespace bullpen
