// SPDX-License-Identifier: MIT
#include "alertboard.h"

#include "contract/isotime.h"

#include <QJsonArray>
#include <QSet>
#include <QUuid>

#include <algorithm>

namespace bullpen {

namespace {

QJsonValue time(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(isoUtcWithMs(t.toMSecsSinceEpoch())) : QJsonValue();
}

} // namespace

QJsonObject Alert::toJson() const
{
    QString runbook;
    for (const AlertRule &r : alertRules())
        if (rule == QLatin1StringView(r.name))
            runbook = r.runbookUrl();
    return QJsonObject {
        { QStringLiteral("rule"), rule },
        { QStringLiteral("severity"), severity },
        { QStringLiteral("labels"), labels },
        { QStringLiteral("state"), state },
        { QStringLiteral("value"), value },
        { QStringLiteral("active_at"), time(activeAt) },
        { QStringLiteral("fired_at"), time(firedAt) },
        { QStringLiteral("resolved_at"), time(resolvedAt) },
        { QStringLiteral("runbook_url"), runbook },
        { QStringLiteral("silenced_until"), time(silencedUntil) },
    };
}

QJsonObject Silence::toJson() const
{
    return QJsonObject {
        { QStringLiteral("rule"), rule },         { QStringLiteral("by"), by },
        { QStringLiteral("reason"), reason },     { QStringLiteral("since"), time(since) },
        { QStringLiteral("until"), time(until) },
    };
}

QString AlertBoard::silenceLengthsText()
{
    QStringList offered;
    for (const std::chrono::seconds l : kSilenceLengths)
        offered << QString::number(l.count());
    return offered.join(QStringLiteral(", "));
}

bool AlertBoard::knownRule(const QString &rule)
{
    const auto &rules = alertRules();
    return std::any_of(rules.begin(), rules.end(), [&](const AlertRule &r) { return rule == QLatin1StringView(r.name); });
}

std::optional<Silence> AlertBoard::makeSilence(const QString &rule, const QString &by, const QString &reason, std::chrono::seconds length,
                                               Clock::time_point now, const QDateTime &wallNow, QString *error)
{
    if (!knownRule(rule)) {
        *error = QStringLiteral("no alert rule \"%1\"; GET /v1/alerts lists the rules").arg(rule.left(64));
        return std::nullopt;
    }
    if (std::find(std::begin(kSilenceLengths), std::end(kSilenceLengths), length) == std::end(kSilenceLengths)) {
        *error =
            QStringLiteral("a silence lasts %1 seconds; %2 is none of them").arg(silenceLengthsText(), QString::number(length.count()));
        return std::nullopt;
    }
    return Silence {
        QUuid::createUuid().toString(QUuid::WithoutBraces), rule, by, reason, wallNow, wallNow.addSecs(length.count()), now + length
    };
}

void AlertBoard::addSilence(const Silence &silence)
{
    m_silences[silence.rule] = silence;
}

std::optional<Silence> AlertBoard::silence(const QString &rule, const QString &by, const QString &reason, std::chrono::seconds length,
                                           Clock::time_point now, const QDateTime &wallNow, QString *error)
{
    const std::optional<Silence> s = makeSilence(rule, by, reason, length, now, wallNow, error);
    if (s)
        addSilence(*s);
    return s;
}

void AlertBoard::adoptSilences(std::vector<Silence> stored, Clock::time_point now, const QDateTime &wallNow)
{
    std::map<QString, Silence> next;
    for (Silence &s : stored) { // oldest first: of two made at once for one rule, the later is kept
        if (!knownRule(s.rule))
            continue; // a rule of another build: not ours to judge
        if (const auto held = m_silences.find(s.rule); held != m_silences.end() && held->second.id == s.id) {
            s.ends = held->second.ends;
        } else {
            const qint64 wholeMs = std::max<qint64>(0, s.since.msecsTo(s.until));
            s.ends = now + std::chrono::milliseconds(std::clamp<qint64>(wallNow.msecsTo(s.until), 0, wholeMs));
        }
        next[s.rule] = std::move(s);
    }
    m_silences = std::move(next);
}

std::vector<Silence> AlertBoard::takeEnded(Clock::time_point now)
{
    std::vector<Silence> ended;
    for (auto it = m_silences.begin(); it != m_silences.end();) {
        if (it->second.ends <= now) {
            ended.push_back(it->second);
            it = m_silences.erase(it);
        } else {
            ++it;
        }
    }
    return ended;
}

std::optional<Silence> AlertBoard::endSilence(const QString &rule, Clock::time_point now)
{
    const auto it = m_silences.find(rule);
    if (it == m_silences.end())
        return std::nullopt;
    const Silence ended = it->second;
    m_silences.erase(it);
    if (ended.ends <= now)
        return std::nullopt; // it had ended on its own
    return ended;
}

std::vector<Silence> AlertBoard::silences(Clock::time_point now) const
{
    std::vector<Silence> out;
    for (const AlertRule &r : alertRules())
        if (const auto it = m_silences.find(QString::fromLatin1(r.name)); it != m_silences.end() && it->second.ends > now)
            out.push_back(it->second);
    return out;
}

QDateTime AlertBoard::silencedUntil(const QString &rule, Clock::time_point now) const
{
    const auto it = m_silences.find(rule);
    return it != m_silences.end() && it->second.ends > now ? it->second.until : QDateTime();
}

std::vector<Alert> AlertBoard::evaluate(const AlertFacts &facts, Clock::time_point now, const QDateTime &wallNow)
{
    std::vector<Alert> changes;
    std::erase_if(m_silences, [now](const auto &s) { return s.second.ends <= now; }); // over: ended on their own
    for (const AlertRule &rule : alertRules()) {
        if (!rule.active)
            continue;
        const QString name = QString::fromLatin1(rule.name);
        QSet<QString> stopped; // series whose latest sample says the condition no longer holds
        for (const AlertSample &s : rule.active(facts)) {
            if (!s.holds) {
                stopped.insert(s.labels);
                continue;
            }
            auto [it, added] = m_active.try_emplace({ name, s.labels });
            Tracked &t = it->second;
            t.lastSeen = now;
            t.alert.value = s.value;
            t.alert.silencedUntil = silencedUntil(name, now);
            if (added) {
                t.since = now;
                t.alert = Alert { name,
                                  QString::fromLatin1(rule.severity),
                                  s.labels,
                                  QStringLiteral("pending"),
                                  s.value,
                                  wallNow,
                                  {},
                                  {},
                                  silencedUntil(name, now) };
                changes.push_back(t.alert);
            }
        }
        // Pending ones that have held for `for` fire; ones that stopped holding, or are no longer
        // reported beyond the hold, end.
        for (auto it = m_active.begin(); it != m_active.end();) {
            Tracked &t = it->second;
            if (it->first.first != name) {
                ++it;
                continue;
            }
            if (stopped.contains(it->first.second) || now - t.lastSeen > rule.hold || (t.lastSeen != now && rule.hold.count() == 0)) {
                if (t.alert.state == u"firing") {
                    t.alert.state = QStringLiteral("resolved");
                    t.alert.resolvedAt = wallNow;
                    changes.push_back(t.alert);
                    m_history.push_front(t.alert);
                    if (m_history.size() > size_t(kHistory))
                        m_history.pop_back();
                }
                it = m_active.erase(it);
                continue;
            }
            if (t.alert.state == u"pending" && now - t.since >= rule.forDuration) {
                t.alert.state = QStringLiteral("firing");
                t.alert.firedAt = wallNow;
                changes.push_back(t.alert);
            }
            ++it;
        }
    }
    return changes;
}

QJsonObject AlertBoard::toJson(const QString &instance, Clock::time_point now) const
{
    QJsonArray active;
    for (Alert a : this->active()) {
        a.silencedUntil = silencedUntil(a.rule, now);
        active.append(a.toJson());
    }
    QJsonArray silenced;
    for (const Silence &s : silences(now))
        silenced.append(s.toJson());
    QJsonArray history;
    for (const Alert &a : m_history)
        history.append(a.toJson());
    QJsonArray rules;
    for (const AlertRule &r : alertRules())
        rules.append(
            QJsonObject { { QStringLiteral("name"), QString::fromLatin1(r.name) },
                          { QStringLiteral("severity"), QString::fromLatin1(r.severity) },
                          { QStringLiteral("for_s"), double(r.forDuration.count()) },
                          { QStringLiteral("evaluated_here"), bool(r.active) },
                          { QStringLiteral("elsewhere"), r.elsewhere ? QJsonValue(QString::fromLatin1(r.elsewhere)) : QJsonValue() },
                          { QStringLiteral("runbook_url"), r.runbookUrl() } });
    return QJsonObject { { QStringLiteral("instance"), instance },
                         { QStringLiteral("alerts"), active },
                         { QStringLiteral("history"), history },
                         { QStringLiteral("rules"), rules },
                         { QStringLiteral("silences"), silenced } };
}

std::vector<Alert> AlertBoard::active() const
{
    std::vector<Alert> out;
    for (const AlertRule &rule : alertRules())
        for (const auto &[key, t] : m_active)
            if (key.first == QLatin1StringView(rule.name))
                out.push_back(t.alert);
    return out;
}

} // namespace bullpen
