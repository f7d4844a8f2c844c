// SPDX-License-Identifier: MIT
#include "secretstore.h"

#include <QCoreApplication>

#ifdef BULLPEN_HAVE_KEYCHAIN
#include <qt6keychain/keychain.h>
#endif

#include <QEventLoop>
#include <QTimer>

namespace bullpen::secrets {

namespace {

constexpr const char *kService = "bullpen";

#ifdef BULLPEN_HAVE_KEYCHAIN
Result run(QKeychain::Job *job, int timeoutMs, const std::function<void(Result &)> &onSuccess)
{
    Result r;
    // No session bus: no Secret Service to ask (QtKeychain would fail the same way, only later).
    if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS")) {
        delete job;
        return Result { Status::Unavailable,
                        {},
                        QCoreApplication::translate("bullpen::secrets",
                                                    "no D-Bus session bus here (DBUS_SESSION_BUS_ADDRESS is not set)") };
    }
    QEventLoop loop;
    bool done = false;
    QObject::connect(job, &QKeychain::Job::finished, &loop, [&] {
        done = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    job->setAutoDelete(false);
    job->start();
    if (!done)
        loop.exec(QEventLoop::ExcludeUserInputEvents);
    if (!done) {
        job->deleteLater(); // it may still finish; nothing waits for it
        return Result {
            Status::Unavailable,
            {},
            QCoreApplication::translate("bullpen::secrets", "the Secret Service did not answer within %1 ms (locked?)").arg(timeoutMs)
        };
    }
    switch (job->error()) {
    case QKeychain::NoError:
        r.status = Status::Ok;
        onSuccess(r);
        break;
    case QKeychain::EntryNotFound:
        r.status = Status::NotFound;
        break;
    case QKeychain::NoBackendAvailable:
    case QKeychain::NotImplemented:
        r.status = Status::Unavailable;
        r.reason =
            QCoreApplication::translate("bullpen::secrets", "no Secret Service answers on this session bus (%1)").arg(job->errorString());
        break;
    default:
        r.status = Status::Failed;
        r.reason = job->errorString();
        break;
    }
    delete job;
    return r;
}
#endif

} // namespace

bool compiledIn()
{
#ifdef BULLPEN_HAVE_KEYCHAIN
    return true;
#else
    return false;
#endif
}

Result read(const QString &name, int timeoutMs)
{
#ifdef BULLPEN_HAVE_KEYCHAIN
    auto *job = new QKeychain::ReadPasswordJob(QString::fromLatin1(kService));
    job->setKey(name);
    return run(job, timeoutMs, [job](Result &r) { r.value = job->textData(); });
#else
    Q_UNUSED(name)
    Q_UNUSED(timeoutMs)
    return Result { Status::Unavailable,
                    {},
                    QCoreApplication::translate("bullpen::secrets", "this build has no keychain support (QtKeychain)") };
#endif
}

Result write(const QString &name, const QString &value, int timeoutMs)
{
#ifdef BULLPEN_HAVE_KEYCHAIN
    if (value.isEmpty()) {
        auto *job = new QKeychain::DeletePasswordJob(QString::fromLatin1(kService));
        job->setKey(name);
        Result r = run(job, timeoutMs, [](Result &) {});
        if (r.status == Status::NotFound)
            r.status = Status::Ok; // nothing to remove is removed
        return r;
    }
    auto *job = new QKeychain::WritePasswordJob(QString::fromLatin1(kService));
    job->setKey(name);
    job->setTextData(value);
    return run(job, timeoutMs, [](Result &) {});
#else
    Q_UNUSED(name)
    Q_UNUSED(value)
    Q_UNUSED(timeoutMs)
    return Result { Status::Unavailable,
                    {},
                    QCoreApplication::translate("bullpen::secrets", "this build has no keychain support (QtKeychain)") };
#endif
}

Result probe(int timeoutMs)
{
    Result r = read(QStringLiteral("BULLPEN_KEYCHAIN_PROBE"), timeoutMs);
    if (r.status == Status::NotFound || r.status == Status::Ok)
        return Result { Status::Ok, {}, {} };
    return r;
}

} // namespace bullpen::secrets
