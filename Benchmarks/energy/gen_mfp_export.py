#!/usr/bin/env python3
"""Writes a large, realistic MyFitnessPal data export zip (docs/FORMATS.md section 4) for the import benchmark.

    python3 Benchmarks/energy/gen_mfp_export.py --years 10 --end 2026-11-20 --seed 42 --out /tmp/export.zip

The zip holds File-Export-<start>-to-<end>/ with three files, as MyFitnessPal mails them (deflated):

* Nutrition-Summary-<start>-to-<end>.csv: shape N2 (Date,Meal,Time,Calories,...,Iron,Note), one row per
  logged item, 4-6 rows a day (breakfast 1-2, lunch, dinner, snacks 1-2, sometimes a "Post-Workout"
  meal of the user's own), about 2 % of days not logged; Time like "7:42 AM" or blank (about a third);
  numbers with one decimal; the four %DV columns as whole percents; a note now and then (some with a
  comma and an apostrophe, so quoted); a zero "skipped" dinner now and then. UTF-8 BOM, CRLF.
* Measurement-Summary-<start>-to-<end>.csv: Date,Weight in lb (no unit in the file), a weight on about
  85 % of days: a slow trend with up to +-2 lb of scale noise. CRLF.
* Exercise-Summary-<start>-to-<end>.csv: the imperial header (Pounds), step-tracker adjustment rows with
  Steps on most days ("MFP iOS calorie adjustment" / "Health Connect calorie adjustment"), cardio on
  about 40 % of days with the 2024-2026 triple-quoted names for names holding a comma, strength rows
  (sets, reps, pounds; blank calories and minutes), and now and then an exact duplicate row. CRLF.

Deterministic for a seed (random.Random); prints one JSON line with the counts and sizes.
"""
import argparse
import csv
import datetime
import io
import json
import os
import random
import zipfile

NUTRITION_HEADER = ["Date", "Meal", "Time", "Calories", "Fat (g)", "Saturated Fat", "Polyunsaturated Fat",
                    "Monounsaturated Fat", "Trans Fat", "Cholesterol", "Sodium (mg)", "Potassium", "Carbohydrates (g)",
                    "Fiber", "Sugar", "Protein (g)", "Vitamin A", "Vitamin C", "Calcium", "Iron", "Note"]
EXERCISE_HEADER = ["Date", "Exercise", "Type", "Exercise Calories", "Exercise Minutes", "Sets", "Reps Per Set", "Pounds",
                   "Steps", "Note"]

# (meal, usual hour, kcal range) for the items of a day.
MEALS = {"Breakfast": (7.5, (180, 520)), "Lunch": (12.6, (380, 850)), "Dinner": (19.0, (450, 1050)),
         "Snacks": (15.5, (80, 350)), "Post-Workout": (10.8, (150, 320))}
NOTES = ["", "", "", "", "", "", "", "", "", "", "", "", "leftovers", "Mom's chili, 1.5 bowls", "ate out, guessed",
         "half portion", "birthday cake, one slice", "restaurant: pasta, salad"]
CARDIO = [("Walking, 3.5 mph, brisk pace", 4.3), ("Running (jogging), general", 10.5), ("Bicycling, 12-13.9 mph", 8.0),
          ("Swimming laps, freestyle, light/moderate effort", 7.8), ("Elliptical Trainer, moderate effort", 7.0),
          ("Hiking", 6.0), ("Rowing, stationary, moderate effort", 7.0), ("General exercise", 5.0)]
STRENGTH = [("Bench Press, Barbell", 95, 185), ("Squats", 135, 245), ("Deadlift, Barbell", 155, 285),
            ("Overhead Press", 65, 115), ("Pull-ups", 0, 0), ("Lunges", 25, 60), ("Bent Over Row, Barbell", 85, 155)]
ADJUSTMENTS = ["MFP iOS calorie adjustment", "Health Connect calorie adjustment"]


def one(value):
    return f"{value:.1f}"


def clock(hours):
    minutes = int(round(hours * 60)) % (24 * 60)
    hour, minute = divmod(minutes, 60)
    return f"{(hour % 12) or 12}:{minute:02d} {'AM' if hour < 12 else 'PM'}"


def nutrition_row(day, meal, rng):
    hour, (low, high) = MEALS[meal]
    kcal = rng.uniform(low, high)
    skipped = meal == "Dinner" and rng.random() < 0.004
    if skipped:
        kcal = 0.0
    protein_share, fat_share = rng.uniform(0.12, 0.32), rng.uniform(0.22, 0.42)
    carb_share = max(0.05, 1 - protein_share - fat_share)
    fat = kcal * fat_share / 9
    carbs = kcal * carb_share / 4
    protein = kcal * protein_share / 4
    saturated = fat * rng.uniform(0.25, 0.45)
    poly = fat * rng.uniform(0.1, 0.25)
    mono = max(0.0, fat - saturated - poly) * rng.uniform(0.6, 0.95)
    trans = 0.0 if rng.random() < 0.85 else rng.uniform(0, 0.6)
    cholesterol = kcal * rng.uniform(0, 0.35)
    sodium = kcal * rng.uniform(0.8, 2.2)
    potassium = kcal * rng.uniform(0.5, 1.6)
    fiber = carbs * rng.uniform(0.03, 0.15)
    sugar = carbs * rng.uniform(0.05, 0.45)
    percents = [round(kcal / 2000 * 100 * rng.uniform(0.2, 2.5)) for _ in range(4)]
    values = [kcal, fat, saturated, poly, mono, trans, cholesterol, sodium, potassium, carbs, fiber, sugar, protein]
    if skipped:
        values, percents = [0.0] * len(values), [0] * 4
    time = "" if rng.random() < 0.33 else clock(hour + rng.gauss(0, 0.6))
    note = "skipped - late meeting" if skipped else rng.choice(NOTES)
    return [day.isoformat(), meal, time] + [one(v) for v in values] + [one(p) for p in percents] + [note]


def quoted(name):
    """The 2024-2026 exports wrap names holding a comma in literal quotes (the cell value has them)."""
    return f'"{name}"' if "," in name else name


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--end", default="2026-11-20")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    end = datetime.date.fromisoformat(args.end)
    start = end - datetime.timedelta(days=args.years * 365 + args.years // 4 - 1)
    days = [start + datetime.timedelta(days=i) for i in range((end - start).days + 1)]

    nutrition = io.StringIO(newline="")
    nutrition.write("\ufeff")
    n_writer = csv.writer(nutrition, lineterminator="\r\n")
    n_writer.writerow(NUTRITION_HEADER)
    measurement = io.StringIO(newline="")
    m_writer = csv.writer(measurement, lineterminator="\r\n")
    m_writer.writerow(["Date", "Weight"])
    exercise = io.StringIO(newline="")
    e_writer = csv.writer(exercise, lineterminator="\r\n")
    e_writer.writerow(EXERCISE_HEADER)

    counts = {"nutrition_rows": 0, "logged_days": 0, "weights": 0, "exercise_rows": 0, "duplicate_exercise_rows": 0,
              "triple_quoted_names": 0, "adjustment_rows": 0, "strength_rows": 0}
    pounds = rng.uniform(195, 215)
    rate = 0.0
    phase = 0
    for index, day in enumerate(days):
        # The body: phases of 1-6 months losing or gaining slowly, within 160-230 lb.
        if phase == 0:
            rate = rng.choice([-1.0, -0.7, -0.4, 0.0, 0.0, 0.3, 0.5]) / 7
            phase = rng.randint(30, 180)
        phase -= 1
        if pounds > 230:
            rate = -abs(rate) - 0.02
        if pounds < 160:
            rate = abs(rate) + 0.02
        pounds += rate
        if rng.random() < 0.85:
            m_writer.writerow([day.isoformat(), one(pounds + rng.uniform(-2, 2))])
            counts["weights"] += 1

        if rng.random() >= 0.02:
            counts["logged_days"] += 1
            meals = ["Breakfast", "Lunch", "Dinner", "Snacks"]
            extra = rng.randint(0, 2)  # 4-6 rows a day
            for _ in range(extra):
                meals.append(rng.choice(["Breakfast", "Snacks", "Snacks", "Post-Workout"]))
            meals.sort(key=lambda meal: MEALS[meal][0])
            for meal in meals:
                n_writer.writerow(nutrition_row(day, meal, rng))
                counts["nutrition_rows"] += 1

        rows = []
        if rng.random() < 0.75:
            steps = int(rng.gauss(9000, 3000))
            if steps > 500:
                rows.append([day.isoformat(), rng.choice(ADJUSTMENTS), "Cardio", one(steps * 0.028), "1", "", "", "",
                             str(steps), ""])
                counts["adjustment_rows"] += 1
        if rng.random() < 0.4:
            name, met = rng.choice(CARDIO)
            minutes = rng.randint(15, 75)
            rows.append([day.isoformat(), quoted(name), "Cardio", one(met * 3.5 * pounds / 2.2046 / 200 * minutes),
                         str(minutes), "", "", "", "", ""])
            counts["triple_quoted_names"] += "," in name
        if rng.random() < 0.25:
            for name, low, high in rng.sample(STRENGTH, rng.randint(2, 4)):
                weight = "" if high == 0 else one(rng.randrange(low, high + 1, 5))
                note = "felt heavy" if rng.random() < 0.05 else ""
                rows.append([day.isoformat(), quoted(name), "Strength", "", "", str(rng.randint(3, 5)),
                             str(rng.choice([5, 8, 10, 12])), weight, "", note])
                counts["strength_rows"] += 1
                counts["triple_quoted_names"] += "," in name
        if rows and rng.random() < 0.01:
            rows.append(list(rows[-1]))  # real exports hold exact duplicate rows
            counts["duplicate_exercise_rows"] += 1
        for row in rows:
            e_writer.writerow(row)
        counts["exercise_rows"] += len(rows)

    folder = f"File-Export-{start.isoformat()}-to-{end.isoformat()}"
    suffix = f"{start.isoformat()}-to-{end.isoformat()}.csv"
    files = {f"{folder}/Nutrition-Summary-{suffix}": nutrition.getvalue(),
             f"{folder}/Measurement-Summary-{suffix}": measurement.getvalue(),
             f"{folder}/Exercise-Summary-{suffix}": exercise.getvalue()}
    stamp = (end.year, end.month, end.day, 6, 0, 0)
    with zipfile.ZipFile(args.out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, text.encode("utf-8"))
    counts.update({"from": start.isoformat(), "to": end.isoformat(), "days": len(days),
                   "csv_bytes": sum(len(text.encode("utf-8")) for text in files.values()),
                   "zip_bytes": os.path.getsize(args.out), "folder": folder})
    print(json.dumps(counts, sort_keys=True))


if __name__ == "__main__":
    main()
