// SPDX-License-Identifier: MIT
#pragma once

#include "jsonrowsmodel.h"

#include <QJsonArray>

namespace bullpen {

// The Control view's audit trail (docs/console.md, "Control view"): when, who (a token's name, or this
// console), what, on what and on which instance, from GET /v1/audit's shape. Exported as CSV or JSON.
class AuditLogModel final : public JsonRowsModel
{
    Q_OBJECT
public:
    enum Column { WhenColumn, WhoColumn, ActionColumn, TargetColumn, InstanceColumn, ColumnCount };
    explicit AuditLogModel(QObject *parent = nullptr);
    void setEntries(const QJsonArray &entries);
    // An action in words (drain → "drain"; the id stays in exports).
    static QString actionText(const QString &actionId);
    // Rows as a file: CSV with a header line (RFC 4180 quoting), or a JSON array of the API's objects.
    static QByteArray toCsv(const QList<QJsonObject> &rows);
    static QByteArray toJson(const QList<QJsonObject> &rows);
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    QString key(const QJsonObject &row) const override;
    QString text(const QJsonObject &row, int column) const override;
    QVariant sortValue(const QJsonObject &row, int column) const override;
};

} // namespace bullpen
