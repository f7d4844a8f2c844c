// SPDX-License-Identifier: MIT
#pragma once

#include "config/settings.h"
#include "httpstagegenerator.h"
#include "networkpool.h"

#include <QNetworkAccessManager>
#include <QObject>

#include <memory>

namespace bullpen {

class StageService;

// The image stage's own client (docs/contract.md §2, 4.4): a Gemini image-generation adapter of its
// own, so that nothing the storyboard policy sets can reach it, and the other way round. The
// connections are the engine stack's shared pool (enginestack.h), or the client's own when none is given.
class ImageClient final : public QObject
{
    Q_OBJECT
public:
    explicit ImageClient(const Settings &settings, NetworkPool *sharedPool = nullptr, QObject *parent = nullptr);
    ~ImageClient() override;

    HttpStageGenerator &generator() const { return *m_generator; }
    void registerWith(StageService &service) const;
    NetworkPool &network() { return m_pool; }

private:
    std::unique_ptr<NetworkPool> m_ownPool; // when not given the stack's; outlives the adapter
    NetworkPool &m_pool;
    std::unique_ptr<HttpStageGenerator> m_generator;
};

} // namespace bullpen
