// SPDX-License-Identifier: MIT
#include "httpframing.h"

#include <QList>

#include <algorithm>

namespace bullpen {

namespace {

struct Fields
{
    QByteArray version; // "HTTP/1.1"
    QByteArray method; // requests
    int status = 0; // responses
    QList<QByteArray> contentLengths; // every value, comma lists split
    QList<QByteArray> codings; // Transfer-Encoding codings, in order, lower case
    bool close = false; // a "close" token in Connection
};

QList<QByteArray> tokens(QByteArrayView value)
{
    QList<QByteArray> out;
    for (const QByteArray &part : value.toByteArray().split(',')) {
        const QByteArray token = part.trimmed().toLower();
        if (!token.isEmpty())
            out.append(token);
    }
    return out;
}

Fields readFields(QByteArrayView head, bool response)
{
    Fields f;
    const QList<QByteArray> lines = head.toByteArray().split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).endsWith('\r') ? lines.at(i).chopped(1) : lines.at(i);
        if (i == 0) {
            const QList<QByteArray> parts = line.simplified().split(' ');
            if (response) {
                f.version = parts.value(0);
                f.status = parts.size() >= 2 ? parts.at(1).toInt() : 0;
            } else {
                f.method = parts.value(0);
                f.version = parts.value(2);
            }
            continue;
        }
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            continue;
        const QByteArray name = line.first(colon).trimmed().toLower();
        const QByteArrayView value = QByteArrayView(line).sliced(colon + 1);
        if (name == "content-length")
            f.contentLengths += tokens(value);
        else if (name == "transfer-encoding")
            f.codings += tokens(value);
        else if (name == "connection")
            f.close = f.close || tokens(value).contains("close");
    }
    return f;
}

// One length that every Content-Length value agrees on, or -1.
qint64 agreedLength(const QList<QByteArray> &values)
{
    qint64 length = -1;
    for (const QByteArray &v : values) {
        if (v.isEmpty() || v.size() > 18 || !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return -1;
        const qint64 n = v.toLongLong();
        if (length >= 0 && n != length)
            return -1;
        length = n;
    }
    return length;
}

// Framing by the length fields alone; `noLength` is what a message without either field has. False
// when the fields were ambiguous, so that the connection carries nothing after this message.
bool frameByFields(const Fields &f, BodyFraming noLength, MessageHead &m)
{
    m.codings = f.codings;
    if (!f.codings.isEmpty()) {
        // Transfer-Encoding overrides Content-Length (§6.3): chunked is decoded wherever it stands, and
        // only chunked as the last coding, without a length, leaves the connection fit for another
        // message. Without chunked the body runs until close.
        m.framing = f.codings.contains("chunked") ? BodyFraming::Chunked : BodyFraming::UntilClose;
        return f.contentLengths.isEmpty() && f.codings.last() == "chunked";
    }
    if (f.contentLengths.isEmpty()) {
        m.framing = noLength;
        return true;
    }
    const qint64 length = agreedLength(f.contentLengths);
    m.framing = length < 0 ? BodyFraming::UntilClose : BodyFraming::Length;
    m.length = std::max<qint64>(length, 0);
    return true;
}

} // namespace

MessageHead readRequestHead(QByteArrayView head)
{
    const Fields f = readFields(head, false);
    MessageHead m;
    m.method = f.method;
    const bool unambiguous = frameByFields(f, BodyFraming::None, m);
    m.reusable =
        unambiguous && f.version == "HTTP/1.1" && !f.close && m.framing != BodyFraming::UntilClose && m.framing != BodyFraming::Chunked;
    return m;
}

MessageHead readResponseHead(QByteArrayView head, QByteArrayView requestMethod)
{
    const Fields f = readFields(head, true);
    MessageHead m;
    m.status = f.status;
    bool unambiguous = true;
    if (requestMethod == "HEAD" || (f.status >= 100 && f.status < 200) || f.status == 204 || f.status == 304) {
        m.framing = BodyFraming::None;
        m.codings = f.codings;
    } else {
        unambiguous = frameByFields(f, BodyFraming::UntilClose, m);
    }
    m.reusable = unambiguous && f.version == "HTTP/1.1" && !f.close && m.framing != BodyFraming::UntilClose;
    return m;
}

bool ChunkedTracker::step(char c)
{
    const bool digit = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    switch (m_state) {
    case State::Size:
        if (digit) {
            if (++m_digits > 15) // 15 hex digits: 2^60 bytes, far past any cap
                return false;
            m_left = m_left * 16 + (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
            return true;
        }
        if (m_digits == 0)
            return false;
        if (c == ';' || c == ' ' || c == '\t') {
            m_state = State::Extension;
            return true;
        }
        if (c != '\r' && c != '\n')
            return false;
        [[fallthrough]];
    case State::Extension:
    case State::SizeEnd:
        if (c == '\r' && m_state != State::Extension) {
            m_state = State::SizeEnd;
            return true;
        }
        if (c == '\n') {
            m_state = m_left == 0 ? State::Trailer : State::Data; // the last chunk has size 0
            m_line = 0;
            return true;
        }
        if (m_state == State::SizeEnd)
            return false;
        return ++m_line <= kMaxLineBytes; // an extension's byte
    case State::DataEnd:
        if (c == '\r' && m_line++ == 0)
            return true;
        if (c != '\n')
            return false;
        m_state = State::Size;
        m_digits = 0;
        m_line = 0;
        return true;
    case State::Trailer:
        if (++m_trailer > kMaxTrailerBytes)
            return false;
        if (c == '\n') {
            if (m_line == 0)
                m_state = State::Done;
            m_line = 0;
            return true;
        }
        if (c != '\r' || m_line > 0)
            ++m_line;
        return m_line <= kMaxLineBytes;
    case State::Data:
    case State::Done:
    case State::Failed:
        break;
    }
    return false;
}

qsizetype ChunkedTracker::consume(QByteArrayView bytes, QByteArray *data)
{
    qsizetype i = 0;
    while (i < bytes.size() && m_state != State::Done && m_state != State::Failed) {
        if (m_state == State::Data) {
            const qint64 take = std::min<qint64>(m_left, bytes.size() - i);
            if (data)
                data->append(bytes.sliced(i, take));
            i += take;
            m_left -= take;
            if (m_left == 0) {
                m_state = State::DataEnd;
                m_line = 0;
            }
            continue;
        }
        if (!step(bytes[i]))
            m_state = State::Failed;
        ++i;
    }
    return i;
}

} // namespace bullpen
