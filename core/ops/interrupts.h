// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

#include <functional>

class QSocketNotifier;

namespace bullpen {

// SIGINT and SIGTERM as an operator cancel (docs/contract.md §4.3): the first one calls `onCancel` on the event
// loop (the cancel handlers run and the generation ends CANCELLED, its record written); a second one
// exits at once with 130. The signal handler only writes a byte to a pipe (async-signal-safe).
class Interrupts final : public QObject
{
public:
    explicit Interrupts(std::function<void()> onCancel, QObject *parent = nullptr);
    ~Interrupts() override;

private:
    std::function<void()> m_onCancel;
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace bullpen
