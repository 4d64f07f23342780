#!/usr/bin/env python3
"""The daily pages on a journal with five years of history against the same pages on the demo journal.

    python3 Benchmarks/pages/five_years.py --cinn PATH/TO/release/cinn [--rounds 3] [--duration 3] [--pages /,/food]

Makes two journals with `cinn serve --demo` (the demo fills an empty journal with 18 months of weigh-ins, the food
log, two weeks of CGM and workouts). The second then gets five years of history before the demo's: a weigh-in every
morning, the demo's food log repeated back day by day (each entry a copy with its own id, through
`cinn food import-json`), and a CGM reading every five minutes (a Nightscout entries file, through `cinn import`).
Both journals are then served at once; for each page wrk (one connection, one thread) runs on the demo journal, the
five-year journal, and the demo journal again, and the page's ratio is the five-year p50 over the mean of the two
demo p50s around it, the median of `--rounds` rounds. The target: every daily page within 2× of the demo's.

Needs wrk. Measure a release build. Generated files and wrk's output stay in the directory it prints.
"""
import datetime
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import urllib.request
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import serving  # noqa: E402
from run import arguments, serve, wrk  # noqa: E402

YEARS = 5
DAYS = 365 * YEARS + 1


def cinn_command(cinn, *arguments):
    result = subprocess.run([cinn, *arguments], capture_output=True, text=True, env=dict(os.environ, TZ="UTC"))
    if result.returncode != 0:
        raise RuntimeError(f"cinn {' '.join(arguments)}: {result.stdout}{result.stderr}")
    return result.stdout


def first_day(base, path, key):
    """The oldest day among a list answer's items (`key` an ISO time or day)."""
    with urllib.request.urlopen(base + path) as response:
        items = next(value for value in json.load(response).values() if isinstance(value, list))
    return min(datetime.date.fromisoformat(item[key][:10]) for item in items)


def demo_starts(cinn, database, base):
    """The demo journal's first weigh-in day and first CGM day, and its food log (`cinn food export`)."""
    weights_start = first_day(base, "/api/v1/weigh-ins?limit=10000", "date")
    glucose_start = first_day(base, "/api/v1/glucose?limit=10000", "date")
    demo_log = json.loads(cinn_command(cinn, "food", "export", "--format", "json", "--database", database))
    return weights_start, glucose_start, demo_log


def write_history(work, weights_start, glucose_start, demo_log):
    """The three files of five years: weigh-ins, the food log, CGM. Answers their paths."""
    rng = random.Random(5)
    weights = os.path.join(work, "weights.csv")
    with open(weights, "w") as out:
        out.write("date,weight_kg\n")
        for back in range(DAYS, 0, -1):
            day = weights_start - datetime.timedelta(days=back)
            trend = 95 - 10 * (DAYS - back) / DAYS
            out.write(f"{day.isoformat()}T07:{rng.randrange(0, 60):02d}:00Z,{trend + rng.gauss(0, 0.6):.1f}\n")

    entries = demo_log["entries"]
    days = sorted({entry["eaten_at"][:10] for entry in entries})
    by_day = {day: [entry for entry in entries if entry["eaten_at"][:10] == day] for day in days}
    food_start = datetime.date.fromisoformat(days[0])
    copies = []
    for back in range(DAYS, 0, -1):
        day = food_start - datetime.timedelta(days=back)
        source = days[back % len(days)]
        for entry in by_day[source]:
            copy = dict(entry, id=str(uuid.UUID(int=rng.getrandbits(128), version=4)))
            copy["eaten_at"] = day.isoformat() + entry["eaten_at"][10:]
            copies.append(copy)
    food = os.path.join(work, "food.json")
    with open(food, "w") as out:
        json.dump(dict(demo_log, entries=copies, presets=[], days=[]), out)

    glucose = os.path.join(work, "entries.json")
    start = datetime.datetime.combine(glucose_start - datetime.timedelta(days=DAYS), datetime.time(), datetime.timezone.utc)
    with open(glucose, "w") as out:
        out.write("[")
        for n in range(DAYS * 288):
            at = start + datetime.timedelta(minutes=5 * n)
            minutes = at.hour * 60 + at.minute
            sgv = 120 + 40 * math.sin(minutes / 1440 * 2 * math.pi * 3) + rng.gauss(0, 8)
            milliseconds = int(at.timestamp() * 1000)
            out.write(("," if n else "") + json.dumps({
                "_id": f"five-years-{n}", "type": "sgv", "sgv": max(40, min(400, round(sgv))), "date": milliseconds,
                "dateString": at.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "device": "benchmark"}))
        out.write("]")
    return weights, food, glucose


def main():
    args = arguments(__doc__, duration=3)
    work = tempfile.mkdtemp(prefix="cinn-five-years-")
    demo_db, long_db = os.path.join(work, "demo.sqlite"), os.path.join(work, "five-years.sqlite")
    log_path = os.path.join(work, "serve.log")
    servers = []
    try:
        server, base = serve(args.cinn, long_db, log_path, demo=True)
        weights_start, glucose_start, demo_log = demo_starts(args.cinn, long_db, base)
        serving.stop(server, 10)
        files = write_history(work, weights_start, glucose_start, demo_log)
        for path, command in zip(files, (["import"], ["food", "import-json"], ["import", "--format", "nightscout"])):
            print(f"{' '.join(command)} {os.path.basename(path)}: "
                  f"{cinn_command(args.cinn, *command, path, '--database', long_db).strip().splitlines()[0]}", flush=True)
        demo_server, demo = serve(args.cinn, demo_db, log_path, demo=True)
        servers.append(demo_server)
        long_server, long = serve(args.cinn, long_db, log_path, demo=False)
        servers.append(long_server)
        with urllib.request.urlopen(demo + "/") as response:
            cookie = response.headers["Set-Cookie"].split(";")[0]
        workouts = {}
        for name, base in (("demo", demo), ("long", long)):
            with urllib.request.urlopen(base + "/api/v1/workouts?limit=1") as response:
                workouts[name] = json.load(response)["workouts"][0]["id"]
        paths = args.pages
        ratios = {page: [] for page in paths}
        p50s = {page: ([], []) for page in paths}
        for round_number in range(args.rounds):
            for page in paths:
                on_demo, on_long = demo + page.replace("{id}", workouts["demo"]), long + page.replace("{id}", workouts["long"])
                before, _ = wrk(on_demo, args.duration, cookie, work, "demo.txt")
                p50, _ = wrk(on_long, args.duration, cookie, work, "five-years.txt")
                after, _ = wrk(on_demo, args.duration, cookie, work, "demo.txt")
                floor = (before + after) / 2
                ratios[page].append(p50 / floor)
                p50s[page][0].append(floor)
                p50s[page][1].append(p50)
                print(f"round {round_number + 1} {page}: demo {floor:.2f} ms, five years {p50:.2f} ms, {p50 / floor:.2f}×",
                      flush=True)
        print("\n| page | demo p50 (ms) | five years p50 (ms) | × demo | target ≤ 2× |")
        print("|---|---:|---:|---:|---|")
        for page in paths:
            ratio = statistics.median(ratios[page])
            print(f"| `{page}` | {statistics.median(p50s[page][0]):.2f} | {statistics.median(p50s[page][1]):.2f} | "
                  f"{ratio:.2f}× | {'met' if ratio <= 2 else 'not met'} |")
        print(f"\nfiles and raw wrk output: {work}")
    finally:
        for server in servers:
            serving.stop(server, 10)


if __name__ == "__main__":
    main()
