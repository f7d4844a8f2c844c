// SPDX-License-Identifier: MIT
// bullpen-sim: the provider simulator on its own (docs/contract.md §8).
#include "config/eventloops.h"
#include "config/exitcode.h"
#include "config/processlimits.h"
#include "config/providerentries.h"
#include "config/qtnoise.h"
#include "contract/providerregistry.h"
#include "sim/httpserving.h"
#include "sim/providersimulator.h"

#include <QCommandLineParser>
#include <QFile>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

using namespace bullpen;

namespace {

// --provider-file: a settings file's "providers", or the list alone; refused whole on any bad entry.
bool addProviders(const QString &path, ProviderTable *providers, QString *why)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *why = QStringLiteral("%1: cannot be read (%2)").arg(path, f.errorString());
        return false;
    }
    QJsonParseError perr {};
    const QJsonDocument doc = QJsonDocument::fromJson(f.read(1024 * 1024), &perr);
    if (perr.error != QJsonParseError::NoError) {
        *why = QStringLiteral("%1: not JSON (%2 at offset %3)").arg(path, perr.errorString()).arg(perr.offset);
        return false;
    }
    const QJsonValue list = doc.isArray() ? QJsonValue(doc.array()) : doc.object().value(QLatin1StringView("providers"));
    QList<ConfigError> errors;
    const ProviderEntries entries = ProviderEntries::read(list, path, &errors);
    if (!errors.isEmpty()) {
        *why = errors.constFirst().toString();
        return false;
    }
    providers->setAdded(entries.added);
    return true;
}

} // namespace

int main(int argc, char *argv[])
{
    bullpen::chooseEventLoops(bullpen::GlibLoops::None); // before Qt makes any event loop (config/eventloops.h)
    bullpen::muteQtNoise(); // Qt lines that say nothing to act on, or too much (config/qtnoise.h)
    // Headless: the simulator draws comics (QPainter text needs a QGuiApplication), never windows.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bullpen-sim"));
    QCoreApplication::setApplicationVersion(QStringLiteral(BULLPEN_VERSION));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Bullpen's provider simulator: every built-in provider's wire format "
                                                    "(--providers lists them) on 127.0.0.1, scripted by a scenario."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption portOption(QStringLiteral("port"), QStringLiteral("Port on 127.0.0.1 (0: any free port)."),
                                        QStringLiteral("port"), QStringLiteral("0"));
    const QCommandLineOption scenarioOption(QStringLiteral("scenario"), QStringLiteral("Built-in scenario name or JSON file."),
                                            QStringLiteral("name|file"), QStringLiteral("healthy"));
    const QCommandLineOption primaryOption(QStringLiteral("primary"), QStringLiteral("Provider playing the primary role."),
                                           QStringLiteral("provider"), QStringLiteral("gemini"));
    const QCommandLineOption fallbackOption(QStringLiteral("fallback"), QStringLiteral("Provider playing the fallback role, or none."),
                                            QStringLiteral("provider"), QStringLiteral("qwen"));
    const QCommandLineOption listOption(QStringLiteral("list"), QStringLiteral("List the built-in scenarios and exit."));
    const QCommandLineOption providersOption(QStringLiteral("providers"),
                                             QStringLiteral("List the built-in providers (id, name, environment prefix) and exit."));
    const QCommandLineOption keyOption(
        QStringLiteral("key"),
        QStringLiteral("Answer only requests carrying this key (provider key header, or x-sim-key for /_sim/*); "
                       "others get 401. Without it any key is accepted."),
        QStringLiteral("key"));
    const QCommandLineOption tlsCertOption(
        QStringLiteral("tls-cert"),
        QStringLiteral("Serve HTTPS, as providers do: the certificate (PEM, its chain after it). With --tls-key; "
                       "clients trust its CA through BULLPEN_PROVIDER_CA."),
        QStringLiteral("file"));
    const QCommandLineOption tlsKeyOption(QStringLiteral("tls-key"),
                                          QStringLiteral("The certificate's private key (PEM, no passphrase, mode 0600)."),
                                          QStringLiteral("file"));
    const QCommandLineOption providerFileOption(
        QStringLiteral("provider-file"),
        QStringLiteral("Also serve the providers a deployment adds: a settings file (its \"providers\" list) or a JSON list of "
                       "provider entries. Each is served at /p/<id> followed by its base URL's path."),
        QStringLiteral("file"));
    parser.addOptions({ portOption, scenarioOption, primaryOption, fallbackOption, listOption, providersOption, keyOption, tlsCertOption,
                        tlsKeyOption, providerFileOption });
    parser.process(app);

    QTextStream out(stdout);
    QTextStream err(stderr);
    if (parser.isSet(listOption)) {
        const QStringList names = Scenario::builtInNames();
        for (const QString &name : names) {
            QString why;
            out << name << "\t" << Scenario::load(name, &why).value_or(Scenario {}).description << "\n";
        }
        return 0;
    }
    if (parser.isSet(providersOption)) {
        for (const ProviderSpec &spec : builtInProviders())
            out << spec.id << "\t" << spec.name << "\t" << spec.envPrefix << "\n";
        return 0;
    }
    ProviderTable providers; // the built-ins, and those --providers adds
    if (parser.isSet(providerFileOption)) {
        QString why;
        if (!addProviders(parser.value(providerFileOption), &providers, &why)) {
            err << "bullpen-sim: " << why << "\n";
            return kExitUsage;
        }
    }
    bool portOk = false;
    const uint port = parser.value(portOption).toUInt(&portOk);
    const auto primary = providers.find(parser.value(primaryOption));
    const QString fallbackName = parser.value(fallbackOption);
    const auto fallback = providers.find(fallbackName);
    if (!portOk || port > 65535 || !primary || (!fallback && fallbackName != u"none")) {
        err << "bullpen-sim: --port takes 0..65535; --primary and --fallback take " << providers.idList() << " (or none)\n";
        return kExitUsage;
    }
    QString why;
    const auto scenario = Scenario::load(parser.value(scenarioOption), &why);
    if (!scenario) {
        err << "bullpen-sim: " << why << "\n";
        return kExitUsage;
    }
    std::optional<QSslConfiguration> tls;
    if (parser.isSet(tlsCertOption) != parser.isSet(tlsKeyOption)) {
        err << "bullpen-sim: --tls-cert and --tls-key go together\n";
        return kExitUsage;
    }
    if (parser.isSet(tlsCertOption)) {
        tls = loadServerTls(parser.value(tlsCertOption), parser.value(tlsKeyOption), &why);
        if (!tls) {
            err << "bullpen-sim: " << why << "\n";
            return kExitUsage;
        }
    }
    raiseOpenFileLimit(); // a provider stand-in must take a burst of connections
    ProviderSimulator sim;
    if (!sim.start(static_cast<quint16>(port), &why, tls)) {
        err << "bullpen-sim: " << why << "\n";
        return kExitUsage;
    }
    sim.setProviders(providers);
    sim.setScenario(*scenario);
    if (parser.isSet(keyOption))
        sim.setRequiredKey(parser.value(keyOption).toUtf8());
    sim.setRoles(*primary, fallback);
    const QString origin = QStringLiteral("%1://127.0.0.1:%2").arg(tls ? QStringLiteral("https") : QStringLiteral("http")).arg(sim.port());
    out << "bullpen-sim: scenario " << scenario->name << " on " << origin << "\n";
    for (Provider p : providers.all())
        out << "  " << toId(p) << "\t" << sim.baseUrl(p).toString() << "\n";
    out << "  counters\t" << origin << "/_sim/counters\n";
    out.flush();
    return app.exec();
}
