// SPDX-License-Identifier: MIT
#include "openaidialect.h"

#include "openaiformat.h"

namespace bullpen {

const OpenAiDialect &OpenAiDialect::instance()
{
    static const OpenAiDialect dialect;
    return dialect;
}

std::unique_ptr<WireFormat> OpenAiDialect::format(Provider provider) const
{
    return std::make_unique<OpenAiFormat>(provider);
}

std::optional<QString> OpenAiDialect::route(const QString &path, const QString &base) const
{
    if (path != base + QStringLiteral("/chat/completions"))
        return std::nullopt;
    return QString();
}

void OpenAiDialect::flavour(Storyboard &board) const
{
    for (Panel &p : board.panels)
        p.scene = QStringLiteral("%1 (panel %2)").arg(p.scene).arg(p.index);
}

} // namespace bullpen
