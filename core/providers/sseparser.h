// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QList>

namespace bullpen {

struct SseEvent
{
    QByteArray event; // empty: the default "message"
    QByteArray data; // data lines joined with '\n'
    QByteArray id; // the event's `id:` (a resume cursor), if it had one
};

// Incremental text/event-stream parser (WHATWG rules that matter here): events end at a blank line;
// lines end with \n, \r\n or \r; "data:" lines accumulate; ":" lines are comments; one leading space
// after the colon is dropped. Feed it bytes as they arrive; it keeps partial lines between calls.
class SseParser final
{
public:
    QList<SseEvent> feed(QByteArrayView bytes);
    // Bytes of an event that was started but never ended with a blank line.
    bool hasPartialEvent() const { return !m_line.isEmpty() || m_inEvent; }
    qsizetype bufferedBytes() const { return m_line.size() + m_current.data.size(); }

private:
    void processLine(QByteArrayView line, QList<SseEvent> &out);

    QByteArray m_line;
    SseEvent m_current;
    bool m_inEvent = false;
    bool m_lastWasCr = false;
};

} // namespace bullpen
