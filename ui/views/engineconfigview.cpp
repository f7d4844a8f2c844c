// SPDX-License-Identifier: MIT
#include "engineconfigview.h"

#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace bullpen {

EngineConfigView::EngineConfigView(QWidget *parent)
    : QWidget(parent)
    , m_header(new QLabel)
    , m_tree(new QTreeWidget)
{
    setObjectName(QStringLiteral("engineConfigView"));
    m_header->setObjectName(QStringLiteral("engineConfigHeader"));
    m_header->setWordWrap(true);
    m_header->setText(tr("Waiting for the engine's configuration…"));
    m_tree->setObjectName(QStringLiteral("engineConfigTree"));
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({ tr("Setting"), tr("Value") });
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->setAlternatingRowColors(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addWidget(m_tree, 1);
}

void EngineConfigView::setConfig(const QJsonObject &config)
{
    m_header->setText(
        tr("The running configuration of engine %1 (version %2), read-only. It is changed where the engine runs "
           "(its settings file, key file or environment), and the provider keys stay there: only where each "
           "comes from and its last four characters are shown.")
            .arg(config.value(QLatin1StringView("instance")).toString(), config.value(QLatin1StringView("version")).toString()));
    m_tree->clear();
    for (auto it = config.begin(); it != config.end(); ++it)
        add(nullptr, it.key(), it.value());
    m_tree->expandAll();
}

void EngineConfigView::add(QTreeWidgetItem *parent, const QString &key, const QJsonValue &value)
{
    auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_tree);
    item->setText(0, key);
    item->setData(0, Qt::UserRole, parent ? parent->data(0, Qt::UserRole).toString() + QLatin1Char('.') + key : key);
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            add(item, it.key(), it.value());
    } else if (value.isArray()) {
        QStringList parts;
        for (const QJsonValue &v : value.toArray())
            parts << (v.isString() ? v.toString() : QString::fromUtf8(QJsonDocument(QJsonArray { v }).toJson(QJsonDocument::Compact)));
        item->setText(1, parts.join(QStringLiteral(", ")));
    } else if (value.isBool()) {
        item->setText(1, value.toBool() ? tr("yes") : tr("no"));
    } else if (value.isDouble()) {
        item->setText(1, QString::number(value.toDouble(), 'g', 12));
    } else if (value.isNull()) {
        item->setText(1, tr("—"));
    } else {
        item->setText(1, value.toString());
    }
}

QString EngineConfigView::valueAt(const QString &dottedKey) const
{
    const QList<QTreeWidgetItem *> items = m_tree->findItems(QStringLiteral("*"), Qt::MatchWildcard | Qt::MatchRecursive);
    for (const QTreeWidgetItem *item : items) {
        if (item->data(0, Qt::UserRole).toString() == dottedKey)
            return item->text(1);
    }
    return {};
}

} // namespace bullpen
