// SPDX-License-Identifier: MIT
#pragma once

#include <QLabel>
#include <QPixmap>

namespace bullpen {

// An image label that draws its picture as large as its room allows, keeping the aspect ratio: the
// comic shrinks with the window (1024×700, docs/console.md) instead of being cut at its right edge.
class FittedImage final : public QLabel
{
    Q_OBJECT
public:
    explicit FittedImage(QWidget *parent = nullptr);
    // The picture to fit; a null pixmap clears it (the label's text shows instead).
    void setImage(const QPixmap &image);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void fit();
    QPixmap m_image;
};

} // namespace bullpen
