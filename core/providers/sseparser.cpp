// SPDX-License-Identifier: MIT
#include "sseparser.h"

namespace bullpen {

QList<SseEvent> SseParser::feed(QByteArrayView bytes)
{
    QList<SseEvent> out;
    const char *p = bytes.data();
    const char *const end = p + bytes.size();
    while (p < end) {
        if (m_lastWasCr && *p == '\n') { // the \n of a \r\n pair
            m_lastWasCr = false;
            ++p;
            continue;
        }
        // A line's bytes up to its end in one append, not one by one.
        const char *stop = p;
        while (stop < end && *stop != '\n' && *stop != '\r')
            ++stop;
        m_line.append(p, stop - p);
        m_lastWasCr = false;
        if (stop == end)
            break;
        m_lastWasCr = (*stop == '\r');
        processLine(m_line, out);
        m_line.clear();
        p = stop + 1;
    }
    return out;
}

void SseParser::processLine(QByteArrayView line, QList<SseEvent> &out)
{
    if (line.isEmpty()) {
        if (m_inEvent)
            out.append(m_current);
        m_current = SseEvent {};
        m_inEvent = false;
        return;
    }
    if (line.startsWith(':'))
        return; // comment (DashScope sends ":HTTP_STATUS/200")
    const qsizetype colon = line.indexOf(':');
    QByteArrayView field = colon < 0 ? line : line.first(colon);
    QByteArrayView value = colon < 0 ? QByteArrayView() : line.sliced(colon + 1);
    if (value.startsWith(' '))
        value = value.sliced(1);
    if (field == "data") {
        if (m_inEvent && !m_current.data.isNull())
            m_current.data.append('\n');
        m_current.data.append(value.isEmpty() ? QByteArray("") : value.toByteArray());
        m_inEvent = true;
    } else if (field == "event") {
        m_current.event = value.toByteArray();
        m_inEvent = true;
    } else if (field == "id" && !value.contains('\0')) {
        m_current.id = value.toByteArray(); // a cursor to resume from (bullpen-engine's stream)
        m_inEvent = true;
    }
    // retry and unknown fields carry nothing the clients need.
}

} // namespace bullpen
