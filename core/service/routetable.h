// SPDX-License-Identifier: MIT
#pragma once

#include "wire/apiroutes.h"

#include <QHttpServerRequest>
#include <QList>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <variant>

namespace bullpen {

// The service's endpoints as data: method, path template and access, each with its handler. A template's
// segments are literals or `{name}`, which matches any one non-empty segment and is handed to the
// handler in order. A path that matches a template under another method is answered 405 with the
// methods it allows (`Allow`), one that matches none 404.
template<typename Handler> class RouteTable
{
public:
    using Method = QHttpServerRequest::Method;
    struct Route
    {
        Method method;
        QString path; // "/v1/generations/{id}/cancel"
        RouteAccess access;
        Handler handler;
        QStringList segments = {};
    };
    struct Found
    {
        const Route *route;
        QStringList params;
    };
    struct WrongMethod
    {
        QByteArray allow; // "GET, POST"
    };
    struct NotFound
    {
    };
    using Match = std::variant<Found, WrongMethod, NotFound>;

    void add(Method method, const QString &path, RouteAccess access, Handler handler)
    {
        m_routes.append(Route { method, path, access, std::move(handler), path.split(QLatin1Char('/'), Qt::SkipEmptyParts) });
    }
    const QList<Route> &routes() const { return m_routes; }

    Match match(Method method, const QStringList &segments) const
    {
        QList<Method> allowed;
        for (const Route &r : m_routes) {
            QStringList params;
            if (!matches(r.segments, segments, &params))
                continue;
            if (r.method == method)
                return Found { &r, params };
            if (!allowed.contains(r.method))
                allowed << r.method;
        }
        if (allowed.isEmpty())
            return NotFound {};
        std::sort(allowed.begin(), allowed.end()); // GET before POST, whatever the table's order
        QByteArray allow;
        for (const Method m : std::as_const(allowed))
            allow += (allow.isEmpty() ? "" : ", ") + methodName(m);
        return WrongMethod { allow };
    }

    static QByteArray methodName(Method m)
    {
        switch (m) {
        case Method::Get:
            return "GET";
        case Method::Post:
            return "POST";
        case Method::Put:
            return "PUT";
        case Method::Delete:
            return "DELETE";
        case Method::Patch:
            return "PATCH";
        case Method::Head:
            return "HEAD";
        case Method::Options:
            return "OPTIONS";
        default:
            return "OTHER";
        }
    }

private:
    static bool matches(const QStringList &pattern, const QStringList &segments, QStringList *params)
    {
        if (pattern.size() != segments.size())
            return false;
        for (qsizetype i = 0; i < pattern.size(); ++i) {
            const QString &p = pattern.at(i);
            if (p.startsWith(QLatin1Char('{')) && p.endsWith(QLatin1Char('}'))) {
                if (segments.at(i).isEmpty())
                    return false;
                *params << segments.at(i);
            } else if (p != segments.at(i)) {
                return false;
            }
        }
        return true;
    }

    QList<Route> m_routes;
};

} // namespace bullpen
