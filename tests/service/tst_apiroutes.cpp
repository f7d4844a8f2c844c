// SPDX-License-Identifier: MIT
// One route table for both sides (core/wire/apiroutes.h): the service serves every row of it and no
// other route, and docs/openapi.yaml names the same routes, each with its method, both ways.
#include "runtime/enginesetup.h"
#include "service/engineservice.h"
#include "store/apitokens.h"
#include "store/store.h"
#include "wire/apiroutes.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;

namespace {

// "GET /v1/history/{id}" for every operation under `paths:` in the OpenAPI document.
QStringList openApiOperations(const QString &path, QString *why)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *why = path + QStringLiteral(": ") + file.errorString();
        return {};
    }
    static const QRegularExpression pathLine(QStringLiteral("^  (/\\S*):\\s*$"));
    static const QRegularExpression methodLine(QStringLiteral("^    (get|put|post|delete|options|head|patch|trace):\\s*$"));
    QStringList out;
    bool inPaths = false;
    QString current;
    for (const QString &line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'))) {
        if (!line.isEmpty() && !line.front().isSpace()) { // a top-level key
            inPaths = line.startsWith(QLatin1StringView("paths:"));
            continue;
        }
        if (!inPaths)
            continue;
        if (const QRegularExpressionMatch m = pathLine.match(line); m.hasMatch())
            current = m.captured(1);
        else if (const QRegularExpressionMatch method = methodLine.match(line); method.hasMatch() && !current.isEmpty())
            out << method.captured(1).toUpper() + QLatin1Char(' ') + current;
    }
    if (out.isEmpty())
        *why = path + QStringLiteral(": no operations found under paths:");
    return out;
}

QStringList table()
{
    QStringList out;
    for (const ApiRouteSpec &r : ApiRoutes::all())
        out << QString::fromLatin1(ApiRoutes::methodName(r.method)) + QLatin1Char(' ') + QString::fromLatin1(r.path);
    return out;
}

} // namespace

class TestApiRoutes final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Every route of the table is in docs/openapi.yaml with its method, and every operation the document
    // names is a route of the table.
    void openApiMatchesTheTable()
    {
        QString why;
        const QStringList documented = openApiOperations(QStringLiteral(BULLPEN_SOURCE_DIR "/docs/openapi.yaml"), &why);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        const QStringList routes = table();
        for (const QString &route : routes)
            QVERIFY2(documented.contains(route), qPrintable(route + QStringLiteral(" is a route and not in docs/openapi.yaml's paths")));
        for (const QString &operation : documented)
            QVERIFY2(routes.contains(operation),
                     qPrintable(operation + QStringLiteral(" is in docs/openapi.yaml and not a route (core/wire/apiroutes.cpp)")));
    }

    // The service serves the table: each row once, in its order, with no route of its own beside it.
    void serviceServesTheTable()
    {
        QTemporaryDir dir;
        SetupOptions o;
        o.forceSimulator = true;
        o.dataDir = dir.filePath(QStringLiteral("data"));
        o.keyFile = dir.filePath(QStringLiteral("none.env"));
        o.engineThreads = 1;
        EngineSetup setup;
        QVERIFY(setup.init(o));
        QString why;
        const std::unique_ptr<ApiTokens> tokens = ApiTokens::open(setup.store()->storeLocation(), &why);
        QVERIFY2(tokens, qPrintable(why));
        ServiceOptions options;
        options.port = 0;
        const EngineService service(setup, *tokens, options);
        QCOMPARE(service.endpoints(), table());
    }
};

QTEST_GUILESS_MAIN(TestApiRoutes)
#include "tst_apiroutes.moc"
