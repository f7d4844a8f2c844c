#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes resources/monitoring/bullpen-outage.test.yml: a promtool unit test of the shipped alerting rules
# on a primary that hangs for 30 minutes, with the /metrics series an engine would export meanwhile.
#
#     python3 tests/alerts/outage_series.py > resources/monitoring/bullpen-outage.test.yml
#
# tst_alert_rules (tests/alerts/run.sh) fails when the committed file is not this script's output.
#
# The series are not drawn by hand: they come from a small simulation of one engine's storyboard stage,
# second by second, with the breaker as core/engine/breakerboard.cpp keeps it and its default settings
# (docs/configuration.md; docs/contract.md §13):
# - CLOSED -> OPEN when, in the last 60 s (kept in 60 one-second slices), at least 5 attempts reached the
#   provider and at least 50 % of them failed by its fault, or when the last 5 did, in a row;
# - OPEN for the cooldown (30 s, doubled each time its trial fails, at most 5 min); the first request
#   after that makes it HALF_OPEN and is its one trial; a trial that fails opens it again, one that
#   succeeds closes it. A failed trial's cooldown counts from when the trial was sent, so a trial that
#   hangs until its timeout does not add that timeout to the wait: the provider is tried once per
#   cooldown. OPEN -> HALF_OPEN happens only when a request asks (BreakerBoard::admit), so the gauge
#   says OPEN until then. The engine draws each wait up to 10 % shorter than the cooldown at random
#   (engines sharing a store do not half-open in lockstep); this series takes the longest wait, the cooldown;
# - an attempt that completes while the breaker is OPEN, or HALF_OPEN and is not the trial, is not
#   counted by the breaker (it started before the breaker opened), but /metrics counts it;
# - while OPEN, or HALF_OPEN with its trial out, the stage goes to its fallback at once
#   (bullpen_primary_skipped_total{state="open"|"half_open"}: not an attempt, not a fallback);
# - a primary attempt that times out (60 s) hands the stage to the fallback with the 60 s of its
#   120 s budget left (bullpen_fallbacks_total{kind="TIMEOUT"}).
# The traffic: one storyboard generation every 5 s, gemini (primary) answers in 6 s, qwen (fallback) in
# 8 s. gemini hangs from minute 10 to minute 40 of the series: a request sent to it in that half hour gets
# no answer and times out after 60 s, even when the 60 s end after minute 40 (a request sent before
# minute 10 is answered). Prometheus scrapes every 15 s; a labelled series appears at the first scrape
# after its first count, as the engine's /metrics writes it. Probes are off (their default).
#

import heapq
import sys

# The breaker's defaults and the storyboard stage's timeouts.
WINDOW = 60
SLICE = WINDOW / 60
MIN_ATTEMPTS = 5
FAILURE_RATIO = 0.5
COOLDOWN = 30
MAX_COOLDOWN = 300
PRIMARY_TIMEOUT = 60
BUDGET = 120  # primary + fallback timeout

# The traffic and the outage, in seconds of the series.
EVERY = 5
PRIMARY_ANSWERS = 6
FALLBACK_ANSWERS = 8
OUTAGE_START = 10 * 60
OUTAGE_END = OUTAGE_START + 30 * 60
END = OUTAGE_END + 15 * 60
SCRAPE = 15

CLOSED, HALF_OPEN, OPEN = 0, 1, 2  # bullpen_breaker_state's values
STATE_ID = {OPEN: "open", HALF_OPEN: "half_open"}


class Breaker:
    """BreakerBoard's breaker for one provider, role and stage."""

    def __init__(self):
        self.state = CLOSED
        self.changed_at = 0
        self.cooldown = 0
        self.trial_out = False
        self.trial_sent = 0
        self.slices = []  # [start, attempts, failures]
        self.in_a_row = []
        self.opened = 0
        self.exists = False  # the gauge has a series once the breaker has recorded an attempt
        self.changes = []  # (time, what)

    def admit(self, now):
        """'pass', 'trial' or 'skip' (BreakerBoard::gateLocked with take = true)."""
        if self.state == CLOSED:
            return "pass"
        if self.state == OPEN and now >= self.changed_at + self.cooldown:
            self.state = HALF_OPEN
            self.changed_at = now
            self.changes.append((now, "half-open: this request is the trial"))
        if self.state == HALF_OPEN and not self.trial_out:
            self.trial_out = True
            self.trial_sent = now
            return "trial"
        return "skip"

    def open(self, now, cooldown, why, wait_from=None):
        self.state = OPEN
        self.changed_at = now if wait_from is None else wait_from  # OPEN until changed_at + cooldown
        self.cooldown = min(cooldown, MAX_COOLDOWN)
        self.trial_out = False
        self.slices = []
        self.opened += 1
        self.changes.append((now, f"OPEN for {self.cooldown} s from {outage_clock(self.changed_at)} ({why})"))

    def record(self, now, failed, trial):
        """BreakerBoard::record for an attempt that succeeded or failed by the provider's fault."""
        self.exists = True
        if self.state == HALF_OPEN and trial:
            self.trial_out = False
            if not failed:
                self.state = CLOSED
                self.changed_at = now
                self.cooldown = 0
                self.slices = []
                self.changes.append((now, "CLOSED: the trial succeeded"))
            else:
                self.open(now, self.cooldown * 2, "the trial timed out", wait_from=self.trial_sent)
            return
        if self.state != CLOSED:
            return
        while self.slices and self.slices[0][0] + SLICE <= now - WINDOW:
            self.slices.pop(0)
        if not self.slices or self.slices[-1][0] + SLICE <= now:
            self.slices.append([now, 0, 0])
        self.slices[-1][1] += 1
        if failed:
            self.slices[-1][2] += 1
            self.in_a_row.append(now)
            while self.in_a_row[0] < now - WINDOW or len(self.in_a_row) > MIN_ATTEMPTS:
                self.in_a_row.pop(0)
        else:
            self.in_a_row = []
        attempts = sum(s[1] for s in self.slices)
        failures = sum(s[2] for s in self.slices)
        by_ratio = attempts >= MIN_ATTEMPTS and failures > 0 and failures >= FAILURE_RATIO * attempts
        in_a_row = len(self.in_a_row) >= MIN_ATTEMPTS
        if by_ratio or in_a_row:
            self.in_a_row = []
            if by_ratio:
                why = f"{failures} of {attempts} failed in {WINDOW} s"
            else:
                why = f"{MIN_ATTEMPTS} failed in a row"
            self.open(now, COOLDOWN, why)


def labels(**kv):
    return "{" + ",".join(f'{k}="{v}"' for k, v in kv.items()) + "}"


ENGINE = dict(job="bullpen", instance="a")
STAGE = dict(stage="storyboard")


def simulate():
    primary, fallback = Breaker(), Breaker()
    counters = {}  # series -> count
    samples = {}  # series -> [value or None per scrape]
    # (time, order, seq, what, data): at one time, completions (0) before arrivals (1) before the scrape (2)
    events = []
    seq = 0

    def at(t, order, what, data=None):
        nonlocal seq
        heapq.heappush(events, (t, order, seq, what, data))
        seq += 1

    def count(name, **kv):
        key = name + labels(**kv, **ENGINE)
        counters[key] = counters.get(key, 0) + 1

    def attempt(provider, role, result):
        count("bullpen_attempts_total", provider=provider, role=role, **STAGE, result=result)

    for t in range(0, END + 1, EVERY):
        at(t, 1, "request")
    for t in range(0, END + 1, SCRAPE):
        at(t, 2, "scrape")
    counters["bullpen_generations_started_total" + labels(**ENGINE)] = 0
    scrapes = 0
    while events:
        t, _, _, what, data = heapq.heappop(events)
        if what == "request":
            count("bullpen_generations_started_total")
            gate = primary.admit(t)
            if gate != "skip":
                hangs = OUTAGE_START <= t < OUTAGE_END
                done = t + (PRIMARY_TIMEOUT if hangs else PRIMARY_ANSWERS)
                at(done, 0, "primary done", (hangs, gate == "trial"))
            else:
                fallback.admit(t)  # CLOSED throughout: qwen answers
                state = STATE_ID[primary.state]
                count("bullpen_primary_skipped_total", **STAGE, **{"from": "gemini"}, to="qwen", state=state)
                at(t + FALLBACK_ANSWERS, 0, "fallback done")
        elif what == "primary done":
            hangs, trial = data
            attempt("gemini", "primary", "TIMEOUT" if hangs else "success")
            primary.record(t, hangs, trial)
            if hangs:
                assert PRIMARY_TIMEOUT < BUDGET  # the budget has room for the fallback
                count("bullpen_fallbacks_total", **STAGE, **{"from": "gemini"}, to="qwen", kind="TIMEOUT")
                fallback.admit(t)
                at(t + FALLBACK_ANSWERS, 0, "fallback done")
        elif what == "fallback done":
            attempt("qwen", "fallback", "success")
            fallback.record(t, False, False)
        else:
            gauges = {"up" + labels(**ENGINE): 1, "bullpen_build_info" + labels(**ENGINE, version="1.0.0"): 1}
            for provider, role, b in (("gemini", "primary", primary), ("qwen", "fallback", fallback)):
                if b.exists:
                    key = labels(provider=provider, role=role, **STAGE, **ENGINE)
                    gauges["bullpen_breaker_state" + key] = b.state
                    gauges["bullpen_breaker_opened_total" + key] = b.opened
            for key, v in list(counters.items()) + list(gauges.items()):
                samples.setdefault(key, [None] * scrapes).append(v)
            scrapes += 1
            for series in samples.values():
                if len(series) < scrapes:
                    series.append(None)
    return samples, primary


def encode(values):
    """promtool's expanding notation: 'a+bxn' is a, a+b, ..., a+n*b; '_xn' is n missing samples."""
    out, i = [], 0
    while i < len(values):
        if values[i] is None:
            j = i
            while j < len(values) and values[j] is None:
                j += 1
            out.append("_" if j - i == 1 else f"_x{j - i}")
            i = j
            continue
        j = i + 1
        if j < len(values) and values[j] is not None:
            step = values[j] - values[i]
            while j + 1 < len(values) and values[j + 1] is not None and values[j + 1] - values[j] == step:
                j += 1
            if j - i >= 2:
                sign = "" if step == 0 else f"+{step}" if step > 0 else f"-{-step}"
                out.append(f"{values[i]}{sign}x{j - i}")
                i = j + 1
                continue
        out.append(str(values[i]))
        i += 1
    return " ".join(out)


def decode(text):
    values = []
    for token in text.split():
        if token.startswith("_x"):
            values += [None] * int(token[2:])
        elif token == "_":
            values.append(None)
        elif "x" in token:
            head, n = token.split("x")
            if "+" in head[1:] or "-" in head[1:]:
                sign = "+" if "+" in head[1:] else "-"
                a, b = head.rsplit(sign, 1)
                b = int(b) if sign == "+" else -int(b)
            else:
                a, b = head, 0
            values += [int(a) + k * b for k in range(int(n) + 1)]
        else:
            values.append(int(token))
    return values


def clock(seconds):
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds % 60 else f"{seconds // 60}m"


def outage_clock(t):
    return f"{(t - OUTAGE_START) // 60}:{(t - OUTAGE_START) % 60:02d}"


RUNBOOK = "docs/operations.md#"
FAILING_NOW = {
    "summary": "gemini (primary, storyboard) is failing now",
    "description": "Half or more of its attempts failed over 5 minutes, or its breaker has not closed for a minute: "
    "its stages go to their fallback. Open the console's health card for the failure kinds and the breaker; "
    "drain it (bullpen-cli provider drain) if it stays down.",
    "runbook_url": RUNBOOK + "bullpenproviderfailingnow",
}
BREAKER_OPEN = {
    "summary": "The breaker of gemini (primary, storyboard) has not closed for 10 minutes",
    "description": "Open or half-open, its stages go straight to their fallback. Check the provider's status page; "
    "GET /v1/providers says why it opened.",
    "runbook_url": RUNBOOK + "bullpenbreakeropen",
}
ALERT_LABELS = "{severity: %s, provider: gemini, role: primary, stage: storyboard}"


def alert_test(out, t, name, firing, annotations, severity, why):
    out.append(f"      # {why}")
    out.append(f"      - eval_time: {clock(t)}")
    out.append(f"        alertname: {name}")
    if not firing:
        out.append("        exp_alerts: []")
        return
    out.append("        exp_alerts:")
    out.append(f"          - exp_labels: {ALERT_LABELS % severity}")
    out.append("            exp_annotations:")
    for k, v in annotations.items():
        out.append(f'              {k}: "{v}"')


def main():
    samples, primary = simulate()
    state_key = next(k for k in samples if k.startswith("bullpen_breaker_state") and 'provider="gemini"' in k)
    state = samples[state_key]

    def state_at(t):
        assert t % SCRAPE == 0
        return state[t // SCRAPE]

    opened = primary.changes[0][0]
    closed_again = next(t for t, what in primary.changes if what.startswith("CLOSED"))
    # (since, until) of each half-open spell
    half_open = [(t, next(u for u, _ in primary.changes if u > t)) for t, w in primary.changes if w.startswith("half")]

    out = [
        "# SPDX-License-Identifier: MIT",
        "# Written by tests/alerts/outage_series.py (the series come from a simulation of the breaker's real",
        "# cycle; the script says how): change the script, never this file, and run",
        "#   python3 tests/alerts/outage_series.py > resources/monitoring/bullpen-outage.test.yml",
        "# promtool test rules bullpen-outage.test.yml: gemini, the storyboard primary, hangs for 30 minutes",
        f"# (minutes {OUTAGE_START // 60} to {OUTAGE_END // 60} of the series); one generation every {EVERY} s;",
        "# the breaker's defaults (docs/operations.md, \"Alerts\"). What the breaker did (outage time m:ss):",
    ]
    for t, what in primary.changes:
        out.append(f"#   {outage_clock(t):>6}  {what}")
    out += [
        "# Once the breaker is open, the only attempts that reach gemini are its trials, one every few",
        "# minutes: a failure ratio over attempts goes quiet while the outage goes on. The breaker's state",
        f"# does not. The outage ends at 30:00, {OUTAGE_END - half_open[-2][0]} s after the trial of "
        f"{outage_clock(half_open[-2][0])} was sent: that trial",
        f"# hangs too, and the next one, at {outage_clock(half_open[-1][0])}, is the first request that can",
        "# tell that gemini answers again.",
        "rule_files:",
        "  - bullpen-alerts.yml",
        "evaluation_interval: 1m",
        "tests:",
        "  - name: a primary hanging for 30 minutes under the breaker's real cycle",
        f"    interval: {SCRAPE}s",
        "    input_series:",
    ]
    for key in sorted(samples):
        text = encode(samples[key])
        assert decode(text) == samples[key], key
        out.append(f"      - series: '{key}'")
        out.append(f"        values: '{text}'")
    out.append("    alert_rule_test:")

    def minute(m):
        return OUTAGE_START + m * 60

    # The critical alert: from minute 3 of the outage while the breaker is open or half-open, and over
    # at the first evaluation after the breaker closes.
    checks = [
        (5 * 60, False, "5 minutes before the outage"),
        (minute(0), False, "the outage begins"),
        (minute(3), True, f"minute 3 of the outage: the breaker opened at {outage_clock(opened)}, not closed since"),
    ]
    for t, until in half_open:
        t_eval = (t // 60 + 1) * 60  # the first evaluation after the breaker turned half-open
        if t_eval < until and t_eval > minute(3) and t_eval < closed_again:
            assert state_at(t_eval) == HALF_OPEN, (t_eval, state_at(t_eval))
            checks.append((t_eval, True, f"half-open ({outage_clock(t)} to {outage_clock(until)}): the trial hangs"))
    for m in (10, 20, 29):
        assert state_at(minute(m)) != CLOSED
        checks.append((minute(m), True, f"minute {m} of the outage"))
    # The outage ends at 30:00 while a trial sent before it hangs; the next trial goes a cooldown after
    # that one was sent and is answered: the breaker closes, and the alert is over at the next evaluation.
    first_after = (closed_again // 60 + 1) * 60
    assert state_at(first_after) == CLOSED
    assert first_after <= minute(35), f"the alert resolves at {outage_clock(first_after)}, more than 5 minutes after the outage"
    last_firing = first_after - 60
    assert state_at(last_firing) != CLOSED
    checks.append(
        (last_firing, True, f"the breaker still open after the outage, its next trial at {outage_clock(half_open[-1][0])}"
         " (nothing yet tells this from an outage that goes on)")
    )
    checks.append((first_after, False, f"the first evaluation after the breaker closed ({outage_clock(closed_again)}):"
                   " within 5 minutes of the outage's end"))
    checks.append((minute(40), False, "10 minutes after the outage"))
    for t, firing, why in sorted(checks):
        alert_test(out, t, "BullpenProviderFailingNow", firing, FAILING_NOW, "critical", why)

    # The breaker not closed for 10 minutes, across its half-open trials: from the first evaluation
    # (one a minute) after those 10 minutes.
    first_firing = -(-(opened + 10 * 60) // 60) * 60
    trials = sum(opened < since < first_firing for since, _ in half_open)
    for t, firing, why in (
        (first_firing - 60, False, f"not closed since {outage_clock(opened)}: not yet 10 minutes"),
        (first_firing, True, f"10 minutes not closed, through {trials} half-open trials"),
        (last_firing, True, "still open after the outage"),
        (first_after, False, "the breaker closed"),
    ):
        alert_test(out, t, "BullpenBreakerOpen", firing, BREAKER_OPEN, "warning", why)
    for name in ("BullpenEngineDown", "BullpenEngineAbsent"):
        alert_test(out, minute(20), name, False, {}, "critical", "the engine answers throughout")

    # The series are what promtool reads: a few of them at a few times, straight from the simulation.
    out.append("    promql_expr_test:")
    for t in (minute(1) + 15, minute(1) + 30, minute(4), first_after - 15, first_after):
        out += [
            f"      - expr: bullpen_breaker_state{{provider=\"gemini\"}}",
            f"        eval_time: {clock(t)}",
            "        exp_samples:",
            f"          - labels: '{state_key}'",
            f"            value: {state_at(t)}",
        ]
    for key in sorted(k for k in samples if "_total" in k and "gemini" in k):
        t = minute(35)
        out += [
            f"      - expr: '{key}'",
            f"        eval_time: {clock(t)}",
            "        exp_samples:",
            f"          - labels: '{key}'",
            f"            value: {samples[key][t // SCRAPE]}",
        ]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
