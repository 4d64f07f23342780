#!/usr/bin/env python3
"""Two builds of `cinn serve` side by side over Nightscout uploads and reads: what do the checks of an upload cost?

BEFORE and AFTER are two `cinn` binaries (e.g. builds of two commits; say whether debug or release). For ROUNDS
rounds, alternating which goes first, each binary gets a fresh single-user `cinn serve` (a new SQLite journal in
a temp directory, 127.0.0.1, a free port, --no-request-log; on loopback /nightscout needs no API secret,
docs/nightscout.md), and over one keep-alive connection, as an uploader and a follower would:

- entries: DAYS days (default 60) of 5-minute CGM readings as xDrip+ uploads them, one POST a day of 288 entries to
  /nightscout/api/v1/entries, newest first, with xDrip+'s fields (device, date in epoch ms, dateString, sgv,
  delta, direction, type "sgv"; Tests/CinnServerTests/NightscoutAPITests.swift's sample): the total and each
  POST's p50 and p99;
- entries again: REPEAT_DAYS (10) of those days sent again, every entry already stored: p50 per POST;
- treatments: DAYS days of treatments, one POST a day of 6 to /nightscout/api/v1/treatments (two Meal Boluses with
  insulin and carbs, a Correction Bolus, two Temp Basals, a BG Check with glucose; each with created_at and
  eventType, every other one with an `_id` of 24 hex digits): the total and p50;
- treatments again: the same days sent again, all duplicates: p50;
- GET /nightscout/api/v1/entries.json?count=288 (a day), READS (100) times: p50 and p99;
- the server's peak RSS at the end (VmHWM in /proc/PID/status).

Every answer's status is checked: a non-2xx answer (or a `Cinn-Rejected` header, or an upload that stores another
count than expected) is counted and its first body printed, not fatal. Prints the rounds' load average, then a
markdown table of each figure's median over the rounds per build and AFTER's as a multiple of BEFORE's.
Alternating in one run cancels most of a shared machine's noise; give the same binary twice for a control run.
A p99 of 60 or 100 samples is close to their slowest. Python 3, standard library only.

    python3 Benchmarks/nightscout/side_by_side.py BEFORE_CINN AFTER_CINN [--rounds 3] [--days 60] [--reads 100]
"""
import argparse
import http.client
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import serving  # noqa: E402
from serving import listening_address  # noqa: E402

START_TIMEOUT = 120    # s, until "Listening on"
REQUEST_TIMEOUT = 120  # s, per request
STOP_TIMEOUT = 30      # s, after SIGTERM, before SIGKILL
PER_DAY = 288          # 5-minute readings a day
REPEAT_DAYS = 10       # days of entries sent again
START = datetime(2025, 3, 1, tzinfo=timezone.utc)
HEADERS = {"Content-Type": "application/json", "Accept": "application/json"}


def direction(delta: float) -> str:
    """Dexcom's bands, per minute over 5 minutes (docs/nightscout.md)."""
    rate = delta / 5
    for limit, up, down in ((1, "Flat", "Flat"), (2, "FortyFiveUp", "FortyFiveDown"), (3, "SingleUp", "SingleDown")):
        if abs(rate) <= limit:
            return up if rate >= 0 else down
    return "DoubleUp" if rate > 0 else "DoubleDown"


def entry_days(days: int) -> list[bytes]:
    """A POST body per day: that day's 288 readings, newest first, as xDrip+ sends them."""
    rng = random.Random(5)
    glucose, bodies = 120.0, []
    for day in range(days):
        entries = []
        for slot in range(PER_DAY):
            at = START + timedelta(days=day, minutes=5 * slot)
            step = max(-15.0, min(15.0, rng.gauss(0, 4) + (120 - glucose) * 0.02))
            previous, glucose = glucose, max(45.0, min(380.0, glucose + step))
            delta = round(glucose - previous, 1)
            entries.append({"device": "xDrip-DexcomG6", "date": int(at.timestamp() * 1000),
                            "dateString": at.strftime("%Y-%m-%dT%H:%M:%S.000+0000"), "sgv": int(round(glucose)),
                            "delta": delta, "direction": direction(delta), "type": "sgv"})
        entries.reverse()
        bodies.append(json.dumps(entries).encode())
    return bodies


def treatment_days(days: int) -> list[bytes]:
    """A POST body per day of 6 treatments, every other one with an `_id`."""
    rng = random.Random(9)
    bodies = []
    for day in range(days):
        base = START + timedelta(days=day)

        def at(hours: float) -> str:
            return (base + timedelta(hours=hours, minutes=rng.randrange(20))).strftime("%Y-%m-%dT%H:%M:%S.000Z")

        treatments = [
            {"eventType": "BG Check", "created_at": at(7), "glucose": 90 + rng.randrange(60), "glucoseType": "Finger",
             "units": "mg/dl", "enteredBy": "xdrip"},
            {"eventType": "Meal Bolus", "created_at": at(7.5), "insulin": round(rng.uniform(2, 8), 2),
             "carbs": 30 + rng.randrange(50), "enteredBy": "openaps://AndroidAPS"},
            {"eventType": "Temp Basal", "created_at": at(10), "duration": 30, "rate": 0.8, "absolute": 0.8,
             "temp": "absolute", "enteredBy": "openaps://AndroidAPS"},
            {"eventType": "Correction Bolus", "created_at": at(15), "insulin": round(rng.uniform(0.5, 3), 2),
             "type": "normal", "enteredBy": "loop://iPhone"},
            {"eventType": "Meal Bolus", "created_at": at(19), "insulin": round(rng.uniform(3, 9), 2),
             "carbs": 40 + rng.randrange(60), "enteredBy": "openaps://AndroidAPS"},
            {"eventType": "Temp Basal", "created_at": at(22), "duration": 60, "rate": 1.1, "absolute": 1.1,
             "temp": "absolute", "enteredBy": "openaps://AndroidAPS"},
        ]
        for index, treatment in enumerate(treatments):
            if index % 2 == 0:
                treatment["_id"] = f"{int(base.timestamp()):08x}{day:08x}{index:08x}"
        bodies.append(json.dumps(treatments).encode())
    return bodies


class Server:
    """`cinn serve` (single-user) on a free port of 127.0.0.1, with its journal and log in `folder`."""

    def __init__(self, binary: str, folder: str):
        self.binary = binary
        self.log_path = os.path.join(folder, "serve.log")
        with open(self.log_path, "w") as log:  # the child keeps its own descriptor
            self.process = subprocess.Popen(
                [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--database", os.path.join(folder, "cinn.sqlite"),
                 "--no-request-log"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log, text=True)
        try:
            _, self.port = listening_address(self.process, START_TIMEOUT, self.log_tail)
        except RuntimeError as error:
            self.stop()
            raise SystemExit(f"{binary}: {error}") from None
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)

    def request(self, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes, dict, float]:
        """(status, body, headers, seconds); a broken connection is made again for the next request."""
        start = time.perf_counter()
        try:
            self.connection.request(method, path, body=body, headers=HEADERS)
            response = self.connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as error:
            self.connection.close()
            raise SystemExit(f"{self.binary}: {method} {path}: {type(error).__name__}: {error}; log: {self.log_tail()}")
        elapsed = time.perf_counter() - start
        return response.status, data, dict(response.getheaders()), elapsed

    def peak_rss_mb(self) -> float | None:
        return serving.peak_rss_mb(self.process.pid)

    def log_tail(self, characters: int = 300) -> str:
        return serving.log_tail(self.log_path, characters)

    def stop(self) -> None:
        if getattr(self, "connection", None):
            self.connection.close()
        serving.stop(self.process, STOP_TIMEOUT)


class Oddities:
    """Answers that were not the expected 2xx with the expected count: counted per (side, step, what), first body kept."""

    def __init__(self):
        self.seen: dict[tuple[str, str, str], list] = {}

    def check(self, side: str, step: str, status: int, body: bytes, headers: dict, expected: int | None) -> None:
        what = None
        if not 200 <= status < 300:
            what = f"status {status}"
        elif any(key.lower() == "cinn-rejected" for key in headers):
            what = f"status {status}, Cinn-Rejected"
        elif expected is not None:
            try:
                stored = len(json.loads(body))
            except (ValueError, TypeError):
                stored = None
            if stored != expected:
                what = f"status {status}, {stored} stored, not {expected}"
        if what:
            rejected = next((value for key, value in headers.items() if key.lower() == "cinn-rejected"), "")
            entry = self.seen.setdefault((side, step, what), [0, (rejected + " " + body[:300].decode(errors="replace")).strip()])
            entry[0] += 1


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def run_side(binary: str, side: str, entries: list[bytes], treatments: list[bytes], reads: int,
             oddities: Oddities) -> dict[str, float]:
    folder = tempfile.mkdtemp(prefix=f"cinn-nightscout-side-by-side.{side}.")
    server = Server(binary, folder)
    figures: dict[str, float] = {}
    try:
        def post(step: str, path: str, bodies: list[bytes], expected: int | None) -> tuple[float, list[float]]:
            times = []
            start = time.perf_counter()
            for body in bodies:
                status, data, headers, elapsed = server.request("POST", path, body)
                oddities.check(side, step, status, data, headers, expected)
                times.append(elapsed)
            return time.perf_counter() - start, times

        total, times = post("entries", "/nightscout/api/v1/entries", entries, PER_DAY)
        figures["entries: total"] = total
        figures["entries: p50 per POST"] = statistics.median(times)
        figures["entries: p99 per POST"] = percentile(times, 0.99)
        again = entries[::max(1, len(entries) // REPEAT_DAYS)][:REPEAT_DAYS]
        _, times = post("entries again", "/nightscout/api/v1/entries", again, 0)
        figures["entries again (duplicates): p50"] = statistics.median(times)
        total, times = post("treatments", "/nightscout/api/v1/treatments", treatments, 6)
        figures["treatments: total"] = total
        figures["treatments: p50 per POST"] = statistics.median(times)
        _, times = post("treatments again", "/nightscout/api/v1/treatments", treatments, 0)
        figures["treatments again (duplicates): p50"] = statistics.median(times)
        times = []
        for _ in range(reads):
            status, data, headers, elapsed = server.request("GET", f"/nightscout/api/v1/entries.json?count={PER_DAY}")
            oddities.check(side, "entries.json?count=288", status, data, headers, PER_DAY)
            times.append(elapsed)
        figures["GET entries.json?count=288: p50"] = statistics.median(times)
        figures["GET entries.json?count=288: p99"] = percentile(times, 0.99)
        figures["peak RSS (MB)"] = server.peak_rss_mb() or float("nan")
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--days", type=int, default=60)
    parser.add_argument("--reads", type=int, default=100)
    arguments = parser.parse_args()
    binaries = {"before": os.path.abspath(arguments.before), "after": os.path.abspath(arguments.after)}
    os.environ["TZ"] = "UTC"  # the servers inherit it

    entries = entry_days(arguments.days)
    treatments = treatment_days(arguments.days)
    print(f"entries: {arguments.days} POSTs of {PER_DAY} ({sum(map(len, entries)) / 1e6:.1f} MB); treatments: "
          f"{arguments.days} POSTs of 6", file=sys.stderr)

    oddities = Oddities()
    results: dict[str, dict[str, list[float]]] = {side: {} for side in binaries}
    load = [os.getloadavg()[0]]
    started = datetime.now(timezone.utc)
    for round in range(arguments.rounds):
        order = ["before", "after"] if round % 2 == 0 else ["after", "before"]
        for side in order:
            figures = run_side(binaries[side], side, entries, treatments, arguments.reads, oddities)
            for figure, value in figures.items():
                results[side].setdefault(figure, []).append(value)
            load.append(os.getloadavg()[0])
        print(f"round {round + 1}/{arguments.rounds} done", file=sys.stderr)

    print(f"{arguments.rounds} rounds from {started:%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, "
          f"load average (1 min) {min(load):.1f}-{max(load):.1f}")
    print(f"before: `{binaries['before']}`, after: `{binaries['after']}`")
    print()
    print("| figure | before | after | after/before |")
    print("|---|---:|---:|---:|")
    for figure in results["before"]:
        before = statistics.median(results["before"][figure])
        after = statistics.median(results["after"][figure])
        if figure.endswith("(MB)"):
            shown = (f"{before:.0f} MB", f"{after:.0f} MB")
        else:
            shown = (f"{before * 1000:.1f} ms", f"{after * 1000:.1f} ms")
        print(f"| {figure} | {shown[0]} | {shown[1]} | {after / before:.3f} |")
    if oddities.seen:
        print()
        print("Answers other than the expected (side, step, what: how many; first body):")
        for (side, step, what), (count, body) in sorted(oddities.seen.items()):
            print(f"- {side}, {step}, {what}: {count}; {body!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
