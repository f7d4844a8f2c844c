// SPDX-License-Identifier: MIT
#pragma once

#include <QIODevice>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QString>
#include <QStringList>

#include <optional>

namespace bullpen::logging {

// Where the engine's own diagnostics go (docs/contract.md, "Logs"): stderr, one line each, as text or
// as one JSON object per line (`--log-format json`, the default of bullpen-engine), which journald and
// container runtimes keep as they are. Each JSON line has `time` (UTC, ms), `level`, `program`,
// `instance`, `category`, `message`, and the fields the message was given (generation_id, provider,
// kind, stage, …). Nothing secret or personal: API keys and tokens the process knows (addSecret) and
// anything shaped like one are masked in every line; user ids and story text are never logged.
enum class Format { Text, Json };

struct Options
{
    Format format = Format::Text;
    QtMsgType level = QtInfoMsg; // the least severe level written
    QString program; // bullpen-engine, bullpen-cli
    QString instance;
};

// "--log-format" and "--log-level" values: text|json and debug|info|warning|error. nullopt with *error.
std::optional<Format> parseFormat(const QString &text, QString *error);
std::optional<QtMsgType> parseLevel(const QString &text, QString *error);

// Takes `--log-format VALUE` and `--log-level VALUE` (or `--option=VALUE`) out of `arguments` into
// `options`. False with *error when a value is not one of the above (the others are still taken out).
bool takeArguments(QStringList *arguments, Options *options, QString *error);

// Installs the handler for every qDebug/qInfo/qWarning/qCritical of the process.
void install(const Options &options);
void setInstance(const QString &instance);
// A secret the process holds (a provider key): masked wherever it appears in a line.
void addSecret(const QString &secret);

// A diagnostic with fields: in JSON they are the line's own keys; in text, "key=value" after the message.
void note(QtMsgType type, const QLoggingCategory &category, const QString &message, const QJsonObject &fields = {});

// stderr for a front end's own messages ("bullpen-cli: …"): as they are in text format; in JSON format
// each line becomes a log line of `category` (its "PROGRAM: " prefix dropped; "warning: …" at warning
// level). Use it as a QTextStream's device.
QIODevice *stderrDevice();

// The line as the handler writes it (for tests).
QByteArray format(QtMsgType type, const char *category, const QString &message, qint64 nowMs);
// Masks known secrets and key- or token-shaped words (AIza…, sk-…, bearer tokens, bp_…).
QString scrub(QString text);

} // namespace bullpen::logging
