// SPDX-License-Identifier: MIT
#pragma once

#include <QIODevice>

namespace bullpen {

// A request body Qt cannot rewind. Sent with DoNotBufferUploadDataAttribute and an explicit
// Content-Length, it makes QNetworkAccessManager fail with ContentReSendError where it would otherwise
// silently send the same POST again on HTTP/1.1 (docs/contract.md §4.4).
class OneShotBody final : public QIODevice
{
    Q_OBJECT
public:
    explicit OneShotBody(QByteArray data, QObject *parent = nullptr);

    bool isSequential() const override { return true; }
    bool reset() override { return false; }
    bool seek(qint64) override { return false; }
    qint64 bytesAvailable() const override { return m_data.size() - m_pos + QIODevice::bytesAvailable(); }
    qint64 size() const override { return m_data.size(); }

protected:
    qint64 readData(char *data, qint64 maxSize) override;
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    QByteArray m_data;
    qint64 m_pos = 0;
};

} // namespace bullpen
