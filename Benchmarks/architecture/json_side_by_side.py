#!/usr/bin/env python3
"""Two builds of `cinn` side by side over the paths that parse and write JSON: imports and sync.

BEFORE and AFTER are two `cinn` binaries (release builds of two commits). For ROUNDS rounds, alternating which
goes first, it times with each:

- `cinn import` of a Nightscout `entries.json` of a year of CGM (105,120 `sgv` entries every 5 minutes, made
  here, in the xDrip shape of Tests/CinnImportTests/Fixtures/nightscout/entries.json), into a fresh journal;
- `cinn import` of a Fitbit weight JSON (`weight-*.json`, FITBIT_LOGS logs of Tests/CinnImportTests/Fixtures/
  weight-2024-02-01.json's shape) into a fresh journal;
- over HTTP against `cinn serve --accounts` on loopback, as Benchmarks/sync/run.sh measures in process: a push of
  10,000 new records in one request (30 % weigh-ins, 40 % glucose readings, 20 % food entries with nutrients,
  10 % insulin doses; new ids every round), then a pull of 100,000 records from the start in pages of 10,000.

Both servers serve byte copies of one journal filled with 100,000 records first. Prints the median of each
figure per build and AFTER's median as a multiple of BEFORE's; alternating in one run cancels most of a shared
machine's noise. Give the same binary twice for a control run that shows the noise.

    python3 Benchmarks/architecture/json_side_by_side.py BEFORE_CINN AFTER_CINN [--rounds 5]
"""
import argparse
import http.client
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import datetime, timedelta, timezone

PASSWORD = "a long enough password"
CGM_ENTRIES = 365 * 288
FITBIT_LOGS = 100_000
PUSH_CHANGES = 10_000
PULL_RECORDS = 100_000
PAGE = 10_000


def write_nightscout(path: str) -> None:
    """A year of CGM, newest first as Nightscout exports it."""
    rng = random.Random(7)
    start = datetime(2025, 1, 1, tzinfo=timezone.utc)
    with open(path, "w") as out:
        out.write("[\n")
        for index in range(CGM_ENTRIES):
            at = start + timedelta(minutes=5 * (CGM_ENTRIES - 1 - index))
            millis = int(at.timestamp() * 1000)
            sgv = 70 + rng.randrange(160)
            stamp = at.strftime("%Y-%m-%dT%H:%M:%S.000Z")
            entry = {"_id": f"{millis // 1000:08x}{index:016x}", "device": "xDrip-DexcomG6", "date": millis, "dateString": stamp,
                     "sgv": sgv, "delta": round(rng.uniform(-5, 5), 1), "direction": "Flat", "type": "sgv",
                     "filtered": sgv * 1000 + 412, "unfiltered": sgv * 1000 - 231, "rssi": 100, "noise": 1, "sysTime": stamp,
                     "utcOffset": -300}
            out.write(("  " if index == 0 else ",\n  ") + json.dumps(entry, indent=None))
        out.write("\n]\n")


def write_fitbit(path: str) -> None:
    """Fitbit's legacy weight logs: one a day from 2000 on, as many as FITBIT_LOGS."""
    rng = random.Random(11)
    start = datetime(2000, 1, 1, 7, 0, tzinfo=timezone.utc)
    logs = []
    for index in range(FITBIT_LOGS):
        at = start + timedelta(days=index // 4, hours=index % 4 * 3, seconds=rng.randrange(3600))
        logs.append({"logId": int(at.timestamp() * 1000), "weight": round(150 + rng.uniform(-10, 10), 1), "bmi": 25.6,
                     "fat": 28.41, "date": at.strftime("%m/%d/%y"), "time": at.strftime("%H:%M:%S"), "source": "Aria"})
    with open(path, "w") as out:
        json.dump(logs, out, indent=2)


def changes(count: int, seed: int) -> bytes:
    """A push body of `count` new records, the mix SyncBench pushes."""
    base = datetime(2026, 1, 1, tzinfo=timezone.utc) + timedelta(days=seed)
    items = []
    for index in range(count):
        at = (base + timedelta(minutes=index)).astimezone(timezone(timedelta(hours=1))).isoformat(timespec="seconds")
        kind = index % 10
        if kind < 3:
            record = ("weigh_in", {"measured_at": at, "weight_kg": 70 + index % 100 / 10,
                                   "note": "after run" if index % 7 == 0 else None})
        elif kind < 7:
            record = ("glucose_reading", {"measured_at": at, "mg_dl": 80 + index % 120, "timing": "after_meal"})
        elif kind < 9:
            record = ("food_entry", {"eaten_at": at, "name": f"Porridge {index % 50}", "meal": "breakfast", "servings": 1.5,
                                     "serving_label": "bowl", "nutrients": {"energy": 320, "protein": 11, "carbohydrate": 54}})
        else:
            record = ("insulin_dose", {"taken_at": at, "units": 4.5, "kind": "bolus", "insulin": "Humalog"})
        items.append({"type": record[0], "id": str(uuid.uuid4()), "changed_at": at, "fields": record[1]})
    return json.dumps({"changes": items}).encode()


class Server:
    def __init__(self, binary: str, database: str):
        self.process = subprocess.Popen([binary, "serve", "--accounts", "--port", "0", "--database", database],
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
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        status, body = self.request("POST", "/api/v1/login",
                                    json.dumps({"name": "bench", "password": PASSWORD, "token_name": "bench"}).encode(), token=False)
        if status not in (200, 201):
            raise SystemExit(f"log-in on :{self.port}: {status} {body[:200]!r}")
        self.token = json.loads(body)["token"]

    def request(self, method: str, path: str, body: bytes | None = None, token: bool = True) -> tuple[int, bytes]:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {self.token}"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        return response.status, response.read()

    def push(self, body: bytes) -> float:
        start = time.perf_counter()
        status, answer = self.request("POST", "/api/v1/sync/push", body)
        elapsed = time.perf_counter() - start
        if status != 200 or b'"rejected"' in answer:
            raise SystemExit(f"push on :{self.port}: {status} {answer[:300]!r}")
        return elapsed

    def pull(self, records: int) -> float:
        start = time.perf_counter()
        cursor, seen = "0.0.0", 0
        while seen < records:
            status, body = self.request("GET", f"/api/v1/sync/changes?after={cursor}&limit={PAGE}")
            if status != 200:
                raise SystemExit(f"pull on :{self.port}: {status} {body[:200]!r}")
            page = json.loads(body)
            seen += len(page["changes"])
            cursor = page["next"]
            if not page["more"]:
                break
        elapsed = time.perf_counter() - start
        if seen < records:
            raise SystemExit(f"pull on :{self.port}: {seen} records, not {records}")
        return elapsed

    def stop(self) -> None:
        self.connection.close()
        self.process.terminate()
        self.process.wait(timeout=30)


def timed_import(binary: str, empty: str, folder: str, file: str, extra: list[str]) -> float:
    database = os.path.join(folder, "import.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(database + suffix):
            os.remove(database + suffix)
    shutil.copyfile(empty, database)
    start = time.perf_counter()
    result = subprocess.run([binary, "import", file, "--database", database] + extra, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"{binary} import {file}: {result.returncode} {result.stderr[:300]}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args()
    binaries = {"before": os.path.abspath(arguments.before), "after": os.path.abspath(arguments.after)}
    folder = tempfile.mkdtemp(prefix="cinn-json-side-by-side.")
    environment = dict(os.environ, TZ="UTC")
    os.environ["TZ"] = "UTC"

    nightscout = os.path.join(folder, "entries.json")
    fitbit = os.path.join(folder, "weight-2024-02-01.json")
    write_nightscout(nightscout)
    write_fitbit(fitbit)
    print(f"files: entries.json {os.path.getsize(nightscout) / 1e6:.1f} MB ({CGM_ENTRIES:,} entries), "
          f"Fitbit {os.path.getsize(fitbit) / 1e6:.1f} MB ({FITBIT_LOGS:,} logs)", file=sys.stderr)

    empty = os.path.join(folder, "empty.sqlite")
    subprocess.run([binaries["before"], "migrate", "--database", empty], check=True, capture_output=True, env=environment)
    seeded = os.path.join(folder, "seed.sqlite")
    subprocess.run([binaries["before"], "user", "add", "bench", "--database", seeded], input=PASSWORD + "\n", text=True,
                   check=True, capture_output=True, env=environment)
    seeder = Server(binaries["before"], seeded)
    for batch in range(PULL_RECORDS // PUSH_CHANGES):
        seeder.push(changes(PUSH_CHANGES, seed=batch * 7))
    seeder.stop()

    servers = {}
    for side, binary in binaries.items():
        copy = os.path.join(folder, f"{side}.sqlite")
        shutil.copyfile(seeded, copy)
        servers[side] = Server(binary, copy)

    figures = ["import Nightscout (105,120 entries)", f"import Fitbit ({FITBIT_LOGS:,} logs)", "sync push of 10,000 (HTTP)",
               "sync pull of 100,000 (HTTP)"]
    times = {side: {figure: [] for figure in figures} for side in binaries}
    load = [os.getloadavg()[0]]
    for round in range(arguments.rounds):
        order = ["before", "after"] if round % 2 == 0 else ["after", "before"]
        body = changes(PUSH_CHANGES, seed=1000 + round)
        for side in order:
            times[side][figures[0]].append(timed_import(binaries[side], empty, folder, nightscout, ["--format", "nightscout"]))
            times[side][figures[1]].append(timed_import(binaries[side], empty, folder, fitbit, ["--format", "fitbit", "--unit", "lb"]))
            times[side][figures[2]].append(servers[side].push(body))
            times[side][figures[3]].append(servers[side].pull(PULL_RECORDS))
        load.append(os.getloadavg()[0])
        print(f"round {round + 1}/{arguments.rounds} done", file=sys.stderr)
    for server in servers.values():
        server.stop()
    shutil.rmtree(folder)

    print(f"{arguments.rounds} rounds, load average {min(load):.1f}-{max(load):.1f}")
    print(f"{'figure':40} {'before (ms)':>12} {'after (ms)':>12} {'after/before':>13}")
    for figure in figures:
        before = statistics.median(times["before"][figure]) * 1000
        after = statistics.median(times["after"][figure]) * 1000
        print(f"{figure:40} {before:12.0f} {after:12.0f} {after / before:13.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
