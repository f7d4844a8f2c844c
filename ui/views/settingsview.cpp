// SPDX-License-Identifier: MIT
#include "settingsview.h"

#include "config/providerentries.h"
#include "config/settingstable.h"
#include "contract/providerregistry.h"
#include "desktopnotifier.h"
#include "keychain/secretstore.h"
#include "models/units.h"
#include "settingsform.h"
#include "tones.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QStyle>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace bullpen {

using namespace std::chrono;

SettingsView::SettingsView(const Paths &paths, const QProcessEnvironment &environment, bool usingSimulator, QWidget *parent)
    : SettingsView(paths, environment, usingSimulator, settingRows(), parent)
{
}

SettingsView::SettingsView(const Paths &paths, const QProcessEnvironment &environment, bool usingSimulator, const QList<SettingRow> &rows,
                           QWidget *parent)
    : QWidget(parent)
    , m_paths(paths)
    , m_environment(environment)
    , m_usingSimulator(usingSimulator)
    , m_form(new SettingsForm(rows, this))
{
    setObjectName(QStringLiteral("settingsView"));
    {
        const secrets::Result probe = secrets::probe();
        m_keychainAvailable = probe.status == secrets::Status::Ok;
        m_keychainReason = probe.reason;
    }
    QGroupBox *providers = providersBox();
    auto *content = new QWidget;
    auto *contentLayout = new QVBoxLayout(content);
    contentLayout->addWidget(makeHeader());
    contentLayout->addWidget(providers);
    contentLayout->addLayout(makeGroups());
    contentLayout->addLayout(makeButtons());
    contentLayout->addStretch(1);
    content->installEventFilter(this); // the groups' widths change: fitColumns()
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(content);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
    reload();
}

SettingsView::~SettingsView() = default;

namespace {

// The groups the settings table's rows name (SettingRow::group): a box each, in one of two columns.
struct GroupPlace
{
    SettingGroup group;
    const char *title;
    int column;
};
constexpr GroupPlace kGroups[] = {
    { SettingGroup::Storyboard, QT_TRANSLATE_NOOP("bullpen::SettingsView", "Storyboard stage"), 0 },
    { SettingGroup::Pipeline, QT_TRANSLATE_NOOP("bullpen::SettingsView", "Image and captions"), 0 },
    { SettingGroup::Breakers, QT_TRANSLATE_NOOP("bullpen::SettingsView", "Breakers"), 0 },
    { SettingGroup::Store, QT_TRANSLATE_NOOP("bullpen::SettingsView", "Store and interface"), 1 },
    { SettingGroup::Network, QT_TRANSLATE_NOOP("bullpen::SettingsView", "Network and attaching"), 1 },
    { SettingGroup::Service, QT_TRANSLATE_NOOP("bullpen::SettingsView", "Engine service"), 1 },
};

} // namespace

QLayout *SettingsView::makeGroups()
{
    QMap<SettingGroup, QFormLayout *> forms;
    for (QBoxLayout *&column : m_column)
        column = new QVBoxLayout;
    for (const GroupPlace &place : kGroups) {
        auto *box = new QGroupBox(tr(place.title));
        box->setObjectName(QStringLiteral("group:%1").arg(int(place.group)));
        forms.insert(place.group, new QFormLayout(box));
        m_column[place.column]->addWidget(box);
    }
    m_form->build({ [&forms](SettingGroup group) { return forms.value(group); },
                    [this](QWidget *field, const QString &setting) { return withError(field, setting); },
                    [this] {
                        validate();
                    } });
    addStageFields(forms.value(SettingGroup::Storyboard));
    addStoreFields(forms.value(SettingGroup::Store));
    m_columns = new QHBoxLayout;
    for (QBoxLayout *column : m_column) {
        column->addStretch(1);
        m_columns->addLayout(column, 1);
    }
    return m_columns;
}

void SettingsView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitColumns();
}

bool SettingsView::eventFilter(QObject *watched, QEvent *event)
{
    // A group grew or shrank (a message shown under a field is one line, as wide as it is): decided again.
    if (event->type() == QEvent::LayoutRequest && m_columns && watched == m_columns->parentWidget())
        fitColumns();
    // The scroll area gave the page another width: its children are placed for that width once it has
    // settled (after a change of direction the layout could keep the places of the old width).
    if (event->type() == QEvent::Resize && m_columns && watched == m_columns->parentWidget())
        QTimer::singleShot(0, this, &SettingsView::placePage);
    return QWidget::eventFilter(watched, event);
}

// At 1024 px the two columns need more than the width (the right one's hints, the engine service's
// labels): one below the other then, so that the view never scrolls sideways (tst_console). Decided
// from the view's width and the groups' own minimums (a layout's cached minimum may predate their
// fields), so that the change cannot undo itself.
void SettingsView::fitColumns()
{
    const auto need = [](const QBoxLayout *column) {
        int widest = 0;
        for (int i = 0; i < column->count(); ++i)
            if (const QWidget *group = column->itemAt(i)->widget(); group && !group->isHidden())
                widest = std::max(widest, group->minimumSizeHint().expandedTo(group->minimumSize()).width());
        return widest;
    };
    const QMargins margins = m_columns->parentWidget()->layout()->contentsMargins();
    const int available = width() - style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this) - margins.left() - margins.right();
    const int sideBySide = need(m_column[0]) + std::max(m_columns->spacing(), 0) + need(m_column[1]);
    const auto direction = sideBySide <= available ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (m_columns->direction() == direction)
        return;
    m_columns->setDirection(direction);
    // Changed while the scroll area resizes the page (a resize while the view was hidden), the page kept
    // its old children's places, wider than itself: they are placed again once the page has its size.
    QTimer::singleShot(0, this, &SettingsView::placePage);
}

void SettingsView::placePage()
{
    QWidget *page = m_columns->parentWidget();
    if (page->layout()->geometry() == page->rect())
        return;
    page->layout()->invalidate();
    page->layout()->setGeometry(page->rect());
}

QLineEdit *SettingsView::lineEdit(const char *name)
{
    auto *e = new QLineEdit;
    e->setObjectName(QLatin1StringView(name));
    connect(e, &QLineEdit::textChanged, this, &SettingsView::validate);
    return e;
}

QComboBox *SettingsView::providerCombo(const char *name, bool withNone)
{
    auto *c = new QComboBox;
    c->setObjectName(QLatin1StringView(name));
    if (withNone)
        c->addItem(tr("none (no automatic fallback)"), QString());
    fillProviderPicker(c);
    connect(c, &QComboBox::currentIndexChanged, this, &SettingsView::validate);
    return c;
}

// The storyboard stage's providers, which are not rows of the table: after its policy.
void SettingsView::addStageFields(QFormLayout *form)
{
    m_primary = providerCombo("primaryCombo", false);
    m_fallback = providerCombo("fallbackCombo", true);
    const int at = std::min(1, form->rowCount());
    form->insertRow(at, tr("Primary provider"), withError(m_primary, QStringLiteral("STORYBOARD_PROVIDER")));
    form->insertRow(at + 1, tr("Fallback provider"), withError(m_fallback, QStringLiteral("STORYBOARD_FALLBACK_PROVIDER")));
}

// The data directory first, then retention, language and notifications after the table's rows.
void SettingsView::addStoreFields(QFormLayout *form)
{
    m_dataDir = lineEdit("dataDirSetting");
    m_dataDir->setPlaceholderText(QDir::toNativeSeparators(m_paths.dataDir));
    form->insertRow(0, tr("Data directory"), withError(m_dataDir, QStringLiteral("data directory")));
    // Retention (docs/store.md, "Retention").
    m_retention = lineEdit("retentionSetting");
    m_retention->setPlaceholderText(tr("30d"));
    m_retention->setToolTip(tr("How long generations, their attempts, events and comparisons are kept: 12h, 30d, 2w, or off. "
                               "Each engine purges older ones in short steps; a running generation is never removed."));
    m_aggregateRetention = lineEdit("aggregateRetentionSetting");
    m_aggregateRetention->setPlaceholderText(tr("400d"));
    m_aggregateRetention->setToolTip(tr("How long the hourly aggregates behind the dashboards, and the audit, are kept; never shorter "
                                        "than the generations."));
    m_language = new QComboBox;
    m_language->setObjectName(QStringLiteral("languageSetting"));
    m_language->addItem(tr("System language"), QString());
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral("한국어"), QStringLiteral("ko"));
    form->addRow(tr("Keep generations"), withError(m_retention, QStringLiteral("BULLPEN_RETENTION")));
    form->addRow(tr("Keep aggregates"), withError(m_aggregateRetention, QStringLiteral("BULLPEN_AGGREGATE_RETENTION")));
    form->addRow(tr("Language"), m_language);
    m_notifications = new QCheckBox(tr("Desktop notifications"));
    m_notifications->setObjectName(QStringLiteral("notificationsSetting"));
    m_notifications->setToolTip(
        tr("Desktop notification when a provider fails now or its breaker opens (at most one per provider per 5 minutes)"));
    form->addRow(QString(), m_notifications);
}

QLayout *SettingsView::makeButtons()
{
    m_save = new QPushButton(tr("Save"));
    m_save->setObjectName(QStringLiteral("saveSettings"));
    auto *revert = new QPushButton(tr("Revert"));
    connect(m_save, &QPushButton::clicked, this, &SettingsView::save);
    connect(revert, &QPushButton::clicked, this, &SettingsView::reload);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("settingsStatus"));
    m_status->setWordWrap(true);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_save);
    buttons->addWidget(revert);
    buttons->addWidget(m_status, 1);
    return buttons;
}

// Where the settings come from, and what the engine runs with now when that is not what the file says.
QWidget *SettingsView::makeHeader()
{
    auto *header = new QWidget;
    auto *l = new QVBoxLayout(header);
    l->setContentsMargins(0, 0, 0, 0);
    auto *where =
        new QLabel(tr("Settings file: %1 · the environment overrides it (docs/contract.md §4.6); changes apply at the next start.")
                       .arg(QDir::toNativeSeparators(m_paths.settingsFile)));
    where->setWordWrap(true);
    m_inForce = new QLabel;
    m_inForce->setObjectName(QStringLiteral("inForce"));
    m_inForce->setWordWrap(true);
    m_inForce->hide();
    l->addWidget(where);
    l->addWidget(m_inForce);
    return header;
}

void SettingsView::setInForce(const StagePolicy &policy)
{
    m_inForcePolicy = policy;
    showInForce();
}

// The storyboard policy the engine runs with, and for each part that differs from the file, why.
void SettingsView::showInForce()
{
    if (!m_inForcePolicy)
        return;
    const StagePolicy &p = *m_inForcePolicy;
    const auto name = [this](const std::optional<Provider> &provider) {
        return provider ? toId(*provider) : tr("none");
    };
    QString text =
        tr("<b>The engine runs with</b> %1: %2 → %3, timeouts %4 and %5.")
            .arg(p.preset, toId(p.primary), name(p.fallback), units::duration(p.primaryTimeout), units::duration(p.fallbackTimeout));
    const auto because = [this](const QString &setting) {
        return m_environment.contains(setting) ? tr("%1 in the environment").arg(setting)
            : m_usingSimulator                 ? tr("chosen for the built-in simulator; set %1 to change it").arg(setting)
                                               : tr("the engine's default");
    };
    QStringList differs;
    if (p.primary != m_file.primary)
        differs << tr("primary %1, not %2 (%3)").arg(toId(p.primary), toId(m_file.primary), because(QStringLiteral("STORYBOARD_PROVIDER")));
    if (p.fallback != m_file.fallback)
        differs << tr("fallback %1, not %2 (%3)")
                       .arg(name(p.fallback), name(m_file.fallback), because(QStringLiteral("STORYBOARD_FALLBACK_PROVIDER")));
    if (p.preset != m_file.preset)
        differs << tr("policy %1, not %2 (%3)").arg(p.preset, m_file.preset, because(QStringLiteral("STORYBOARD_POLICY")));
    if (!differs.isEmpty())
        text += QStringLiteral("<br>") + tr("Not what the file below says: %1.").arg(differs.join(QStringLiteral("; ")).toHtmlEscaped());
    m_inForce->setText(text);
    m_inForce->show();
}

QWidget *SettingsView::withError(QWidget *field, const QString &setting)
{
    auto *box = new QWidget;
    auto *l = new QVBoxLayout(box);
    l->setContentsMargins(0, 0, 0, 0);
    l->setSpacing(1);
    l->addWidget(field);
    field->setMinimumHeight(field->sizeHint().height()); // the message below never squeezes the field
    auto *error = new QLabel;
    error->setObjectName(QStringLiteral("error:") + setting);
    // One line: a wrapping label reports its height only for a width, which the form's nested layout
    // does not ask for, so a wrapped message would overlap the next row.
    error->setWordWrap(false);
    error->setStyleSheet(tones::textStyle(tones::Tone::Failure, false, 11));
    error->hide();
    l->addWidget(error);
    if (m_environment.contains(setting) && !setting.endsWith(QLatin1StringView("_API_KEY"))) {
        auto *note = new QLabel(tr("overridden now by %1 in the environment").arg(setting));
        note->setStyleSheet(tones::textStyle(tones::Tone::Simulator, false, 11));
        l->addWidget(note);
    }
    m_errorLabels.insert(setting, error);
    return box;
}

void SettingsView::reload()
{
    // What the file and the key file say, without the environment: that is what Save writes back.
    const SettingsLoad load = SettingsLoader::load(m_paths.settingsFile, m_paths.keyFile, QProcessEnvironment(), false);
    const Settings &s = load.settings;
    m_table = s.providerTable;
    m_file = StagePolicy {};
    m_file.preset = s.storyboard.preset;
    m_file.primary = s.storyboard.primary;
    m_file.fallback = s.storyboard.fallback;
    showInForce();
    const QSignalBlocker blockers[] = { QSignalBlocker(m_primary), QSignalBlocker(m_fallback) };
    m_primary->setCurrentIndex(std::max(0, m_primary->findData(toId(s.storyboard.primary))));
    m_fallback->setCurrentIndex(std::max(0, m_fallback->findData(s.storyboard.fallback ? toId(*s.storyboard.fallback) : QString())));
    for (QComboBox *picker : { m_primary, m_fallback }) { // the file's added providers are choices now
        const QString chosen = picker->currentData().toString();
        const QSignalBlocker block(picker);
        fillProviderPicker(picker);
        picker->setCurrentIndex(std::max(0, picker->findData(chosen)));
    }
    m_primary->setCurrentIndex(std::max(0, m_primary->findData(toId(s.storyboard.primary))));
    m_fallback->setCurrentIndex(std::max(0, m_fallback->findData(s.storyboard.fallback ? toId(*s.storyboard.fallback) : QString())));
    {
        QJsonArray added;
        for (const ProviderSpec &spec : s.added)
            added.append(ProviderEntries::toJson(spec));
        const QSignalBlocker block(m_added);
        m_added->setPlainText(added.isEmpty() ? QString() : QString::fromUtf8(QJsonDocument(added).toJson(QJsonDocument::Indented)));
    }
    for (Provider p : ProviderRegistry::builtIns()) {
        const ProviderRow &r = m_providers[p];
        r.baseUrl->setText(s.provider(p).baseUrl.toString());
        r.model->setText(s.provider(p).model);
        r.stream->setChecked(s.provider(p).stream);
        describeKey(p, s);
    }
    m_form->fill(s);
    m_dataDir->setText(s.dataDir);
    m_retention->setText(formatRetention(s.retention.generations));
    m_aggregateRetention->setText(s.aggregateRetentionChosen ? formatRetention(s.retention.aggregates) : QString());
    m_language->setCurrentIndex(std::max(0, m_language->findData(QSettings().value(QStringLiteral("ui/language")).toString())));
    // Ticked only where a notification can be shown; elsewhere off, and it says why.
    if (const QString why = DesktopNotifier::unavailableReason(); !why.isEmpty()) {
        m_notifications->setChecked(false);
        m_notifications->setEnabled(false);
        m_notifications->setText(tr("Desktop notifications (unavailable: %1)").arg(why));
    } else {
        m_notifications->setChecked(DesktopNotifier::enabledInSettings());
    }
    validate();
    if (!load.errors.isEmpty()) {
        QStringList lines;
        for (const ConfigError &e : load.errors)
            lines << e.toString();
        m_status->setText(tr("The settings file has problems; fix them here and Save: %1").arg(lines.join(QStringLiteral("; "))));
    }
}

void SettingsView::describeKey(Provider p, const Settings &loaded)
{
    const ProviderRow &r = m_providers[p];
    const QString var = apiKeyVariable(p);
    const QString fromEnv = m_environment.value(var).trimmed();
    const secrets::Result kept = m_keychainAvailable ? secrets::read(var) : secrets::Result {};
    if (!fromEnv.isEmpty())
        r.keySource->setText(tr("environment %1: %2").arg(var, maskApiKey(fromEnv)));
    else if (kept.status == secrets::Status::Ok && !kept.value.isEmpty())
        r.keySource->setText(tr("system keychain: %1").arg(maskApiKey(kept.value)));
    else if (loaded.provider(p).hasKey())
        r.keySource->setText(tr("key file (0600): %1").arg(maskApiKey(loaded.provider(p).apiKey)));
    else
        r.keySource->setText(m_usingSimulator ? tr("not set (the built-in simulator answers)") : tr("not set"));
}

QGroupBox *SettingsView::providersBox()
{
    auto edit = [this](const QString &name) {
        auto *e = new QLineEdit;
        e->setObjectName(name);
        connect(e, &QLineEdit::textChanged, this, &SettingsView::validate);
        return e;
    };
    auto *providers = new QGroupBox(tr("Providers"));
    auto *grid = new QGridLayout(providers);
    const QStringList headers { tr("Provider"), tr("Base URL"), tr("Model"), tr("Stream"), tr("API key") };
    for (int c = 0; c < headers.size(); ++c) {
        auto *h = new QLabel(QStringLiteral("<b>%1</b>").arg(headers[c]));
        grid->addWidget(h, 0, c);
    }
    int row = 1;
    for (Provider p : ProviderRegistry::builtIns()) {
        ProviderRow r;
        r.baseUrl = edit(toId(p) + QStringLiteral("BaseUrl"));
        r.model = edit(toId(p) + QStringLiteral("Model"));
        r.stream = new QCheckBox;
        r.keySource = new QLabel;
        r.keySource->setObjectName(toId(p) + QStringLiteral("KeySource"));
        r.keySource->setWordWrap(true);
        r.setKey = new QPushButton(tr("Set key…"));
        r.setKey->setObjectName(toId(p) + QStringLiteral("SetKey"));
        connect(r.setKey, &QPushButton::clicked, this, [this, p] { setKey(p); });
        auto *keyBox = new QWidget;
        auto *keyLayout = new QHBoxLayout(keyBox);
        keyLayout->setContentsMargins(0, 0, 0, 0);
        keyLayout->addWidget(r.keySource, 1);
        keyLayout->addWidget(r.setKey);
        grid->addWidget(new QLabel(toId(p)), row, 0);
        grid->addWidget(withError(r.baseUrl, baseUrlVariable(p)), row, 1);
        grid->addWidget(withError(r.model, modelVariable(p)), row, 2);
        grid->addWidget(r.stream, row, 3);
        grid->addWidget(withError(keyBox, apiKeyVariable(p)), row, 4);
        m_providers.insert(p, r);
        ++row;
    }
    auto *keychain = new QLabel(
        (m_keychainAvailable
             ? tr("Keys are looked up in this order: the environment (*_API_KEY), the system keychain (Secret Service), then the "
                  "key file %1 (mode 0600). Set key… stores a key in the system keychain.")
                   .arg(m_paths.keyFile)
             : tr("Keys are looked up in this order: the environment (*_API_KEY), the system keychain, then the key file %1 "
                  "(mode 0600). There is no system keychain here (%2), so Set key… writes the key file.")
                   .arg(m_paths.keyFile, m_keychainReason)));
    keychain->setObjectName(QStringLiteral("keychainNote"));
    keychain->setWordWrap(true);
    keychain->setStyleSheet(tones::quietTextStyle());
    grid->addWidget(keychain, row, 0, 1, 5);
    // Providers the deployment adds: their settings-file entries, edited as JSON and checked as typed.
    m_added = new QPlainTextEdit;
    m_added->setObjectName(QStringLiteral("addedProviders"));
    m_added->setPlaceholderText(
        QStringLiteral(R"([ { "id": "local-vllm", "format": "openai", "base_url": "http://10.0.0.5:8000/v1", "model": "…" } ])"));
    m_added->setTabChangesFocus(true);
    m_added->setMinimumHeight(fontMetrics().lineSpacing() * 5);
    connect(m_added, &QPlainTextEdit::textChanged, this, &SettingsView::validate);
    auto *addedLabel = new QLabel(tr("Added providers (a JSON list of entries: id, name, format, base_url, model, key_variable, "
                                     "auth_header, query, stages; see docs/configuration.md). After Save they are in the pickers."));
    addedLabel->setWordWrap(true);
    addedLabel->setStyleSheet(tones::quietTextStyle());
    grid->addWidget(addedLabel, ++row, 0, 1, 5);
    grid->addWidget(withError(m_added, QStringLiteral("providers")), ++row, 0, 1, 5);
    grid->setColumnStretch(1, 3);
    grid->setColumnStretch(2, 2);
    grid->setColumnStretch(4, 3);

    return providers;
}

void SettingsView::fillProviderPicker(QComboBox *picker) const
{
    for (int i = picker->count() - 1; i >= 0; --i) {
        if (!picker->itemData(i).toString().isEmpty())
            picker->removeItem(i); // "none" stays
    }
    for (const Provider p : m_table.all())
        picker->addItem(m_table.spec(p).builtIn ? toId(p) : QStringLiteral("%1 (%2)").arg(toId(p), m_table.name(p)), toId(p));
}

void SettingsView::draftAdded(Settings &s, QMap<QString, QString> *errors) const
{
    s.added.clear();
    s.providerTable.setAdded({});
    const QString text = m_added->toPlainText().trimmed();
    if (text.isEmpty())
        return;
    QJsonParseError perr {};
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &perr);
    if (perr.error != QJsonParseError::NoError || !doc.isArray()) {
        errors->insert(QStringLiteral("providers"),
                       perr.error != QJsonParseError::NoError
                           ? tr("not JSON: %1 at character %2").arg(perr.errorString()).arg(perr.offset)
                           : tr("must be a JSON list of provider entries: [ { \"id\": …, \"format\": … } ]"));
        return;
    }
    QList<ConfigError> refused;
    const ProviderEntries entries = ProviderEntries::read(doc.array(), QStringLiteral("added"), &refused);
    QStringList lines;
    for (const ConfigError &e : refused)
        lines << e.setting.section(QStringLiteral(": "), 1) + QStringLiteral(": ") + e.message;
    for (const auto &[p, unused] : entries.builtIns)
        lines << tr("%1 is built in: set its endpoint and model in the table above").arg(toId(p));
    if (!lines.isEmpty())
        errors->insert(QStringLiteral("providers"), lines.join(QLatin1Char('\n')));
    s.added = entries.added;
    s.providerTable.setAdded(entries.added);
    for (const ProviderSpec &spec : entries.added) {
        if (const std::optional<Provider> p = s.providerTable.find(spec.id)) {
            ProviderSettings &ps = s.providers[*p];
            const QString apiKey = ps.apiKey; // from the key file, as loaded
            ps = ProviderSettings { spec.baseUrl, spec.model, apiKey, ps.keySource, spec.stream, spec.price };
            if (const QString fromEnv = m_environment.value(spec.keyVariable).trimmed(); spec.takesKey() && !fromEnv.isEmpty())
                ps.apiKey = fromEnv;
        }
    }
}

Settings SettingsView::draft(QMap<QString, QString> *errors) const
{
    Settings s = SettingsLoader::load(m_paths.settingsFile, m_paths.keyFile, QProcessEnvironment(), false).settings;
    s.storyboard.primary = providerFromId(m_primary->currentData().toString()).value_or(Provider::Gemini);
    s.storyboard.fallback = providerFromId(m_fallback->currentData().toString());
    s.storyboardFallbackChosen = true;
    draftAdded(s, errors);
    for (Provider p : ProviderRegistry::builtIns()) {
        ProviderSettings &ps = s.providers[p];
        ps.baseUrl = QUrl(m_providers[p].baseUrl->text().trimmed());
        ps.model = m_providers[p].model->text().trimmed();
        ps.stream = m_providers[p].stream->isChecked();
        const QString fromEnv = m_environment.value(apiKeyVariable(p)).trimmed();
        if (!fromEnv.isEmpty())
            ps.apiKey = fromEnv; // for the "needs a key" check only; never written
    }
    m_form->read(s, errors); // the policy's preset among them
    if (s.pipeline.imageModel.isEmpty())
        errors->insert(QStringLiteral("GEMINI_IMAGE_MODEL"), tr("needs a model name"));
    s.dataDir = m_dataDir->text().trimmed();
    if (!s.dataDir.isEmpty() && QDir::isRelativePath(s.dataDir))
        errors->insert(QStringLiteral("data directory"), tr("must be an absolute path (or empty for %1)").arg(m_paths.dataDir));
    auto retention = [&](QLineEdit *e, const QString &setting, const QString &fallback, std::optional<milliseconds> *out) {
        const QString text = e->text().trimmed().isEmpty() ? fallback : e->text();
        bool off = false;
        QString why;
        const auto period = parseRetention(text, &off, &why);
        if (!period && !off)
            errors->insert(setting, why);
        else
            *out = period;
    };
    retention(m_retention, QStringLiteral("BULLPEN_RETENTION"), QStringLiteral("30d"), &s.retention.generations);
    s.aggregateRetentionChosen = !m_aggregateRetention->text().trimmed().isEmpty();
    retention(m_aggregateRetention, QStringLiteral("BULLPEN_AGGREGATE_RETENTION"),
              s.retention.generations ? QStringLiteral("400d") : QStringLiteral("off"), &s.retention.aggregates);
    // docs/contract.md §4.6, as start-up applies it. Keys are required only once real providers are in use.
    for (const ConfigError &e : SettingsLoader::validate(s, !m_usingSimulator)) {
        if (!errors->contains(e.setting))
            errors->insert(e.setting, e.message);
    }
    return s;
}

QString SettingsView::errorFor(const QString &setting) const
{
    const QLabel *l = m_errorLabels.value(setting);
    return l && !l->isHidden() ? l->text() : QString();
}

void SettingsView::validate()
{
    QMap<QString, QString> errors;
    draft(&errors);
    for (auto it = m_errorLabels.begin(); it != m_errorLabels.end(); ++it) {
        const QString message = errors.value(it.key());
        it.value()->setText(message);
        it.value()->setToolTip(message);
        it.value()->setHidden(message.isEmpty());
    }
    // A refusal with no field of its own still blocks Save and is said below.
    QStringList orphans;
    for (auto it = errors.begin(); it != errors.end(); ++it) {
        if (!m_errorLabels.contains(it.key()))
            orphans << it.key() + QStringLiteral(": ") + it.value();
    }
    m_save->setEnabled(errors.isEmpty());
    m_status->setText(orphans.isEmpty() ? (errors.isEmpty() ? QString() : tr("Fix the fields marked in red to save."))
                                        : orphans.join(QLatin1Char('\n')));
}

bool SettingsView::applyPrimaryTimeout(std::chrono::milliseconds timeout)
{
    auto *field = qobject_cast<QLineEdit *>(m_form->field(QStringLiteral("STORYBOARD_PRIMARY_TIMEOUT")));
    if (!field)
        return false;
    field->setText(units::field(timeout));
    validate();
    return save();
}

bool SettingsView::save()
{
    QMap<QString, QString> errors;
    const Settings s = draft(&errors);
    if (!errors.isEmpty()) {
        validate();
        return false;
    }
    QString why;
    if (!SettingsFile::save(s, m_paths.settingsFile, &why)) {
        m_status->setText(why);
        return false;
    }
    QSettings().setValue(QStringLiteral("ui/language"), m_language->currentData().toString());
    if (m_notifications->isEnabled()) // where none can be shown, the operator's choice stays as it was
        DesktopNotifier::setEnabledInSettings(m_notifications->isChecked());
    if (m_notifications->isEnabled())
        if (auto *notifier = window()->findChild<DesktopNotifier *>(QStringLiteral("desktopNotifier")))
            notifier->setEnabled(m_notifications->isChecked()); // at once, unlike the engine's settings
    m_status->setText(tr("Saved to %1. Restart Bullpen to use the new settings.").arg(QDir::toNativeSeparators(m_paths.settingsFile)));
    reload(); // the saved file's added providers join the pickers
    m_status->setText(tr("Saved to %1. Restart Bullpen to use the new settings.").arg(QDir::toNativeSeparators(m_paths.settingsFile)));
    Q_EMIT saved(m_paths.settingsFile);
    return true;
}

void SettingsView::setKey(Provider p)
{
    bool ok = false;
    const QString where = m_keychainAvailable ? tr("the system keychain") : tr("%1 (mode 0600)").arg(m_paths.keyFile);
    const QString key =
        QInputDialog::getText(this, tr("API key for %1").arg(toId(p)),
                              tr("Paste the key. It is kept in %1 and never shown again. Leave empty to remove it.").arg(where),
                              QLineEdit::Password, QString(), &ok)
            .trimmed();
    if (ok)
        setKeyValue(p, key);
}

void SettingsView::setKeyValue(Provider p, const QString &key)
{
    const QString var = apiKeyVariable(p);
    QString saved;
    if (m_keychainAvailable) {
        const secrets::Result r = secrets::write(var, key);
        if (r.status == secrets::Status::Ok) {
            saved = key.isEmpty() ? tr("Key removed from the system keychain.") : tr("Key saved in the system keychain.");
        } else {
            // The keychain was there at start and is not now (locked, gone): the key file still works.
            m_keychainAvailable = false;
            m_keychainReason = r.reason;
        }
    }
    if (saved.isEmpty()) {
        QString why;
        if (!KeyFile::setKey(m_paths.keyFile, var, key, &why)) {
            m_status->setText(why);
            return;
        }
        saved = m_keychainReason.isEmpty()
            ? tr("Key saved to %1.").arg(m_paths.keyFile)
            : tr("No system keychain here (%1): key saved to %2 (mode 0600) instead.").arg(m_keychainReason, m_paths.keyFile);
    }
    const Settings loaded = SettingsLoader::load(m_paths.settingsFile, m_paths.keyFile, QProcessEnvironment(), false).settings;
    describeKey(p, loaded);
    validate(); // before the status line: it sets one of its own
    m_status->setText(m_environment.contains(var) ? tr("%1 But %2 in the environment still wins.").arg(saved, var)
                                                  : tr("%1 Restart Bullpen to use it.").arg(saved));
}

QString SettingsView::keySourceText(Provider p) const
{
    return m_providers.value(p).keySource ? m_providers.value(p).keySource->text() : QString();
}

QString SettingsView::statusText() const
{
    return m_status->text();
}

} // namespace bullpen
