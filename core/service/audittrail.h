// SPDX-License-Identifier: MIT
#pragma once

#include "store/apitokens.h"

#include <QMutex>
#include <QThread>

#include <atomic>
#include <memory>

namespace bullpen {

// The audit rows of an engine's API (which token started, cancelled or compared what), written on a
// thread of their own in batches, one transaction each: a request never waits for the database's
// write lock, which the store's writer holds while it commits a batch of its own. A row is durable a
// moment after its request was answered; what a killed engine had not written yet is lost with it,
// as the generations' own last records are.
class AuditTrail final
{
public:
    // Opens its own connection to the store on its thread.
    explicit AuditTrail(const StoreLocation &location);
    ~AuditTrail(); // writes what is pending, then ends its thread
    AuditTrail(const AuditTrail &) = delete;
    AuditTrail &operator=(const AuditTrail &) = delete;

    // `detail`: what the target alone does not say (a drain's scope and expiry, as BreakerJson writes it).
    void record(const QString &tokenName, const QString &action, const QString &target, const QString &detail = {});
    // The instance name the rows carry (set once the engine knows it).
    void setInstance(const QString &instance);
    // Blocks until every row recorded so far is written (or has failed).
    void flush();
    // Rows that could not be written (the reason is logged).
    quint64 failures() const { return m_failures.load(); }

private:
    void writePending(); // on m_thread

    QThread m_thread;
    QObject *m_context = nullptr; // lives on m_thread
    std::unique_ptr<ApiTokens> m_tokens; // opened, used and closed on m_thread
    QMutex m_lock;
    QList<AuditEntry> m_pending;
    QString m_instance;
    std::atomic<quint64> m_failures { 0 };
};

} // namespace bullpen
