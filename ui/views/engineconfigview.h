// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace bullpen {

// The Settings tab when the console is attached to a running bullpen-engine: that engine's running
// configuration (GET /v1/config), read-only. Keys show only where they come from and their last four
// characters; they stay with the engine. Changing them is done where the engine runs.
class EngineConfigView final : public QWidget
{
    Q_OBJECT
public:
    explicit EngineConfigView(QWidget *parent = nullptr);
    void setConfig(const QJsonObject &config);
    // The value shown for a dotted key ("settings.storyboard.primary"), for tests and screenshots.
    QString valueAt(const QString &dottedKey) const;

private:
    void add(QTreeWidgetItem *parent, const QString &key, const QJsonValue &value);

    QLabel *m_header;
    QTreeWidget *m_tree;
};

} // namespace bullpen
