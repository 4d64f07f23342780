#!/usr/bin/env python3
"""Cinn's MyFitnessPal import job in plain Python (zipfile + csv + sqlite3), for the side-by-side with
`cinn import export.zip` (Benchmarks/energy/run.sh).

    python3 Benchmarks/reference/py_mfp_import.py export.zip /tmp/mfp-ref.sqlite --fresh [--time-zone Europe/Berlin]

The same work as Journal.importMyFitnessPal, minus what Cinn's other tables need: the three CSV files
read from the zip in memory (matched by name prefix, UTF-8 with or without BOM); per Nutrition-Summary
row a food log entry (12-hour time or the meal's usual time, resolved in the time zone; %DV columns
turned into amounts by the Daily Values Cinn uses; nutrients as the same JSON text, in catalogue order),
per Measurement-Summary weight a weigh-in at local noon in kg (unit from the Exercise-Summary header),
per Exercise-Summary row an exercise at local noon (one layer of literal quotes stripped); every row
gets Cinn's kind of external id (a 64-bit hash of its cells plus "#n" counting identical rows before it)
and a UUIDv7; the rows already in the journal by external id are skipped; all of it in one
transaction recorded as an `imports` row, versions reserved from `users.last_version`. The tables and
indexes are Cinn's (SQLite DDL copied from the migrations in Sources/CinnStore/Migrations/), so SQLite
maintains the same indexes. Rows go in with executemany (one prepared statement per table).

Prints one JSON line: seconds (after the interpreter has started) and the counts.
"""
import argparse
import csv
import datetime
import hashlib
import io
import json
import os
import random
import sqlite3
import sys
import time
import zipfile
from zoneinfo import ZoneInfo

SCHEMA = """
CREATE TABLE users (
    row_id INTEGER PRIMARY KEY, id BLOB NOT NULL UNIQUE, name TEXT NOT NULL UNIQUE,
    last_version INTEGER NOT NULL DEFAULT 0, created_at_ms INTEGER NOT NULL);
CREATE TABLE imports (
    row_id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(row_id), format TEXT NOT NULL, file_name TEXT,
    rows_read INTEGER NOT NULL DEFAULT 0, imported INTEGER NOT NULL DEFAULT 0, duplicates INTEGER NOT NULL DEFAULT 0,
    rejected INTEGER NOT NULL DEFAULT 0, created_at_ms INTEGER NOT NULL, undone_at_ms INTEGER);
CREATE INDEX imports_user ON imports (user_id, row_id);
CREATE TABLE weigh_ins (
    row_id INTEGER PRIMARY KEY, id BLOB NOT NULL UNIQUE, user_id INTEGER NOT NULL REFERENCES users(row_id),
    measured_at_ms INTEGER NOT NULL, utc_offset_s INTEGER NOT NULL CHECK (utc_offset_s BETWEEN -64800 AND 64800),
    local_day INTEGER NOT NULL, weight_kg REAL NOT NULL CHECK (weight_kg > 0 AND weight_kg <= 700), note TEXT,
    source TEXT NOT NULL, external_id TEXT, import_id INTEGER REFERENCES imports(row_id), created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL, version INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)));
CREATE UNIQUE INDEX weigh_ins_external ON weigh_ins (user_id, external_id) WHERE deleted = 0 AND external_id IS NOT NULL;
CREATE INDEX weigh_ins_day ON weigh_ins (user_id, local_day, weight_kg) WHERE deleted = 0;
CREATE INDEX weigh_ins_time ON weigh_ins (user_id, measured_at_ms) WHERE deleted = 0;
CREATE INDEX weigh_ins_import ON weigh_ins (import_id) WHERE import_id IS NOT NULL;
CREATE TABLE food_entries (
    row_id INTEGER PRIMARY KEY, id BLOB NOT NULL UNIQUE, user_id INTEGER NOT NULL REFERENCES users(row_id), food_id BLOB,
    name TEXT NOT NULL, brand TEXT, search_key TEXT NOT NULL, meal TEXT NOT NULL, eaten_at_ms INTEGER NOT NULL,
    utc_offset_s INTEGER NOT NULL CHECK (utc_offset_s BETWEEN -64800 AND 64800), local_day INTEGER NOT NULL,
    servings REAL NOT NULL CHECK (servings > 0), serving_label TEXT NOT NULL, serving_amount REAL CHECK (serving_amount > 0),
    nutrients TEXT NOT NULL, energy_kcal REAL NOT NULL CHECK (energy_kcal >= 0), note TEXT, source TEXT NOT NULL,
    external_id TEXT, import_id INTEGER REFERENCES imports(row_id), created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL, version INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)));
CREATE INDEX food_entries_day ON food_entries (user_id, local_day, eaten_at_ms) WHERE deleted = 0;
CREATE INDEX food_entries_food ON food_entries (user_id, food_id, eaten_at_ms) WHERE deleted = 0;
CREATE UNIQUE INDEX food_entries_external ON food_entries (user_id, external_id) WHERE deleted = 0 AND external_id IS NOT NULL;
CREATE INDEX food_entries_import ON food_entries (import_id) WHERE import_id IS NOT NULL;
CREATE TABLE exercise_entries (
    row_id INTEGER PRIMARY KEY, id BLOB NOT NULL UNIQUE, user_id INTEGER NOT NULL REFERENCES users(row_id),
    performed_at_ms INTEGER NOT NULL, utc_offset_s INTEGER NOT NULL CHECK (utc_offset_s BETWEEN -64800 AND 64800),
    local_day INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('cardio', 'strength')),
    energy_kcal REAL CHECK (energy_kcal >= 0), minutes REAL CHECK (minutes >= 0), sets INTEGER CHECK (sets >= 0),
    reps_per_set INTEGER CHECK (reps_per_set >= 0), weight_kg REAL CHECK (weight_kg >= 0), steps INTEGER CHECK (steps >= 0),
    note TEXT, source TEXT NOT NULL, external_id TEXT, import_id INTEGER REFERENCES imports(row_id),
    created_at_ms INTEGER NOT NULL, updated_at_ms INTEGER NOT NULL, version INTEGER NOT NULL,
    deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)));
CREATE INDEX exercise_entries_day ON exercise_entries (user_id, local_day) WHERE deleted = 0;
CREATE UNIQUE INDEX exercise_entries_external ON exercise_entries (user_id, external_id) WHERE deleted = 0 AND external_id IS NOT NULL;
CREATE INDEX exercise_entries_import ON exercise_entries (import_id) WHERE import_id IS NOT NULL;
"""

# Nutrition-Summary columns: (header names, nutrient key, %DV column).
NUTRITION = [(["Calories"], "energy", False), (["Fat (g)", "Fat"], "fat", False),
             (["Saturated Fat", "Saturated Fat (g)"], "saturated_fat", False),
             (["Polyunsaturated Fat", "Polyunsaturated Fat (g)"], "polyunsaturated_fat", False),
             (["Monounsaturated Fat", "Monounsaturated Fat (g)"], "monounsaturated_fat", False),
             (["Trans Fat", "Trans Fat (g)"], "trans_fat", False), (["Cholesterol", "Cholesterol (mg)"], "cholesterol", False),
             (["Sodium (mg)", "Sodium"], "sodium", False), (["Potassium", "Potassium (mg)"], "potassium", False),
             (["Carbohydrates (g)", "Carbohydrates"], "carbohydrate", False), (["Fiber", "Fiber (g)"], "fiber", False),
             (["Sugar", "Sugar (g)"], "sugars", False), (["Protein (g)", "Protein"], "protein", False),
             (["Vitamin A"], "vitamin_a", True), (["Vitamin C"], "vitamin_c", True), (["Calcium"], "calcium", True),
             (["Iron"], "iron", True)]
DAILY_VALUES = {"vitamin_a": 900, "vitamin_c": 90, "calcium": 1300, "iron": 18}
# Cinn's catalogue order (Nutrient.all), in which the nutrients text lists them.
CATALOGUE = ["energy", "protein", "carbohydrate", "fat", "saturated_fat", "monounsaturated_fat", "polyunsaturated_fat",
             "trans_fat", "cholesterol", "fiber", "sugars", "sodium", "potassium", "calcium", "iron", "vitamin_a", "vitamin_c"]
USUAL_SECONDS = {"breakfast": 8 * 3600, "lunch": 12 * 3600 + 1800, "snacks": 15 * 3600, "dinner": 19 * 3600}
POUND = 0.45359237
EPOCH = datetime.date(1970, 1, 1)
SOURCE = "import:myfitnesspal"


class Rejected(Exception):
    pass


class Identities:
    """mfp: + a 64-bit hash of the row's cells + #n, n counting identical rows before it (per file)."""

    def __init__(self, kind, salt=""):
        self.seed = hashlib.blake2b((kind + "\x1f" + salt + "\xff").encode(), digest_size=8)
        self.seen = {}

    def next(self, row, columns):
        digest = self.seed.copy()
        for column in columns:
            digest.update(row[column].strip().encode() + b"\xff")
        value = digest.hexdigest()
        occurrence = self.seen.get(value, 0)
        self.seen[value] = occurrence + 1
        return f"mfp:{value}#{occurrence}"


class Clock:
    def __init__(self, zone):
        self.zone = zone
        self.rng = random.Random()

    def resolve(self, day, seconds):
        local = datetime.datetime.combine(day, datetime.time()) + datetime.timedelta(seconds=seconds)
        offset = int(local.replace(tzinfo=self.zone).utcoffset().total_seconds())
        instant_ms = ((day - EPOCH).days * 86400 + seconds - offset) * 1000
        return instant_ms, offset

    def uuid7(self, ms):
        value = (ms << 80) | (0x7 << 76) | (self.rng.getrandbits(12) << 64) | (0b10 << 62) | self.rng.getrandbits(62)
        return value.to_bytes(16, "big")


def date_of(text):
    try:
        return datetime.date.fromisoformat(text.strip())
    except ValueError:
        raise Rejected(f"Date {text!r} is not a date")


def amount(text, header):
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise Rejected(f"{header} {text!r} is not a number")
    if value < 0 or value != value:
        raise Rejected(f"{header} must not be negative")
    return value


def seconds_of_day(text):
    text = text.strip()
    suffix = text[-2:].upper()
    clock = text[:-2].strip() if suffix in ("AM", "PM") else text
    parts = clock.split(":")
    if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts):
        raise Rejected(f"Time {text!r} is not a time of day")
    hour, minute = int(parts[0]), int(parts[1])
    second = int(parts[2]) if len(parts) == 3 else 0
    if suffix in ("AM", "PM"):
        if not 1 <= hour <= 12:
            raise Rejected(f"Time {text!r} is not a time of day")
        hour = hour % 12 + (12 if suffix == "PM" else 0)
    return hour * 3600 + minute * 60 + second


def number(value):
    return str(int(value)) if value == int(value) and abs(value) < 2 ** 53 else repr(value)


def search_key(text):
    return " ".join("".join(c if c.isalnum() else " " for c in text.lower()).split())


def load(path):
    """The export's files by kind: name -> (kind, header, rows), read from the zip in memory."""
    files = []
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            if info.is_dir():
                continue
            base = info.filename.replace("\\", "/").rsplit("/", 1)[-1].lower()
            kind = next((k for k in ("nutrition-summary", "measurement-summary", "exercise-summary")
                         if base.startswith(k) and base.endswith(".csv")), None)
            if kind:
                text = archive.read(info).decode("utf-8-sig")
                rows = list(csv.reader(io.StringIO(text, newline="")))
                files.append((info.filename, kind, rows[0], [r for r in rows[1:] if any(cell.strip() for cell in r)]))
    return sorted(files)


def index(header, *names):
    keys = [h.strip().lower() for h in header]
    for name in names:
        if name.lower() in keys:
            return keys.index(name.lower())
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("zip")
    parser.add_argument("database")
    parser.add_argument("--fresh", action="store_true", help="delete the database first")
    parser.add_argument("--time-zone", default="Europe/Berlin")
    args = parser.parse_args()
    if args.fresh:
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(args.database + suffix):
                os.remove(args.database + suffix)

    start = time.perf_counter()
    db = sqlite3.connect(args.database, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA foreign_keys = ON")
    if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'users'").fetchone():
        db.executescript(SCHEMA)
        db.execute("INSERT INTO users (id, name, created_at_ms) VALUES (?, 'local', ?)",
                   (os.urandom(16), int(time.time() * 1000)))
    user = db.execute("SELECT row_id FROM users WHERE name = 'local'").fetchone()[0]
    setup = time.perf_counter() - start

    clock = Clock(ZoneInfo(args.time_zone))
    files = load(args.zip)
    unit = None
    for _, kind, header, _ in files:
        if kind == "exercise-summary":
            unit = POUND if index(header, "Pounds") is not None else 1.0 if index(header, "Kilograms") is not None else unit
    entries, weigh_ins, exercises, rejected, rows_read, skipped = [], [], [], [], 0, 0
    for name, kind, header, rows in files:
        rows_read += len(rows)
        if kind == "nutrition-summary":
            date_i, meal_i, time_i, note_i = index(header, "Date"), index(header, "Meal"), index(header, "Time"), index(header, "Note")
            amounts = [(index(header, *names), names[0], key, dv) for names, key, dv in NUTRITION if index(header, *names) is not None]
            identity = [date_i, meal_i] + [i for i in (time_i, note_i) if i is not None] + [a[0] for a in amounts]
            ids = Identities("Nutrition-Summary")
            for line, row in enumerate(rows, start=2):
                external = ids.next(row, identity)
                try:
                    day = date_of(row[date_i])
                    meal = row[meal_i].strip()
                    if not meal:
                        raise Rejected("the meal is empty")
                    lowered = meal.lower()
                    meal_name = {"snack": "snacks"}.get(lowered, lowered if lowered in USUAL_SECONDS else meal)
                    title = meal_name.capitalize() if lowered in USUAL_SECONDS or lowered == "snack" else meal
                    seconds = USUAL_SECONDS.get(meal_name, 12 * 3600)
                    if time_i is not None and row[time_i].strip():
                        seconds = seconds_of_day(row[time_i])
                    values = {}
                    for column, header_name, key, dv in amounts:
                        value = amount(row[column], header_name)
                        if value is not None:
                            values[key] = DAILY_VALUES[key] * value / 100 if dv else value
                    nutrients = "{" + ",".join(f'"{k}":{number(values[k])}' for k in CATALOGUE if k in values) + "}"
                    ms, offset = clock.resolve(day, seconds)
                    local_day = (day - EPOCH).days
                    note = row[note_i].strip() or None if note_i is not None else None
                    entry_name = f"{title} (MyFitnessPal)"
                    entries.append([clock.uuid7(ms), user, entry_name, search_key(entry_name), meal_name, ms, offset, local_day,
                                    1.0, "1 meal", nutrients, values.get("energy", 0.0), note, SOURCE, external])
                except Rejected as error:
                    rejected.append((name, line, str(error)))
        elif kind == "measurement-summary":
            date_i, weight_i = index(header, "Date"), index(header, "Weight")
            ids = Identities("Measurement-Summary", "lb" if unit == POUND else "kg")
            for line, row in enumerate(rows, start=2):
                if not row[weight_i].strip():
                    skipped += 1
                    continue
                external = ids.next(row, [date_i, weight_i])
                try:
                    day = date_of(row[date_i])
                    kilograms = amount(row[weight_i], "Weight") * unit
                    if not 0 < kilograms <= 700:
                        raise Rejected("Weight is not a body weight")
                    ms, offset = clock.resolve(day, 12 * 3600)
                    weigh_ins.append([clock.uuid7(ms), user, ms, offset, (day - EPOCH).days, kilograms, None, SOURCE, external])
                except Rejected as error:
                    rejected.append((name, line, str(error)))
        else:
            cols = {key: index(header, *names) for key, names in {
                "date": ["Date"], "name": ["Exercise"], "type": ["Type"], "energy": ["Exercise Calories", "Calories"],
                "minutes": ["Exercise Minutes", "Minutes"], "sets": ["Sets"], "reps": ["Reps Per Set"],
                "weight": ["Pounds", "Kilograms"], "steps": ["Steps"], "note": ["Note"]}.items()}
            factor = POUND if index(header, "Pounds") is not None else 1.0
            identity = [i for i in cols.values() if i is not None]
            ids = Identities("Exercise-Summary", "lb" if factor == POUND else "kg")
            for line, row in enumerate(rows, start=2):
                external = ids.next(row, identity)
                try:
                    day = date_of(row[cols["date"]])
                    name_text = row[cols["name"]].strip()
                    if len(name_text) >= 2 and name_text[0] == '"' and name_text[-1] == '"':
                        name_text = name_text[1:-1].strip()
                    if not name_text:
                        raise Rejected("the exercise has no name")
                    kind_text = row[cols["type"]].strip().lower()
                    if kind_text not in ("cardio", "strength"):
                        raise Rejected(f"Type {kind_text!r} is neither Cardio nor Strength")
                    def get(key):
                        return amount(row[cols[key]], key) if cols[key] is not None else None
                    def count(key):
                        value = get(key)
                        if value is not None and value != int(value):
                            raise Rejected(f"{key} is not a whole number")
                        return None if value is None else int(value)
                    weight = get("weight")
                    ms, offset = clock.resolve(day, 12 * 3600)
                    exercises.append([clock.uuid7(ms), user, ms, offset, (day - EPOCH).days, name_text, kind_text,
                                      get("energy"), get("minutes"), count("sets"), count("reps"),
                                      None if weight is None else weight * factor, count("steps"),
                                      row[cols["note"]].strip() or None if cols["note"] is not None else None, SOURCE, external])
                except Rejected as error:
                    rejected.append((name, line, str(error)))
    parsed = time.perf_counter() - start

    imported = 0
    if not rejected:
        created = int(time.time() * 1000)
        db.execute("BEGIN IMMEDIATE")
        import_id = db.execute("INSERT INTO imports (user_id, format, file_name, created_at_ms) VALUES (?, 'myfitnesspal', ?, ?) "
                               "RETURNING row_id", (user, os.path.basename(args.zip), created)).fetchone()[0]

        def fresh(table, rows, external_index):
            known = {r[0] for r in db.execute(f"SELECT external_id FROM {table} WHERE user_id = ? AND deleted = 0 "
                                              "AND external_id LIKE 'mfp:%'", (user,))}
            rows = [r for r in rows if r[external_index] not in known]
            last = db.execute("UPDATE users SET last_version = last_version + ? WHERE row_id = ? RETURNING last_version",
                              (len(rows), user)).fetchone()[0]
            first = last - len(rows) + 1
            return [r + [import_id, created, created, first + i] for i, r in enumerate(rows)]

        rows = fresh("food_entries", entries, 14)
        db.executemany("INSERT INTO food_entries (id, user_id, name, search_key, meal, eaten_at_ms, utc_offset_s, local_day, servings, "
                       "serving_label, nutrients, energy_kcal, note, source, external_id, import_id, created_at_ms, updated_at_ms, "
                       "version) VALUES (" + ",".join("?" * 19) + ")", rows)
        imported += len(rows)
        rows = fresh("exercise_entries", exercises, 15)
        db.executemany("INSERT INTO exercise_entries (id, user_id, performed_at_ms, utc_offset_s, local_day, name, kind, energy_kcal, "
                       "minutes, sets, reps_per_set, weight_kg, steps, note, source, external_id, import_id, created_at_ms, "
                       "updated_at_ms, version) VALUES (" + ",".join("?" * 20) + ")", rows)
        imported += len(rows)
        rows = fresh("weigh_ins", weigh_ins, 8)
        db.executemany("INSERT INTO weigh_ins (id, user_id, measured_at_ms, utc_offset_s, local_day, weight_kg, note, source, "
                       "external_id, import_id, created_at_ms, updated_at_ms, version) VALUES (" + ",".join("?" * 13) + ")", rows)
        imported += len(rows)
        db.execute("UPDATE imports SET rows_read = ?, imported = ?, duplicates = ?, rejected = 0 WHERE row_id = ?",
                   (rows_read, imported, len(entries) + len(exercises) + len(weigh_ins) - imported, import_id))
        db.execute("COMMIT")
    db.close()
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": round(seconds, 3), "setup_seconds": round(setup, 3), "parse_seconds": round(parsed - setup, 3),
                      "write_seconds": round(seconds - parsed, 3), "rows_read": rows_read, "skipped": skipped,
                      "entries": len(entries), "weigh_ins": len(weigh_ins), "exercises": len(exercises), "imported": imported,
                      "rejected": len(rejected), "first_rejections": rejected[:3]}))
    return 1 if rejected else 0


if __name__ == "__main__":
    sys.exit(main())
