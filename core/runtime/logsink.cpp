// SPDX-License-Identifier: MIT
#include "logsink.h"

#include "config/qtnoise.h"
#include "contract/isotime.h"
#include "failure/secretscrubber.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QStringList>

#include <cstdio>
#include <mutex>

namespace bullpen::logging {

namespace {

// A note()'s fields travel inside the message, between two record separators, to the handler.
constexpr char16_t kFieldsMark = u'\x1e';

struct State
{
    std::mutex mutex;
    Options options;
    QStringList secrets;
    bool installed = false;
};

State &state()
{
    static State s;
    return s;
}

// Debug < info < warning < critical < fatal (QtMsgType's values are not in that order).
int rank(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg:
        return 0;
    case QtInfoMsg:
        return 1;
    case QtWarningMsg:
        return 2;
    case QtCriticalMsg:
        return 3;
    case QtFatalMsg:
        return 4;
    }
    return 2;
}

const char *levelName(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg:
        return "debug";
    case QtInfoMsg:
        return "info";
    case QtWarningMsg:
        return "warning";
    case QtCriticalMsg:
        return "error";
    case QtFatalMsg:
        return "fatal";
    }
    return "warning";
}

QByteArray formatLocked(const Options &o, const QStringList &secrets, QtMsgType type, const char *category, const QString &raw,
                        qint64 nowMs)
{
    QString message = raw;
    QJsonObject fields;
    if (message.startsWith(QChar(kFieldsMark))) {
        const qsizetype end = message.indexOf(QChar(kFieldsMark), 1);
        if (end > 0) {
            fields = QJsonDocument::fromJson(message.mid(1, end - 1).toUtf8()).object();
            message = message.mid(end + 1);
        }
    }
    message = SecretScrubber::scrub(message, secrets);
    const QString category_ = QString::fromLatin1(category ? category : "default");
    if (o.format == Format::Json) {
        QJsonObject line { { QStringLiteral("time"), isoUtcWithMs(nowMs) },
                           { QStringLiteral("level"), QLatin1StringView(levelName(type)) },
                           { QStringLiteral("program"), o.program },
                           { QStringLiteral("category"), category_ },
                           { QStringLiteral("message"), message } };
        if (!o.instance.isEmpty())
            line.insert(QStringLiteral("instance"), o.instance);
        for (auto it = fields.begin(); it != fields.end(); ++it) {
            if (!line.contains(it.key()))
                line.insert(it.key(), it->isString() ? QJsonValue(SecretScrubber::scrub(it->toString(), secrets)) : *it);
        }
        return QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n';
    }
    // Text: the message as Qt's own handler would write it, then the fields.
    QString text = message;
    QStringList pairs;
    for (auto it = fields.begin(); it != fields.end(); ++it)
        pairs << it.key() + QLatin1Char('=') + SecretScrubber::scrub(it->isString() ? it->toString() : it->toVariant().toString(), secrets);
    if (!pairs.isEmpty())
        text += QStringLiteral(" (") + pairs.join(QStringLiteral(", ")) + QLatin1Char(')');
    return text.toUtf8() + '\n';
}

void handler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    State &s = state();
    QByteArray line;
    {
        std::lock_guard lock(s.mutex);
        if (rank(type) < rank(s.options.level) || isQtNoise(context.category, message))
            return;
        line = formatLocked(s.options, s.secrets, type, context.category, message, QDateTime::currentMSecsSinceEpoch());
        // One write per line, under the lock: lines from engine threads never interleave.
        std::fwrite(line.constData(), 1, static_cast<size_t>(line.size()), stderr);
        std::fflush(stderr);
    }
    if (type == QtFatalMsg)
        std::abort();
}

Q_LOGGING_CATEGORY(lcFrontEnd, "bullpen.cli", QtInfoMsg)

// Lines written to it go to stderr as they are, or, with JSON installed, through the log handler.
class StderrDevice final : public QIODevice
{
public:
    StderrDevice() { open(QIODevice::WriteOnly | QIODevice::Unbuffered); }

protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *data, qint64 size) override
    {
        bool json = false;
        QString prefix;
        {
            std::lock_guard lock(state().mutex);
            json = state().installed && state().options.format == Format::Json;
            prefix = state().options.program + QStringLiteral(": ");
        }
        if (!json) {
            std::fwrite(data, 1, static_cast<size_t>(size), stderr);
            std::fflush(stderr);
            return size;
        }
        m_pending.append(data, size);
        for (qsizetype end = m_pending.indexOf('\n'); end >= 0; end = m_pending.indexOf('\n')) {
            QString line = QString::fromUtf8(m_pending.left(end));
            m_pending.remove(0, end + 1);
            if (line.startsWith(prefix))
                line.remove(0, prefix.size());
            if (line.trimmed().isEmpty())
                continue;
            if (line.startsWith(u"warning: "))
                qCWarning(lcFrontEnd).noquote() << line.mid(9);
            else
                qCInfo(lcFrontEnd).noquote() << line;
        }
        return size;
    }

private:
    QByteArray m_pending;
};

} // namespace

QIODevice *stderrDevice()
{
    static StderrDevice device;
    return &device;
}

std::optional<Format> parseFormat(const QString &text, QString *error)
{
    if (text == u"json")
        return Format::Json;
    if (text == u"text")
        return Format::Text;
    *error = QStringLiteral("--log-format %1: text or json").arg(text);
    return std::nullopt;
}

std::optional<QtMsgType> parseLevel(const QString &text, QString *error)
{
    for (QtMsgType t : { QtDebugMsg, QtInfoMsg, QtWarningMsg, QtCriticalMsg }) {
        if (text == QLatin1StringView(levelName(t)))
            return t;
    }
    *error = QStringLiteral("--log-level %1: debug, info, warning or error").arg(text);
    return std::nullopt;
}

bool takeArguments(QStringList *arguments, Options *options, QString *error)
{
    bool ok = true;
    for (qsizetype i = 1; i < arguments->size();) {
        const QString a = arguments->at(i);
        const bool format = a == u"--log-format" || a.startsWith(u"--log-format=");
        if (!format && a != u"--log-level" && !a.startsWith(u"--log-level=")) {
            ++i;
            continue;
        }
        QString value;
        if (const qsizetype eq = a.indexOf(QLatin1Char('=')); eq > 0) {
            value = a.mid(eq + 1);
            arguments->removeAt(i);
        } else {
            value = arguments->value(i + 1);
            arguments->remove(i, std::min<qsizetype>(2, arguments->size() - i));
        }
        if (format) {
            if (const auto f = parseFormat(value, error))
                options->format = *f;
            else
                ok = false;
        } else if (const auto l = parseLevel(value, error)) {
            options->level = *l;
        } else {
            ok = false;
        }
    }
    return ok;
}

void install(const Options &options)
{
    State &s = state();
    {
        std::lock_guard lock(s.mutex);
        s.options = options;
        s.installed = true;
    }
    // Bullpen's own debug lines are off unless asked for.
    QLoggingCategory::setFilterRules(options.level == QtDebugMsg ? QStringLiteral("bullpen.*.debug=true")
                                                                 : QStringLiteral("bullpen.*.debug=false"));
    qInstallMessageHandler(handler);
}

void setInstance(const QString &instance)
{
    std::lock_guard lock(state().mutex);
    state().options.instance = instance;
}

void addSecret(const QString &secret)
{
    if (secret.size() < 6)
        return;
    std::lock_guard lock(state().mutex);
    if (!state().secrets.contains(secret))
        state().secrets << secret;
}

void note(QtMsgType type, const QLoggingCategory &category, const QString &message, const QJsonObject &fields)
{
    if (!category.isEnabled(type))
        return;
    const QString text = fields.isEmpty()
        ? message
        : QChar(kFieldsMark) + QString::fromUtf8(QJsonDocument(fields).toJson(QJsonDocument::Compact)) + QChar(kFieldsMark) + message;
    QMessageLogger logger(nullptr, 0, nullptr, category.categoryName());
    switch (type) {
    case QtDebugMsg:
        logger.debug("%s", qUtf8Printable(text));
        break;
    case QtInfoMsg:
        logger.info("%s", qUtf8Printable(text));
        break;
    case QtWarningMsg:
        logger.warning("%s", qUtf8Printable(text));
        break;
    default:
        logger.critical("%s", qUtf8Printable(text));
        break;
    }
}

QByteArray format(QtMsgType type, const char *category, const QString &message, qint64 nowMs)
{
    std::lock_guard lock(state().mutex);
    return formatLocked(state().options, state().secrets, type, category, message, nowMs);
}

QString scrub(QString text)
{
    std::lock_guard lock(state().mutex);
    return SecretScrubber::scrub(text, state().secrets);
}

} // namespace bullpen::logging
