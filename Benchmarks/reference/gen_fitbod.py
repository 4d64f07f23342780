#!/usr/bin/env python3
# Benchmark helper: writes a Fitbod-format workout CSV of any size (Benchmarks/workouts/run.sh uses it).
"""Deterministic generator of Fitbod-format workout CSVs of any size.

    python gen_fitbod.py --rows 1000000 --seed 42 --out fitbod_1m.csv

Writes exactly --rows data rows under the real Fitbod export header

    Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),Incline,Resistance,isWarmup,Note,multiplier

shaped like a real export (see docs/FORMATS.md §2 and the fixture
Tests/CinnImportTests/Fixtures/WorkoutExport.csv):
  * Date "YYYY-MM-DD HH:MM:SS +0000"; every set of one workout shares the
    workout's timestamp; timestamps are unique per workout; workouts come
    newest first (as in the real file), sets within a workout in the order done.
  * ~40 real exercise names: barbell, dumbbell, machine/cable, bodyweight,
    timed (plank) and cardio (running, bike, rowing, elliptical, treadmill).
  * Weight(kg) is lb->kg float noise written with 10 significant digits
    (45 lb -> 20.41165665), one dumbbell's weight for dumbbell rows, 0 for
    bodyweight/timed/cardio rows. Whole numbers are written without ".0".
  * isWarmup "true"/"false"; warm-up sets lighter, before the working sets.
  * ~3% of sets carry a Note; some contain commas (RFC-4180 quoted) or quotes.
  * multiplier 1 (barbell, machine, bodyweight) or 2 (dumbbell); 0 for timed
    and cardio rows, as observed in real exports.
  * Legitimately identical consecutive sets occur (same reps and weight).
Workouts are spread over the ten years before --end (gaps shrink for big N so
the dates stay in that window; never later than --end).
Same --rows/--seed/--end -> byte-identical file.
"""
import argparse
import csv
import datetime as dt
import io
import random
import sys

LB = 0.45359237
HEADER = ["Date", "Exercise", "Reps", "Weight(kg)", "Duration(s)", "Distance(m)",
          "Incline", "Resistance", "isWarmup", "Note", "multiplier"]

# name, kind, (min_lb, max_lb, step_lb) for loaded lifts, rep choices
# kinds: bb = barbell (mult 1), db = dumbbell (mult 2, weight of one dumbbell),
#        mc = machine/cable (mult 1), bw = bodyweight (weight 0, mult 1)
STRENGTH = [
    ("Barbell Bench Press", "bb", (95, 225, 5), (5, 6, 8, 10)),
    ("Back Squat", "bb", (135, 315, 5), (3, 5, 6, 8)),
    ("Deadlift", "bb", (135, 405, 10), (3, 5)),
    ("Overhead Press", "bb", (65, 155, 5), (5, 6, 8)),
    ("Barbell Row", "bb", (95, 205, 5), (6, 8, 10)),
    ("Romanian Deadlift", "bb", (95, 275, 5), (8, 10, 12)),
    ("Incline Bench Press", "bb", (75, 185, 5), (6, 8, 10)),
    ("Front Squat", "bb", (95, 225, 5), (5, 6, 8)),
    ("Barbell Curl", "bb", (45, 95, 5), (8, 10, 12)),
    ("Barbell Hip Thrust", "bb", (95, 315, 10), (8, 10, 12)),
    ("Dumbbell Bench Press", "db", (25, 80, 5), (8, 10, 12)),
    ("Dumbbell Row", "db", (25, 90, 5), (8, 10, 12)),
    ("Dumbbell Shoulder Press", "db", (20, 65, 5), (8, 10, 12)),
    ("Dumbbell Bicep Curl", "db", (15, 45, 5), (8, 10, 12, 15)),
    ("Hammer Curl", "db", (15, 45, 5), (8, 10, 12)),
    ("Dumbbell Lateral Raise", "db", (10, 30, 2.5), (10, 12, 15)),
    ("Dumbbell Walking Lunge", "db", (15, 60, 5), (10, 12, 16)),
    ("Incline Dumbbell Bench Press", "db", (25, 75, 5), (8, 10, 12)),
    ("Dumbbell Fly", "db", (15, 40, 5), (10, 12, 15)),
    ("Dumbbell Romanian Deadlift", "db", (25, 80, 5), (8, 10, 12)),
    ("Goblet Squat", "mc", (25, 90, 5), (10, 12, 15)),
    ("Leg Press", "mc", (180, 450, 10), (8, 10, 12, 15)),
    ("Lat Pulldown", "mc", (70, 180, 5), (8, 10, 12)),
    ("Seated Cable Row", "mc", (70, 180, 5), (8, 10, 12)),
    ("Cable Tricep Pushdown", "mc", (30, 80, 5), (10, 12, 15)),
    ("Leg Extension", "mc", (50, 150, 5), (10, 12, 15)),
    ("Seated Leg Curl", "mc", (50, 130, 5), (10, 12, 15)),
    ("Machine Chest Press", "mc", (60, 200, 10), (8, 10, 12)),
    ("Cable Face Pull", "mc", (20, 60, 5), (12, 15)),
    ("Smith Machine Squat", "mc", (95, 275, 10), (6, 8, 10)),
    ("Push Up", "bw", None, (10, 12, 15, 20)),
    ("Pull Up", "bw", None, (5, 6, 8, 10)),
    ("Chin Up", "bw", None, (5, 6, 8, 10)),
    ("Dip", "bw", None, (6, 8, 10, 12)),
    ("Crunch", "bw", None, (15, 20, 25)),
    ("Hanging Leg Raise", "bw", None, (8, 10, 12, 15)),
]
TIMED = [("Plank", (20, 90)), ("Side Plank", (20, 60)), ("Dead Hang", (20, 60))]
# name, duration range (s), metres per second range (0 = no distance), incline, resistance
CARDIO = [
    ("Running", (900, 3600), (2.4, 3.6), False, False),
    ("Stationary Bike", (600, 2400), None, False, True),
    ("Rowing", (300, 1800), (3.2, 4.2), False, True),
    ("Elliptical", (600, 2400), None, True, True),
    ("Treadmill Walking", (600, 3000), (1.2, 1.7), True, False),
    ("Stair Stepper", (600, 1800), None, False, True),
]
NOTES = [
    "Last rep slow, spotter helped", "seat 6", "felt heavy, stop at 8",
    "grip slipped", "used straps", "PR!", 'left shoulder "clicky", went lighter',
    "tempo 3-1-1", "paused reps, 2s at the bottom", "belt", "RPE 9",
    "superset with next", "bar path drifted forward", "narrow grip",
    "felt easy, go up next time", "knee sleeves on, felt better",
]


def num(x):
    """Format a number the way the export does: 10 significant digits, no '.0'."""
    if x == 0:
        return "0"
    s = "%.10g" % x
    return s


def main():
    ap = argparse.ArgumentParser(description="Write a deterministic Fitbod-format workout CSV.")
    ap.add_argument("--rows", type=int, required=True, help="number of data rows")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--out", default="-", help="output path (default stdout)")
    ap.add_argument("--end", default="2025-06-30", help="newest workout date (UTC), default 2025-06-30")
    ap.add_argument("--pad-numbers", action="store_true",
                    help="prefix Reps and Weight(kg) with a space, as some exports do")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    n_rows = args.rows
    end = dt.datetime.fromisoformat(args.end).replace(tzinfo=dt.timezone.utc, hour=20)
    window_s = 10 * 365.25 * 86400
    est_workouts = max(1, n_rows // 22)
    avg_gap = min(48 * 3600.0, window_s / est_workouts)
    pad = " " if args.pad_numbers else ""

    # per-exercise working weight (lb), nudged over time
    working = {}
    for name, kind, rng_lb, _reps in STRENGTH:
        if rng_lb:
            lo, hi, step = rng_lb
            working[name] = lo + step * rng.randint(0, int((hi - lo) / step) // 2)

    out = sys.stdout if args.out == "-" else open(args.out, "w", newline="", buffering=1 << 20)
    w = csv.writer(out, lineterminator="\n")
    w.writerow(HEADER)

    t = end.timestamp() - rng.uniform(0, 6 * 3600)
    written = 0
    workouts = 0
    buf = []

    def emit(date, ex, reps, kg, dur, dist, inc, res, warm, note, mult):
        buf.append((date, ex, pad + str(reps), pad + num(kg), num(dur), num(dist), num(inc), num(res),
                    "true" if warm else "false", note, mult))

    while written < n_rows:
        date = dt.datetime.fromtimestamp(int(t), dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S +0000")
        buf.clear()
        r = rng.random()
        if r < 0.08:  # cardio-only session
            name, drange, pace, has_inc, has_res = rng.choice(CARDIO)
            d = rng.randint(*drange)
            dist = round(d * rng.uniform(*pace), 2) if pace else 0
            emit(date, name, 0, 0, d, dist, rng.randint(1, 12) if has_inc else 0,
                 rng.randint(1, 16) if has_res else 0, False, "", "0")
        else:
            n_ex = rng.randint(4, 7)
            for name, kind, rng_lb, reps_choices in rng.sample(STRENGTH, n_ex):
                mult = "2" if kind == "db" else "1"
                if rng_lb:
                    lo, hi, step = rng_lb
                    wlb = working[name]
                    # slow progression with occasional deloads, kept in range
                    move = rng.random()
                    if move < 0.25:
                        wlb = min(hi, wlb + step)
                    elif move < 0.30:
                        wlb = max(lo, wlb - 2 * step)
                    working[name] = wlb
                    if kind != "db" and rng.random() < 0.4:
                        for frac, wreps in ((0.4, 10), (0.6, 5))[: rng.randint(1, 2)]:
                            wu = max(lo if kind == "mc" else 45, round(wlb * frac / step) * step)
                            emit(date, name, wreps, wu * LB, 0, 0, 0, 0, True, "", mult)
                else:
                    wlb = 0
                reps = rng.choice(reps_choices)
                for s in range(rng.randint(3, 5)):
                    rr = reps
                    if s >= 2 and rng.random() < 0.35:  # fatigue: lose a rep or two late
                        rr = max(1, reps - rng.randint(1, 2))
                    note = rng.choice(NOTES) if rng.random() < 0.03 else ""
                    emit(date, name, rr, wlb * LB, 0, 0, 0, 0, False, note, mult)
            f = rng.random()
            if f < 0.25:  # core finisher
                name, drange = rng.choice(TIMED)
                for _ in range(rng.randint(2, 3)):
                    emit(date, name, 0, 0, rng.randint(*drange), 0, 0, 0, False, "", "0")
            elif f < 0.40:  # cardio cool-down
                name, drange, pace, has_inc, has_res = rng.choice(CARDIO)
                d = rng.choice((300, 600, 900))
                dist = round(d * rng.uniform(*pace), 2) if pace else 0
                emit(date, name, 0, 0, d, dist, rng.randint(1, 12) if has_inc else 0,
                     rng.randint(1, 16) if has_res else 0, False, "", "0")
        take = buf[: n_rows - written]
        w.writerows(take)
        written += len(take)
        workouts += 1
        t -= max(600.0, rng.uniform(0.5, 1.5) * avg_gap)

    if out is not sys.stdout:
        out.close()
    print(f"wrote {written} rows in {workouts} workouts, oldest {date}", file=sys.stderr)


if __name__ == "__main__":
    main()
