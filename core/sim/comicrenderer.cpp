// SPDX-License-Identifier: MIT
#include "comicrenderer.h"

#include <QBuffer>
#include <QFont>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QPainter>
#include <QPainterPath>

namespace bullpen {

namespace {

QFont comicFont(qreal pixelSize, bool bold = false)
{
    QFont f;
    f.setFamilies({ QStringLiteral("Noto Sans CJK KR"), QStringLiteral("Noto Sans CJK JP"), QStringLiteral("Noto Sans"),
                    QStringLiteral("DejaVu Sans"), QStringLiteral("Sans Serif") });
    f.setPixelSize(static_cast<int>(pixelSize));
    f.setBold(bold);
    return f;
}

// A speech bubble with a tail towards the speaker, text wrapped inside; returns its height.
qreal drawBubble(QPainter &p, const QRectF &area, const DialogueLine &line, bool tailLeft)
{
    const QFont speakerFont = comicFont(15, true);
    const QFont textFont = comicFont(17);
    const QString text = line.text;
    const QFontMetricsF fm(textFont);
    const QRectF textBox = fm.boundingRect(QRectF(0, 0, area.width() - 36, 1000), Qt::TextWordWrap, text);
    const qreal h = std::min(textBox.height() + 34, area.height());
    const QRectF bubble(area.left(), area.top(), std::max(textBox.width(), 90.0) + 28, h);
    QPainterPath path;
    path.addRoundedRect(bubble, 16, 16);
    QPainterPath tail;
    const qreal tx = tailLeft ? bubble.left() + 26 : bubble.right() - 26;
    tail.moveTo(tx - 8, bubble.bottom() - 1);
    tail.lineTo(tx + (tailLeft ? -14 : 14), bubble.bottom() + 16);
    tail.lineTo(tx + 8, bubble.bottom() - 1);
    path = path.united(tail);
    p.setPen(QPen(Qt::black, 2));
    p.setBrush(Qt::white);
    p.drawPath(path);
    p.setFont(speakerFont);
    p.setPen(QColor(0x55, 0x55, 0x55));
    p.drawText(bubble.adjusted(14, 6, -10, 0), Qt::AlignLeft | Qt::AlignTop, line.speaker);
    p.setFont(textFont);
    p.setPen(Qt::black);
    p.drawText(bubble.adjusted(14, 24, -10, -6), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, text);
    return h + 20;
}

} // namespace

QImage ComicRenderer::render(const Storyboard &storyboard)
{
    QImage image(kSize, kSize, QImage::Format_RGB32);
    image.fill(QColor(0xfa, 0xf7, 0xf0));
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    // Text needs the font database of a QGuiApplication; QPainter on a QImage may run in any thread.
    const bool canDrawText = qobject_cast<QGuiApplication *>(QCoreApplication::instance()) != nullptr;
    const qreal margin = 18;
    const qreal cell = (kSize - 3 * margin) / 2;
    static const QColor tints[] = { QColor(0xe8, 0xf1, 0xfb), QColor(0xfb, 0xf1, 0xe3), QColor(0xfb, 0xe6, 0xe6),
                                    QColor(0xe7, 0xf6, 0xe9) };
    for (int i = 0; i < storyboard.panels.size() && i < 4; ++i) {
        const Panel &panel = storyboard.panels.at(i);
        const QRectF frame(margin + (i % 2) * (cell + margin), margin + (i / 2) * (cell + margin), cell, cell);
        p.setPen(QPen(Qt::black, 4));
        p.setBrush(tints[i]);
        p.drawRect(frame);
        if (!canDrawText)
            continue;
        // Role tag, top left.
        const QFont tagFont = comicFont(16, true);
        p.setFont(tagFont);
        const QString tag = QStringLiteral("%1 · %2").arg(panel.index).arg(panel.role);
        const QRectF tagBox(frame.left() + 10, frame.top() + 10, QFontMetricsF(tagFont).horizontalAdvance(tag) + 20, 28);
        p.setPen(Qt::NoPen);
        p.setBrush(Qt::black);
        p.drawRoundedRect(tagBox, 6, 6);
        p.setPen(Qt::white);
        p.drawText(tagBox, Qt::AlignCenter, tag);
        // Scene caption box, bottom.
        const QFont sceneFont = comicFont(16);
        const QRectF sceneBox(frame.left() + 10, frame.bottom() - 92, frame.width() - 20, 82);
        p.setPen(QPen(Qt::black, 2));
        p.setBrush(QColor(0xff, 0xf4, 0xb8));
        p.drawRect(sceneBox);
        p.setFont(sceneFont);
        p.drawText(sceneBox.adjusted(8, 6, -8, -6), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, panel.scene);
        // Speech bubbles, alternating sides, in the space between.
        qreal y = tagBox.bottom() + 14;
        for (int d = 0; d < panel.dialogue.size(); ++d) {
            const bool left = d % 2 == 0;
            const qreal w = frame.width() * 0.72;
            const QRectF area(left ? frame.left() + 14 : frame.right() - 14 - w, y, w, sceneBox.top() - y - 12);
            if (area.height() < 40)
                break;
            y += drawBubble(p, area, panel.dialogue.at(d), left);
        }
    }
    if (canDrawText) {
        p.setFont(comicFont(13));
        p.setPen(QColor(0x88, 0x88, 0x88));
        p.drawText(QRectF(0, kSize - margin, kSize - margin, margin), Qt::AlignRight | Qt::AlignVCenter,
                   QStringLiteral("%1 — Bullpen simulator").arg(storyboard.title));
    }
    p.end();
    return image;
}

QByteArray ComicRenderer::renderPng(const Storyboard &storyboard)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    render(storyboard).save(&buffer, "PNG", 80); // quality 80: light compression, quick to write
    return bytes;
}

} // namespace bullpen
