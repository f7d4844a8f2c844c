// SPDX-License-Identifier: MIT
#pragma once
// The console's interface language, shared by `bullpen` and `bullpen-tour` (which shoots every view in
// English and Korean): which language to use, and installing its translations.

#include <QString>
#include <QTranslator>

namespace bullpen {

// "ko", "en": `fromCommandLine` when given, else Settings → Language, else the system's.
QString chooseLanguage(const QString &fromCommandLine);

// Installs Bullpen's and Qt's own translations for `language`; English needs none.
class Translations final
{
public:
    void use(const QString &language);

private:
    QTranslator m_bullpen;
    QTranslator m_core;
    QTranslator m_qt;
};

} // namespace bullpen
