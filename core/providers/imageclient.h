// SPDX-License-Identifier: MIT
#pragma once

#include "config/settings.h"
#include "egressguard.h"
#include "networkpool.h"
#include "httpstagegenerator.h"

#include <QNetworkAccessManager>
#include <QObject>

#include <memory>

namespace bullpen {

class StageService;

// The image stage's own client (docs/contract.md §2, 4.4): its own QNetworkAccessManager and a Gemini
// image-generation adapter, so that nothing the storyboard policy sets can reach it, and the
// other way round.
class ImageClient final : public QObject
{
    Q_OBJECT
public:
    explicit ImageClient(const Settings &settings, QObject *parent = nullptr);
    ~ImageClient() override;

    HttpStageGenerator &generator() const { return *m_generator; }
    void registerWith(StageService &service) const;
    NetworkPool &network() { return m_pool; }

private:
    EgressGuard m_guard; // first: outlives the manager and every exchange
    NetworkPool m_pool; // managers enough that every request is on the wire when its attempt starts
    std::unique_ptr<HttpStageGenerator> m_generator;
};

} // namespace bullpen
