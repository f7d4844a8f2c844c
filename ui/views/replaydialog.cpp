// SPDX-License-Identifier: MIT
#include "replaydialog.h"

#include "config/settings.h"
#include "models/units.h"
#include "pipeline/generationresult.h"
#include "pipeline/replayplayer.h"
#include "replay/replayreport.h"
#include "timelinewidget.h"
#include "tones.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QScreen>
#include <QTimer>
#include <QVBoxLayout>

namespace bullpen {

namespace {

bool writeJson(const QString &path, const QJsonObject &o)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(QJsonDocument(o).toJson()) > 0;
}

} // namespace

ReplayDialog::ReplayDialog(ReplaySource source, const QList<Event> &recordedEvents, ReplayPlayer *player, const ProviderTable &providers,
                           QWidget *parent)
    : QDialog(parent)
    , m_source(std::move(source))
    , m_scenario(m_source.scenario())
    , m_runner(player)
    , m_providers(providers)
{
    setObjectName(QStringLiteral("replayDialog"));
    setWindowTitle(tr("Replay %1 locally").arg(m_source.row.id));
    m_runner->setParent(this);
    connect(m_runner, &ReplayPlayer::eventRecorded, this, [this](const Event &e) {
        m_replayEvents << e;
        m_replayed->setEvents(m_replayEvents);
    });
    connect(m_runner, &ReplayPlayer::finished, this, &ReplayDialog::finished);
    auto *intro = new QLabel;
    intro->setWordWrap(true);
    const QString what = tr("Plays this generation again on the built-in simulator: each provider behaves, attempt by attempt, as it "
                            "did (the same kind, status and time). Nothing is sent to a provider.");
    intro->setText(what + QLatin1Char(' ')
                   + (m_runner->recorded() ? tr("Each replay is kept in the history as a replay of this generation (synthetic: left out of "
                                                "users' figures; Failures finds it by its id).")
                                           : tr("Nothing is stored (the history is the attached engine's).")));
    auto *approx = new QLabel(m_scenario.approximations.isEmpty() ? tr("Every attempt can be played exactly.")
                                                                  : tr("Played approximately (their times are not judged):<br>%1")
                                                                        .arg(m_scenario.approximations.join(QStringLiteral("\n"))
                                                                                 .toHtmlEscaped()
                                                                                 .replace(QLatin1Char('\n'), QStringLiteral("<br>"))));
    approx->setObjectName(QStringLiteral("replayApproximations"));
    approx->setWordWrap(true);
    approx->setStyleSheet(tones::quietTextStyle());
    m_recorded = new TimelineWidget;
    m_recorded->setObjectName(QStringLiteral("recordedTimeline"));
    m_recorded->setEvents(recordedEvents);
    m_replayed = new TimelineWidget;
    m_replayed->setObjectName(QStringLiteral("replayedTimeline"));
    m_verdict = new QLabel(tr("Choose the settings and press Replay."));
    m_verdict->setObjectName(QStringLiteral("replayVerdict"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_run = new QPushButton(tr("Replay"));
    m_run->setObjectName(QStringLiteral("replayRun"));
    m_run->setDefault(true);
    connect(m_run, &QPushButton::clicked, this, &ReplayDialog::startReplay);
    m_export = new QPushButton(tr("Export for a bug report…"));
    m_export->setObjectName(QStringLiteral("replayExport"));
    m_export->setToolTip(tr("The scenario, the settings, the verdict, this generation as exports show it (masked) and the replay's "
                            "result, in one JSON file."));
    m_export->setEnabled(false);
    connect(m_export, &QPushButton::clicked, this, &ReplayDialog::askAndExport);
    auto *close = new QPushButton(tr("Close"));
    connect(close, &QPushButton::clicked, this, &QDialog::reject);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_export);
    buttons->addStretch(1);
    buttons->addWidget(m_run);
    buttons->addWidget(close);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(settingsBox(providers));
    layout->addWidget(approx);
    layout->addWidget(new QLabel(tr("<b>Recorded</b>")));
    layout->addWidget(m_recorded, 1);
    layout->addWidget(new QLabel(tr("<b>Replayed</b>")));
    layout->addWidget(m_replayed, 1);
    layout->addWidget(m_verdict);
    layout->addLayout(buttons);
    // Room for both timelines, within a 1024×700 screen (and within this one).
    QSize size(900, 640);
    if (const QScreen *s = screen())
        size = size.boundedTo(s->availableGeometry().size() * 0.95);
    resize(size);
}

ReplayDialog::~ReplayDialog() = default;

bool ReplayDialog::running() const
{
    return m_runner->running();
}

QWidget *ReplayDialog::settingsBox(const ProviderTable &providers)
{
    auto *box = new QWidget;
    auto *form = new QFormLayout(box);
    m_asRecorded = new QRadioButton(tr("As recorded"));
    m_asRecorded->setObjectName(QStringLiteral("replayAsRecorded"));
    auto *edited = new QRadioButton(tr("With these settings:"));
    edited->setObjectName(QStringLiteral("replayEdited"));
    auto *group = new QButtonGroup(box);
    group->addButton(m_asRecorded);
    group->addButton(edited);
    m_asRecorded->setChecked(true);
    m_asRecorded->setEnabled(m_source.policy.has_value());
    if (!m_source.policy)
        edited->setChecked(true);
    const RecordedPolicy policy = m_source.policy.value_or(RecordedPolicy {});
    m_primaryTimeout = new QLineEdit(units::field(policy.primaryTimeout));
    m_primaryTimeout->setObjectName(QStringLiteral("replayPrimaryTimeout"));
    m_fallbackTimeout = new QLineEdit(units::field(policy.fallbackTimeout));
    m_fallbackTimeout->setObjectName(QStringLiteral("replayFallbackTimeout"));
    m_budget = new QLineEdit(units::field(policy.budget));
    m_budget->setObjectName(QStringLiteral("replayBudget"));
    m_fallback = new QComboBox;
    m_fallback->setObjectName(QStringLiteral("replayFallback"));
    m_fallback->addItem(tr("none"), QStringLiteral("none"));
    for (const Provider p : providers.serving(Stage::Storyboard)) {
        if (p != policy.primary)
            m_fallback->addItem(toId(p), toId(p));
    }
    m_fallback->setCurrentIndex(std::max(0, m_fallback->findData(policy.fallback ? toId(*policy.fallback) : QStringLiteral("none"))));
    m_breaker = new QCheckBox(tr("Breakers on"));
    m_breaker->setObjectName(QStringLiteral("replayBreaker"));
    for (QWidget *w : std::initializer_list<QWidget *> { m_primaryTimeout, m_fallbackTimeout, m_budget, m_fallback, m_breaker })
        w->setEnabled(edited->isChecked());
    connect(edited, &QRadioButton::toggled, box, [this](bool on) {
        for (QWidget *w : std::initializer_list<QWidget *> { m_primaryTimeout, m_fallbackTimeout, m_budget, m_fallback, m_breaker })
            w->setEnabled(on);
    });
    auto *choice = new QHBoxLayout;
    choice->addWidget(m_asRecorded);
    choice->addWidget(edited);
    choice->addStretch(1);
    form->addRow(choice);
    form->addRow(tr("Primary timeout"), m_primaryTimeout);
    form->addRow(tr("Fallback timeout"), m_fallbackTimeout);
    form->addRow(tr("Total budget"), m_budget);
    form->addRow(tr("Fallback provider"), m_fallback);
    form->addRow(QString(), m_breaker);
    return box;
}

QJsonObject ReplayDialog::replaySettings() const
{
    QJsonObject settings = m_source.policy.value_or(RecordedPolicy {}).settingsJson(m_providers);
    if (m_asRecorded->isChecked())
        return settings;
    QJsonObject sb = settings.value(QLatin1StringView("storyboard")).toObject();
    const std::pair<QLineEdit *, const char *> fields[] = { { m_primaryTimeout, "primary_timeout" },
                                                            { m_fallbackTimeout, "fallback_timeout" },
                                                            { m_budget, "total_budget" } };
    for (const auto &[edit, key] : fields) {
        if (edit->text().trimmed().isEmpty())
            sb.remove(QLatin1StringView(key));
        else
            sb.insert(QLatin1StringView(key), edit->text().trimmed());
    }
    sb.insert(QStringLiteral("fallback_provider"), m_fallback->currentData().toString());
    settings.insert(QStringLiteral("storyboard"), sb);
    settings.insert(QStringLiteral("breaker"), m_breaker->isChecked());
    return settings;
}

bool ReplayDialog::startReplay()
{
    if (running())
        return false;
    const QString scenarioFile = m_work.filePath(QStringLiteral("scenario.json"));
    const QString settingsFile = m_work.filePath(QStringLiteral("settings.json"));
    if (!m_work.isValid() || !writeJson(scenarioFile, m_scenario.scenario) || !writeJson(settingsFile, replaySettings())) {
        m_verdict->setText(tr("The replay's files could not be written to a temporary folder."));
        return false;
    }
    m_replayEvents.clear();
    m_replayed->clear();
    const ReplayPlayer::Plan plan { scenarioFile, settingsFile, m_work.filePath(QStringLiteral("none.env")), m_source.row.id };
    QString why;
    if (!m_runner->start(plan, &why)) {
        m_verdict->setText(tr("These settings are refused: %1").arg(why.toHtmlEscaped()));
        return false;
    }
    m_run->setEnabled(false);
    m_runAsRecorded = m_asRecorded->isChecked();
    m_runSettings = replaySettings();
    m_verdict->setText(tr("Replaying…"));
    return true;
}

void ReplayDialog::finished(const GenerationResult &result)
{
    const bool asRecorded = m_runAsRecorded;
    const ReplayVerdict v = ReplayVerdict::judge(m_source.run(), replayedRun(result), asRecorded, m_scenario.approximate);
    const double scale = std::max(m_recorded->contentMs(), m_replayed->contentMs());
    m_recorded->setScaleAtLeast(scale);
    m_replayed->setScaleAtLeast(scale);
    const tones::Tone tone = v.reproduced ? tones::Tone::Success : asRecorded ? tones::Tone::Failure : tones::Tone::Warning;
    QString text = QStringLiteral("<b>%1</b>").arg(v.summary.toHtmlEscaped());
    if (m_runner->recorded())
        text += QStringLiteral("<br>") + tr("Kept as %1.").arg(result.generationId.toHtmlEscaped());
    if (!v.reproduced && v.differences.size() > 1)
        for (const QString &d : v.differences)
            text += QStringLiteral("<br>") + d.toHtmlEscaped();
    m_verdict->setText(text);
    m_verdict->setStyleSheet(tones::boxStyle(tone));
    m_report = ReplayReport::build({ .source = m_source,
                                     .scenario = m_scenario,
                                     .settings = m_runSettings,
                                     .asRecorded = asRecorded,
                                     .verdict = v,
                                     .replayed = result,
                                     .replayId = m_runner->recorded() ? result.generationId : QString() });
    m_export->setEnabled(true);
    m_run->setEnabled(true);
    // After the runner has let its engine go (it queued that first).
    QTimer::singleShot(0, this, [this, reproduced = v.reproduced] { Q_EMIT replayFinished(reproduced); });
}

bool ReplayDialog::exportReport(const QString &path, QString *why) const
{
    if (m_report.isEmpty()) {
        *why = tr("Replay first: the report holds the replay's result.");
        return false;
    }
    return ReplayReport::write(path, m_report, why);
}

void ReplayDialog::askAndExport()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the replay for a bug report"),
                                                      QStringLiteral("replay-%1.json").arg(m_source.row.id), tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    QString why;
    if (!exportReport(path, &why))
        QMessageBox::warning(this, tr("Export failed"), tr("%1 could not be written: %2").arg(path, why));
}

QString ReplayDialog::verdictText() const
{
    return m_verdict->text();
}

} // namespace bullpen
