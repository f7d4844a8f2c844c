// SPDX-License-Identifier: MIT
#include "translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTextStream>

#include <utility>

namespace bullpen {

QString chooseLanguage(const QString &fromCommandLine)
{
    if (!fromCommandLine.isEmpty())
        return fromCommandLine;
    const QString saved = QSettings().value(QStringLiteral("ui/language")).toString();
    if (!saved.isEmpty())
        return saved;
    return QLocale::system().language() == QLocale::Korean ? QStringLiteral("ko") : QStringLiteral("en");
}

void Translations::use(const QString &language)
{
    for (QTranslator *t : { &m_bullpen, &m_core, &m_qt })
        QCoreApplication::removeTranslator(t);
    if (language != u"ko")
        return;
    // The console's own text, and the engine's text it shows (next steps, connection state).
    for (auto [translator, file] :
         { std::pair { &m_bullpen, ":/i18n/bullpen_ko.qm" }, std::pair { &m_core, ":/i18n/bullpen_core_ko.qm" } }) {
        if (translator->load(QString::fromLatin1(file)))
            QCoreApplication::installTranslator(translator);
        else
            QTextStream(stderr) << QCoreApplication::applicationName() << ": " << file
                                << " is missing from this build; that text shows in English\n";
    }
    if (m_qt.load(QLocale(QLocale::Korean), QStringLiteral("qtbase"), QStringLiteral("_"),
                  QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(&m_qt);
}

} // namespace bullpen
