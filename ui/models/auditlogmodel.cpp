// SPDX-License-Identifier: MIT
#include "auditlogmodel.h"

#include "controltext.h"

#include <QHash>
#include <QJsonDocument>
#include <QLocale>

namespace bullpen {

namespace {

// The fields of an entry, in the order a CSV export writes them (GET /v1/audit's names).
constexpr const char *kFields[] = { "at", "token", "action", "target", "instance" };

// The words of the audited actions (docs/api.md, GET /v1/audit); another id is shown as it is.
struct ActionWords
{
    const char *id;
    const char *words;
};
constexpr ActionWords kActions[] = {
    { "start", QT_TRANSLATE_NOOP("bullpen::AuditLogModel", "started a generation") },
    { "cancel", QT_TRANSLATE_NOOP("bullpen::AuditLogModel", "cancelled") },
    { "compare", QT_TRANSLATE_NOOP("bullpen::AuditLogModel", "started a comparison") },
    { "drain", QT_TRANSLATE_NOOP("bullpen::AuditLogModel", "drained") },
    { "restore", QT_TRANSLATE_NOOP("bullpen::AuditLogModel", "restored") },
    { "reset", QT_TRANSLATE_NOOP("bullpen::AuditLogModel", "reset a breaker") },
    { "token_add", QT_TRANSLATE_NOOP("bullpen::AuditLogModel", "added a token") },
    { "token_revoke", QT_TRANSLATE_NOOP("bullpen::AuditLogModel", "revoked a token") },
    // What the engine did by itself (token "engine"): its breakers' transitions and drains that ran out.
    { "breaker_opened", QT_TRANSLATE_NOOP("bullpen::AuditLogModel", "opened the breaker of") },
    { "breaker_half_open", QT_TRANSLATE_NOOP("bullpen::AuditLogModel", "half-opened the breaker of") },
    { "breaker_closed", QT_TRANSLATE_NOOP("bullpen::AuditLogModel", "closed the breaker of") },
    { "drain_expired", QT_TRANSLATE_NOOP("bullpen::AuditLogModel", "ended the expired drain of") },
};

QByteArray csvField(const QString &value)
{
    QString v = value;
    if (v.contains(QLatin1Char(',')) || v.contains(QLatin1Char('"')) || v.contains(QLatin1Char('\n')) || v.contains(QLatin1Char('\r')))
        v = QLatin1Char('"') + v.replace(QLatin1Char('"'), QLatin1String("\"\"")) + QLatin1Char('"');
    return v.toUtf8();
}

} // namespace

AuditLogModel::AuditLogModel(QObject *parent)
    : JsonRowsModel(parent)
{
}

void AuditLogModel::setEntries(const QJsonArray &entries)
{
    // Two entries alike in every field (one token draining twice in a millisecond) stay two rows.
    QHash<QString, int> seen;
    QList<QJsonObject> rows;
    for (const QJsonValue &v : entries) {
        QJsonObject o = v.toObject();
        const QString k = QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
        o.insert(QStringLiteral("_n"), seen[k]++);
        rows << o;
    }
    setRows(rows);
}

QString AuditLogModel::actionText(const QString &actionId)
{
    for (const ActionWords &a : kActions)
        if (actionId == QLatin1StringView(a.id))
            return tr(a.words);
    return actionId;
}

QByteArray AuditLogModel::toCsv(const QList<QJsonObject> &rows)
{
    QByteArray out;
    for (const char *f : kFields)
        out += QByteArray(f) + (f == kFields[std::size(kFields) - 1] ? "\r\n" : ",");
    for (const QJsonObject &r : rows) {
        QByteArrayList cells;
        for (const char *f : kFields)
            cells << csvField(r.value(QLatin1StringView(f)).toString());
        out += cells.join(',') + "\r\n";
    }
    return out;
}

QByteArray AuditLogModel::toJson(const QList<QJsonObject> &rows)
{
    QJsonArray a;
    for (QJsonObject r : rows) {
        r.remove(QStringLiteral("_n"));
        a.append(r);
    }
    return QJsonDocument(a).toJson(QJsonDocument::Indented);
}

int AuditLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AuditLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case WhenColumn:
        return tr("When");
    case WhoColumn:
        return tr("Who");
    case ActionColumn:
        return tr("What");
    case TargetColumn:
        return tr("On what");
    case InstanceColumn:
        return tr("Instance");
    default:
        return {};
    }
}

QString AuditLogModel::key(const QJsonObject &row) const
{
    return QString::fromUtf8(QJsonDocument(row).toJson(QJsonDocument::Compact));
}

QString AuditLogModel::text(const QJsonObject &row, int column) const
{
    switch (column) {
    case WhenColumn: {
        const QDateTime t = controltext::time(row.value(QLatin1StringView("at")));
        return t.isValid() ? QLocale().toString(t.toLocalTime(), QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QString();
    }
    case WhoColumn: {
        const QString who = row.value(QLatin1StringView("token")).toString();
        return who == u"console" ? tr("this console") : who;
    }
    case ActionColumn:
        return actionText(row.value(QLatin1StringView("action")).toString());
    case TargetColumn:
        return row.value(QLatin1StringView("target")).toString();
    case InstanceColumn:
        return row.value(QLatin1StringView("instance")).toString();
    default:
        return {};
    }
}

QVariant AuditLogModel::sortValue(const QJsonObject &row, int column) const
{
    return column == WhenColumn ? row.value(QLatin1StringView("at")).toString() : text(row, column);
}

} // namespace bullpen
