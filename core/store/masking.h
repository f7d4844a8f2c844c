// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace bullpen {

// docs/contract.md §5.1: the raw user id is never stored or shown. The store keeps a keyed hash (HMAC-SHA256 with a
// per-installation key kept in a file only its owner can read) to group a user's failures, and a
// display mask for people (contract/displaymask.h).
class Masking final
{
public:
    explicit Masking(QByteArray key);

    // Reads the installation key at `path`, or creates it (32 random bytes, mode 0600). Refuses a key
    // file that others can read, or that is not 32 bytes, saying what to do in *error.
    static std::optional<Masking> loadOrCreate(const QString &path, QString *error);

    // Lower-case hex HMAC-SHA256 of the id: stable per installation, useless elsewhere.
    QString userKey(const QString &rawUserId) const;
    // 16 hex characters naming the key without revealing it (an HMAC of a fixed label): what a store
    // shared by several engines keeps, so that an engine with another key is refused (docs/contract.md §12.2).
    QString fingerprint() const;

private:
    QByteArray m_key;
};

} // namespace bullpen
