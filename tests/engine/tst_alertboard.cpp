// SPDX-License-Identifier: MIT
// The engine's own alert evaluation (docs/api.md, "Alerts"): the rule table against the shipped
// Prometheus rules, and a 30-minute hanging primary under the breaker's real cycle (open 30 s doubling
// to 300 s, half-open for the trial's timeout) evaluated every 5 s on a fake clock.
#include "engine/alertboard.h"

#include <QFile>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTest>

using namespace bullpen;
using namespace std::chrono_literals;

class tst_AlertBoard : public QObject
{
    Q_OBJECT

    static std::chrono::seconds parseFor(const QString &v)
    {
        const qint64 n = v.chopped(1).toLongLong();
        return v.endsWith(u'h') ? std::chrono::seconds(n * 3600)
            : v.endsWith(u'm')  ? std::chrono::seconds(n * 60)
                                : std::chrono::seconds(n);
    }

private Q_SLOTS:
    // One definition, checked both ways: every shipped rule is in the table with the same severity,
    // `for` and runbook, and the table has no rule the file lacks.
    void tableMatchesTheShippedRules()
    {
        QFile file(QStringLiteral(BULLPEN_SOURCE_DIR "/resources/monitoring/bullpen-alerts.yml"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        static const QRegularExpression rule(QStringLiteral("- alert: (\\w+)(.*?)runbook_url: \"([^\"]+)\""),
                                             QRegularExpression::DotMatchesEverythingOption);
        QStringList shipped;
        for (auto it = rule.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            const QString name = m.captured(1);
            const QString body = m.captured(2);
            shipped << name;
            const auto found = std::find_if(alertRules().begin(), alertRules().end(),
                                            [&](const AlertRule &r) { return name == QLatin1StringView(r.name); });
            QVERIFY2(found != alertRules().end(), qPrintable(name + QStringLiteral(" is shipped and not in alertRules()")));
            const QString forValue = QRegularExpression(QStringLiteral("\\n\\s+for: (\\S+)")).match(body).captured(1);
            QCOMPARE(found->forDuration, parseFor(forValue));
            QCOMPARE(QRegularExpression(QStringLiteral("severity: (\\w+)")).match(body).captured(1), QString::fromLatin1(found->severity));
            QCOMPARE(m.captured(3), found->runbookUrl());
            if (found->active && found->hold > 0s) // the hold is the expression's last_over_time window
                QVERIFY2(body.contains(QStringLiteral("last_over_time(bullpen_breaker_state[%1m])").arg(found->hold.count() / 60)),
                         qPrintable(name));
        }
        QCOMPARE(shipped.size(), qsizetype(alertRules().size()));
    }

    // A primary hanging for 30 minutes: the breaker opens at 1 min, then cycles open (30 s, 60 s, … 300 s)
    // and half-open (the 20 s trial timing out) until the provider answers at 31 min. The critical alert
    // fires within 3 minutes of the outage, stays firing throughout, and resolves within 5 minutes after.
    void outageFiresStaysAndResolves()
    {
        const BreakerKey key { Provider::Gemini, Role::Primary, Stage::Storyboard };
        std::vector<std::pair<std::chrono::seconds, BreakerState>> phases; // state from each time on
        auto t = 60s; // the first five timeouts have opened it
        auto cooldown = 30s;
        while (t < 31min) {
            phases.push_back({ t, BreakerState::Open });
            t += cooldown;
            phases.push_back({ t, BreakerState::HalfOpen });
            t += 20s; // the trial's timeout
            cooldown = std::min<std::chrono::seconds>(cooldown * 2, 300s);
        }
        phases.push_back({ t, BreakerState::Closed }); // the first trial after the outage succeeds
        const auto outageEnd = t;
        const auto stateAt = [&](std::chrono::seconds at) {
            BreakerState s = BreakerState::Closed;
            for (const auto &[from, state] : phases)
                if (from <= at)
                    s = state;
            return s;
        };
        AlertBoard board;
        const Clock::time_point t0 {};
        const QDateTime wall0 = QDateTime::fromString(QStringLiteral("2026-12-05T00:00:00Z"), Qt::ISODate);
        std::optional<std::chrono::seconds> fired, resolved, breakerOpenFired;
        bool quietDuringOutage = false;
        for (auto at = 0s; at <= 45min; at += 5s) {
            AlertFacts facts;
            BreakerView v;
            v.key = key;
            v.state = stateAt(at);
            facts.breakers.push_back(v);
            for (const Alert &a : board.evaluate(facts, t0 + at, wall0.addSecs(at.count()))) {
                if (a.rule == u"BullpenProviderFailingNow" && a.state == u"firing")
                    fired = at;
                if (a.rule == u"BullpenProviderFailingNow" && a.state == u"resolved")
                    resolved = at;
                if (a.rule == u"BullpenBreakerOpen" && a.state == u"firing")
                    breakerOpenFired = at;
            }
            const auto active = board.active();
            const bool firing = std::any_of(active.begin(), active.end(),
                                            [](const Alert &a) { return a.rule == u"BullpenProviderFailingNow" && a.state == u"firing"; });
            if (fired && at < outageEnd && !firing)
                quietDuringOutage = true;
        }
        QVERIFY(fired);
        qInfo().noquote() << QStringLiteral("outage 0-%1 s: fired at %2 s, resolved at %3 s, BullpenBreakerOpen fired at %4 s")
                                 .arg(outageEnd.count())
                                 .arg(fired->count())
                                 .arg(resolved ? resolved->count() : -1)
                                 .arg(breakerOpenFired ? breakerOpenFired->count() : -1);
        QVERIFY2(*fired <= 3min, qPrintable(QString::number(fired->count())));
        QVERIFY(!quietDuringOutage);
        QVERIFY(resolved);
        // Resolved at the first evaluation that sees the breaker closed (the 5 s tick), as Prometheus's
        // last_over_time resolves at its first evaluation after the closed sample: never held longer.
        QVERIFY2(*resolved >= outageEnd && *resolved <= outageEnd + 5s, qPrintable(QString::number(resolved->count())));
        QVERIFY(breakerOpenFired); // never closed for 10 minutes: the warning fires too
        QCOMPARE(board.history().size(), size_t(2));
        QCOMPARE(board.history().front().state, QStringLiteral("resolved"));
        QVERIFY(board.history().front().firedAt.isValid());
    }

    // A breaker the engine stops reporting at all (its provider gone from the settings) is a series
    // missing from the samples: it stays active for the rule's hold (last_over_time's window), then ends.
    // One reported closed ends at once (the closure case is outageFiresStaysAndResolves).
    void vanishedSeriesIsHeldForTheWindow()
    {
        AlertBoard board;
        AlertFacts open;
        BreakerView v;
        v.key = BreakerKey { Provider::Gemini, Role::Primary, Stage::Storyboard };
        v.state = BreakerState::Open;
        open.breakers.push_back(v);
        const Clock::time_point t0 {};
        const QDateTime wall = QDateTime::currentDateTimeUtc();
        for (auto at = 0s; at <= 65s; at += 5s)
            board.evaluate(open, t0 + at, wall);
        const auto firing = [&] {
            const auto a = board.active();
            return std::count_if(a.begin(), a.end(),
                                 [](const Alert &x) { return x.rule == u"BullpenProviderFailingNow" && x.state == u"firing"; });
        };
        QCOMPARE(firing(), 1);
        const AlertFacts gone; // no breaker reported
        board.evaluate(gone, t0 + 70s, wall);
        QCOMPARE(firing(), 1); // missing for 5 s of a 2-minute window: still firing
        board.evaluate(gone, t0 + 65s + 2min, wall);
        QCOMPARE(firing(), 1);
        board.evaluate(gone, t0 + 70s + 2min, wall);
        QCOMPARE(firing(), 0);
        QCOMPARE(board.history().front().state, QStringLiteral("resolved"));
    }

    // A series that holds for less than its `for` is pending, then dropped without firing or history.
    void shortBlipNeverFires()
    {
        AlertBoard board;
        AlertFacts down;
        down.storeReachable = false;
        const Clock::time_point t0 {};
        const QDateTime wall = QDateTime::currentDateTimeUtc();
        const auto first = board.evaluate(down, t0, wall);
        QCOMPARE(first.size(), size_t(1));
        QCOMPARE(first.front().state, QStringLiteral("pending"));
        QVERIFY(board.evaluate(down, t0 + 90s, wall).empty());
        QVERIFY(board.evaluate(AlertFacts {}, t0 + 95s, wall).empty()); // pending ended: dropped
        QVERIFY(board.active().empty());
        QVERIFY(board.history().empty());
        board.evaluate(down, t0 + 100s, wall);
        const auto fired = board.evaluate(down, t0 + 220s, wall);
        QCOMPARE(fired.size(), size_t(1));
        QCOMPARE(fired.front().state, QStringLiteral("firing"));
    }

    // Acknowledge = silence: a rule's alerts say until when they are silenced (in their changes and in
    // GET /v1/alerts' answer) and the silence ends on its own at its end on the steady clock, or when
    // ended; only the offered lengths and known rules are taken.
    void silenceEndsOnItsOwn()
    {
        AlertBoard board;
        AlertFacts down;
        down.storeReachable = false;
        const Clock::time_point t0 {};
        const QDateTime wall0 = QDateTime::fromString(QStringLiteral("2026-12-05T00:00:00Z"), Qt::ISODate);
        const QString rule = QStringLiteral("BullpenStoreUnreachable");
        QString why;
        QVERIFY(!board.silence(QStringLiteral("NoSuchRule"), QStringLiteral("ops"), QStringLiteral("x"), 15min, t0, wall0, &why));
        QVERIFY2(why.contains(u"GET /v1/alerts"), qPrintable(why));
        QVERIFY(!board.silence(rule, QStringLiteral("ops"), QStringLiteral("x"), 10min, t0, wall0, &why));
        QVERIFY2(why.contains(u"900, 3600, 14400 seconds"), qPrintable(why));

        const auto s = board.silence(rule, QStringLiteral("ops"), QStringLiteral("known, ticket 9"), 15min, t0, wall0, &why);
        QVERIFY(s);
        QCOMPARE(s->until, wall0.addSecs(15 * 60));
        QCOMPARE(board.evaluate(down, t0, wall0).front().silencedUntil, s->until); // pending, and silenced
        const auto fired = board.evaluate(down, t0 + 3min, wall0.addSecs(180));
        QCOMPARE(fired.size(), size_t(1));
        QCOMPARE(fired.front().state, QStringLiteral("firing"));
        QCOMPARE(fired.front().silencedUntil, s->until);
        QJsonObject answer = board.toJson(QStringLiteral("i"), t0 + 3min);
        QCOMPARE(answer.value(QLatin1StringView("silences")).toArray().size(), 1);
        QCOMPARE(answer.value(QLatin1StringView("silences")).toArray().first().toObject().value(QLatin1StringView("by")).toString(),
                 QStringLiteral("ops"));
        QCOMPARE(
            answer.value(QLatin1StringView("alerts")).toArray().first().toObject().value(QLatin1StringView("silenced_until")).toString(),
            QStringLiteral("2026-12-05T00:15:00.000Z"));

        // At its end (no one ended it) the alert is no longer silenced, and the silence is gone.
        board.evaluate(down, t0 + 15min, wall0.addSecs(900));
        QVERIFY(!board.active().front().silencedUntil.isValid());
        answer = board.toJson(QStringLiteral("i"), t0 + 15min);
        QVERIFY(answer.value(QLatin1StringView("silences")).toArray().isEmpty());
        QVERIFY(answer.value(QLatin1StringView("alerts")).toArray().first().toObject().value(QLatin1StringView("silenced_until")).isNull());
        QVERIFY(!board.endSilence(rule, t0 + 15min)); // nothing left to end

        // Ended by an operator before its time.
        QVERIFY(board.silence(rule, QStringLiteral("ops"), QStringLiteral("again"), 4h, t0 + 16min, wall0, &why));
        QCOMPARE(board.silences(t0 + 16min).size(), size_t(1));
        QVERIFY(board.endSilence(rule, t0 + 17min));
        QVERIFY(board.silences(t0 + 17min).empty());
    }
};

QTEST_GUILESS_MAIN(tst_AlertBoard)
#include "tst_alertboard.moc"
