# SPDX-License-Identifier: MIT
# Install rules (FHS places) and the Debian packages CPack makes from them (scripts/package.sh):
#   bullpen         the console, the CLI and the standalone simulator, the desktop entry and icon
#   bullpen-engine  the service and its systemd unit
# Translations and the simulator's scenarios are compiled into the programs; there are no data files.
include(GNUInstallDirs)
# Installing (and so CPack) builds nothing on its own: scripts/package.sh builds the programs, man pages
# and changelog first. In the release tree, which also holds the tests and benchmarks, "all" would
# otherwise be built whole just to package four programs.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

# Man pages from each program's --help, at build time (cmake/ManPage.cmake), so they cannot drift.
set(bullpen_man_pages)
function(bullpen_man_page target summary)
    set(out ${CMAKE_BINARY_DIR}/man/${target}.1.gz)
    add_custom_command(OUTPUT ${out}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
        COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${target}> -DNAME=${target} "-DSUMMARY=${summary}"
                -DVERSION=${PROJECT_VERSION} "-DSUBCOMMANDS=${ARGN}" -DOUTPUT=${out} -P ${PROJECT_SOURCE_DIR}/cmake/ManPage.cmake
        DEPENDS ${target} ${PROJECT_SOURCE_DIR}/cmake/ManPage.cmake
        COMMENT "Man page for ${target} from its --help"
        VERBATIM)
    set(bullpen_man_pages ${bullpen_man_pages} ${out} PARENT_SCOPE)
endfunction()
bullpen_man_page(bullpen "operator console for an AI generation engine with fallback providers")
bullpen_man_page(bullpen-cli "the Bullpen engine headless: generate, compare, history, export, purge, provider, soak, replay"
                 generate compare history export purge provider soak replay)
bullpen_man_page(bullpen-engine "the Bullpen generation engine as an HTTP service" token)
bullpen_man_page(bullpen-sim "simulator of the built-in providers' APIs for Bullpen, scripted by scenarios")
add_custom_target(man_pages ALL DEPENDS ${bullpen_man_pages})

install(TARGETS bullpen bullpen-cli bullpen-sim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT console)
install(FILES ${PROJECT_SOURCE_DIR}/resources/bullpen.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications COMPONENT console)
install(FILES ${PROJECT_SOURCE_DIR}/resources/bullpen.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps COMPONENT console)
install(FILES ${CMAKE_BINARY_DIR}/man/bullpen.1.gz ${CMAKE_BINARY_DIR}/man/bullpen-cli.1.gz ${CMAKE_BINARY_DIR}/man/bullpen-sim.1.gz
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT console)

install(TARGETS bullpen-engine RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT engine)
install(FILES ${CMAKE_BINARY_DIR}/man/bullpen-engine.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT engine)
# Debian 12 keeps units in /lib/systemd/system and defaults in /etc/default, whatever the prefix.
install(FILES ${PROJECT_SOURCE_DIR}/resources/packaging/bullpen-engine.service DESTINATION /lib/systemd/system COMPONENT engine)
# Prometheus alerting rules and their unit tests, for the operator's Prometheus (docs/operations.md).
install(FILES ${PROJECT_SOURCE_DIR}/resources/monitoring/bullpen-alerts.yml ${PROJECT_SOURCE_DIR}/resources/monitoring/bullpen-alerts.test.yml
              ${PROJECT_SOURCE_DIR}/resources/monitoring/bullpen-outage.test.yml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bullpen-engine/monitoring COMPONENT engine)
install(FILES ${PROJECT_SOURCE_DIR}/resources/packaging/bullpen-engine.default DESTINATION /etc/default RENAME bullpen-engine COMPONENT engine)
# Each package's copyright file and changelog (Debian policy 12.5 and 12.7; a native package).
set(bullpen_changelog ${CMAKE_BINARY_DIR}/changelog.gz)
add_custom_command(OUTPUT ${bullpen_changelog}
    COMMAND gzip -9nc ${PROJECT_SOURCE_DIR}/resources/packaging/changelog > ${bullpen_changelog}
    DEPENDS ${PROJECT_SOURCE_DIR}/resources/packaging/changelog VERBATIM)
add_custom_target(package_changelog ALL DEPENDS ${bullpen_changelog})
foreach(package IN ITEMS bullpen bullpen-engine)
    if(package STREQUAL "bullpen")
        set(component console)
    else()
        set(component engine)
    endif()
    install(FILES ${PROJECT_SOURCE_DIR}/resources/packaging/copyright ${bullpen_changelog}
            DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${package} COMPONENT ${component})
endforeach()

set(CPACK_PACKAGE_NAME bullpen)
set(CPACK_PACKAGE_VENDOR "Bullpen")
# No public maintainer address yet: set BULLPEN_PACKAGE_MAINTAINER when publishing (lintian's
# bogus-mail-host is explained in scripts/lintian-explained.txt until then).
set(BULLPEN_PACKAGE_MAINTAINER "Bullpen maintainers <bullpen@localhost>" CACHE STRING "Maintainer field of the Debian packages")
set(CPACK_PACKAGE_CONTACT "${BULLPEN_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING IGNORE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON) # runtime dependencies computed by dpkg-shlibdeps, not hand-listed
set(CPACK_STRIP_FILES ON) # release binaries without their symbols (lintian: unstripped-binary-or-object)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_CONSOLE_PACKAGE_NAME bullpen)
set(CPACK_DEBIAN_ENGINE_PACKAGE_NAME bullpen-engine)
# What dpkg-shlibdeps cannot see, because no binary links it: Qt's plugins. The store needs the SQLite
# driver, the console a platform plugin; PostgreSQL (a shared store) and the Korean font are optional.
set(CPACK_DEBIAN_CONSOLE_PACKAGE_DEPENDS "libqt6sql6-sqlite, qt6-qpa-plugins")
set(CPACK_DEBIAN_CONSOLE_PACKAGE_RECOMMENDS "fonts-noto-cjk, libqt6sql6-psql")
set(CPACK_DEBIAN_ENGINE_PACKAGE_DEPENDS "libqt6sql6-sqlite")
set(CPACK_DEBIAN_ENGINE_PACKAGE_RECOMMENDS "libqt6sql6-psql")
# Synopsis, then the extended description (lines under 80 columns, Debian policy 3.4).
set(CPACK_DEBIAN_CONSOLE_DESCRIPTION "operator console for an AI generation engine with fallback
 Bullpen turns a story into a four-panel storyboard and a comic through AI
 providers, and shows what happens when they fail: every attempt on a
 timeline, every fallback and why, failure history with masked user ids,
 latency charts and provider health. Includes bullpen-cli and bullpen-sim.")
set(CPACK_DEBIAN_ENGINE_DESCRIPTION "Bullpen generation engine as an HTTP service
 bullpen-engine runs Bullpen's engine (one budget across primary and
 fallback, cancelled timeouts, no hidden retries) behind an HTTP API with
 bearer tokens, an event stream and metrics, with a hardened systemd unit
 that takes its secrets as credentials.")
set(CPACK_COMPONENT_CONSOLE_DESCRIPTION "${CPACK_DEBIAN_CONSOLE_DESCRIPTION}")
set(CPACK_COMPONENT_ENGINE_DESCRIPTION "${CPACK_DEBIAN_ENGINE_DESCRIPTION}")
set(CPACK_DEBIAN_ENGINE_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/resources/packaging/postinst
                                              ${PROJECT_SOURCE_DIR}/resources/packaging/conffiles)
set(CPACK_DEBIAN_ENGINE_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
