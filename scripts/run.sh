#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's run command: install packages, build, and run one storyboard generation with
# bullpen-cli. With no provider key configured it runs on the built-in simulator over real HTTP.
# Arguments go to `bullpen-cli generate`; without any, a sample story meets an overloaded primary.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh >&2
cmake --preset dev >&2
cmake --build --preset dev --parallel "$(nproc)" --target bullpen-cli bullpen-sim >&2

if [ $# -eq 0 ]; then
    set -- --story '하루는 아침마다 같은 길로 학교에 간다. 오늘은 고양이 한 마리가 따라온다. "열쇠를 잊었어," 고양이가 말한다. 하루와 고양이는 함께 집으로 돌아간다.' \
           --scenario primary-overloaded
fi
exec ./build/dev/app/bullpen-cli generate "$@"
