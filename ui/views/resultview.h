// SPDX-License-Identifier: MIT
#pragma once

#include "pipeline/generationresult.h"

#include <QWidget>

class QFormLayout;
class QGridLayout;
class QLabel;
class QPushButton;

namespace bullpen {

class FittedImage;

// docs/contract.md §9.3: the four panels as cards, the comic, the captions (marked when defaulted), the fallback
// metadata with per-attempt durations and tokens; a final failure with its code, kind, detail and the
// next-step message, and the one button that message names (Retry, Open Settings, Edit story).
class ResultView final : public QWidget
{
    Q_OBJECT
public:
    explicit ResultView(QWidget *parent = nullptr);
    void showResult(const GenerationResult &result);
    const GenerationResult &result() const { return m_result; }

Q_SIGNALS:
    void retryRequested();
    void settingsRequested(); // a configuration failure: the Settings tab
    void storyEditRequested(); // a refused input: the Run tab, to change the story

private:
    GenerationResult m_result;
    QLabel *m_headline;
    QLabel *m_failure;
    QPushButton *m_retry;
    QPushButton *m_openSettings;
    QPushButton *m_editStory;
    QGridLayout *m_cards;
    FittedImage *m_image;
    QLabel *m_metadata;
};

} // namespace bullpen
