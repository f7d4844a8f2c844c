// SPDX-License-Identifier: MIT
#include "isotime.h"

#include <QDate>
#include <QDateTime>

namespace bullpen {

QString isoUtcWithMs(qint64 msSinceEpoch)
{
    constexpr qint64 msPerDay = 86'400'000;
    qint64 days = msSinceEpoch / msPerDay;
    qint64 ms = msSinceEpoch % msPerDay;
    if (ms < 0) { // floor division: before 1970 the day starts earlier
        ms += msPerDay;
        --days;
    }
    int year = 0, month = 0, day = 0;
    QDate::fromJulianDay(2'440'588 + days).getDate(&year, &month, &day); // 2440588: 1970-01-01
    if (year < 1 || year > 9999) // before year 1, after 9999, or no valid date at all: as Qt writes it
        return QDateTime::fromMSecsSinceEpoch(msSinceEpoch, Qt::UTC).toString(Qt::ISODateWithMs);
    const auto seconds = int(ms / 1000);
    char text[24];
    const auto put = [&text](int at, int value, int width) {
        for (int i = width - 1; i >= 0; --i, value /= 10)
            text[at + i] = char('0' + value % 10);
    };
    put(0, year, 4);
    text[4] = '-';
    put(5, month, 2);
    text[7] = '-';
    put(8, day, 2);
    text[10] = 'T';
    put(11, seconds / 3600, 2);
    text[13] = ':';
    put(14, seconds / 60 % 60, 2);
    text[16] = ':';
    put(17, seconds % 60, 2);
    text[19] = '.';
    put(20, int(ms % 1000), 3);
    text[23] = 'Z';
    return QString::fromLatin1(text, 24);
}

} // namespace bullpen
