# SPDX-License-Identifier: MIT
# Target-scoped build settings shared by every Bullpen target (no directory-wide flags).

function(bullpen_target_defaults target)
    target_compile_features(${target} PUBLIC cxx_std_20)
    target_compile_definitions(${target} PRIVATE
        QT_NO_CAST_FROM_ASCII
        QT_NO_CAST_TO_ASCII
        QT_NO_URL_CAST_FROM_STRING
        QT_NO_FOREACH
        QT_NO_KEYWORDS
        QT_USE_QSTRINGBUILDER
        QT_STRICT_ITERATORS
        BULLPEN_VERSION="${PROJECT_VERSION}") # every program's --version, from project(VERSION …)
    if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
        target_compile_options(${target} PRIVATE
            -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
            -Wcast-align -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough)
        if(BULLPEN_WARNINGS_AS_ERRORS)
            target_compile_options(${target} PRIVATE -Werror)
        endif()
        if(BULLPEN_FUZZ)
            target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                                                     -fno-sanitize-recover=undefined)
            target_link_options(${target} PRIVATE -fsanitize=address,undefined)
        endif()
        if(BULLPEN_SANITIZE)
            target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
                                                     -fno-sanitize-recover=undefined)
            target_link_options(${target} PRIVATE -fsanitize=address,undefined)
        endif()
        if(BULLPEN_TSAN)
            target_compile_options(${target} PRIVATE -fsanitize=thread -fno-omit-frame-pointer)
            target_link_options(${target} PRIVATE -fsanitize=thread)
        endif()
    endif()
endfunction()

# Precompiled headers for the libraries and programs of many files: the Qt and standard headers most of
# their files include, parsed once per target instead of once per file (about 1.5 s of a typical
# file's 2–6 s). CI builds the tree four times (dev with ASan and UBSan, tsan, fuzz, release), so this is much of what
# keeps `.ci/run` inside its hour (tests/README.md, "The whole run"). A header listed here must be one the
# target links; a file still includes what it uses (a build with CMAKE_DISABLE_PRECOMPILE_HEADERS=ON
# shows a missing one).
set(BULLPEN_PCH_CORE
    <QString> <QByteArray> <QList> <QHash> <QSet> <QMap> <QStringList> <QVariant> <QJsonObject> <QJsonArray>
    <QJsonDocument> <QJsonValue> <QDateTime> <QObject> <QTimer> <QPointer> <QUrl> <QUrlQuery> <QFile> <QDir>
    <QFileInfo> <QRegularExpression> <QElapsedTimer> <QLoggingCategory> <QCoreApplication> <QThread>
    <QSqlQuery> <QSqlDatabase> <QSqlError> <QNetworkReply> <QNetworkAccessManager> <QNetworkRequest>
    <QTcpSocket> <optional> <chrono> <map> <memory> <algorithm> <vector> <functional> <variant> <cmath>
    <mutex> <atomic>)
set(BULLPEN_PCH_SERVICE ${BULLPEN_PCH_CORE} <QHttpServer> <QHttpServerRequest> <QHttpServerResponse> <QTcpServer>)
set(BULLPEN_PCH_GUI ${BULLPEN_PCH_CORE}
    <QApplication> <QWidget> <QLabel> <QVBoxLayout> <QHBoxLayout> <QFormLayout> <QComboBox> <QPushButton>
    <QToolButton> <QLineEdit> <QCheckBox> <QAbstractTableModel> <QHeaderView> <QTableView> <QMenu>
    <QTabWidget> <QPainter> <QLocale> <QDialog> <QChart> <QChartView> <QValueAxis>)

# kind: CORE (Qt Core, Network, Sql), SERVICE (and HttpServer), GUI (and Widgets, Charts).
function(bullpen_precompile target kind)
    target_precompile_headers(${target} PRIVATE ${BULLPEN_PCH_${kind}})
endfunction()
