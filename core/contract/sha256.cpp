// SPDX-License-Identifier: MIT
#include "sha256.h"

#include <QCryptographicHash>

#include <algorithm>

#ifdef BULLPEN_HAVE_OPENSSL
#include <openssl/evp.h>
#endif

namespace bullpen {

QByteArray sha256Hex(QByteArrayView data)
{
#ifdef BULLPEN_HAVE_OPENSSL
    unsigned char digest[32];
    unsigned int length = 0;
    if (EVP_Digest(data.data(), size_t(data.size()), digest, &length, EVP_sha256(), nullptr) == 1 && length == sizeof digest)
        return QByteArray::fromRawData(reinterpret_cast<const char *>(digest), sizeof digest).toHex();
        // OpenSSL refused (a FIPS provider without SHA-256 is not a thing, but never return a wrong digest).
#endif
    return QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex();
}

bool isSha256Hex(QStringView text)
{
    return text.size() == 64
        && std::all_of(text.begin(), text.end(), [](QChar c) { return (c >= u'0' && c <= u'9') || (c >= u'a' && c <= u'f'); });
}

} // namespace bullpen
