// SPDX-License-Identifier: MIT
#pragma once

#include <QThread>

#include <atomic>
#include <memory>
#include <vector>

namespace bullpen {

// The threads engines run on (LocalEngine): started here, ended when the last engine that holds them
// lets go. One engine usually has threads of its own. Several engines in one process (the soak's one
// engine per scenario) share one set, as one engine would run every generation: each thread's deadlines
// are then aborted before any other work on it (clock.h), where engines with threads of their own
// would have many more threads than cores all woken by deadlines due at the same moment.
class EngineThreads final
{
public:
    explicit EngineThreads(int count); // 1..64 (asserted), named bullpen-engine-0..
    ~EngineThreads(); // quits and waits for each; every engine on them has ended its stacks
    EngineThreads(const EngineThreads &) = delete;
    EngineThreads &operator=(const EngineThreads &) = delete;

    int count() const { return static_cast<int>(m_threads.size()); }
    QThread *at(int i) const { return m_threads.at(static_cast<std::size_t>(i)).get(); }

    // Generations running on thread i, over every engine on the set: an engine starts each one on the
    // thread with the fewest, as one engine running all of them would.
    int running(int i) const { return m_running[static_cast<std::size_t>(i)].load(std::memory_order_relaxed); }
    void add(int i, int delta) { m_running[static_cast<std::size_t>(i)].fetch_add(delta, std::memory_order_relaxed); }

private:
    std::vector<std::unique_ptr<QThread>> m_threads;
    std::vector<std::atomic<int>> m_running;
};

} // namespace bullpen
