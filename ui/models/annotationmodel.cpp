// SPDX-License-Identifier: MIT
#include "annotationmodel.h"

#include "auditlogmodel.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>

namespace bullpen {

using annotations::Kind;

namespace {

constexpr char kContext[] = "bullpen::AnnotationModel";

QString str(const QJsonObject &o, const char *field)
{
    return o.value(QLatin1StringView(field)).toString();
}

const AnnotationKindRow *rowOf(Kind kind)
{
    for (const AnnotationKindRow &r : annotationKinds())
        if (r.kind == kind)
            return &r;
    return nullptr;
}

const AnnotationKindRow *rowOfAction(const QString &action)
{
    for (const AnnotationKindRow &r : annotationKinds())
        for (const char *a : r.auditActions)
            if (action == QLatin1StringView(a))
                return &r;
    return nullptr;
}

// An audit target reads "SUBJECT (REASON)" when a reason was given (docs/api.md, GET /v1/audit).
std::pair<QString, QString> splitReason(const QString &target)
{
    const qsizetype open = target.indexOf(QLatin1String(" ("));
    if (open < 0 || !target.endsWith(QLatin1Char(')')))
        return { target, {} };
    return { target.left(open), target.mid(open + 2, target.size() - open - 3) };
}

QJsonObject annotation(Kind kind, const QString &at, const QString &what, const QString &who, const QString &why, const QString &key)
{
    return QJsonObject { { QStringLiteral("kind"), QString::fromLatin1(rowOf(kind)->id) },
                         { QStringLiteral("at"), at },
                         { QStringLiteral("what"), what },
                         { QStringLiteral("who"), who },
                         { QStringLiteral("why"), why },
                         { QStringLiteral("key"), key } };
}

Kind kindOf(const QJsonObject &row)
{
    const QString id = str(row, "kind");
    for (const AnnotationKindRow &r : annotationKinds())
        if (id == QLatin1StringView(r.id))
            return r.kind;
    return Kind::Alert;
}

QDateTime timeOf(const QJsonObject &row)
{
    return QDateTime::fromString(str(row, "at"), Qt::ISODateWithMs);
}

} // namespace

const std::vector<AnnotationKindRow> &annotationKinds()
{
    static const std::vector<AnnotationKindRow> kinds {
        { Kind::Drain, "drain", QT_TRANSLATE_NOOP("bullpen::AnnotationModel", "Drains"), tones::Tone::Warning, { "drain" } },
        { Kind::Restore,
          "restore",
          QT_TRANSLATE_NOOP("bullpen::AnnotationModel", "Restores"),
          tones::Tone::Success,
          { "restore", "drain_expired" } },
        { Kind::Breaker,
          "breaker",
          QT_TRANSLATE_NOOP("bullpen::AnnotationModel", "Breakers"),
          tones::Tone::Failure,
          { "breaker_opened", "breaker_half_open", "breaker_closed", "reset" } },
        { Kind::Alert, "alert", QT_TRANSLATE_NOOP("bullpen::AnnotationModel", "Alerts"), tones::Tone::Own, {} },
    };
    return kinds;
}

AnnotationModel::AnnotationModel(QObject *parent)
    : JsonRowsModel(parent)
{
}

void AnnotationModel::setAudit(const QJsonArray &entries)
{
    QList<QJsonObject> rows;
    QHash<QString, int> seen; // two alike entries (one token draining twice in a millisecond) stay two markers
    for (const QJsonValue &v : entries) {
        const QJsonObject e = v.toObject();
        const AnnotationKindRow *kind = rowOfAction(str(e, "action"));
        if (!kind)
            continue;
        const auto [subject, reason] = splitReason(str(e, "target"));
        const QString what = AuditLogModel::actionText(str(e, "action")) + QLatin1Char(' ') + subject;
        QString who = str(e, "token");
        if (!str(e, "instance").isEmpty())
            who += QStringLiteral(" @ ") + str(e, "instance");
        const QString k = str(e, "at") + QLatin1Char('|') + str(e, "action") + QLatin1Char('|') + str(e, "target") + QLatin1Char('|') + who;
        rows << annotation(kind->kind, str(e, "at"), what, who, reason, k + QLatin1Char('#') + QString::number(seen[k]++));
    }
    m_fromAudit = rows;
    merge();
}

void AnnotationModel::setAlerts(const QJsonObject &alerts)
{
    QList<QJsonObject> rows;
    const auto add = [&rows](const QJsonObject &a) {
        const QString subject = str(a, "rule") + (str(a, "labels").isEmpty() ? QString() : QLatin1Char(' ') + str(a, "labels"));
        const QString who = tr("the engine's rules");
        const QString why = tr("value %1, %2").arg(a.value(QLatin1StringView("value")).toDouble()).arg(str(a, "severity"));
        const QString key = str(a, "rule") + QLatin1Char('|') + str(a, "labels") + QLatin1Char('|') + str(a, "fired_at");
        if (!str(a, "fired_at").isEmpty())
            rows << annotation(Kind::Alert, str(a, "fired_at"), tr("alert firing: %1").arg(subject), who, why,
                               key + QStringLiteral("|fired"));
        if (!str(a, "resolved_at").isEmpty())
            rows << annotation(Kind::Alert, str(a, "resolved_at"), tr("alert resolved: %1").arg(subject), who, why,
                               key + QStringLiteral("|resolved"));
    };
    for (const QJsonValue &v : alerts.value(QLatin1StringView("alerts")).toArray())
        add(v.toObject()); // pending ones have no fired_at: not drawn until they fire
    for (const QJsonValue &v : alerts.value(QLatin1StringView("history")).toArray())
        add(v.toObject());
    m_fromAlerts = rows;
    merge();
}

void AnnotationModel::merge()
{
    QList<QJsonObject> rows = m_fromAudit + m_fromAlerts;
    std::stable_sort(rows.begin(), rows.end(), [](const QJsonObject &a, const QJsonObject &b) { return str(a, "at") < str(b, "at"); });
    setRows(rows);
}

void AnnotationModel::setKindVisible(Kind kind, bool visible)
{
    if (visible == isKindVisible(kind))
        return;
    if (visible)
        m_hidden.erase(kind);
    else
        m_hidden.insert(kind);
    Q_EMIT visibilityChanged();
}

std::vector<AnnotationModel::Marker> AnnotationModel::markers(const QDateTime &from, const QDateTime &to) const
{
    std::vector<Marker> out;
    for (const QJsonObject &row : rows()) {
        const Kind kind = kindOf(row);
        const QDateTime at = timeOf(row);
        if (!isKindVisible(kind) || !at.isValid() || at < from || at > to)
            continue;
        out.push_back(Marker { kind, at, str(row, "key"), toolTipOf(row) });
    }
    std::stable_sort(out.begin(), out.end(), [](const Marker &a, const Marker &b) { return a.at < b.at; });
    return out;
}

QString AnnotationModel::kindText(Kind kind)
{
    const AnnotationKindRow *r = rowOf(kind);
    return r ? QCoreApplication::translate(kContext, r->words) : QString();
}

QString AnnotationModel::toolTipOf(const QJsonObject &row)
{
    const QString when = QLocale().toString(timeOf(row).toLocalTime(), QStringLiteral("HH:mm:ss"));
    QString out = QStringLiteral("%1  %2\n").arg(when, str(row, "what"));
    out += tr("who: %1").arg(str(row, "who"));
    if (!str(row, "why").isEmpty())
        out += QLatin1Char('\n') + tr("why: %1").arg(str(row, "why"));
    return out;
}

int AnnotationModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AnnotationModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case WhenColumn:
        return tr("When");
    case KindColumn:
        return tr("Kind");
    case WhatColumn:
        return tr("What");
    case WhoColumn:
        return tr("Who");
    case WhyColumn:
        return tr("Why");
    default:
        return {};
    }
}

QString AnnotationModel::key(const QJsonObject &row) const
{
    return str(row, "key");
}

QString AnnotationModel::text(const QJsonObject &row, int column) const
{
    switch (column) {
    case WhenColumn:
        return QLocale().toString(timeOf(row).toLocalTime(), QLocale::ShortFormat);
    case KindColumn:
        return kindText(kindOf(row));
    case WhatColumn:
        return str(row, "what");
    case WhoColumn:
        return str(row, "who");
    case WhyColumn:
        return str(row, "why");
    default:
        return {};
    }
}

QVariant AnnotationModel::sortValue(const QJsonObject &row, int column) const
{
    return column == WhenColumn ? str(row, "at") : text(row, column);
}

} // namespace bullpen
