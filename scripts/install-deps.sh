#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 / Ubuntu 24.04 packages Bullpen needs to build, test and run (clang and its
# runtime only for the libFuzzer targets, scripts/fuzz.sh; the PostgreSQL server only for the tests
# that run the store on PostgreSQL, ctest label `postgres`, and scripts/cluster-soak.sh, with curl;
# desktop-file-utils and lintian only for scripts/package.sh --check; gnome-keyring and dbus-daemon
# only for tst_keychain's private Secret Service; systemd and python3 for scripts/systemd-check.sh;
# prometheus for promtool (tst_alert_rules, tst_engineservice's /metrics check); haproxy for the
# cluster soak's load balancer (scripts/cluster-soak.sh);
# nodejs and npm for tst_sdk (the official provider SDKs) and tst_noresend's HTTP/2 provider;
# libssl-dev and libsqlite3-dev are optional: OpenSSL's SHA-256 for comic digests, else Qt's; SQLite lock
# waits in 1 ms steps, else SQLite's own busy timeout).
# Uses sudo when not root. Safe to run again: apt-get skips what is already installed.
set -euo pipefail

packages=(
    build-essential cmake ninja-build pkg-config
    qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev
    qt6-charts-dev qt6-httpserver-dev qt6-websockets-dev
    qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    libqt6sql6-sqlite libqt6sql6-psql postgresql curl
    fonts-noto-cjk qt6-translations-l10n
    clang libclang-rt-dev clang-format
    desktop-file-utils lintian
    qtkeychain-qt6-dev gnome-keyring dbus-daemon
    systemd python3
    libssl-dev libsqlite3-dev
    prometheus haproxy
)
# Node.js and npm, unless a Node.js with its own npm is there already (NodeSource's nodejs bundles npm
# and conflicts with Debian's npm package).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    packages+=(nodejs npm)
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "install-deps: not root and no sudo; install: ${packages[*]}" >&2; exit 1; }
    sudo_cmd=(sudo)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages present"
    exit 0
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update
"${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
