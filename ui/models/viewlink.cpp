// SPDX-License-Identifier: MIT
#include "viewlink.h"

#include <QRegularExpression>
#include <QUrl>
#include <QUrlQuery>

namespace bullpen {

const QStringList &ViewLink::views()
{
    static const QStringList names { QStringLiteral("run"),      QStringLiteral("live"),    QStringLiteral("result"),
                                     QStringLiteral("failures"), QStringLiteral("latency"), QStringLiteral("compare"),
                                     QStringLiteral("settings"), QStringLiteral("control") };
    return names;
}

QString ViewLink::toString() const
{
    QUrl url;
    url.setScheme(QStringLiteral("bullpen"));
    url.setHost(QStringLiteral("open"));
    url.setPath(QLatin1Char('/') + view);
    QUrlQuery query;
    if (!generation.isEmpty())
        query.addQueryItem(QStringLiteral("generation"), generation);
    for (const auto &[key, value] : filters)
        query.addQueryItem(key, value);
    if (!query.isEmpty())
        url.setQuery(query);
    return url.toString(QUrl::FullyEncoded);
}

std::variant<ViewLink, QString> ViewLink::parse(const QString &text)
{
    const QUrl url(text.trimmed(), QUrl::StrictMode);
    if (!url.isValid() || url.scheme() != u"bullpen" || url.host() != u"open")
        return QStringLiteral("not a Bullpen link: it starts bullpen://open/ and names a view (%1); Copy link in the View menu gives one")
            .arg(views().join(QStringLiteral(", ")));
    ViewLink link;
    link.view = url.path().mid(1);
    if (!views().contains(link.view))
        return QStringLiteral("no view \"%1\" in the link; the views are %2").arg(link.view.left(32), views().join(QStringLiteral(", ")));
    const QUrlQuery query(url);
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (key != u"generation") {
            // A filter: the view it opens checks the key and the value against its own boxes.
            static const QRegularExpression filterKey(QStringLiteral("^[a-z_]{1,24}$"));
            static const QRegularExpression filterValue(QStringLiteral("^[A-Za-z0-9_.:-]{1,64}$"));
            if (!filterKey.match(key).hasMatch() || !filterValue.match(value).hasMatch())
                return QStringLiteral("unknown part \"%1\" in the link; a link takes generation=gen_… and the view's filters as "
                                      "key=value (letters, digits, _ . : -), as Copy link gives them")
                    .arg(key.left(32));
            link.filters.append({ key, value });
            continue;
        }
        static const QRegularExpression id(QStringLiteral("^gen_[A-Za-z0-9_-]{1,64}$"));
        if (!id.match(value).hasMatch())
            return QStringLiteral("generation must be a generation id (gen_…), as Copy id gives it");
        link.generation = value;
    }
    return link;
}

} // namespace bullpen
