# SPDX-License-Identifier: MIT
# The sanitizers' run-time options for every program of the dev build (AddressSanitizer and
# UndefinedBehaviorSanitizer, CMakePresets.json): sourced by scripts/test.sh, scripts/harden.sh and
# scripts/monkey.sh, so ctest, the soaks and the monkey judge alike. Options already set are appended
# after these, so they add to them and win where they name the same option.
#   source scripts/sanitizer-options.sh
_bullpen_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Leaks are reported (and fail the run); a report aborts at once; a stack use after return is caught.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}
# Empty: no leak is suppressed (the file says so).
export LSAN_OPTIONS=suppressions=$_bullpen_root/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}
unset _bullpen_root
