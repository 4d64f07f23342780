#!/usr/bin/env python3
"""The meal expectation over HTTP with two years of CGM and meals: `POST /api/v1/nom` beside the Add-food page.

Starts `cinn serve` (the binary given by --cinn; single-user, 127.0.0.1, a free port, --no-request-log) on a fresh
SQLite journal in a temp directory, sets the profile's time zone to UTC and a calorie target of 2,000 kcal (so the
answer has its energy part), and fills it through the Nightscout API as an uploader would (docs/nightscout.md; on
loopback /nightscout needs no API secret):

- entries: DAYS days (default 730) of CGM readings every five minutes (`sgv`, xDrip+'s fields), a POST a week;
- treatments: each meal a `Meal Bolus` with its carbohydrate (`carbs`, `foodType` naming the meal: the food log's
  quick add) and insulin (carbs / 10, to 0.5 U); basal insulin (18 U, `Basal Injection`) at 22:00.

The days: breakfast about 7:30, lunch 12:30, dinner 19:00 (each ±20 minutes, one of a few meals of its slot) and on
seven days in ten a snack at 15:30; glucose a baseline of 105 mg/dL with a slow random drift, a dawn rise, and each meal's
rise (its carbohydrate × 1.0–1.4 mg/dL a gram, peaking 35–75 minutes after, by meal), as CinnCore's DemoGlucose
draws them. The data end at 12:25 UTC of the latest day that allows it, that day with breakfast only; the meal asked
about is lunch at 12:30 ("Chicken and rice", 60 g carbohydrate, 650 kcal, a bolus of 6 U), answered from the
person's similar lunches.

Then, ROUNDS rounds (default 200) after WARMUP (10), over one keep-alive connection, each round the three requests in
a rotating order: `POST /api/v1/nom`, `GET /food/search` (the Add-food page, Sources/CinnServer/App/Site.swift's
`foodSearch`) and `GET /health` (the trivial reference). Every answer must be 200 (and nom's carry a glucose
expectation). Prints p50, p99 and max in ms and each p50 and p99 as a multiple of /health's, the fill's times, the
server's peak RSS, the load average before and after, and the date. Python 3, standard library only.

    python3 Benchmarks/nom/speed.py --cinn /work/main/.build/debug/cinn [--rounds 200] [--days 730] [--json OUT]
"""
import argparse
import http.client
import json
import math
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
REQUEST_TIMEOUT = 300  # s, per request
STOP_TIMEOUT = 30      # s, after SIGTERM, before SIGKILL
WEEK = 7 * 288         # entries a POST
TREATMENTS_PER_POST = 2000
HEADERS = {"Content-Type": "application/json", "Accept": "application/json"}

# Per slot: (minute of day, [(foodType, grams of carbohydrate, minutes to the peak)]).
MEALS = {
    "breakfast": (7 * 60 + 30, [("Oats with milk and banana", 70, 45), ("Yogurt and banana", 30, 35),
                                ("Toast with peanut butter", 45, 60), ("Cereal with milk", 55, 40)]),
    "lunch": (12 * 60 + 30, [("Chicken and rice", 60, 50), ("Pasta with tomato sauce", 80, 55),
                             ("Sandwich", 50, 45)]),
    "snack": (15 * 60 + 30, [("Apple", 20, 35), ("Granola bar", 25, 35), ("Banana", 27, 35)]),
    "dinner": (19 * 60, [("Salmon, rice and broccoli", 55, 75), ("Pizza", 90, 75), ("Chicken and rice", 60, 50)]),
}
NOM = {"at": None, "bolus_units": 6,
       "entries": [{"name": "Chicken and rice", "carbohydrate_g": 60, "energy_kcal": 650, "protein_g": 35, "fat_g": 15}]}
REQUESTS = [("POST /api/v1/nom", "POST", "/api/v1/nom"), ("GET /food/search (Add food)", "GET", "/food/search"),
            ("GET /health", "GET", "/health")]


def iso_ms(at: datetime) -> str:
    return at.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def direction(delta: float) -> str:
    """Dexcom's bands, per minute over 5 minutes (docs/nightscout.md)."""
    rate = delta / 5
    for limit, up, down in ((1, "Flat", "Flat"), (2, "FortyFiveUp", "FortyFiveDown"), (3, "SingleUp", "SingleDown")):
        if abs(rate) <= limit:
            return up if rate >= 0 else down
    return "DoubleUp" if rate > 0 else "DoubleDown"


def make_data(days: int, cutoff: datetime, seed: int = 42) -> tuple[list[bytes], list[bytes], dict]:
    """(entry bodies, treatment bodies, counts): DAYS days ending with cutoff's day, readings until cutoff."""
    rng = random.Random(seed)
    last = cutoff.replace(hour=0, minute=0, second=0, microsecond=0)
    first = last - timedelta(days=days - 1)
    treatments, effects = [], []
    for day in range(days):
        midnight = first + timedelta(days=day)
        for slot, (minute, choices) in MEALS.items():
            if (slot == "snack" and rng.random() < 0.3) or (day == days - 1 and slot != "breakfast"):
                continue
            name, grams, peak = rng.choice(choices)
            grams = round(grams * rng.uniform(0.8, 1.2))
            at = midnight + timedelta(minutes=minute + rng.randrange(-20, 21))
            effects.append((at, grams * rng.uniform(1.0, 1.4), peak))
            treatments.append({"eventType": "Meal Bolus", "created_at": iso_ms(at), "carbs": grams, "foodType": name,
                               "insulin": round(grams / 10 * 2) / 2, "enteredBy": "xdrip"})
        basal = midnight + timedelta(hours=22)
        if basal < cutoff:
            treatments.append({"eventType": "Basal Injection", "created_at": iso_ms(basal), "insulin": 18,
                               "insulinInjections": "[{\"insulin\":\"Lantus\",\"units\":18}]", "enteredBy": "xdrip"})
    count = int((cutoff - first).total_seconds() // 300) + 1
    count -= 1 if first + timedelta(minutes=5 * (count - 1)) >= cutoff else 0
    mg = [0.0] * count
    drift = 0.0
    for index in range(count):
        at = first + timedelta(minutes=5 * index)
        hour = at.hour + at.minute / 60
        drift = drift * 0.97 + rng.uniform(-2, 2)
        dawn = 20 * math.sin((hour - 4) / 4 * math.pi) if 4 <= hour < 8 else 0
        mg[index] = 105 + drift + dawn
    for at, rise, peak in effects:  # a gamma-like curve back near the baseline after about three peak times
        start = int((at - first).total_seconds() // 300) + 1
        for index in range(start, min(count, start + 60)):
            minutes = ((first + timedelta(minutes=5 * index)) - at).total_seconds() / 60
            if 0 < minutes < 300:
                t = minutes / peak
                mg[index] += rise * t * t * math.exp(2 * (1 - t))
    entries, previous = [], None
    for index in range(count):
        at = first + timedelta(minutes=5 * index)
        value = int(round(max(45.0, min(400.0, mg[index] + rng.uniform(-3, 3)))))
        delta = 0 if previous is None else value - previous
        previous = value
        entries.append({"device": "xDrip-DexcomG6", "date": int(at.timestamp() * 1000), "sgv": value,
                        "dateString": at.strftime("%Y-%m-%dT%H:%M:%S.000+0000"), "delta": delta,
                        "direction": direction(delta), "type": "sgv"})
    entry_bodies = [json.dumps(entries[start:start + WEEK]).encode() for start in range(0, len(entries), WEEK)]
    treatment_bodies = [json.dumps(treatments[start:start + TREATMENTS_PER_POST]).encode()
                        for start in range(0, len(treatments), TREATMENTS_PER_POST)]
    counts = {"readings": len(entries), "meals": len(effects), "treatments": len(treatments),
              "first": first.date().isoformat(), "last_reading": iso_ms(first + timedelta(minutes=5 * (count - 1)))}
    return entry_bodies, treatment_bodies, counts


class Server:
    """`cinn serve` (single-user) on a free port of 127.0.0.1, with its journal and log in `folder`."""

    def __init__(self, binary: str, folder: str):
        self.binary = binary
        self.log_path = os.path.join(folder, "serve.log")
        with open(self.log_path, "w") as log:  # the child keeps its own descriptor
            self.process = subprocess.Popen(
                [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--database", os.path.join(folder, "cinn.sqlite"),
                 "--no-request-log", "--off-url", "none"],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log, text=True)
        try:
            _, self.port = listening_address(self.process, START_TIMEOUT, self.log_tail)
        except RuntimeError as error:
            self.stop()
            raise SystemExit(f"{binary}: {error}") from None
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)

    def request(self, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes, float]:
        """(status, body, seconds) over the keep-alive connection."""
        start = time.perf_counter()
        try:
            self.connection.request(method, path, body=body, headers=HEADERS if body is not None else {"Accept": "*/*"})
            response = self.connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as error:
            self.connection.close()
            raise SystemExit(f"{method} {path}: {type(error).__name__}: {error}; log: {self.log_tail()}")
        return response.status, data, time.perf_counter() - start

    def expect(self, method: str, path: str, body: bytes | None = None) -> tuple[bytes, float]:
        status, data, seconds = self.request(method, path, body)
        if not 200 <= status < 300:
            raise SystemExit(f"{method} {path}: {status} {data[:300]!r}; log: {self.log_tail()}")
        return data, seconds

    def peak_rss_mb(self) -> float | None:
        return serving.peak_rss_mb(self.process.pid)

    def log_tail(self, characters: int = 300) -> str:
        return serving.log_tail(self.log_path, characters)

    def stop(self) -> None:
        if getattr(self, "connection", None):
            self.connection.close()
        serving.stop(self.process, STOP_TIMEOUT)


def percentile(values: list[float], p: float) -> float:
    """The nearest-rank percentile (as BenchmarkData's `percentile`)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))]


def load() -> str:
    with open("/proc/loadavg") as file:
        return " ".join(file.read().split()[:3])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cinn", required=True, help="the cinn binary (say whether debug or release)")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--days", type=int, default=730)
    parser.add_argument("--json", help="also write the results as JSON to this file")
    parser.add_argument("--keep", action="store_true", help="keep the temp directory (journal and server log)")
    args = parser.parse_args()

    now = datetime.now(timezone.utc)
    last = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if last + timedelta(hours=12, minutes=31) > now:
        last -= timedelta(days=1)
    cutoff = last + timedelta(hours=12, minutes=26)  # the last reading is 12:25
    meal_at = (last + timedelta(hours=12, minutes=30)).strftime("%Y-%m-%dT%H:%M:%S+00:00")
    nom_body = json.dumps({**NOM, "at": meal_at}).encode()

    generate_start = time.perf_counter()
    entry_bodies, treatment_bodies, counts = make_data(args.days, cutoff)
    generate_s = time.perf_counter() - generate_start
    folder = tempfile.mkdtemp(prefix="cinn-nom-speed-")
    server = None
    try:
        server = Server(args.cinn, folder)
        server.expect("PUT", "/api/v1/profile", json.dumps({"time_zone": "UTC", "energy_target_kcal": 2000}).encode())
        fill_start = time.perf_counter()
        for body in entry_bodies:
            server.expect("POST", "/nightscout/api/v1/entries", body)
        entries_s = time.perf_counter() - fill_start
        for body in treatment_bodies:
            server.expect("POST", "/nightscout/api/v1/treatments", body)
        fill_s = time.perf_counter() - fill_start
        answer = json.loads(server.expect("POST", "/api/v1/nom", nom_body)[0])
        glucose = answer.get("glucose")
        if not glucose:
            raise SystemExit(f"nom gave no expectation: {answer.get('glucose_reason')!r}")
        summary = (f"rise {glucose['expected_rise_mg_dl']} mg/dL ({glucose['range_mg_dl'][0]}–{glucose['range_mg_dl'][1]}), "
                   f"peak at {glucose['minutes_to_peak']} min, from {glucose['similar_meals']} similar meals; "
                   f"energy {'with a target' if answer.get('energy') else 'none'}")

        load_before = load()
        started = datetime.now(timezone.utc)
        times = {label: [] for label, _, _ in REQUESTS}
        for round_number in range(args.warmup + args.rounds):
            for offset in range(len(REQUESTS)):
                label, method, path = REQUESTS[(round_number + offset) % len(REQUESTS)]
                data, seconds = server.expect(method, path, nom_body if method == "POST" else None)
                if method == "POST" and b'"expected_rise_mg_dl"' not in data:
                    raise SystemExit(f"nom answered without an expectation: {data[:300]!r}")
                if round_number >= args.warmup:
                    times[label].append(seconds * 1000)
        finished = datetime.now(timezone.utc)
        load_after = load()
        peak_rss = server.peak_rss_mb()
    finally:
        if server:
            server.stop()
        if args.keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)

    commit = subprocess.run(["git", "-C", str(Path(__file__).resolve().parent), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    health = times["GET /health"]
    h50, h99 = percentile(health, 50), percentile(health, 99)
    print(f"cinn {args.cinn} (repository at {commit}), {os.cpu_count()} cores, {started:%Y-%m-%d %H:%M}–{finished:%H:%M} UTC, "
          f"load {load_before} before, {load_after} after")
    print(f"journal: {args.days} days from {counts['first']}, {counts['readings']:,} readings (the last {counts['last_reading']}), "
          f"{counts['meals']:,} meals, {counts['treatments']:,} treatments; generated in {generate_s:.1f} s, "
          f"uploaded in {fill_s:.1f} s ({len(entry_bodies)} entry POSTs in {entries_s:.1f} s, "
          f"{len(treatment_bodies)} treatment POSTs)")
    print(f"the lunch at {meal_at}: {summary}")
    print(f"{args.rounds} rounds after {args.warmup} warm-up, the three requests in a rotating order; times in ms; "
          f"server peak RSS {peak_rss:.0f} MB")
    print(f"{'request':30} {'p50':>8} {'p99':>8} {'max':>8} {'p50 ×/health':>13} {'p99 ×/health':>13}")
    results = []
    for label, _, _ in REQUESTS:
        values = times[label]
        p50, p99 = percentile(values, 50), percentile(values, 99)
        results.append({"request": label, "p50_ms": round(p50, 3), "p99_ms": round(p99, 3), "max_ms": round(max(values), 3),
                        "mean_ms": round(statistics.fmean(values), 3), "p50_vs_health": round(p50 / h50, 2),
                        "p99_vs_health": round(p99 / h99, 2)})
        print(f"{label:30} {p50:8.2f} {p99:8.2f} {max(values):8.2f} {p50 / h50:13.1f} {p99 / h99:13.1f}")
    if args.json:
        with open(args.json, "w") as file:
            json.dump({"cinn": args.cinn, "commit": commit, "started": started.isoformat(), "finished": finished.isoformat(),
                       "load_before": load_before, "load_after": load_after, "days": args.days, **counts,
                       "upload_s": round(fill_s, 1), "rounds": args.rounds, "warmup": args.warmup, "nom": summary,
                       "peak_rss_mb": peak_rss, "results": results}, file, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
