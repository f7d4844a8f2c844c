#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The clients of tests/deploy/rolling-restart.sh, talking to the balancer over real loopback HTTP:
#   load  <host:port> <token> <min> <stop-file> <out.json>
#       POSTs generations from 8 threads, each naming its generation (generation_id) and sending one every
#       250 ms at most (about 30 a second: traffic, not a flood), until the stop file exists and at least
#       <min> were sent; then asks the balancer for every one that was not
#       answered 2xx (is it recorded?). Writes the tally; exits 1 when a request is lost.
#   flood <host:port> <count> <probes> <out.json>
#       Opens <count> connections that send half a request head and hold it, then, with all of them
#       open, times <probes> GET /readyz from other clients. Exits 1 when one is not answered 200 within
#       1 s (a balancer out of connections queues them for its request timeout, 10 s).
import http.client
import json
import os
import secrets
import socket
import sys
import threading
import time


def post_generation(host, port, token, gen_id):
    body = json.dumps({"story": "A cat finds a hat on a rolling restart.", "generation_id": gen_id,
                       "scenario": "healthy"})
    conn = http.client.HTTPConnection(host, port, timeout=30)
    try:
        conn.request("POST", "/v1/generations", body=body,
                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
        answer = conn.getresponse()
        text = answer.read().decode("utf-8", "replace")
        return answer.status, text[:300]
    except OSError as e:
        return 0, repr(e)
    finally:
        conn.close()


def get_status(host, port, token, path):
    conn = http.client.HTTPConnection(host, port, timeout=30)
    try:
        conn.request("GET", path, headers={"Authorization": "Bearer " + token})
        answer = conn.getresponse()
        answer.read()
        return answer.status
    except OSError:
        return 0
    finally:
        conn.close()


def load(address, token, minimum, stop_file, out):
    host, port = address.rsplit(":", 1)
    port = int(port)
    lock = threading.Lock()
    sent = []  # (generation id, status, body)

    def worker():
        while True:
            with lock:
                if len(sent) >= minimum and os.path.exists(stop_file):
                    return
            gen_id = "gen_" + secrets.token_hex(16)
            began = time.monotonic()
            status, text = post_generation(host, port, token, gen_id)
            with lock:
                sent.append((gen_id, status, text))
                with open(stop_file + ".sent.new", "w") as f:  # how many so far, for the restarts to pace themselves
                    f.write(str(len(sent)))
                os.replace(stop_file + ".sent.new", stop_file + ".sent")  # whole, never read half-written
            time.sleep(max(0.0, 0.25 - (time.monotonic() - began)))  # pacing, not waiting for a condition

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    not_2xx = [s for s in sent if not 200 <= s[1] < 300]
    # A request not answered 2xx is lost unless its generation is recorded anyway (asked through the
    # balancer: 200 final, 409 still running on some engine).
    lost = [s for s in not_2xx if get_status(host, port, token, "/v1/generations/" + s[0]) not in (200, 409)]
    # Every accepted generation ends in the history (the engines drain on SIGTERM): asked until final.
    deadline = time.monotonic() + 20
    unfinished = [s[0] for s in sent if 200 <= s[1] < 300]
    while unfinished and time.monotonic() < deadline:
        unfinished = [g for g in unfinished if get_status(host, port, token, "/v1/generations/" + g) != 200]
        if unfinished:
            time.sleep(0.2)
    tally = {"sent": len(sent), "answered_2xx": len(sent) - len(not_2xx),
             "not_2xx": [{"id": s[0], "status": s[1], "body": s[2]} for s in not_2xx],
             "lost": [s[0] for s in lost], "accepted_not_final": unfinished}
    with open(out, "w") as f:
        json.dump(tally, f, indent=1)
    print("lbclients load: %d sent, %d answered 2xx, %d not 2xx (%d of them recorded anyway), %d lost, "
          "%d accepted but not final" % (len(sent), tally["answered_2xx"], len(not_2xx), len(not_2xx) - len(lost),
                                         len(lost), len(unfinished)))
    for s in not_2xx[:10]:
        print("  not 2xx: %s %s %s" % (s[0], s[1], s[2]))
    return 0 if not lost and not unfinished and len(sent) >= minimum else 1


def flood(address, count, probes, out):
    host, port = address.rsplit(":", 1)
    port = int(port)
    held = []
    t0 = time.monotonic()
    for _ in range(count):
        s = socket.create_connection((host, int(port)), timeout=10)
        s.sendall(b"POST /v1/generations HTTP/1.1\r\nHost: bullpen\r\nContent-Type: application/json\r\n")
        held.append(s)
    opened_s = time.monotonic() - t0
    latencies = []
    failures = []
    for _ in range(probes):
        start = time.monotonic()
        try:
            conn = http.client.HTTPConnection(host, port, timeout=15)
            conn.request("GET", "/readyz")
            answer = conn.getresponse()
            answer.read()
            conn.close()
            status = answer.status
        except OSError as e:
            status = repr(e)
        latencies.append((time.monotonic() - start) * 1000)
        if status != 200 or latencies[-1] > 1000:
            failures.append("%s after %.0f ms" % (status, latencies[-1]))
    still_open = 0
    for s in held:  # how many the balancer still holds (it may have timed some out)
        try:
            s.setblocking(False)
            still_open += 1 if s.recv(1) is None else 0
        except BlockingIOError:
            still_open += 1
        except OSError:
            pass
        s.close()
    latencies.sort()
    figures = {"half_sent": count, "opened_in_s": round(opened_s, 2), "held_at_probe_end": still_open,
               "probes": probes, "failed": failures, "p50_ms": round(latencies[len(latencies) // 2], 1),
               "p99_ms": round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], 1),
               "max_ms": round(latencies[-1], 1)}
    with open(out, "w") as f:
        json.dump(figures, f, indent=1)
    print("lbclients flood: %d half-sent connections opened in %.2f s (%d still held after the probes); "
          "%d GET /readyz from other clients: %d failed, p50 %.1f ms, p99 %.1f ms, max %.1f ms"
          % (count, opened_s, still_open, probes, len(failures), figures["p50_ms"], figures["p99_ms"],
             figures["max_ms"]))
    return 0 if not failures and still_open == count else 1


if __name__ == "__main__":
    if len(sys.argv) == 7 and sys.argv[1] == "load":
        sys.exit(load(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6]))
    if len(sys.argv) == 6 and sys.argv[1] == "flood":
        sys.exit(flood(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]))
    sys.exit("usage: lbclients.py load <host:port> <token> <min> <stop-file> <out.json> | "
             "flood <host:port> <count> <probes> <out.json>")
