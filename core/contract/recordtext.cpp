// SPDX-License-Identifier: MIT
#include "recordtext.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QMutex>
#include <QRegularExpression>

#include <array>
#include <iterator>

namespace bullpen {

namespace {

struct Source
{
    RecordText id;
    const char *english;
};

// Each row spelled out with QT_TRANSLATE_NOOP: lupdate does not expand macros.
constexpr Source kSources[] = {
    { RecordText::NoProviderStarted, QT_TRANSLATE_NOOP("bullpen::RecordText", "no provider was started") },
    { RecordText::QueueFull, QT_TRANSLATE_NOOP("bullpen::RecordText", "not started: Bullpen's own queue for %1 is full") },
    { RecordText::ProbeNoFallback, QT_TRANSLATE_NOOP("bullpen::RecordText", "probe not sent: the %1 stage has no fallback provider") },
    { RecordText::ProbeNotSent, QT_TRANSLATE_NOOP("bullpen::RecordText", "probe not sent: %1 is %2 (%3)") },
    { RecordText::ProbeSucceeded, QT_TRANSLATE_NOOP("bullpen::RecordText", "probe succeeded") },
    { RecordText::ProbeFailed,
      QT_TRANSLATE_NOOP("bullpen::RecordText", "probe failed with %1; a probe has no fallback and no second round") },
    { RecordText::PrimarySucceeded, QT_TRANSLATE_NOOP("bullpen::RecordText", "the primary succeeded; no fallback needed") },
    { RecordText::PrimarySucceededInRound, QT_TRANSLATE_NOOP("bullpen::RecordText", "the primary succeeded in round %1") },
    { RecordText::SkippedPrimaryFallbackSucceeded,
      QT_TRANSLATE_NOOP("bullpen::RecordText", "the primary %1 was skipped (%2); the fallback provider %3 succeeded") },
    { RecordText::FallbackSucceeded,
      QT_TRANSLATE_NOOP("bullpen::RecordText", "the primary failed with %1; the fallback provider %2 succeeded") },
    { RecordText::CancelledAfterAttemptEnded,
      QT_TRANSLATE_NOOP("bullpen::RecordText", "cancelled right after the attempt ended with %1; nothing further is started") },
    { RecordText::CancelledNoFallback,
      QT_TRANSLATE_NOOP("bullpen::RecordText", "cancelled; no fallback provider is started for a cancelled generation") },
    { RecordText::NoNextRound, QT_TRANSLATE_NOOP("bullpen::RecordText", "%1; no round %2: the stage budget ends before the pause does") },
    { RecordText::NoFallbackBecause, QT_TRANSLATE_NOOP("bullpen::RecordText", "no fallback: %1") },
    { RecordText::NoFallbackBudgetUsed,
      QT_TRANSLATE_NOOP("bullpen::RecordText", "no fallback: the stage budget of %1 ms was used up by the primary") },
    { RecordText::NoFallbackInFlight,
      QT_TRANSLATE_NOOP(
          "bullpen::RecordText",
          "no fallback: %1 already has %2 attempts in flight (the in-flight limit), and a fallback attempt never waits once the "
          "stage budget runs") },
    { RecordText::SkippedPrimaryFallbackFailed,
      QT_TRANSLATE_NOOP("bullpen::RecordText",
                        "the primary %1 was skipped (%2); the fallback provider %3 failed, and the primary is not called for this stage") },
    { RecordText::FallbackFailedToo,
      QT_TRANSLATE_NOOP("bullpen::RecordText", "the fallback provider %1 failed too; the primary is never called again") },
    { RecordText::FailedAfterRounds, QT_TRANSLATE_NOOP("bullpen::RecordText", "%1 after %2 rounds") },
    { RecordText::NoFallbackConfigured, QT_TRANSLATE_NOOP("bullpen::RecordText", "no fallback provider is configured") },
    { RecordText::ShutDownBeforeNextAttempt, QT_TRANSLATE_NOOP("bullpen::RecordText", "Bullpen shut down before the next attempt") },
    { RecordText::CancelledBeforeNextAttempt,
      QT_TRANSLATE_NOOP("bullpen::RecordText", "cancelled by the operator before the next attempt") },
    { RecordText::ServedFromCache,
      QT_TRANSLATE_NOOP("bullpen::RecordText", "served from cache: an identical request succeeded within 24 h") },

    { RecordText::KindNotHandedOn,
      QT_TRANSLATE_NOOP("bullpen::RecordText", "%1 is not a kind the %2 policy hands to a fallback provider") },
    { RecordText::NoCapacityMarker,
      QT_TRANSLATE_NOOP("bullpen::RecordText",
                        "TRANSIENT_SERVER without a capacity marker; the capacity policy falls back only on overload") },
    { RecordText::FallbackHasNoKey, QT_TRANSLATE_NOOP("bullpen::RecordText", "the fallback provider %1 has no key") },
    { RecordText::FallbackIsSameModel, QT_TRANSLATE_NOOP("bullpen::RecordText", "the fallback provider is the same provider and model") },

    { RecordText::CancelledByOperator, QT_TRANSLATE_NOOP("bullpen::RecordText", "cancelled by the operator") },
    { RecordText::CancelledShuttingDown, QT_TRANSLATE_NOOP("bullpen::RecordText", "cancelled: Bullpen is shutting down") },
    { RecordText::QueueFullDetail,
      QT_TRANSLATE_NOOP(
          "bullpen::RecordText",
          "Bullpen's queue for %1 is full: %2 attempts in flight (the limit) and %3 generations waiting; nothing was sent. Try "
          "again later, or raise BULLPEN_MAX_IN_FLIGHT / BULLPEN_MAX_QUEUED if %1 allows more") },
    { RecordText::NoAdapter, QT_TRANSLATE_NOOP("bullpen::RecordText", "no %1 adapter is configured; check the provider settings") },

    { RecordText::DrainedBy, QT_TRANSLATE_NOOP("bullpen::RecordText", "drained by %1") },
    { RecordText::DrainedByBecause, QT_TRANSLATE_NOOP("bullpen::RecordText", "drained by %1: %2") },
    { RecordText::DrainedByUntil, QT_TRANSLATE_NOOP("bullpen::RecordText", "drained by %1 (until %2)") },
    { RecordText::DrainedByBecauseUntil, QT_TRANSLATE_NOOP("bullpen::RecordText", "drained by %1: %2 (until %3)") },
    { RecordText::CircuitOpen, QT_TRANSLATE_NOOP("bullpen::RecordText", "circuit open: %1; tried again after a cooldown of %2 ms") },
    { RecordText::CircuitHalfOpen, QT_TRANSLATE_NOOP("bullpen::RecordText", "circuit half-open: its one trial request is in flight (%1)") },
    { RecordText::FailedByRatio, QT_TRANSLATE_NOOP("bullpen::RecordText", "%1 of %2 attempts in the last %3 s failed (%4)") },
    { RecordText::FailedInARow,
      QT_TRANSLATE_NOOP("bullpen::RecordText", "the last %1 attempts failed in a row (%2 of %3 in the last %4 s: %5)") },
    { RecordText::TrialSucceeded, QT_TRANSLATE_NOOP("bullpen::RecordText", "the trial request succeeded") },
    { RecordText::TrialReachedProvider, QT_TRANSLATE_NOOP("bullpen::RecordText", "the trial request reached the provider (%1)") },
    { RecordText::TrialFailed, QT_TRANSLATE_NOOP("bullpen::RecordText", "the trial request failed (%1)") },
    { RecordText::CooldownOver, QT_TRANSLATE_NOOP("bullpen::RecordText", "cooldown of %1 ms over") },
    { RecordText::DrainRanUntil, QT_TRANSLATE_NOOP("bullpen::RecordText", "the drain ran until %1") },
    { RecordText::RestoredBy, QT_TRANSLATE_NOOP("bullpen::RecordText", "restored by %1") },
    { RecordText::RestoredByBecause, QT_TRANSLATE_NOOP("bullpen::RecordText", "restored by %1: %2") },
    { RecordText::ResetBy, QT_TRANSLATE_NOOP("bullpen::RecordText", "reset by %1") },
    { RecordText::ResetByBecause, QT_TRANSLATE_NOOP("bullpen::RecordText", "reset by %1: %2") },
    { RecordText::DrainNoLongerStored, QT_TRANSLATE_NOOP("bullpen::RecordText", "no longer in the store") },

    { RecordText::StepInStage, QT_TRANSLATE_NOOP("bullpen::RecordText", " (%1 stage)") },
    { RecordText::StepRateLimitedFor,
      QT_TRANSLATE_NOOP("bullpen::RecordText",
                        "%1 is rate-limiting requests%2. The limit should lift in about %3 s (at %4 UTC); try again after that.") },
    { RecordText::StepRateLimited,
      QT_TRANSLATE_NOOP(
          "bullpen::RecordText",
          "%1 is rate-limiting requests%2 and did not say for how long; per-minute limits usually lift within a minute. Try again "
          "then.") },
    { RecordText::StepQuota,
      QT_TRANSLATE_NOOP("bullpen::RecordText",
                        "%1's quota or billing is used up%2. Retrying will not help until credit is added or the quota is raised in the "
                        "provider's console (or a fallback provider is configured).") },
    { RecordText::StepTemporary,
      QT_TRANSLATE_NOOP("bullpen::RecordText",
                        "%1 failed in a way that is usually temporary (%2)%3. The same request sent again (Retry on the Result view, or "
                        "Generate) usually succeeds%4.") },
    { RecordText::StepOverloadSuffix,
      QT_TRANSLATE_NOOP("bullpen::RecordText", "; the provider reported overload, so waiting a minute helps") },
    { RecordText::StepAuthConfig,
      QT_TRANSLATE_NOOP(
          "bullpen::RecordText",
          "%1 rejected Bullpen's configuration%2. Check %3 (the key), %4 (the endpoint) and %5 (the model) in Settings or the "
          "environment, then run the generation again.") },
    { RecordText::StepTls,
      QT_TRANSLATE_NOOP(
          "bullpen::RecordText",
          "The secure connection to %1 failed%2 (certificate or handshake). Check %3 and the system's certificate store; Bullpen "
          "never ignores TLS errors.") },
    { RecordText::StepRefused,
      QT_TRANSLATE_NOOP("bullpen::RecordText",
                        "%1 refused this input%2 (safety or content policy). The same input will be refused again: change the story before "
                        "retrying.") },
    { RecordText::StepRequestRejected,
      QT_TRANSLATE_NOOP(
          "bullpen::RecordText",
          "%1 rejected the request itself as invalid%2; retrying sends the same request. Check the model in the settings; if it "
          "is right, report it with the generation's event log.") },
    { RecordText::StepCancelled,
      QT_TRANSLATE_NOOP("bullpen::RecordText",
                        "Cancelled. Retry starts the generation again. A cancelled request may still have been computed and billed by the "
                        "provider.") },
    { RecordText::StepInternal,
      QT_TRANSLATE_NOOP("bullpen::RecordText", "A fault in Bullpen itself%1. Please report it with the generation's event log.") },
    { RecordText::StepNotSent,
      QT_TRANSLATE_NOOP(
          "bullpen::RecordText",
          "The request%2 never reached %1: Bullpen itself was at its limit (its own queue was full, or it was too busy to send "
          "before the deadline). The provider is not to blame. Retry when fewer generations are in flight, or raise the "
          "in-flight limit (BULLPEN_MAX_IN_FLIGHT) if the provider allows it.") },
    { RecordText::StepUnknown,
      QT_TRANSLATE_NOOP(
          "bullpen::RecordText",
          "%1 failed in a way Bullpen does not recognise%2, so it was not treated as temporary. Retry if you believe it was.") },
    { RecordText::StepEngineUnreachable,
      QT_TRANSLATE_NOOP("bullpen::RecordText",
                        "The engine at %1 could not be reached, so nothing was sent to any provider. Generate again once the status "
                        "bar says it is connected.") },
    { RecordText::StepEngineRefused,
      QT_TRANSLATE_NOOP("bullpen::RecordText",
                        "The engine at %1 did not run this generation (the detail says why); it is the engine's answer, not a "
                        "provider's. Generate again, or read the engine's log.") },
};

constexpr bool inOrder()
{
    for (size_t i = 0; i < std::size(kSources); ++i)
        if (static_cast<size_t>(kSources[i].id) != i)
            return false;
    return true;
}
static_assert(std::size(kSources) == static_cast<size_t>(RecordText::Count), "one row per RecordText");
static_assert(inOrder(), "kSources is in the order of RecordText");

// `text` with each %N (1–9) replaced by args[N-1], in one pass.
QString fill(const QString &text, const QList<QString> &args)
{
    QString out;
    out.reserve(text.size() + 64);
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == u'%' && i + 1 < text.size() && text[i + 1] >= u'1' && text[i + 1] <= u'9') {
            const int n = text[i + 1].digitValue();
            if (n <= args.size()) {
                out += args[n - 1];
                ++i;
                continue;
            }
        }
        out += c;
    }
    return out;
}

// One template as a pattern: its literal text escaped, each %N a lazy group (a repeated %N must
// match what its first occurrence did).
struct Pattern
{
    const char *english = nullptr;
    QRegularExpression re;
    QList<int> groupOf; // for %1… in order: the capture group holding it; 0 when absent
    qsizetype literal = 0; // characters outside placeholders: the more, the more specific
};

QList<Pattern> compilePatterns()
{
    QList<Pattern> patterns;
    for (const Source &s : kSources) {
        Pattern p;
        p.english = s.english;
        const QString text = QString::fromUtf8(s.english);
        QString re = QStringLiteral("\\A");
        QString literal;
        int groups = 0;
        p.groupOf.fill(0, 9);
        for (qsizetype i = 0; i < text.size(); ++i) {
            if (text[i] == u'%' && i + 1 < text.size() && text[i + 1] >= u'1' && text[i + 1] <= u'9') {
                re += QRegularExpression::escape(literal);
                p.literal += literal.size();
                literal.clear();
                const int n = text[++i].digitValue();
                if (p.groupOf[n - 1] == 0) {
                    p.groupOf[n - 1] = ++groups;
                    re += QStringLiteral("(.*?)");
                } else {
                    re += QStringLiteral("\\g{%1}").arg(p.groupOf[n - 1]);
                }
                continue;
            }
            literal += text[i];
        }
        re += QRegularExpression::escape(literal) + QStringLiteral("\\z");
        p.literal += literal.size();
        p.re = QRegularExpression(re, QRegularExpression::DotMatchesEverythingOption);
        patterns.append(std::move(p));
    }
    return patterns;
}

QString localized(const QString &english, int depth)
{
    static const QList<Pattern> patterns = compilePatterns();
    if (english.isEmpty() || depth > 3)
        return english;
    const Pattern *best = nullptr;
    QRegularExpressionMatch bestMatch;
    for (const Pattern &p : patterns) {
        if (best && p.literal <= best->literal)
            continue;
        QRegularExpressionMatch m = p.re.match(english);
        if (m.hasMatch()) {
            best = &p;
            bestMatch = std::move(m);
        }
    }
    if (!best)
        return english;
    QList<QString> args;
    for (const int group : best->groupOf)
        args.append(group > 0 ? localized(bestMatch.captured(group), depth + 1) : QString());
    return fill(QCoreApplication::translate("bullpen::RecordText", best->english), args);
}

} // namespace

QString recordText(RecordText text, std::initializer_list<QString> args)
{
    return fill(QString::fromUtf8(kSources[static_cast<size_t>(text)].english), QList<QString>(args));
}

QString localizedRecordText(const QString &english)
{
    // The same few sentences are shown again and again (a table's rows, each repaint): remembered per
    // language, a few thousand at most.
    static QMutex mutex;
    static QHash<QString, QString> cache;
    static QString cachedFor;
    const QString language = QCoreApplication::translate("bullpen::RecordText", "no provider was started");
    {
        QMutexLocker lock(&mutex);
        if (cachedFor != language) {
            cache.clear();
            cachedFor = language;
        }
        if (const auto it = cache.constFind(english); it != cache.cend())
            return *it;
    }
    const QString out = localized(english, 0);
    QMutexLocker lock(&mutex);
    if (cache.size() > 4000)
        cache.clear();
    cache.insert(english, out);
    return out;
}

} // namespace bullpen
