#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The shipped console carries no screenshot tour (docs/architecture.md, "Where each part is"): `bullpen`
# defines no bullpen::tour:: and no HistoryFiller symbol and offers no --screenshots; `bullpen-tour` is
# the program that shoots the pictures. ctest runs it as tst_tour_apart.
#   bash scripts/tour-apart.sh BULLPEN BULLPEN_TOUR
set -euo pipefail
console=$1
tour=$2
command -v nm > /dev/null || { echo "FAIL tst_tour_apart: nm is missing (Debian package binutils)" >&2; exit 1; }
export QT_QPA_PLATFORM=offscreen
status=0
carried=$(nm -C --defined-only "$console" | grep -E 'bullpen::tour::|bullpen::HistoryFiller' || true)
if [ -n "$carried" ]; then
    echo "FAIL tst_tour_apart: $console carries tour or synthetic-history code; link it only into bullpen-tour:" >&2
    echo "$carried" | sed 5q >&2
    status=1
fi
# grep -c reads to the end: grep -q would close the pipe early and fail it under pipefail.
if [ "$("$console" --help | grep -c -- '--screenshots')" != 0 ]; then
    echo "FAIL tst_tour_apart: bullpen --help still offers --screenshots; the tour is bullpen-tour DIR" >&2
    status=1
fi
[ "$(nm -C --defined-only "$tour" | grep -c 'bullpen::tour::run')" != 0 ] || { echo "FAIL tst_tour_apart: $tour lacks the tour" >&2; status=1; }
[ "$("$tour" --help | grep -c 'DIR')" != 0 ] || { echo "FAIL tst_tour_apart: bullpen-tour --help names no DIR" >&2; status=1; }
if "$tour" > /dev/null 2>&1; then
    echo "FAIL tst_tour_apart: bullpen-tour with no folder did not refuse" >&2
    status=1
fi
[ "$status" = 0 ] && echo "tst_tour_apart: bullpen carries no tour; bullpen-tour does"
exit "$status"
