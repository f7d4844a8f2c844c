// SPDX-License-Identifier: MIT
#pragma once

#include <QLabel>

namespace bullpen {

// One line of plain text that never widens its window: what does not fit ends in "…", and the whole
// text is then the tooltip (set a tooltip of your own with setFullToolTip).
class ElidedLabel final : public QLabel
{
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget *parent = nullptr);
    void setFullText(const QString &text);
    QString fullText() const { return m_text; }
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void elide();
    QString m_text;
};

} // namespace bullpen
