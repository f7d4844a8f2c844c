// SPDX-License-Identifier: MIT
#include "fittedimage.h"

namespace bullpen {

namespace {
// The room the layout offers first (the comic at a readable size) and the least it may shrink to.
constexpr QSize preferred { 420, 420 };
constexpr QSize least { 200, 200 };
} // namespace

FittedImage::FittedImage(QWidget *parent)
    : QLabel(parent)
{
    setAlignment(Qt::AlignCenter);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void FittedImage::setImage(const QPixmap &image)
{
    m_image = image;
    if (m_image.isNull())
        clear();
    else
        fit();
}

QSize FittedImage::sizeHint() const
{
    return preferred;
}

QSize FittedImage::minimumSizeHint() const
{
    return least;
}

void FittedImage::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    if (!m_image.isNull())
        fit();
}

void FittedImage::fit()
{
    const QSize room = contentsRect().size().boundedTo(m_image.size());
    setPixmap(m_image.scaled(room.expandedTo(QSize(1, 1)), Qt::KeepAspectRatio, Qt::SmoothTransformation));
}

} // namespace bullpen
