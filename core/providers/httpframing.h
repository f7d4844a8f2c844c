// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

namespace bullpen {

// How an HTTP/1.1 message's body ends (RFC 9112 §6.3), read by the egress guard (guardedreply.h) to know
// where one exchange ends and the next may begin on the same connection. A chunked coding is decoded
// wherever it stands (Transfer-Encoding overrides Content-Length); codings without chunked, two
// different lengths or an unreadable one are read as "until the connection closes"; anything ambiguous
// (a length together with Transfer-Encoding, a coding after chunked) carries no second exchange.
enum class BodyFraming {
    None, // no body: a HEAD request's answer, 1xx, 204, 304, or a request without a length
    Length, // Content-Length bytes
    Chunked, // chunked transfer coding, ended by its last chunk and trailer section
    UntilClose, // everything until the sender closes
};

struct MessageHead
{
    int status = 0; // a response's status code; 0 for a request
    QByteArray method; // a request's method
    BodyFraming framing = BodyFraming::UntilClose;
    qint64 length = 0; // with BodyFraming::Length
    bool reusable = false; // HTTP/1.1, no "Connection: close" and a body whose end is known unambiguously
    QList<QByteArray> codings; // Transfer-Encoding's codings, in order, lower case
};

// `head` is one complete head: the request or status line, header lines and the blank line.
MessageHead readRequestHead(QByteArrayView head);
MessageHead readResponseHead(QByteArrayView head, QByteArrayView requestMethod);

// Follows a chunked body as its bytes pass, to find where it ends. Bounded: a size line, an
// extension or the trailer section longer than the limits fails it.
class ChunkedTracker
{
public:
    // How many of `bytes` belong to the body: all of them, unless it ends (done()) or turns out
    // malformed (failed()) inside them. The chunks' data among them is appended to `data`, if given.
    qsizetype consume(QByteArrayView bytes, QByteArray *data = nullptr);
    bool done() const { return m_state == State::Done; }
    bool failed() const { return m_state == State::Failed; }

    static constexpr int kMaxLineBytes = 4096; // one size line with its extensions, or one trailer line
    static constexpr qint64 kMaxTrailerBytes = 64 * 1024;

private:
    enum class State { Size, Extension, SizeEnd, Data, DataEnd, Trailer, Done, Failed };
    bool step(char c); // one byte outside chunk data; false when it fails the body

    State m_state = State::Size;
    qint64 m_left = 0; // bytes of the current chunk's data still to pass
    int m_digits = 0;
    int m_line = 0; // bytes of the current size or trailer line
    qint64 m_trailer = 0;
};

} // namespace bullpen
