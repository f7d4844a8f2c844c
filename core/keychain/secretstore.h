// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace bullpen::secrets {

// Keys in the system keychain (the Secret Service on Linux, through QtKeychain), under the service
// "bullpen" and the name of the variable they stand for (GEMINI_API_KEY, BULLPEN_ENGINE_TOKEN).
// Where a key is looked for, in order (docs/install.md, "Keys"): the environment, the keychain, the
// 0600 key file. A machine without a Secret Service (a headless server, a container) has no keychain:
// calls then say Unavailable with the reason, at once, and the key file is used.
//
// Calls block for at most `timeoutMs` on a local event loop (a Secret Service answers in
// milliseconds; one that prompts for an unlock is given up on): start-up, Set key… and Connect… call
// them from the GUI thread, never the engine.
enum class Status { Ok, NotFound, Unavailable, Failed };

struct Result
{
    Status status = Status::Unavailable;
    QString value; // read: the secret
    QString reason; // Unavailable and Failed: why, for people
};

bool compiledIn(); // built with QtKeychain
Result read(const QString &name, int timeoutMs = 3000);
// An empty value removes the entry.
Result write(const QString &name, const QString &value, int timeoutMs = 3000);
// Whether a keychain answers here (a read of an entry that does not exist).
Result probe(int timeoutMs = 3000);

} // namespace bullpen::secrets
