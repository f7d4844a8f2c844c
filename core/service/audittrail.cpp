// SPDX-License-Identifier: MIT
#include "audittrail.h"

#include "engine/backgroundthread.h"

#include <QDateTime>
#include <QLoggingCategory>

namespace bullpen {

Q_LOGGING_CATEGORY(lcAudit, "bullpen.audit")

AuditTrail::AuditTrail(const StoreLocation &location)
{
    m_context = new QObject; // moved to its thread: deleted there when the thread ends
    m_context->moveToThread(&m_thread);
    QObject::connect(&m_thread, &QThread::finished, m_context, &QObject::deleteLater);
    m_thread.setObjectName(QStringLiteral("bullpen-audit"));
    startInBackground(m_thread);
    QMetaObject::invokeMethod(
        m_context,
        [this, location] {
            QString why;
            m_tokens = ApiTokens::open(location, &why);
            if (!m_tokens)
                qCWarning(lcAudit) << "the audit cannot be written:" << why;
        },
        Qt::BlockingQueuedConnection);
}

AuditTrail::~AuditTrail()
{
    flush();
    QMetaObject::invokeMethod(
        m_context, [this] { m_tokens.reset(); }, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

void AuditTrail::record(const QString &tokenName, const QString &action, const QString &target, const QString &detail)
{
    bool first = false;
    {
        QMutexLocker locker(&m_lock);
        first = m_pending.isEmpty();
        m_pending.append(AuditEntry { QDateTime::currentMSecsSinceEpoch(), tokenName, action, target, detail, m_instance });
    }
    if (first) // one write is asked for per batch: what arrives meanwhile joins it
        QMetaObject::invokeMethod(m_context, [this] { writePending(); });
}

void AuditTrail::setInstance(const QString &instance)
{
    QMutexLocker locker(&m_lock);
    m_instance = instance;
}

void AuditTrail::flush()
{
    QMetaObject::invokeMethod(
        m_context, [this] { writePending(); }, Qt::BlockingQueuedConnection);
}

void AuditTrail::writePending()
{
    QList<AuditEntry> batch;
    {
        QMutexLocker locker(&m_lock);
        batch.swap(m_pending);
    }
    if (batch.isEmpty())
        return;
    QString why;
    if (!m_tokens || !m_tokens->audit(batch, &why)) {
        m_failures += static_cast<quint64>(batch.size());
        qCWarning(lcAudit) << batch.size()
                           << "audit rows were not written:" << (m_tokens ? why : QStringLiteral("no connection to the store"));
    }
}

} // namespace bullpen
