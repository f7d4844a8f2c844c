// SPDX-License-Identifier: MIT
#include "oneshotbody.h"

#include <cstring>

namespace bullpen {

OneShotBody::OneShotBody(QByteArray data, QObject *parent)
    : QIODevice(parent)
    , m_data(std::move(data))
{
    open(QIODevice::ReadOnly);
}

qint64 OneShotBody::readData(char *data, qint64 maxSize)
{
    const qint64 n = std::min<qint64>(maxSize, m_data.size() - m_pos);
    if (n <= 0)
        return m_pos >= m_data.size() ? -1 : 0;
    std::memcpy(data, m_data.constData() + m_pos, static_cast<size_t>(n));
    m_pos += n;
    return n;
}

} // namespace bullpen
