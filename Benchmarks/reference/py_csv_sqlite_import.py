#!/usr/bin/env python3
# Benchmark helper: the plain-Python Fitbod CSV -> SQLite importer that Cinn's imports are compared with.
"""Baseline: plain Python Fitbod CSV -> SQLite importer (csv + sqlite3, stdlib only).

    python py_csv_sqlite_import.py WorkoutExport.csv workouts.sqlite [--batch 10000]

What a competent engineer would write without special tuning:
  * streams the file with csv.reader (constant memory), columns looked up by
    header name (multiplier optional, as in older exports);
  * parses every cell: the Date once per distinct timestamp ("YYYY-MM-DD
    HH:MM:SS +0000" -> Unix seconds), reps int, numbers float (int()/float()
    accept the leading space some exports pad with), isWarmup case-insensitive,
    empty Note -> NULL;
  * one workout per distinct timestamp (workouts keyed by timestamp, UNIQUE),
    its id cached in a dict; every row becomes one set, numbered within its
    workout (identical consecutive rows are separate sets, never deduped);
  * everything in ONE transaction, sets inserted with executemany in batches;
  * SQLite defaults otherwise (rollback journal, synchronous=FULL, default
    cache), schema with its index created before the load, as an app DB has.
A malformed row aborts the import (rolled back) with its line number.
Prints one JSON line with rows, workouts, seconds and rows/s.
"""
import argparse
import csv
import datetime as dt
import json
import os
import sqlite3
import sys
import time

SCHEMA = """
CREATE TABLE IF NOT EXISTS workouts (
    id          INTEGER PRIMARY KEY,
    started_at  INTEGER NOT NULL UNIQUE,   -- Unix seconds (UTC): the Fitbod workout key
    source      TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sets (
    id          INTEGER PRIMARY KEY,
    workout_id  INTEGER NOT NULL REFERENCES workouts(id),
    set_index   INTEGER NOT NULL,          -- order within the workout, from 1
    exercise    TEXT NOT NULL,
    reps        INTEGER NOT NULL,
    weight_kg   REAL NOT NULL,
    duration_s  REAL NOT NULL,
    distance_m  REAL NOT NULL,
    incline     REAL NOT NULL,
    resistance  REAL NOT NULL,
    is_warmup   INTEGER NOT NULL,
    note        TEXT,
    multiplier  REAL
);
CREATE INDEX IF NOT EXISTS sets_workout ON sets(workout_id, set_index);
"""

REQUIRED = ["Date", "Exercise", "Reps", "Weight(kg)", "Duration(s)", "Distance(m)",
            "Incline", "Resistance", "isWarmup", "Note"]

INSERT_SET = ("INSERT INTO sets (workout_id, set_index, exercise, reps, weight_kg, duration_s,"
              " distance_m, incline, resistance, is_warmup, note, multiplier)"
              " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)")


def import_fitbod(csv_path, db_path, batch_size=10000):
    conn = sqlite3.connect(db_path, isolation_level=None)  # explicit BEGIN/COMMIT below
    conn.executescript(SCHEMA)
    cur = conn.cursor()
    rows = 0
    workout_ids = {}      # started_at (int) -> workouts.id
    next_set_index = {}   # workouts.id -> next set_index
    last_date_raw, last_wid = None, None
    batch = []
    with open(csv_path, newline="", encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        header = [h.strip() for h in next(reader)]
        missing = [c for c in REQUIRED if c not in header]
        if missing:
            raise SystemExit(f"not a Fitbod export: missing column(s) {missing}; found {header}")
        col = {name: header.index(name) for name in header}
        i_date, i_ex, i_reps, i_w = col["Date"], col["Exercise"], col["Reps"], col["Weight(kg)"]
        i_dur, i_dist, i_inc, i_res = col["Duration(s)"], col["Distance(m)"], col["Incline"], col["Resistance"]
        i_warm, i_note = col["isWarmup"], col["Note"]
        i_mult = col.get("multiplier")

        cur.execute("BEGIN")
        try:
            for line_no, r in enumerate(reader, start=2):
                if not r:
                    continue  # blank line
                try:
                    date_raw = r[i_date]
                    if date_raw != last_date_raw:
                        ts = int(dt.datetime.strptime(date_raw.strip(), "%Y-%m-%d %H:%M:%S %z").timestamp())
                        wid = workout_ids.get(ts)
                        if wid is None:
                            cur.execute("INSERT INTO workouts (started_at, source) VALUES (?, 'fitbod')", (ts,))
                            wid = cur.lastrowid
                            workout_ids[ts] = wid
                            next_set_index[wid] = 1
                        last_date_raw, last_wid = date_raw, wid
                    wid = last_wid
                    exercise = r[i_ex].strip()
                    if not exercise:
                        raise ValueError("empty Exercise")
                    warm = r[i_warm].strip().lower()
                    if warm not in ("true", "false"):
                        raise ValueError(f"isWarmup {r[i_warm]!r}")
                    set_index = next_set_index[wid]
                    next_set_index[wid] = set_index + 1
                    batch.append((
                        wid, set_index, exercise,
                        int(r[i_reps]), float(r[i_w]), float(r[i_dur]), float(r[i_dist]),
                        float(r[i_inc]), float(r[i_res]),
                        1 if warm == "true" else 0,
                        r[i_note] or None,
                        float(r[i_mult]) if i_mult is not None and i_mult < len(r) and r[i_mult] != "" else None,
                    ))
                except (ValueError, IndexError) as e:
                    raise SystemExit(f"{csv_path}:{line_no}: bad row ({e}): {r}")
                rows += 1
                if len(batch) >= batch_size:
                    cur.executemany(INSERT_SET, batch)
                    batch.clear()
            if batch:
                cur.executemany(INSERT_SET, batch)
                batch.clear()
            cur.execute("COMMIT")
        except BaseException:
            cur.execute("ROLLBACK")
            raise
    conn.close()
    return rows, len(workout_ids)


def main():
    ap = argparse.ArgumentParser(description="Import a Fitbod CSV into SQLite (plain Python baseline).")
    ap.add_argument("csv")
    ap.add_argument("db")
    ap.add_argument("--batch", type=int, default=10000, help="rows per executemany (default 10000)")
    ap.add_argument("--fresh", action="store_true", help="delete the database file first")
    args = ap.parse_args()
    if args.fresh:
        for suffix in ("", "-journal", "-wal", "-shm"):
            if os.path.exists(args.db + suffix):
                os.remove(args.db + suffix)
    t0 = time.perf_counter()
    rows, workouts = import_fitbod(args.csv, args.db, args.batch)
    secs = time.perf_counter() - t0
    print(json.dumps({
        "rows": rows, "workouts": workouts, "seconds": round(secs, 3),
        "rows_per_s": round(rows / secs) if secs else None,
        "db_bytes": os.path.getsize(args.db), "sqlite": sqlite3.sqlite_version,
        "python": sys.version.split()[0], "batch": args.batch,
    }))


if __name__ == "__main__":
    main()
