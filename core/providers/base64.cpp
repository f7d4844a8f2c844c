// SPDX-License-Identifier: MIT
#include "base64.h"

#include <array>

namespace bullpen {

namespace {

constexpr quint8 Invalid = 0xFF;

constexpr std::array<quint8, 128> makeTable()
{
    std::array<quint8, 128> t {};
    for (quint8 &v : t)
        v = Invalid;
    for (int i = 0; i < 26; ++i) {
        t[size_t('A' + i)] = quint8(i);
        t[size_t('a' + i)] = quint8(26 + i);
    }
    for (int i = 0; i < 10; ++i)
        t[size_t('0' + i)] = quint8(52 + i);
    t[size_t('+')] = 62;
    t[size_t('/')] = 63;
    return t;
}

constexpr std::array<quint8, 128> table = makeTable();

inline quint8 valueOf(char16_t c)
{
    return c < 128 ? table[c] : Invalid;
}

} // namespace

std::optional<QByteArray> decodeBase64Strict(QStringView text)
{
    const qsizetype size = text.size();
    const char16_t *in = text.utf16();
    // Padding: one or two '=' that end a text whose length is a multiple of 4; nothing else.
    qsizetype body = size;
    if (const qsizetype pad = text.indexOf(u'='); pad >= 0) {
        const bool allowed = size % 4 == 0 && (pad == size - 1 || (pad == size - 2 && in[size - 1] == u'='));
        if (!allowed)
            return std::nullopt;
        body = pad;
    }
    QByteArray out(body * 6 / 8, Qt::Uninitialized);
    char *o = out.data();
    qsizetype i = 0;
    for (; i + 4 <= body; i += 4) {
        const quint8 a = valueOf(in[i]), b = valueOf(in[i + 1]), c = valueOf(in[i + 2]), d = valueOf(in[i + 3]);
        if ((a | b | c | d) & 0x80)
            return std::nullopt;
        const quint32 v = quint32(a) << 18 | quint32(b) << 12 | quint32(c) << 6 | d;
        *o++ = char(v >> 16);
        *o++ = char(v >> 8);
        *o++ = char(v);
    }
    // The last 1–3 characters: 2 give one byte, 3 give two, 1 gives none (its bits are dropped, as Qt does).
    quint32 bits = 0;
    int count = 0;
    for (; i < body; ++i, ++count) {
        const quint8 v = valueOf(in[i]);
        if (v & 0x80)
            return std::nullopt;
        bits = bits << 6 | v;
    }
    if (count == 2) {
        *o++ = char(bits >> 4);
    } else if (count == 3) {
        *o++ = char(bits >> 10);
        *o++ = char(bits >> 2);
    }
    Q_ASSERT(o == out.data() + out.size());
    return out;
}

} // namespace bullpen
