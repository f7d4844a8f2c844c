#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the `package` preset (the hardened release build without tests; BULLPEN_PACKAGE_PRESET=release
# packages from the release tree instead, as CI does) and the Debian packages from it: bullpen (console,
# CLI, simulator) and bullpen-engine (the service and its systemd unit), into build/<preset>/packages/. Runtime
# dependencies are computed by dpkg-shlibdeps. `scripts/package.sh --check` then unpacks both into a
# temporary root and runs each program's --version and --help from there, desktop-file-validate,
# systemd-analyze verify and lintian (docs/install.md).
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
[ "${1:-}" = "--check" ] && check=1

preset=${BULLPEN_PACKAGE_PRESET:-package}
log="build/package-$preset.log"
mkdir -p build
cmake --preset "$preset" >"$log" 2>&1 || { cat "$log"; exit 1; }
cmake --build --preset "$preset" --target bullpen bullpen-cli bullpen-engine bullpen-sim man_pages package_changelog >>"$log" 2>&1 || { tail -50 "$log"; exit 1; }
out="build/$preset/packages"
rm -rf "$out" && mkdir -p "$out"
(cd "build/$preset" && cpack -G DEB -B "$PWD/packages" >/dev/null)
rm -rf "$out/_CPack_Packages"
ls -1 "$out"/*.deb

[ "$check" = 1 ] || exit 0

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
for deb in "$out"/*.deb; do
    echo "== $(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version): Depends: $(dpkg-deb -f "$deb" Depends)"
    dpkg-deb -x "$deb" "$root"
done
export QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$root/run"
mkdir -m 700 -p "$XDG_RUNTIME_DIR"
for program in bullpen bullpen-cli bullpen-engine bullpen-sim; do
    "$root/usr/bin/$program" --version
    "$root/usr/bin/$program" --help >/dev/null
    zcat "$root/usr/share/man/man1/$program.1.gz" | grep -- "--help" > /dev/null || { echo "package: $program.1.gz lacks its --help" >&2; exit 1; }
done
desktop-file-validate "$root/usr/share/applications/bullpen.desktop"
# The unit names /usr/bin/bullpen-engine: verify it against the unpacked binary.
unit="$root/bullpen-engine.service"
sed "s|/usr/bin/bullpen-engine|$root/usr/bin/bullpen-engine|" "$root/lib/systemd/system/bullpen-engine.service" > "$unit"
# (--man=no: the man page it names is in the unpacked tree, checked above, not installed on this machine.)
systemd-analyze verify --man=no "$unit"
echo "== lintian"
lintian --tag-display-limit 0 --fail-on error,warning --suppress-tags-from-file scripts/lintian-explained.txt "$out"/*.deb
echo "package: both packages unpack, run, validate and pass lintian"
