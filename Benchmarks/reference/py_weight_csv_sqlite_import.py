#!/usr/bin/env python3
"""Reference: plain-Python importer of a generic weight CSV into Cinn's own SQLite schema.

    python3 py_weight_csv_sqlite_import.py weights.csv journal.sqlite [--tz Europe/Berlin] [--fresh]

The same job as `cinn import weights.csv --unit kg` (Journal.importFile), written the way a
competent engineer would with the standard library (csv, sqlite3, zoneinfo), so the two can be
compared row for row. It mirrors py_csv_sqlite_import.py beside it (the reference importer of
docs/DESIGN.md, "Bulk insert"; a Fitbod importer) in style: streamed csv.reader, every cell
parsed, one transaction, executemany in batches. What it does per row, as Cinn does:
  * `date` is an ISO 8601 local time without an offset, read in the journal's time zone (DST
    rules included) -> UTC instant in ms + the UTC offset in seconds + the local day number;
  * `weight` in kg, checked finite, > 0 and <= 700;
  * a 16-byte time-ordered UUID (v7) per row, the dedup key "csv:<ms>:<milligrams>", and
    INSERT ... ON CONFLICT (user_id, external_id) DO NOTHING against the partial unique index;
  * the import recorded as a batch (imports row), the sync version counter advanced.
Schema and pragmas as Cinn's migration 1 and SQLiteSource (WAL, synchronous=NORMAL).
Prints one JSON line with rows, seconds and rows/s.
"""
import argparse
import csv
import datetime as dt
import json
import math
import os
import sqlite3
import sys
import time
from zoneinfo import ZoneInfo

SCHEMA = """
CREATE TABLE users (row_id INTEGER PRIMARY KEY, id BLOB NOT NULL UNIQUE, name TEXT NOT NULL UNIQUE,
    last_version INTEGER NOT NULL DEFAULT 0, created_at_ms INTEGER NOT NULL);
CREATE TABLE imports (row_id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(row_id),
    format TEXT NOT NULL, file_name TEXT, rows_read INTEGER NOT NULL DEFAULT 0,
    imported INTEGER NOT NULL DEFAULT 0, duplicates INTEGER NOT NULL DEFAULT 0,
    rejected INTEGER NOT NULL DEFAULT 0, created_at_ms INTEGER NOT NULL, undone_at_ms INTEGER);
CREATE INDEX imports_user ON imports (user_id, row_id);
CREATE TABLE weigh_ins (
    row_id INTEGER PRIMARY KEY,
    id BLOB NOT NULL UNIQUE,
    user_id INTEGER NOT NULL REFERENCES users(row_id),
    measured_at_ms INTEGER NOT NULL,
    utc_offset_s INTEGER NOT NULL CHECK (utc_offset_s BETWEEN -64800 AND 64800),
    local_day INTEGER NOT NULL,
    weight_kg REAL NOT NULL CHECK (weight_kg > 0 AND weight_kg <= 700),
    note TEXT,
    source TEXT NOT NULL,
    external_id TEXT,
    import_id INTEGER REFERENCES imports(row_id),
    created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL,
    version INTEGER NOT NULL,
    deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
);
CREATE UNIQUE INDEX weigh_ins_external ON weigh_ins (user_id, external_id)
    WHERE deleted = 0 AND external_id IS NOT NULL;
CREATE INDEX weigh_ins_day ON weigh_ins (user_id, local_day, weight_kg) WHERE deleted = 0;
CREATE INDEX weigh_ins_time ON weigh_ins (user_id, measured_at_ms) WHERE deleted = 0;
CREATE INDEX weigh_ins_import ON weigh_ins (import_id) WHERE import_id IS NOT NULL;
"""

INSERT = ("INSERT INTO weigh_ins (id, user_id, measured_at_ms, utc_offset_s, local_day, weight_kg, note,"
          " source, external_id, import_id, created_at_ms, updated_at_ms, version)"
          " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"
          " ON CONFLICT (user_id, external_id) WHERE deleted = 0 AND external_id IS NOT NULL DO NOTHING")


def uuid7(ms):
    """16 bytes: 48-bit ms timestamp, version 7, random rest (RFC 9562)."""
    rand = bytearray(os.urandom(10))
    rand[0] = (rand[0] & 0x0F) | 0x70
    rand[2] = (rand[2] & 0x3F) | 0x80
    return ms.to_bytes(6, "big") + bytes(rand)


def import_weights(csv_path, db_path, tz_name, batch_size=1000):
    zone = ZoneInfo(tz_name)
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.executescript(SCHEMA)
    now_ms = int(time.time() * 1000)
    conn.execute("INSERT INTO users (id, name, created_at_ms) VALUES (?, 'local', ?)", (uuid7(now_ms), now_ms))
    user = 1
    cur = conn.cursor()
    rows = 0
    with open(csv_path, newline="", encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        header = [h.strip().lower() for h in next(reader)]
        i_date, i_weight = header.index("date"), header.index("weight")
        cur.execute("BEGIN IMMEDIATE")
        try:
            cur.execute("INSERT INTO imports (user_id, format, file_name, created_at_ms) VALUES (?, 'csv', ?, ?)"
                        " RETURNING row_id", (user, os.path.basename(csv_path), now_ms))
            import_id = cur.fetchone()[0]
            version = conn.execute("SELECT last_version FROM users WHERE row_id = ?", (user,)).fetchone()[0]
            batch = []
            for line_no, r in enumerate(reader, start=2):
                if not r:
                    continue
                try:
                    local = dt.datetime.fromisoformat(r[i_date]).replace(tzinfo=zone)
                    kg = float(r[i_weight])
                    if not math.isfinite(kg) or kg <= 0 or kg > 700:
                        raise ValueError("weight out of range")
                except (ValueError, IndexError) as e:
                    raise SystemExit(f"{csv_path}:{line_no}: bad row ({e}): {r}")
                ms = round(local.timestamp() * 1000)
                offset = int(local.utcoffset().total_seconds())
                local_day = (ms // 1000 + offset) // 86400
                version += 1
                batch.append((uuid7(ms), user, ms, offset, local_day, kg, None, "import:csv",
                               f"csv:{ms}:{round(kg * 1_000_000)}", import_id, now_ms, now_ms, version))
                rows += 1
                if len(batch) >= batch_size:
                    cur.executemany(INSERT, batch)
                    batch.clear()
            if batch:
                cur.executemany(INSERT, batch)
            imported = conn.execute("SELECT COUNT(*) FROM weigh_ins WHERE import_id = ?", (import_id,)).fetchone()[0]
            cur.execute("UPDATE users SET last_version = ? WHERE row_id = ?", (version, user))
            cur.execute("UPDATE imports SET rows_read = ?, imported = ?, duplicates = ? WHERE row_id = ?",
                        (rows, imported, rows - imported, import_id))
            cur.execute("COMMIT")
        except BaseException:
            cur.execute("ROLLBACK")
            raise
    conn.close()
    return rows, imported


def main():
    ap = argparse.ArgumentParser(description="Import a generic weight CSV into Cinn's SQLite schema (plain Python).")
    ap.add_argument("csv")
    ap.add_argument("db")
    ap.add_argument("--tz", default="Europe/Berlin", help="time zone of the local times (default Europe/Berlin)")
    ap.add_argument("--fresh", action="store_true", help="delete the database file first")
    args = ap.parse_args()
    if args.fresh:
        for suffix in ("", "-journal", "-wal", "-shm"):
            if os.path.exists(args.db + suffix):
                os.remove(args.db + suffix)
    t0 = time.perf_counter()
    rows, imported = import_weights(args.csv, args.db, args.tz)
    secs = time.perf_counter() - t0
    print(json.dumps({
        "rows": rows, "imported": imported, "seconds": round(secs, 3),
        "rows_per_s": round(rows / secs) if secs else None,
        "sqlite": sqlite3.sqlite_version, "python": sys.version.split()[0],
    }))


if __name__ == "__main__":
    main()
