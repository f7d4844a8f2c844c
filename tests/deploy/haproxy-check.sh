#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CTest entry tst_haproxy_config: the shipped balancer configuration (deploy/haproxy/bullpen.cfg) is
# valid HAProxy with sample addresses, is refused without them (nothing is guessed), keeps the settings
# docs/operations.md promises, and is the one scripts/cluster-soak.sh runs. haproxy comes from Debian's
# haproxy package (scripts/install-deps.sh); without it this fails: it is never skipped.
set -euo pipefail
root="${1:?usage: haproxy-check.sh <source dir>}"
cfg="$root/deploy/haproxy/bullpen.cfg"
command -v haproxy > /dev/null || { echo "FAIL tst_haproxy_config: haproxy is not installed (apt-get install haproxy)"; exit 1; }
fail() { echo "FAIL tst_haproxy_config: $*"; exit 1; }

env BULLPEN_LB_BIND=127.0.0.1:18700 BULLPEN_ENGINE_0=127.0.0.1:18701 BULLPEN_ENGINE_1=127.0.0.1:18702 \
    BULLPEN_ENGINE_2=127.0.0.1:18703 haproxy -c -f "$cfg" || fail "haproxy -c refused $cfg with sample addresses"
env BULLPEN_LB_BIND=127.0.0.1:18700 BULLPEN_ENGINE_0=127.0.0.1:18701 BULLPEN_ENGINE_1=127.0.0.1:18702 \
    BULLPEN_ENGINE_2=127.0.0.1:18703 BULLPEN_LB_CHECK_INTER=250ms BULLPEN_LB_CHECK_FALL=1 BULLPEN_ENGINE_MAXCONN=100 \
    haproxy -c -f "$cfg" || fail "haproxy -c refused $cfg with the cluster soak's values"
if env -u BULLPEN_LB_BIND -u BULLPEN_ENGINE_0 -u BULLPEN_ENGINE_1 -u BULLPEN_ENGINE_2 haproxy -c -f "$cfg" > /dev/null 2>&1; then
    fail "$cfg is accepted without its addresses"
fi

# What docs/operations.md says the balancer does, each as a directive of the file.
for directive in 'timeout http-request 10s' 'timeout client 60s' 'timeout server 60s' 'option forwardfor' \
    'option httpchk GET /readyz' 'http-check expect status 200' 'retry-on conn-failure empty-response 503' 'option redispatch' \
    'retries 2' 'option http-buffer-request' 'maxconn "${BULLPEN_ENGINE_MAXCONN-480}"'; do
    grep -qF -- "$directive" "$cfg" || fail "$cfg has no '$directive'"
done
grep -qF 'deploy/haproxy/bullpen.cfg' "$root/scripts/cluster-soak.sh" || fail "scripts/cluster-soak.sh does not run $cfg"
grep -q '<<CFG' "$root/scripts/cluster-soak.sh" && fail "scripts/cluster-soak.sh writes a configuration of its own"
echo "PASS tst_haproxy_config"
