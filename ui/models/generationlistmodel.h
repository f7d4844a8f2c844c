// SPDX-License-Identifier: MIT
#pragma once

#include "engine/event.h"

#include <QAbstractTableModel>
#include <QElapsedTimer>
#include <QHash>
#include <QList>

namespace bullpen {

// In-flight and recent generations (docs/contract.md §9.2), built from the event stream in batches: new generations
// are appended with one beginInsertRows per batch, changed ones signalled with dataChanged.
//
// Bounded for a console that stays attached to a busy engine for weeks: it keeps the last kKeep
// generations, plus every one still running and the pinned (selected) one. When more than kKeep +
// kTrimRows are held, the oldest finished, unpinned ones go in one removal per contiguous run (one run
// unless a running generation sits among them), and generationsDropped() names them. Older
// generations are in the Failures view and the history.
class GenerationListModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        StartedColumn,
        GenerationColumn,
        UserColumn,
        StageColumn, // running: the stage now; finished: the stage that failed
        ProviderColumn, // running: the provider called now and its role; finished: the storyboard's chain

        ElapsedColumn,
        BudgetColumn,
        InstanceColumn, // the engine instance running it (attached to an engine of a shared store); empty embedded
        StateColumn, // the outcome in words: "succeeded · fallback gemini → qwen", "failed at storyboard: …"
        ColumnCount
    };
    enum DataRole {
        SortRole = Qt::UserRole + 1,
        GenerationIdRole,
        FallbackRole, // bool: a fallback provider was called
        BudgetFractionRole, // double 0..1: how much of the storyboard budget is left
        FinishedRole, // bool
    };
    Q_ENUM(Column)

    struct Row
    {
        QString generationId;
        QString userMask;
        QDateTime started;
        QElapsedTimer clock; // monotonic, for the live elapsed time
        std::chrono::milliseconds budget { 0 };
        std::chrono::microseconds lastAt { 0 };
        Stage stage = Stage::Storyboard;
        std::optional<Provider> provider;
        bullpen::Role role = bullpen::Role::Primary;
        bool fallback = false;
        bool finished = false;
        bool queued = false; // waiting for admission: the budget has not started
        std::chrono::microseconds queuedFor { 0 }; // admission waits so far (not spent from the budget)
        QString state = QStringLiteral("running");
        QString failure; // public code / kind when failed
        QString instance;
        std::optional<Provider> primary; // the storyboard's primary provider
        std::optional<Provider> fallbackFrom; // storyboard fallback: the primary that failed
        std::optional<Provider> fallbackTo; // and the provider that got the one attempt
        QString skipped; // the primary was skipped: "open", "half_open" or "drained"
        std::optional<Stage> failedStage;
        std::optional<PublicCode> publicCode;
        std::optional<FailureKind> kind;
        std::optional<ProbeTarget> probe; // a synthetic generation (docs/operations.md, "Probes")
    };

    static constexpr int kKeep = 5'000;
    static constexpr int kTrimRows = 1'000;

    explicit GenerationListModel(QObject *parent = nullptr);

    // The generation kept whatever its age (the view's selection); empty: none.
    void setPinned(const QString &generationId) { m_pinned = generationId; }

    void appendBatch(const QList<Event> &events);
    // The outcome column's text for a row (also its tooltip's first line).
    static QString outcome(const Row &row);
    static QString userOutcome(const Row &row); // what it did, without saying it was a probe
    int rowOf(const QString &generationId) const { return m_rowOf.value(generationId, -1); }
    const Row &rowAt(int row) const { return m_rows.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    // Rows trimmed away (their generations are no longer in the model).
    void generationsDropped(const QStringList &generationIds);

private:
    void trim();
    double elapsedMs(const Row &row) const;
    double budgetUsedMs(const Row &row) const;

    QList<Row> m_rows;
    QHash<QString, int> m_rowOf;
    QString m_pinned;
};

} // namespace bullpen
