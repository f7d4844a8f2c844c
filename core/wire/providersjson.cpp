// SPDX-License-Identifier: MIT
#include "providersjson.h"

#include "contract/providerregistry.h"
#include "wire/breakerrowjson.h"
#include "wire/drainrowjson.h"

#include <QJsonArray>

#include <functional>

namespace bullpen {

namespace {

// The list's fields, spelled here only.
constexpr char kProviders[] = "providers";
constexpr char kId[] = "id";
constexpr char kInstance[] = "instance";
constexpr char kDrained[] = "drained";
constexpr char kBreakers[] = "breakers";
constexpr char kDrains[] = "drains";

QLatin1StringView key(const char *name)
{
    return QLatin1StringView(name);
}

// Every row under `name` of every provider of the answer that `read` reads.
template<typename T>
QList<T> rows(const QJsonObject &answer, const char *name, const std::function<std::variant<T, FieldError>(const QJsonObject &)> &read)
{
    QList<T> out;
    for (const QJsonValue &p : answer.value(key(kProviders)).toArray())
        for (const QJsonValue &row : p.toObject().value(key(name)).toArray()) {
            std::variant<T, FieldError> r = read(row.toObject());
            if (T *value = std::get_if<T>(&r))
                out << std::move(*value);
        }
    return out;
}

} // namespace

QJsonObject ProvidersJson::toJson(const QList<Provider> &providers, const std::vector<BreakerView> &breakers,
                                  const std::vector<Drain> &drains, const QString &instance)
{
    QJsonArray list;
    for (const Provider p : providers) {
        QJsonArray b;
        for (const BreakerView &v : breakers)
            if (v.key.provider == p)
                b.append(BreakerRowJson::toJson(v));
        QJsonArray d;
        for (const Drain &x : drains)
            if (x.provider == p)
                d.append(DrainRowJson::toJson(x));
        list.append(QJsonObject { { key(kId), toId(p) },
                                  { key(kInstance), instance },
                                  { key(kDrained), !d.isEmpty() },
                                  { key(kBreakers), b },
                                  { key(kDrains), d } });
    }
    return QJsonObject { { key(kProviders), list } };
}

QList<BreakerView> ProvidersJson::breakers(const QJsonObject &answer)
{
    return rows<BreakerView>(answer, kBreakers, &BreakerRowJson::fromJson);
}

QList<Drain> ProvidersJson::drains(const QJsonObject &answer)
{
    return rows<Drain>(answer, kDrains, &DrainRowJson::fromJson);
}

} // namespace bullpen
