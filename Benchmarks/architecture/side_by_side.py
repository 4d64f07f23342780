#!/usr/bin/env python3
"""Two builds of `cinn serve` side by side, over the requests people make most: is a restructuring free?

Starts BEFORE and AFTER (two `cinn` binaries, e.g. release builds of two commits), each on its own copy of one
demo journal (`cinn serve --demo` fills the first; the second gets a byte copy, so both serve the same data),
then for ROUNDS rounds sends every request of the mix to both, alternating which goes first, over one keep-alive
connection per server. Prints p50 and p99 per request and server and AFTER's p50 and p99 as a multiple of
BEFORE's. Alternating in one run cancels most of a shared machine's noise; ratios near 1.00 mean no change.

    python3 Benchmarks/architecture/side_by_side.py BEFORE_CINN AFTER_CINN [--rounds 300]
"""
import argparse
import http.client
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date, timedelta

TODAY = date.today().isoformat()
WEEK_AGO = (date.today() - timedelta(days=7)).isoformat()

# (label, path): the dashboard and the food day as pages, and the JSON API's hot reads; a day of CGM as a
# Nightscout follower reads it, and the page with the most forms.
MIX = [
    ("page /", "/"),
    ("page /food/{today}", f"/food/{TODAY}"),
    ("page /glucose", "/glucose"),
    ("page /lifts", "/lifts"),
    ("api trend", "/api/v1/trend"),
    ("api weigh-ins", "/api/v1/weigh-ins?limit=100"),
    ("api day", f"/api/v1/days/{TODAY}"),
    ("api food search", "/api/v1/foods/search?q=oat"),
    ("api energy", "/api/v1/energy"),
    ("api glucose report", "/api/v1/glucose/report?days=14"),
    ("api exercises", "/api/v1/exercises"),
    ("api sync changes", "/api/v1/sync/changes?limit=1000"),
    ("api nutrition stats", f"/api/v1/nutrition-stats?period=day&from={WEEK_AGO}&to={TODAY}"),
    ("nightscout entries", "/nightscout/api/v1/entries.json?count=288"),
    ("page /settings/targets", "/settings/targets"),
]


class Server:
    def __init__(self, binary: str, database: str, extra: list[str]):
        self.process = subprocess.Popen([binary, "serve", "--port", "0", "--database", database] + extra,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 120
        for line in self.process.stdout:
            match = re.search(r"Listening on http://127\.0\.0\.1:(\d+)", line)
            if match:
                self.port = int(match.group(1))
                break
            if time.monotonic() > deadline:
                raise SystemExit(f"{binary}: no 'Listening on' in 120 s")
        else:
            raise SystemExit(f"{binary} exited before listening")
        # The server writes a line per request: read them on, or a full pipe stops it.
        threading.Thread(target=lambda: [None for _ in self.process.stdout], daemon=True).start()
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def get(self, path: str) -> float:
        start = time.perf_counter()
        self.connection.request("GET", path)
        response = self.connection.getresponse()
        body = response.read()
        elapsed = time.perf_counter() - start
        if response.status != 200 or not body:
            raise SystemExit(f"GET {path} on :{self.port}: {response.status} {body[:200]!r}")
        return elapsed

    def stop(self) -> None:
        self.connection.close()
        self.process.terminate()
        self.process.wait(timeout=30)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="cinn-side-by-side-")
    try:
        first = os.path.join(folder, "before.sqlite")
        seeding = Server(args.before, first, ["--demo"])
        seeding.stop()
        second = os.path.join(folder, "after.sqlite")
        shutil.copyfile(first, second)
        servers = {"before": Server(args.before, first, []), "after": Server(args.after, second, [])}
        times = {(label, name): [] for label, _ in MIX for name in servers}
        for round_number in range(args.warmup + args.rounds):
            order = ["before", "after"] if round_number % 2 == 0 else ["after", "before"]
            for label, path in MIX:
                for name in order:
                    elapsed = servers[name].get(path)
                    if round_number >= args.warmup:
                        times[(label, name)].append(elapsed)
        for server in servers.values():
            server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    def quantiles(values: list[float]) -> tuple[float, float]:
        ordered = sorted(values)
        return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]

    print(f"{args.rounds} rounds after {args.warmup} of warm-up, alternating; times in ms")
    print(f"{'request':24} {'before p50':>10} {'p99':>8} {'after p50':>10} {'p99':>8} {'p50 ×':>7} {'p99 ×':>7}")
    ratios = []
    for label, _ in MIX:
        b50, b99 = quantiles(times[(label, "before")])
        a50, a99 = quantiles(times[(label, "after")])
        ratios.append(a50 / b50)
        print(f"{label:24} {b50 * 1000:10.2f} {b99 * 1000:8.2f} {a50 * 1000:10.2f} {a99 * 1000:8.2f} "
              f"{a50 / b50:7.2f} {a99 / b99:7.2f}")
    print(f"geometric mean of the p50 ratios: {statistics.geometric_mean(ratios):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
