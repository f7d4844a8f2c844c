// SPDX-License-Identifier: MIT
#include "resultview.h"

#include "contract/displaymask.h"
#include "contract/recordtext.h"
#include "cost/generationcost.h"
#include "fittedimage.h"
#include "models/units.h"
#include "models/words.h"
#include "tones.h"

#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPixmap>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace bullpen {

ResultView::ResultView(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("resultView"));
    m_headline = new QLabel(tr("No result yet: run a generation."));
    m_headline->setObjectName(QStringLiteral("resultHeadline"));
    QFont big = m_headline->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    m_headline->setFont(big);
    m_failure = new QLabel;
    m_failure->setObjectName(QStringLiteral("failureBox"));
    m_failure->setWordWrap(true);
    m_failure->setStyleSheet(tones::boxStyle(tones::Tone::Failure, 8));
    m_failure->hide();
    m_retry = new QPushButton(tr("Retry"));
    m_retry->setObjectName(QStringLiteral("retryButton"));
    m_retry->hide();
    connect(m_retry, &QPushButton::clicked, this, &ResultView::retryRequested);
    m_openSettings = new QPushButton(tr("Open Settings"));
    m_openSettings->setObjectName(QStringLiteral("openSettingsButton"));
    m_openSettings->hide();
    connect(m_openSettings, &QPushButton::clicked, this, &ResultView::settingsRequested);
    m_editStory = new QPushButton(tr("Edit story"));
    m_editStory->setObjectName(QStringLiteral("editStoryButton"));
    m_editStory->hide();
    connect(m_editStory, &QPushButton::clicked, this, &ResultView::storyEditRequested);

    auto *cardsBox = new QWidget;
    m_cards = new QGridLayout(cardsBox);
    m_image = new FittedImage;
    m_image->setObjectName(QStringLiteral("comicImage"));
    m_metadata = new QLabel;
    m_metadata->setObjectName(QStringLiteral("fallbackMetadata"));
    m_metadata->setWordWrap(true);
    m_metadata->setTextFormat(Qt::RichText);
    m_metadata->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    // The metadata grows with attempts and costs: it scrolls, so a long result never makes the window
    // taller than the screen (1024×700, docs/console.md).
    auto *metadataScroll = new QScrollArea;
    metadataScroll->setWidget(m_metadata);
    metadataScroll->setWidgetResizable(true);
    metadataScroll->setFrameShape(QFrame::NoFrame);
    metadataScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // On the page's own background, not the scroll area's window grey.
    metadataScroll->setBackgroundRole(QPalette::NoRole);
    metadataScroll->viewport()->setAutoFillBackground(false);
    m_metadata->setAutoFillBackground(false);
    auto *left = new QVBoxLayout;
    left->addWidget(cardsBox);
    left->addWidget(metadataScroll, 1);
    auto *body = new QHBoxLayout;
    body->addLayout(left, 3);
    body->addWidget(m_image, 2);
    auto *failureRow = new QHBoxLayout;
    failureRow->addWidget(m_failure, 1);
    auto *actions = new QVBoxLayout;
    actions->addWidget(m_retry);
    actions->addWidget(m_openSettings);
    actions->addWidget(m_editStory);
    actions->addStretch(1);
    failureRow->addLayout(actions);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_headline);
    layout->addLayout(failureRow);
    layout->addLayout(body, 1);
}

void ResultView::showResult(const GenerationResult &r)
{
    m_result = r;
    while (QLayoutItem *item = m_cards->takeAt(0)) {
        if (QWidget *w = item->widget()) { // gone from view now, deleted once no event is using it
            w->hide();
            w->setObjectName(QString()); // the new cards take the names
            w->deleteLater();
        }
        delete item;
    }
    const StageResult &sb = r.storyboard;
    if (r.state == FinalState::Succeeded) {
        m_headline->setText(
            tr("Succeeded in %1%2%3")
                .arg(units::duration(r.elapsed))
                .arg(
                    sb.fallback.applied
                        ? tr(" — answered by the fallback %1").arg(sb.fallback.finalProvider ? toId(*sb.fallback.finalProvider) : QString())
                        : QString())
                .arg(r.fromCache      ? tr(" (from cache)")
                         : r.degraded ? tr(" (degraded: default captions)")
                                      : QString()));
        m_failure->hide();
        m_retry->hide();
        m_openSettings->hide();
        m_editStory->hide();
    } else {
        m_headline->setText(tr("%1 at the %2 stage").arg(words::state(toId(r.state)).toUpper(), words::stage(r.failedStage)));
        m_failure->setText(QStringLiteral("<b>%1</b> · %2<br>%3<br><br>%4")
                               .arg(r.failure ? enumName(r.failure->publicCode()) : QString(),
                                    r.failure ? enumName(r.failure->kind) : QString(),
                                    r.failure ? localizedRecordText(r.failure->detail).toHtmlEscaped() : QString(),
                                    r.nextStep ? r.nextStep->localizedMessage().toHtmlEscaped() : QString()));
        m_failure->show();
        // The button the next step names, and no other.
        const NextStep::Action action = r.nextStep ? r.nextStep->action : NextStep::Action::None;
        m_retry->setVisible(action == NextStep::Action::Retry);
        m_openSettings->setVisible(action == NextStep::Action::FixSettings);
        m_editStory->setVisible(action == NextStep::Action::ChangeInput);
    }
    if (sb.storyboard) {
        for (int i = 0; i < sb.storyboard->panels.size(); ++i) {
            const Panel &p = sb.storyboard->panels.at(i);
            auto *card = new QLabel;
            card->setObjectName(QStringLiteral("panelCard%1").arg(p.index));
            card->setWordWrap(true);
            card->setFrameShape(QFrame::StyledPanel);
            card->setAlignment(Qt::AlignTop | Qt::AlignLeft);
            card->setMinimumWidth(220);
            card->setProperty("content", true); // the generation's own words, in its story's language
            QString html = QStringLiteral("<b>%1 · %2</b><br>%3<br><i>%4</i>")
                               .arg(p.index)
                               .arg(p.role, p.scene.toHtmlEscaped(), p.characters.join(QStringLiteral(", ")).toHtmlEscaped());
            for (const DialogueLine &d : p.dialogue)
                html += QStringLiteral("<br>“%1” — %2").arg(d.text.toHtmlEscaped(), d.speaker.toHtmlEscaped());
            if (i < r.captionLines.size())
                html += QStringLiteral("<br><small>%1 %2</small>")
                            .arg(r.captionsDefaulted ? tr("alt (default):") : tr("alt:"), r.captionLines.at(i).toHtmlEscaped());
            card->setText(html);
            m_cards->addWidget(card, i / 2, i % 2);
        }
    }
    QPixmap pix;
    if (r.image && !r.image->image.isEmpty())
        pix.loadFromData(r.image->image);
    else if (!r.imagePath.isEmpty())
        pix.load(r.imagePath);
    m_image->setImage(pix);
    if (pix.isNull())
        m_image->setText(tr("No image"));

    // People's words, each with its field name (as the API and the store spell it) in a tooltip.
    QStringList fieldNames;
    const auto field = [&fieldNames](const QString &label, const QString &name, const QString &value) {
        fieldNames << QStringLiteral("%1 = %2").arg(label, name);
        return QStringLiteral("%1: %2<br>").arg(label, value.toHtmlEscaped());
    };
    QString meta = QStringLiteral("<b>%1</b><br>").arg(tr("Fallback"));
    meta += field(tr("Fallback used"), QStringLiteral("provider_fallback_applied"), sb.fallback.applied ? tr("yes") : tr("no"));
    meta += field(tr("Why"), QStringLiteral("provider_fallback_reason"),
                  sb.fallback.reason.isEmpty() ? QStringLiteral("—") : sb.fallback.reason);
    meta += field(tr("Primary provider"), QStringLiteral("primary_final_model_provider"), toId(sb.fallback.primaryProvider));
    meta += field(tr("Answered by"), QStringLiteral("final_model_provider"),
                  // a failed stage was answered by nobody, whoever was asked last
                  sb.fallback.finalProvider && r.state != FinalState::Failed ? toId(*sb.fallback.finalProvider) : QStringLiteral("—"));
    meta += field(tr("Model"), QStringLiteral("final_model_id"),
                  sb.fallback.finalModelId.isEmpty() ? QStringLiteral("—") : sb.fallback.finalModelId);
    meta += QStringLiteral("<i>%1</i><br><br><b>%2</b><br>").arg(localizedRecordText(sb.decision).toHtmlEscaped(), tr("Attempts"));
    const QList<AttemptRecord> attempts = r.attempts();
    for (const AttemptRecord &a : attempts) {
        meta += QStringLiteral("%1 · %2 %3 · %4 · %5")
                    .arg(words::stage(a.stage), toId(a.provider), words::role(a.role), a.success ? tr("ok") : enumName(a.failure->kind))
                    .arg(units::duration(a.duration));
        if (a.tokens.known())
            meta += tr(" · tokens in %1 / out %2")
                        .arg(a.tokens.input >= 0 ? QLocale().toString(a.tokens.input) : QStringLiteral("–"),
                             a.tokens.output >= 0 ? QLocale().toString(a.tokens.output) : QStringLiteral("–"));
        if (a.abortedBy != AbortReason::None)
            meta += tr(" · cancelled by us (the provider may still have computed and billed it)");
        meta += QStringLiteral("<br>");
    }
    // docs/contract.md §16: every attempt's cost, billed failures included; unknown ones named, never 0.
    const GenerationCost cost = GenerationCost::of(attempts);
    meta += QStringLiteral("<br><b>%1</b><br>").arg(tr("Cost"));
    meta += field(tr("This generation"), QStringLiteral("attempts[].cost"), GenerationCost::text(cost.total));
    if (!cost.fallbackAdded.isEmpty())
        meta += field(tr("Added by the fallback"), QStringLiteral("attempts[].cost (attempts[].role=fallback)"),
                      GenerationCost::text(cost.fallbackAdded));
    if (cost.unknown > 0)
        meta += QStringLiteral("<i>%1</i><br>").arg(tr("Attempts of unknown cost (no tokens reported), not counted: %1").arg(cost.unknown));
    meta += QStringLiteral("<br><small>%1</small>").arg(DisplayMask::generationId(r.generationId) + QStringLiteral(" — ") + r.generationId);
    m_metadata->setText(meta);
    m_metadata->setToolTip(tr("Field names in the API, the store and exports:\n%1").arg(fieldNames.join(QLatin1Char('\n'))));
}

} // namespace bullpen
