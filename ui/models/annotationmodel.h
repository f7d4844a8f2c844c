// SPDX-License-Identifier: MIT
#pragma once

#include "jsonrowsmodel.h"
#include "views/tones.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>

#include <set>
#include <vector>

namespace bullpen {

namespace annotations {
Q_NAMESPACE
// What a marker on a time chart stands for (docs/contract.md §15, "Annotations").
enum class Kind { Drain, Restore, Breaker, Alert };
Q_ENUM_NS(Kind)
} // namespace annotations

// One kind's row: its id (object names, links), its words, its colour and the audit actions it gathers. Every
// reader (the model, the toggles, the markers' colours) walks this table.
struct AnnotationKindRow
{
    annotations::Kind kind;
    const char *id;
    const char *words; // QT_TRANSLATE_NOOP("bullpen::AnnotationModel", …)
    tones::Tone tone; // the marker's colour
    std::vector<const char *> auditActions; // GET /v1/audit's `action` ids; empty: from GET /v1/alerts
};
const std::vector<AnnotationKindRow> &annotationKinds();

// The one annotation model behind the markers of the Latency and Failures charts: drains, restores
// and breaker transitions from the audit trail (GET /v1/audit through the EngineConnection, embedded
// and attached alike; the engine audits its breakers' transitions as the token "engine"), alerts from
// GET /v1/alerts (firing and resolved, with their times). A refresh updates rows in place (JsonRowsModel),
// so a marker the operator hovers keeps its key, and its tooltip, across refreshes. Which kinds are shown
// is the model's too, so both charts and their toggles agree.
class AnnotationModel final : public JsonRowsModel
{
    Q_OBJECT
public:
    enum Column { WhenColumn, KindColumn, WhatColumn, WhoColumn, WhyColumn, ColumnCount };
    struct Marker
    {
        annotations::Kind kind = annotations::Kind::Drain;
        QDateTime at;
        QString key;
        QString toolTip;
    };

    explicit AnnotationModel(QObject *parent = nullptr);

    void setAudit(const QJsonArray &entries);
    void setAlerts(const QJsonObject &alerts);
    void setKindVisible(annotations::Kind kind, bool visible);
    bool isKindVisible(annotations::Kind kind) const { return !m_hidden.count(kind); }
    // The shown kinds' markers within [from, to], oldest first.
    std::vector<Marker> markers(const QDateTime &from, const QDateTime &to) const;
    static QString kindText(annotations::Kind kind);
    // "what · who · why" with the time, as a marker's tooltip says it.
    static QString toolTipOf(const QJsonObject &row);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void visibilityChanged();

protected:
    QString key(const QJsonObject &row) const override;
    QString text(const QJsonObject &row, int column) const override;
    QVariant sortValue(const QJsonObject &row, int column) const override;
    QString toolTip(const QJsonObject &row, int) const override { return toolTipOf(row); }

private:
    void merge();

    QList<QJsonObject> m_fromAudit;
    QList<QJsonObject> m_fromAlerts;
    std::set<annotations::Kind> m_hidden;
};

} // namespace bullpen
