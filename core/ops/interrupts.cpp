// SPDX-License-Identifier: MIT
#include "ops/interrupts.h"

#include <QSocketNotifier>

#include <csignal>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace bullpen {

namespace {
int g_fds[2] = { -1, -1 };
volatile sig_atomic_t g_count = 0;

void onSignal(int)
{
    g_count = g_count + 1;
    if (g_count > 1)
        ::_exit(130); // the operator insists: leave now (the store's next open marks the work ABANDONED)
    const char byte = 1;
    [[maybe_unused]] const auto n = ::write(g_fds[1], &byte, 1);
}
} // namespace

Interrupts::Interrupts(std::function<void()> onCancel, QObject *parent)
    : QObject(parent)
    , m_onCancel(std::move(onCancel))
{
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, g_fds) != 0)
        return;
    m_notifier = new QSocketNotifier(g_fds[0], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, [this] {
        char byte = 0;
        [[maybe_unused]] const auto n = ::read(g_fds[0], &byte, 1);
        if (m_onCancel)
            m_onCancel();
    });
    struct sigaction sa
    {
    };
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
}

Interrupts::~Interrupts()
{
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    delete m_notifier;
    ::close(g_fds[0]);
    ::close(g_fds[1]);
    g_fds[0] = g_fds[1] = -1;
}

} // namespace bullpen
