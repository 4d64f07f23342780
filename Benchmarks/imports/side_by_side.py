#!/usr/bin/env python3
"""Two builds of `cinn import` side by side over big files: Nightscout entries and treatments, and MyFitnessPal.

BEFORE and AFTER are two `cinn` binaries (e.g. builds of two commits; say whether debug or release). The input files
are made once, seeded, into a temp directory; then for ROUNDS rounds, alternating which binary goes first, each case
runs `BINARY import --database JOURNAL FILE` (the format detected from the file, as a person runs it) on a fresh
journal: a byte copy, in a directory of its own, of an empty journal that binary migrated first (so neither build
pays for a migration in the timing). Cases (`--only a,c` picks some):

- a. Nightscout entries: a year of CGM, 105,120 `sgv` entries every 5 minutes as a JSON array, newest first
  (Benchmarks/architecture/json_side_by_side.py's generator, the xDrip shape of the test fixture);
- b. Nightscout treatments: a year of a Loop/AndroidAPS user as a JSON array, newest first: a "Temp Basal" every
  30 minutes (duration, rate, absolute, no insulin), 6 "Correction Bolus" a day with insulin and 4 "Meal Bolus" a
  day with carbs, insulin and a food name in `notes`; each with a 24-hex `_id` and `created_at` in UTC with
  milliseconds (21,170 treatments);
- c. the same treatments imported again into the journal b made (everything already there): the second import's
  time (with `--only c` the first import runs untimed);
- d. a MyFitnessPal export of two years as MyFitnessPal mails it: `File-Export-…zip` holding Nutrition-Summary (one
  row per logged item with its time, about 12 a day), Measurement-Summary (weight most days) and Exercise-Summary
  (a daily step adjustment, cardio and strength rows, an imperial account), with the quirks docs/FORMATS.md §4 lists
  (byte order mark, CRLF, blank times, names in literal quotes).

Each run's wall time (start of the process to its end) and peak RSS (the child's ru_maxrss, from wait4) are taken.
Every run must exit 0 and print its report; "Format", "Rows read", "Imported", "Already in the journal", "Repeated in
the file" and "Skipped" are read from it, so the table shows that both builds did the same work: a run that failed,
counts that change between one build's rounds, or counts that differ between the builds are listed after the tables
(builds whose import does something else on purpose differ there). Prints the rounds' load average, a markdown table
of each figure's median per build and AFTER's as a multiple of BEFORE's, and the counts. Alternating in one run
cancels most of a shared machine's noise; give the same binary twice for a control run (before ÷ before). Exits 1
when a run failed. Python 3, standard library only.

    python3 Benchmarks/imports/side_by_side.py BEFORE_CINN AFTER_CINN [--rounds 5] [--only a,b,c,d]
"""
import argparse
import csv
import io
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
import zipfile
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ left in Benchmarks/architecture
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "architecture"))
from json_side_by_side import CGM_ENTRIES, write_nightscout  # noqa: E402

YEAR_START = datetime(2025, 1, 1, tzinfo=timezone.utc)
DAYS = 365
TEMP_BASALS_PER_DAY = 48       # one every 30 minutes
CORRECTIONS_PER_DAY = 6
MEAL_BOLUSES_PER_DAY = 4
TREATMENTS = DAYS * (TEMP_BASALS_PER_DAY + CORRECTIONS_PER_DAY + MEAL_BOLUSES_PER_DAY)
MFP_START = date(2024, 1, 1)
MFP_END = date(2025, 12, 31)   # two years, 731 days
MFP_ITEMS_PER_DAY = 12         # on average

CASES = {
    "a": f"a. Nightscout entries, {CGM_ENTRIES:,}",
    "b": f"b. Nightscout treatments, {TREATMENTS:,}",
    "c": "c. the same treatments again (all there)",
    "d": "d. MyFitnessPal export, 2 years (zip)",
}
EXPECTED_FORMAT = {"a": "nightscout", "b": "nightscout", "c": "nightscout", "d": "myfitnesspal"}
REPORT_LINES = [  # (key, pattern of a report line); the first group is the number
    ("read", re.compile(r"^Rows read: (\d+)$")),
    ("imported", re.compile(r"^Imported: (\d+)$")),
    ("already", re.compile(r"^Already in the journal: (\d+)$")),
    ("repeated", re.compile(r"^Repeated in the file \(counted once\): (\d+)$")),
    ("skipped", re.compile(r"^Skipped \(.*\): (\d+)$")),
    ("invalid", re.compile(r"^Invalid rows: (\d+)$")),
]
COUNT_KEYS = ["format", "read", "imported", "already", "repeated", "skipped"]


# Nightscout treatments -----------------------------------------------------------------------------------------

MEALS = ["Oatmeal with berries", "Scrambled eggs on toast", "Greek yogurt and granola", "Bagel with cream cheese",
         "Chicken Caesar wrap", "Turkey sandwich", "Lentil soup", "Sushi", "Burrito bowl", "Pho",
         "Spaghetti bolognese", "Pizza", "Chicken curry with rice", "Salmon and potatoes", "Tacos", "Stir fry",
         "Apple and peanut butter", "Banana", "Granola bar", "Crackers and cheese"]


def write_treatments(path: str) -> None:
    """A year of a Loop/AndroidAPS user's treatments, newest first as Nightscout's treatments.json answers."""
    rng = random.Random(13)
    used: set[int] = set()   # milliseconds of the boluses, so two never share an instant

    def millis_near(day: int, hour: float, spread_minutes: int) -> int:
        at = YEAR_START + timedelta(days=day, hours=hour, minutes=rng.uniform(0, spread_minutes))
        millis = int(at.timestamp() * 1000)
        while millis in used:
            millis += 1
        used.add(millis)
        return millis

    def stamp(millis: int) -> str:
        at = datetime.fromtimestamp(millis / 1000, timezone.utc)
        return at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{millis % 1000:03d}Z"

    records: list[tuple[int, dict]] = []
    for day in range(DAYS):
        for slot in range(TEMP_BASALS_PER_DAY):
            millis = int((YEAR_START + timedelta(days=day, minutes=30 * slot, seconds=rng.randrange(5))).timestamp() * 1000) \
                + rng.randrange(1000)
            rate = round(rng.choice([0, 0.05, 0.35, 0.55, 0.8, 0.95, 1.1, 1.4, 1.85]), 2)
            records.append((millis, {"eventType": "Temp Basal", "created_at": stamp(millis), "duration": 30, "rate": rate,
                                     "absolute": rate, "temp": "absolute", "enteredBy": "openaps://AndroidAPS",
                                     "utcOffset": 0}))
        for slot in range(CORRECTIONS_PER_DAY):
            millis = millis_near(day, 1 + slot * 4, 180)
            units = round(rng.uniform(0.2, 2.5), 2)
            records.append((millis, {"eventType": "Correction Bolus", "created_at": stamp(millis), "timestamp": stamp(millis),
                                     "insulin": units, "programmed": units, "unabsorbed": 0, "type": "normal",
                                     "enteredBy": "loop://iPhone", "utcOffset": 0}))
        for hour, carbs in ((7, (30, 70)), (12, (40, 90)), (16, (10, 30)), (19, (50, 110))):
            millis = millis_near(day, hour, 60)
            grams = rng.randrange(*carbs)
            records.append((millis, {"eventType": "Meal Bolus", "created_at": stamp(millis), "carbs": grams,
                                     "insulin": round(grams / 10 + rng.uniform(-0.5, 0.5), 2), "notes": rng.choice(MEALS),
                                     "enteredBy": "openaps://AndroidAPS", "utcOffset": 0}))
    records.sort(key=lambda record: record[0], reverse=True)
    machine = rng.randrange(1 << 24)
    with open(path, "w") as out:
        out.write("[\n")
        for index, (millis, treatment) in enumerate(records):
            treatment = {"_id": f"{millis // 1000:08x}{machine:06x}{index:010x}", **treatment}
            out.write(("  " if index == 0 else ",\n  ") + json.dumps(treatment))
        out.write("\n]\n")


# MyFitnessPal ---------------------------------------------------------------------------------------------------

# name: calories, fat, carbohydrates, protein (g) per logged item; the other columns follow from them
FOODS = {
    "Breakfast": [(150, 3, 27, 5), (95, 0.3, 25, 0.5), (220, 9, 24, 12), (140, 7, 1, 12), (110, 0, 28, 1),
                  (190, 16, 7, 7), (70, 5, 0, 6), (250, 4, 46, 9)],
    "Lunch": [(420, 18, 38, 26), (350, 12, 40, 20), (180, 9, 12, 14), (90, 0.5, 21, 2), (310, 14, 30, 16),
              (520, 24, 52, 25), (60, 0.2, 14, 1)],
    "Dinner": [(480, 20, 35, 38), (300, 2, 62, 10), (210, 12, 0, 24), (90, 4, 12, 3), (160, 0, 40, 1),
               (610, 28, 55, 33), (120, 8, 9, 4), (240, 10, 22, 15)],
    "Snacks": [(200, 16, 6, 8), (100, 0.3, 26, 0.5), (160, 14, 6, 6), (130, 5, 19, 3), (240, 12, 28, 6)],
}
ITEMS = {"Breakfast": (2, 4), "Lunch": (2, 4), "Dinner": (3, 5), "Snacks": (1, 3)}   # rows a day, inclusive
MEAL_HOURS = {"Breakfast": 7, "Lunch": 12, "Dinner": 18, "Snacks": 15}
NUTRITION_HEADER = ["Date", "Meal", "Time", "Calories", "Fat (g)", "Saturated Fat", "Polyunsaturated Fat",
                    "Monounsaturated Fat", "Trans Fat", "Cholesterol", "Sodium (mg)", "Potassium", "Carbohydrates (g)",
                    "Fiber", "Sugar", "Protein (g)", "Vitamin A", "Vitamin C", "Calcium", "Iron", "Note"]
CARDIO = ['"Walking, 3.5 mph, brisk pace"', '"Running (jogging), general"', '"Cycling, stationary, moderate"',
          "Swimming laps, freestyle, slow"]
STRENGTH = [("Bench Press, Barbell", 95), ("Squats", 135), ("Deadlift", 155), ("Overhead Press", 65), ("Rows, Dumbbell", 40)]


def twelve_hour(hour: int, minute: int) -> str:
    return f"{(hour - 1) % 12 + 1}:{minute:02d} {'AM' if hour < 12 else 'PM'}"


def mfp_csv(rows: list[list], bom: bool = False) -> bytes:
    text = io.StringIO()
    csv.writer(text, lineterminator="\r\n").writerows(rows)
    return (b"\xef\xbb\xbf" if bom else b"") + text.getvalue().encode()


def write_myfitnesspal(path: str) -> dict[str, int]:
    """The zip MyFitnessPal mails, for MFP_START to MFP_END; returns how many rows each file has."""
    rng = random.Random(17)
    one = lambda value: f"{value:.1f}"  # noqa: E731  MyFitnessPal writes one decimal
    nutrition, measurements, exercise = [NUTRITION_HEADER], [["Date", "Weight"]], [
        ["Date", "Exercise", "Type", "Exercise Calories", "Exercise Minutes", "Sets", "Reps Per Set", "Pounds", "Steps", "Note"]]
    weight = 184.0
    day = MFP_START
    while day <= MFP_END:
        text = day.isoformat()
        for meal, (low, high) in ITEMS.items():
            hour, minute = MEAL_HOURS[meal], rng.randrange(60)
            for _ in range(rng.randint(low, high)):
                calories, fat, carbs, protein = rng.choice(FOODS[meal])
                servings = rng.choice([0.5, 1, 1, 1, 1.5, 2])
                calories, fat, carbs, protein = (calories * servings, fat * servings, carbs * servings, protein * servings)
                time_text = "" if rng.random() < 0.3 else twelve_hour(hour, minute)
                minute = min(59, minute + rng.randrange(3))
                note = "" if rng.random() < 0.97 else rng.choice(["Mom's chili, 1.5 bowls", "eating out", "estimate"])
                nutrition.append([text, meal, time_text, one(calories), one(fat), one(fat * 0.35), one(fat * 0.2),
                                  one(fat * 0.4), one(0.0), one(protein * 4), one(calories * 1.6), one(calories * 1.2),
                                  one(carbs), one(carbs * 0.1), one(carbs * 0.3), one(protein),
                                  one(rng.randrange(30)), one(rng.randrange(40)), one(rng.randrange(25)),
                                  one(rng.randrange(20)), note])
        weight += rng.gauss(0, 0.5) + (184.0 - 0.015 * (day - MFP_START).days - weight) * 0.1  # about 11 lb lost
        if rng.random() < 0.75:
            measurements.append([text, one(weight)])
        steps = rng.randrange(2000, 16000)
        exercise.append([text, "MFP iOS calorie adjustment", "Cardio", one(steps * 0.025), "1", "", "", "", str(steps), ""])
        if day.weekday() in (0, 2, 5):
            minutes = rng.randrange(20, 60)
            exercise.append([text, rng.choice(CARDIO), "Cardio", one(minutes * rng.uniform(6, 11)), str(minutes),
                             "", "", "", "", ""])
        if day.weekday() in (1, 4):
            for name, pounds in rng.sample(STRENGTH, 3):
                exercise.append([text, name, "Strength", "", "", str(rng.randint(3, 5)), str(rng.choice([5, 8, 10])),
                                 one(pounds + 5 * rng.randrange(4)), "", "felt heavy" if rng.random() < 0.05 else ""])
        day += timedelta(days=1)
    span = f"{MFP_START.isoformat()}-to-{MFP_END.isoformat()}"
    folder = f"File-Export-{span}/"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, rows, bom in (("Exercise-Summary", exercise, False), ("Measurement-Summary", measurements, False),
                                ("Nutrition-Summary", nutrition, True)):
            archive.writestr(f"{folder}{name}-{span}.csv", mfp_csv(rows, bom))
    return {"nutrition": len(nutrition) - 1, "measurements": len(measurements) - 1, "exercise": len(exercise) - 1}


# Running --------------------------------------------------------------------------------------------------------

class Run:
    """One `cinn import` as a child process: its wall time, peak RSS, exit status, output and report's counts."""

    def __init__(self, binary: str, database: str, file: str, environment: dict):
        self.command = [binary, "import", "--database", database, file]
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            start = time.perf_counter()
            process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=environment)
            _, status, usage = os.wait4(process.pid, 0)
            self.seconds = time.perf_counter() - start
            process.returncode = self.returncode = os.waitstatus_to_exitcode(status)
            self.peak_mb = usage.ru_maxrss / 1024  # kilobytes on Linux
            out.seek(0)
            err.seek(0)
            self.stdout = out.read().decode(errors="replace")
            self.stderr = err.read().decode(errors="replace")
        self.counts: dict[str, object] = {key: 0 for key in COUNT_KEYS}
        self.counts["format"] = None
        self.invalid = 0
        seen = set()
        for line in self.stdout.splitlines():
            line = line.strip()
            if line.startswith("Format: "):
                self.counts["format"] = line.removeprefix("Format: ")
            for key, pattern in REPORT_LINES:
                if match := pattern.match(line):
                    seen.add(key)
                    if key == "invalid":
                        self.invalid = int(match[1])
                    else:
                        self.counts[key] = int(match[1])
        self.complete = self.counts["format"] is not None and {"read", "imported", "already"} <= seen

    def problem(self, expected_format: str) -> str | None:
        """Why this run does not count, or None."""
        if self.returncode != 0:
            return f"exit {self.returncode}: {(self.stderr.strip() or self.stdout.strip())[-300:]}"
        if not self.complete:
            return f"no import report in its output: {self.stdout.strip()[-300:]!r}"
        if self.invalid:
            return f"{self.invalid} invalid rows: {self.stdout.strip()[-300:]}"
        if self.counts["format"] != expected_format:
            return f"format {self.counts['format']}, not {expected_format}"
        return None


class Results:
    """Per (side, case): wall times, peak RSS, the counts of every run; failures counted with the first message."""

    def __init__(self):
        self.seconds: dict[tuple[str, str], list[float]] = {}
        self.peak_mb: dict[tuple[str, str], list[float]] = {}
        self.counts: dict[tuple[str, str], list[tuple]] = {}
        self.failures: dict[tuple[str, str], list] = {}

    def add(self, side: str, case: str, run: Run) -> bool:
        problem = run.problem(EXPECTED_FORMAT[case])
        if problem:
            entry = self.failures.setdefault((side, case), [0, problem, " ".join(run.command)])
            entry[0] += 1
            return False
        self.seconds.setdefault((side, case), []).append(run.seconds)
        self.peak_mb.setdefault((side, case), []).append(run.peak_mb)
        self.counts.setdefault((side, case), []).append(tuple(run.counts[key] for key in COUNT_KEYS))
        return True


def fresh_journal(empty: str, folder: str, name: str) -> str:
    """A new directory in `folder` holding a byte copy of the migrated empty journal; its database's path."""
    directory = tempfile.mkdtemp(prefix=f"{name}.", dir=folder)
    database = os.path.join(directory, "cinn.sqlite")
    shutil.copyfile(empty, database)
    return database


def run_case(case: str, side: str, binary: str, empty: str, folder: str, files: dict, environment: dict,
             results: Results, selected: list[str]) -> None:
    database = fresh_journal(empty, folder, f"{side}-{case}")
    try:
        if case in ("a", "d"):
            results.add(side, case, Run(binary, database, files[case], environment))
        elif case == "b":  # and c on the same journal, when asked for
            succeeded = results.add(side, "b", Run(binary, database, files["b"], environment))
            if "c" in selected:
                if succeeded:
                    results.add(side, "c", Run(binary, database, files["b"], environment))
                else:
                    results.failures.setdefault((side, "c"), [0, "the first import (b) failed", ""])[0] += 1
        elif case == "c":  # alone: the first import untimed
            first = Run(binary, database, files["b"], environment)
            if problem := first.problem("nightscout"):
                results.failures.setdefault((side, "c"), [0, f"the first import failed: {problem}", " ".join(first.command)])[0] += 1
            else:
                results.add(side, "c", Run(binary, database, files["b"], environment))
    finally:
        shutil.rmtree(os.path.dirname(database), ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", default=",".join(CASES), help="cases to run, e.g. a,c (default: all of a,b,c,d)")
    arguments = parser.parse_args()
    selected = [case.strip() for case in arguments.only.split(",") if case.strip()]
    if not selected or any(case not in CASES for case in selected):
        parser.error(f"--only takes some of {','.join(CASES)}")
    selected = [case for case in CASES if case in selected]
    if arguments.rounds < 1:
        parser.error("--rounds must be at least 1")
    binaries = {"before": os.path.abspath(arguments.before), "after": os.path.abspath(arguments.after)}
    for binary in binaries.values():
        if not os.access(binary, os.X_OK):
            parser.error(f"{binary} is not an executable file")
    # The children read their time zone from TZ and nothing of the caller's Cinn settings (CINN_DATABASE could name
    # another database; --database wins, but leave no doubt).
    environment = {key: value for key, value in os.environ.items() if not key.startswith("CINN_")}
    environment["TZ"] = "UTC"

    folder = tempfile.mkdtemp(prefix="cinn-imports-side-by-side.")
    try:
        files: dict[str, str] = {}
        if "a" in selected:
            files["a"] = os.path.join(folder, "entries.json")
            write_nightscout(files["a"])
            print(f"a: entries.json {os.path.getsize(files['a']) / 1e6:.1f} MB, {CGM_ENTRIES:,} entries", file=sys.stderr)
        if "b" in selected or "c" in selected:
            files["b"] = os.path.join(folder, "treatments.json")
            write_treatments(files["b"])
            print(f"b, c: treatments.json {os.path.getsize(files['b']) / 1e6:.1f} MB, {TREATMENTS:,} treatments",
                  file=sys.stderr)
        if "d" in selected:
            files["d"] = os.path.join(folder, f"File-Export-{MFP_START.isoformat()}-to-{MFP_END.isoformat()}.zip")
            rows = write_myfitnesspal(files["d"])
            print(f"d: {os.path.basename(files['d'])} {os.path.getsize(files['d']) / 1e6:.2f} MB, "
                  + ", ".join(f"{count:,} {name} rows" for name, count in rows.items()), file=sys.stderr)

        empties = {}
        for side, binary in binaries.items():
            empties[side] = os.path.join(folder, f"empty-{side}.sqlite")
            result = subprocess.run([binary, "migrate", "--database", empties[side]], capture_output=True, text=True,
                                    env=environment, stdin=subprocess.DEVNULL)
            if result.returncode != 0:
                raise SystemExit(f"{binary} migrate: exit {result.returncode}: {result.stderr.strip()[-300:]}")

        results = Results()
        load = [os.getloadavg()[0]]
        started = datetime.now(timezone.utc)
        timed = [case for case in selected if case != "c" or "b" not in selected]  # c rides on b's journal
        for round in range(arguments.rounds):
            order = ["before", "after"] if round % 2 == 0 else ["after", "before"]
            for case in timed:
                for side in order:
                    run_case(case, side, binaries[side], empties[side], folder, files, environment, results, selected)
                load.append(os.getloadavg()[0])
            print(f"round {round + 1}/{arguments.rounds} done", file=sys.stderr)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    print(f"{arguments.rounds} round{'s' if arguments.rounds != 1 else ''} from {started:%Y-%m-%d %H:%M} UTC, "
          f"{os.cpu_count()} cores, load average (1 min) {min(load):.1f}-{max(load):.1f}")
    print(f"before: `{binaries['before']}`, after: `{binaries['after']}`")
    print()
    print("| figure | before | after | after/before |")
    print("|---|---:|---:|---:|")

    def median(values: dict, side: str, case: str) -> float | None:
        samples = values.get((side, case))
        return statistics.median(samples) if samples else None

    for case in selected:
        for label, values, shown in ((CASES[case] + ": wall time", results.seconds, lambda s: f"{s * 1000:,.0f} ms"),
                                     ("— peak RSS", results.peak_mb, lambda m: f"{m:,.0f} MB")):
            before, after = median(values, "before", case), median(values, "after", case)
            ratio = f"{after / before:.3f}" if before and after else "—"
            print(f"| {label} | {shown(before) if before is not None else 'failed'} | "
                  f"{shown(after) if after is not None else 'failed'} | {ratio} |")

    print()
    print("Counts from the reports (format, rows read, imported, already in the journal, repeated in the file, skipped):")
    print()
    print("| case | before | after | same |")
    print("|---|---|---|---|")
    notes = []
    for case in selected:
        shown = {}
        for side in binaries:
            runs = results.counts.get((side, case), [])
            distinct = sorted(set(runs), key=runs.index)
            if len(distinct) > 1:
                notes.append(f"{side}, {CASES[case]}: the counts changed between rounds: {distinct}")
            shown[side] = distinct[0] if distinct else None
        text = {side: ", ".join(f"{value:,}" if isinstance(value, int) else str(value) for value in counts)
                if counts else "failed" for side, counts in shown.items()}
        same = "yes" if shown["before"] is not None and shown["before"] == shown["after"] else "**no**"
        if shown["before"] is not None and shown["after"] is not None and shown["before"] != shown["after"]:
            notes.append(f"{CASES[case]}: the builds' counts differ (before {text['before']}; after {text['after']})")
        print(f"| {CASES[case]} | {text['before']} | {text['after']} | {same} |")
    if results.failures:
        print()
        print("Failed runs (side, case: how many; first message; command):")
        for (side, case), (count, message, command) in sorted(results.failures.items()):
            print(f"- {side}, {CASES[case]}: {count}; {message}; `{command}`")
    if notes:
        print()
        print("Notes:")
        for note in notes:
            print(f"- {note}")
    return 1 if results.failures else 0


if __name__ == "__main__":
    sys.exit(main())
