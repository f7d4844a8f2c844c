// SPDX-License-Identifier: MIT
// bullpen: the operator console (SPEC 9). With no provider key configured it runs on the built-in
// simulator over real HTTP and says so in the status bar. `--screenshots DIR` runs a short scripted
// demo (healthy, fallback on overload, timeout fallback, final auth failure), saves a PNG of each view
// and exits; it works under QT_QPA_PLATFORM=offscreen.
#include "runtime/enginesetup.h"
#include "views/liveview.h"
#include "views/mainwindow.h"
#include "views/resultview.h"
#include "views/runview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QLineEdit>
#include <QMessageBox>
#include <QTabWidget>
#include <QTextStream>
#include <QTimer>

using namespace bullpen;

namespace {

struct DemoStep
{
    const char *scenario;
    const char *name;
    const char *primaryTimeout;
};

constexpr DemoStep kDemo[] = {
    {"healthy", "healthy", "60s"},
    {"primary-overloaded", "fallback-overload", "60s"},
    {"primary-hang", "fallback-timeout", "2s"},
    {"primary-auth", "auth-failure", "60s"},
};

const QString kDemoStory = QStringLiteral(
    "하루는 아침마다 같은 길로 학교에 간다. 오늘은 고양이 한 마리가 따라온다. \"열쇠를 잊었어,\" 고양이가 말한다. 하루와 고양이는 함께 집으로 돌아간다.");

// Runs the demo steps one after another, saving the views after each.
class ScreenshotTour final : public QObject
{
public:
    ScreenshotTour(MainWindow &window, QString dir)
        : m_window(window)
        , m_dir(std::move(dir))
    {
        connect(&m_window, &MainWindow::generationFinished, this, [this](const GenerationResult &) {
            QTimer::singleShot(200, this, [this] { capture(); });
        });
    }

    void start() { next(); }

private:
    void save(QWidget *view, const QString &name)
    {
        m_window.tabs()->setCurrentWidget(view);
        QApplication::processEvents();
        const QString path = QDir(m_dir).filePath(name);
        if (m_window.grab().save(path))
            QTextStream(stdout) << "bullpen: wrote " << path << "\n";
        else
            QTextStream(stderr) << "bullpen: could not write " << path << "\n";
    }

    void next()
    {
        if (m_step >= int(std::size(kDemo))) {
            QApplication::quit();
            return;
        }
        const DemoStep &s = kDemo[m_step];
        RunView *run = m_window.runView();
        run->setStory(kDemoStory);
        run->setScenario(QString::fromLatin1(s.scenario));
        run->findChild<QLineEdit *>(QStringLiteral("primaryTimeoutEdit"))->setText(QString::fromLatin1(s.primaryTimeout));
        run->findChild<QLineEdit *>(QStringLiteral("userEdit"))->setText(QStringLiteral("haru_paul@example.com"));
        if (m_step == 0)
            save(run, QStringLiteral("01-run.png"));
        m_window.generate(1);
    }

    void capture()
    {
        const QString name = QString::fromLatin1(kDemo[m_step].name);
        const int n = 2 + m_step * 2;
        save(m_window.liveView(), QStringLiteral("%1-live-%2.png").arg(n, 2, 10, QLatin1Char('0')).arg(name));
        save(m_window.resultView(), QStringLiteral("%1-result-%2.png").arg(n + 1, 2, 10, QLatin1Char('0')).arg(name));
        ++m_step;
        next();
    }

    MainWindow &m_window;
    QString m_dir;
    int m_step = 0;
};

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("bullpen"));
    QApplication::setOrganizationName(QStringLiteral("bullpen"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Bullpen operator console."));
    parser.addHelpOption();
    const QCommandLineOption screenshots(QStringLiteral("screenshots"), QStringLiteral("Run the demo, save a PNG of each view to DIR, exit."),
                                         QStringLiteral("dir"));
    const QCommandLineOption scenario(QStringLiteral("scenario"), QStringLiteral("Simulator scenario to start with."), QStringLiteral("name"));
    parser.addOptions({screenshots, scenario});
    parser.process(app);

    SetupOptions options;
    options.scenario = parser.value(scenario);
    if (parser.isSet(screenshots)) {
        options.forceSimulator = true; // the demo is scripted against the simulator
        options.useStore = false;
    }
    EngineSetup engine;
    if (!engine.init(options)) {
        QStringList lines;
        for (const ConfigError &e : engine.errors())
            lines << e.toString();
        QTextStream(stderr) << "bullpen: refused:\n  " << lines.join(QStringLiteral("\n  ")) << "\n";
        if (!parser.isSet(screenshots))
            QMessageBox::critical(nullptr, QObject::tr("Bullpen cannot start"), lines.join(QLatin1Char('\n')));
        return 2;
    }
    MainWindow window(engine);
    window.show();
    std::unique_ptr<ScreenshotTour> tour;
    if (parser.isSet(screenshots)) {
        const QString dir = parser.value(screenshots);
        QDir().mkpath(dir);
        window.resize(1280, 860);
        tour = std::make_unique<ScreenshotTour>(window, dir);
        QTimer::singleShot(300, tour.get(), [&tour] { tour->start(); });
    }
    return app.exec();
}
