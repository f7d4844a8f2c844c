// SPDX-License-Identifier: MIT
#include "dashscopedialect.h"

#include "dashscopeformat.h"

#include <algorithm>

namespace bullpen {

const DashScopeDialect &DashScopeDialect::instance()
{
    static const DashScopeDialect dialect;
    return dialect;
}

std::unique_ptr<WireFormat> DashScopeDialect::format(Provider provider) const
{
    return std::make_unique<DashScopeFormat>(provider);
}

void DashScopeDialect::flavour(Storyboard &board) const
{
    static const char *const kShots[] = { "Wide shot", "Medium shot", "Close-up", "Long shot" };
    for (Panel &p : board.panels) {
        const auto i = static_cast<std::size_t>(std::clamp(p.index - 1, 0, 3));
        p.scene = QStringLiteral("%1: %2").arg(QLatin1StringView(kShots[i]), p.scene);
    }
    board.title = QStringLiteral("%1 · 4컷").arg(board.title);
}

} // namespace bullpen
