#!/usr/bin/env python3
"""Generate weeks of synthetic type 1 diabetes data with the UVA/Padova simulator.

This is the data half of the evaluation harness for Cinn's meal glucose predictor
(`evaluate.py` is the other half). It drives simglucose 0.2.11's own physiological
model (`T1DPatient`), CGM sensor (`CGMSensor`, with its own noise model) and insulin
pump (`InsulinPump`) minute by minute, with a virtual person who eats from a named
menu and boluses imperfectly, and writes one JSON file per patient.

Setup (once):

    python3 -m venv /work/cache/sim-venv
    /work/cache/sim-venv/bin/pip install simglucose==0.2.11

Run:

    CINN_SIM_CACHE=/work/cache/simglucose \\
      /work/cache/sim-venv/bin/python Benchmarks/nom/simulate.py \\
      --patients adult#001 --days 56 --seed 1

Output: `$CINN_SIM_CACHE` (default `~/.cache/cinn/simglucose`), one file
`<patient>-seed<seed>-days<days>.json` per run, e.g. `adult001-seed1-days56.json`,
written atomically (temporary file + rename). An existing file is not regenerated
(use `--force`). Contents:

    patient, age_group, CR (g/U), CF (mg/dL per U), BW (kg), basal_u_per_h,
    start ("2026-06-01T00:00:00Z"), start_ms, days, seed,
    cgm: [[epoch_ms, mg_dl], ...] every 5 minutes (integers, clipped to 39..401),
    meals: [{time_ms, time, name, kind, carbs, carbs_eaten, fat, protein, fibre,
             bolus_plan, bolus_timing, bolus_delay_min}, ...],
    boluses: [{time_ms, time, units, kind, meal}, ...],
    summary: {mean, sd, time in ranges, ...}, generator: {...timing, versions}.

How the simulator is driven (and why it is still simglucose's physiology)
--------------------------------------------------------------------------
* simglucose's `SimObj`/`T1DSimEnv` loop costs about 4.3 s CPU per simulated day on
  this machine (measured with BBController, GuardianRT, Insulet; it builds a risk
  index and namedtuples every minute), and almost all of that is the ODE right-hand
  side `T1DPatient.model` reading ~40 parameters from a pandas Series by attribute,
  several hundred times a minute. Here the very same `T1DPatient` object steps the
  very same `model` with dopri5; only its `_params` Series is swapped, after
  construction, for a `SimpleNamespace` holding the same float64 values. The
  trajectories are bit-identical (checked: max |difference| = 0.0 over 10 h with a
  meal and a bolus) and it runs ~0.35 s CPU per simulated day.
* The sensor is simglucose's `CGMSensor` "GuardianRT" (5-minute sample time, its
  Johnson-SU/AR noise, seeded). It is read once every 5 minutes, exactly at the
  sample instants (`patient.t % 5 == 0`), and that value is the reading. (The env
  would instead average the zero-order-held reading over the 5 one-minute
  sub-steps, smearing consecutive readings; a real CGM reports its own sample.)
  The reading is rounded to an integer and clipped to 39..401 as an uploader
  would report LOW/HIGH (the sensor itself clips to 39..600).
* Insulin goes through `InsulinPump` "Insulet" (`pump.basal` and `pump.bolus`,
  U/min), exactly as the env does. Basal is BBController's: u2ss * BW / 6000 U/min,
  constant. A bolus of U units is delivered in the one minute it is given
  (U U/min for one step; split over consecutive minutes above the pump's
  30 U/min maximum), like BBController's bolus over one sample step.
* Meals go in as `Action(CHO=grams)` in the minute eating starts; the patient
  model itself then eats at its EAT_RATE of 5 g/min (`_announce_meal`).
* The model only knows carbohydrate: fat, protein and fibre are recorded for the
  journal (Cinn can see them) but have NO effect on the simulated glucose.

The virtual person
------------------
* Patients (default): adolescent#001, adolescent#002, adult#001, adult#002,
  child#001, child#002. `--screen --days 7` simulated all 30 with this person's
  behaviour: none misbehaved (no runaway glucose, no ODE failure), so the usual
  first two of each group are kept. Over 56 days (seed 1) the six spend
  98/65/90/96/86/91 % of readings in 70-180 mg/dL and 0.6/2.3/1.9/2.0/4.7/2.6 %
  below 70, with 21/66/62/74/155/76 hypo treatments. adolescent#002 (Quest CR
  5 g/U, TDI 62 U at 51 kg) is the most variable, realistic for a teenager;
  the children are the most hypo-prone, as usual in simglucose.
* Menu: 12 meals and 6 snacks with carbohydrate/fat/protein/fibre grams for an
  adult portion, scaled by age group (adult 1.0, adolescent 0.9, child 0.6).
  Each actual portion varies by a lognormal factor (sd 12 %) that scales all four
  nutrients, so the same dish is not always the same size.
* Schedule: breakfast ~07:30, lunch ~12:30, dinner ~18:30 (each uniformly jittered
  by +-45 min; weekends shift breakfast by +60 min); a morning snack
  (p = 0.25, ~10:15), an afternoon snack (p = 0.45 adults, 0.6 adolescents,
  0.75 children, ~15:30) and an evening snack (p = 0.15, ~21:00), each jittered
  +-45 min. Any eating occasion is kept at least 75 minutes after the previous one.
* Carb counting: the person logs and boluses for `carbs` = carbs eaten x
  lognormal(0, 0.20) (rounded to 1 g; `carbs_eaten` is what the model got). Fat,
  protein and fibre are logged as eaten (rounded to 1 g).
* Meal bolus = logged carbs / CR (patient's own CR from Quest.csv), rounded to
  0.05 U. Forgotten with p = 0.07 (bolus_plan 0). Otherwise late with p = 0.25
  (15..60 min after the start of eating, uniform), else given when eating starts.
  `bolus_plan` is the planned dose (what the person will take for this meal).
* Correction: when a CGM reading is > 200 mg/dL, no bolus for 3 h and no eating
  for 2 h, with p = 0.5 per such episode the person gives (CGM - 140) / CF
  (rounded to 0.05 U) within the next 0..20 minutes. Otherwise they wait for the
  next episode (re-evaluated after 60 min).
* Hypoglycaemia: when a CGM reading is < 70 mg/dL and nothing was eaten in the
  last 30 minutes, the person eats "glucose tablets" (16 g; children 10 g) within
  0..15 minutes, without a bolus (meal kind "hypo"). Without this, simglucose
  patients on a fixed basal stay low for hours; real people treat lows.
* Randomness: one numpy Generator from `--seed` and the patient's name (CRC32);
  the CGM noise seed is drawn from it. Same seed, same patient, same days -> same
  file.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import sys
import tempfile
import time
import types
import zlib

import warnings

warnings.filterwarnings("ignore", message="pkg_resources is deprecated")
warnings.filterwarnings("ignore", category=DeprecationWarning)

import numpy as np
import pandas as pd

import simglucose
from simglucose.actuator.pump import InsulinPump
from simglucose.controller.basal_bolus_ctrller import CONTROL_QUEST
from simglucose.patient.t1dpatient import Action, T1DPatient
from simglucose.sensor.cgm import CGMSensor

GENERATOR_VERSION = 1
START = dt.datetime(2026, 6, 1, tzinfo=dt.timezone.utc)
START_MS = int(START.timestamp() * 1000)
DEFAULT_PATIENTS = [
    "adolescent#001", "adolescent#002",
    "adult#001", "adult#002",
    "child#001", "child#002",
]
SENSOR = "GuardianRT"  # 5-minute sample time
PUMP = "Insulet"
CGM_MIN, CGM_MAX = 39, 401
AGE_SCALE = {"adult": 1.0, "adolescent": 0.9, "child": 0.6}

# name: (carbohydrate, fat, protein, fibre) in grams for an adult portion; slots
MENU = {
    # breakfasts
    "porridge with banana": (62, 7, 11, 7, "breakfast"),
    "toast and jam": (48, 9, 7, 3, "breakfast"),
    "yoghurt and granola": (45, 12, 14, 4, "breakfast"),
    "cornflakes with milk": (50, 5, 10, 2, "breakfast"),
    # lunches and dinners
    "pizza": (95, 32, 38, 6, "main"),
    "pasta bolognese": (85, 20, 32, 7, "main"),
    "chicken salad": (15, 18, 35, 6, "main"),
    "rice and curry": (90, 22, 28, 5, "main"),
    "burger and fries": (90, 40, 32, 6, "main"),
    "ham and cheese sandwich": (45, 16, 24, 4, "main"),
    "fish and potatoes": (55, 14, 30, 6, "main"),
    "lentil soup with bread": (60, 8, 20, 14, "main"),
    # snacks
    "apple": (21, 0, 0, 4, "snack"),
    "banana": (27, 0, 1, 3, "snack"),
    "chocolate bar": (30, 13, 3, 1, "snack"),
    "crisps": (16, 10, 2, 1, "snack"),
    "orange juice": (26, 0, 2, 0, "snack"),
    "muesli bar": (22, 5, 3, 2, "snack"),
}
HYPO_NAME = "glucose tablets"
SLOT_TIMES = {  # name: (minute of day, kind, probability by age group)
    "breakfast": (7 * 60 + 30, "breakfast", {"adult": 1.0, "adolescent": 1.0, "child": 1.0}),
    "morning snack": (10 * 60 + 15, "snack", {"adult": 0.25, "adolescent": 0.25, "child": 0.25}),
    "lunch": (12 * 60 + 30, "main", {"adult": 1.0, "adolescent": 1.0, "child": 1.0}),
    "afternoon snack": (15 * 60 + 30, "snack", {"adult": 0.45, "adolescent": 0.6, "child": 0.75}),
    "dinner": (18 * 60 + 30, "main", {"adult": 1.0, "adolescent": 1.0, "child": 1.0}),
    "evening snack": (21 * 60, "snack", {"adult": 0.15, "adolescent": 0.15, "child": 0.15}),
}
JITTER_MIN = 45
MIN_GAP_MIN = 75
PORTION_SD = 0.12
COUNT_SD = 0.20
P_FORGET = 0.07
P_LATE = 0.25
LATE_RANGE = (15, 60)
CORR_THRESHOLD, CORR_TARGET, P_CORR = 200, 140, 0.5
HYPO_THRESHOLD = 70


def cache_dir(arg: str | None) -> str:
    d = arg or os.environ.get("CINN_SIM_CACHE") or os.path.expanduser("~/.cache/cinn/simglucose")
    os.makedirs(d, exist_ok=True)
    return d


def cache_path(directory: str, patient: str, seed: int, days: int) -> str:
    return os.path.join(directory, f"{patient.replace('#', '')}-seed{seed}-days{days}.json")


def iso(ms: int) -> str:
    return dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def age_group(patient: str) -> str:
    return patient.split("#")[0]


def round_units(u: float) -> float:
    return round(round(u / 0.05) * 0.05, 2)


def plan_meals(rng: np.random.Generator, group: str, days: int) -> list[dict]:
    """Eating occasions: minute offset, menu name, eaten and logged nutrients."""
    by_slot: dict[str, list[str]] = {}
    for name, (*_, slot) in MENU.items():
        by_slot.setdefault(slot, []).append(name)
    scale = AGE_SCALE[group]
    meals = []
    last = -10**9
    for day in range(days):
        weekend = (START + dt.timedelta(days=day)).weekday() >= 5
        for slot, (base, kind, probs) in SLOT_TIMES.items():
            if rng.random() >= probs[group]:
                continue
            minute = day * 1440 + base + (60 if weekend and slot == "breakfast" else 0)
            minute += int(rng.integers(-JITTER_MIN, JITTER_MIN + 1))
            minute = max(minute, last + MIN_GAP_MIN)
            last = minute
            name = str(rng.choice(by_slot[kind]))
            carbs, fat, protein, fibre, _ = MENU[name]
            portion = scale * float(np.exp(rng.normal(0, PORTION_SD)))
            eaten = max(1, round(carbs * portion))
            counted = max(1, round(eaten * float(np.exp(rng.normal(0, COUNT_SD)))))
            meals.append({
                "minute": minute, "name": name, "kind": "snack" if kind == "snack" else "meal",
                "slot": slot, "carbs": counted, "carbs_eaten": eaten,
                "fat": round(fat * portion), "protein": round(protein * portion),
                "fibre": round(fibre * portion),
            })
    return meals


def fast_params(patient: T1DPatient) -> None:
    """Same values, attribute access without pandas (see the docstring)."""
    values = {}
    for k, v in patient._params.items():
        values[k] = v if isinstance(v, str) else float(v)
    patient._params = types.SimpleNamespace(**values)


def simulate(patient_name: str, days: int, seed: int, log=print) -> dict:
    quest = pd.read_csv(CONTROL_QUEST)
    q = quest.loc[quest.Name == patient_name].squeeze()
    cr, cf = float(q.CR), float(q.CF)
    group = age_group(patient_name)
    rng = np.random.default_rng([seed, zlib.crc32(patient_name.encode())])

    patient = T1DPatient.withName(patient_name)
    bw, u2ss = float(patient._params.BW), float(patient._params.u2ss)
    fast_params(patient)
    sensor = CGMSensor.withName(SENSOR, seed=int(rng.integers(0, 2**31 - 1)))
    pump = InsulinPump.withName(PUMP)
    max_bolus = float(pump._params["max_bolus"])
    basal = u2ss * bw / 6000  # U/min, as BBController
    sample = int(sensor.sample_time)

    meals = plan_meals(rng, group, days)
    # per-meal bolus decisions, drawn up front so that they do not depend on glucose
    for m in meals:
        r = rng.random()
        units = round_units(m["carbs"] / cr)
        if r < P_FORGET or units <= 0:
            m.update(bolus_plan=0.0, bolus_timing="forgotten", bolus_delay_min=None)
        elif rng.random() < P_LATE:
            delay = int(rng.integers(LATE_RANGE[0], LATE_RANGE[1] + 1))
            m.update(bolus_plan=units, bolus_timing="late", bolus_delay_min=delay)
        else:
            m.update(bolus_plan=units, bolus_timing="with meal", bolus_delay_min=0)

    eat_at: dict[int, list[int]] = {}
    for i, m in enumerate(meals):
        eat_at.setdefault(m["minute"], []).append(i)
    bolus_at: dict[int, list[tuple[float, str, int | None]]] = {}
    for i, m in enumerate(meals):
        if m["bolus_plan"] > 0:
            bolus_at.setdefault(m["minute"] + m["bolus_delay_min"], []).append(
                (m["bolus_plan"], "meal" if m["bolus_delay_min"] == 0 else "late", i))

    total = days * 1440
    cgm: list[list[int]] = []
    boluses: list[dict] = []
    hypos: list[dict] = []
    pending_carbs: dict[int, list[tuple[int, str]]] = {}  # extra eating (hypo), minute -> [(g, name)]
    last_bolus = last_eat = -10**9
    last_corr_check = -10**9
    hypo_pending_until = -10**9
    queued_insulin = 0.0

    def read(t: int) -> None:
        nonlocal last_bolus, last_corr_check, hypo_pending_until
        value = sensor.measure(patient)
        mg = int(min(CGM_MAX, max(CGM_MIN, round(value))))
        cgm.append([START_MS + t * 60000, mg])
        # hypo treatment
        if mg < HYPO_THRESHOLD and t - last_eat >= 30 and t > hypo_pending_until:
            at = t + int(rng.integers(0, 16))
            grams = 10 if group == "child" else 16
            pending_carbs.setdefault(at, []).append((grams, HYPO_NAME))
            hypo_pending_until = at + 30
        # correction
        if (mg > CORR_THRESHOLD and t - last_bolus >= 180 and t - last_eat >= 120
                and t - last_corr_check >= 60):
            last_corr_check = t
            if rng.random() < P_CORR:
                units = round_units((mg - CORR_TARGET) / cf)
                if units > 0:
                    at = t + int(rng.integers(0, 21))
                    bolus_at.setdefault(at, []).append((units, "correction", None))
                    last_bolus = at

    cpu0, wall0 = time.process_time(), time.time()
    read(0)
    for t in range(total):
        cho = 0.0
        for i in eat_at.get(t, ()):
            cho += meals[i]["carbs_eaten"]
            last_eat = t
        for grams, name in pending_carbs.pop(t, ()):
            cho += grams
            last_eat = t
            hypos.append({"minute": t, "name": name, "kind": "hypo", "slot": "hypo",
                          "carbs": grams, "carbs_eaten": grams, "fat": 0, "protein": 0,
                          "fibre": 0, "bolus_plan": 0.0, "bolus_timing": "none",
                          "bolus_delay_min": None})
        for units, kind, meal_i in bolus_at.pop(t, ()):
            queued_insulin += units
            last_bolus = max(last_bolus, t)
            boluses.append({"time_ms": START_MS + t * 60000, "time": iso(START_MS + t * 60000),
                            "units": units, "kind": kind, "meal": meal_i})
        give = min(queued_insulin, max_bolus)
        queued_insulin = max(0.0, queued_insulin - give)
        insulin = pump.basal(basal) + (pump.bolus(give) if give > 0 else 0.0)
        patient.step(Action(CHO=cho, insulin=insulin))
        now = t + 1
        if now % sample == 0:
            read(now)
        if now % (7 * 1440) == 0:
            log(f"{patient_name}: day {now // 1440}/{days}, cpu {time.process_time() - cpu0:.1f}s")
    cpu, wall = time.process_time() - cpu0, time.time() - wall0

    # merge hypo treatments into the meal list (time order); bolus "meal" indices follow
    all_meals = meals + hypos
    order = sorted(range(len(all_meals)), key=lambda i: (all_meals[i]["minute"], i))
    new_index = {old: new for new, old in enumerate(order)}
    out_meals = []
    for old in order:
        m = dict(all_meals[old])
        minute = m.pop("minute")
        m.pop("slot", None)
        out_meals.append({"time_ms": START_MS + minute * 60000, "time": iso(START_MS + minute * 60000),
                          **m})
    for b in boluses:
        if b["meal"] is not None:
            b["meal"] = new_index[b["meal"]]
    boluses.sort(key=lambda b: b["time_ms"])

    values = np.array([v for _, v in cgm], dtype=float)
    summary = {
        "readings": len(cgm),
        "mean_mg_dl": round(float(values.mean()), 1),
        "sd_mg_dl": round(float(values.std()), 1),
        "min_mg_dl": int(values.min()), "max_mg_dl": int(values.max()),
        "pct_below_54": round(float((values < 54).mean() * 100), 2),
        "pct_below_70": round(float((values < 70).mean() * 100), 2),
        "pct_70_180": round(float(((values >= 70) & (values <= 180)).mean() * 100), 2),
        "pct_above_250": round(float((values > 250).mean() * 100), 2),
        "meals": sum(1 for m in out_meals if m["kind"] == "meal"),
        "snacks": sum(1 for m in out_meals if m["kind"] == "snack"),
        "hypo_treatments": sum(1 for m in out_meals if m["kind"] == "hypo"),
        "boluses": {k: sum(1 for b in boluses if b["kind"] == k) for k in ("meal", "late", "correction")},
        "total_bolus_u_per_day": round(sum(b["units"] for b in boluses) / days, 2),
        "basal_u_per_day": round(basal * 1440, 2),
    }
    return {
        "patient": patient_name, "age_group": group,
        "CR": cr, "CF": cf, "BW": bw, "basal_u_per_h": round(basal * 60, 4),
        "start": iso(START_MS), "start_ms": START_MS, "days": days, "seed": seed,
        "units": "mg/dL",
        "cgm": cgm, "meals": out_meals, "boluses": boluses, "summary": summary,
        "generator": {
            "version": GENERATOR_VERSION, "simglucose": getattr(simglucose, "__version__", "0.2.11"),
            "sensor": SENSOR, "pump": PUMP,
            "cpu_seconds": round(cpu, 2), "wall_seconds": round(wall, 2),
            "cpu_seconds_per_sim_day": round(cpu / days, 3),
        },
    }


def write_atomic(path: str, data: dict) -> None:
    d = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=d)
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, separators=(",", ":"))
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def screen(days: int, seed: int) -> None:
    """Simulate every patient briefly and print glycaemic statistics (not cached)."""
    names = pd.read_csv(CONTROL_QUEST).Name.tolist()
    print("| patient | CR | CF | mean | <54 % | <70 % | 70-180 % | >250 % | hypo tx/day |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in names:
        r = simulate(n, days, seed, log=lambda *_: None)
        s = r["summary"]
        print(f"| {n} | {r['CR']:g} | {r['CF']:.1f} | {s['mean_mg_dl']} | {s['pct_below_54']} | "
              f"{s['pct_below_70']} | {s['pct_70_180']} | {s['pct_above_250']} | "
              f"{s['hypo_treatments'] / days:.2f} |", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--patients", default=",".join(DEFAULT_PATIENTS),
                    help="comma-separated simglucose patient names")
    ap.add_argument("--days", type=int, default=56)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out-dir", help="default $CINN_SIM_CACHE or ~/.cache/cinn/simglucose")
    ap.add_argument("--force", action="store_true", help="regenerate even if cached")
    ap.add_argument("--screen", action="store_true",
                    help="print statistics of all 30 patients over --days (nothing written)")
    a = ap.parse_args()
    if a.screen:
        screen(a.days, a.seed)
        return 0
    out = cache_dir(a.out_dir)
    for name in [p.strip() for p in a.patients.split(",") if p.strip()]:
        path = cache_path(out, name, a.seed, a.days)
        if os.path.exists(path) and not a.force:
            print(f"{name}: cached {path}", flush=True)
            continue
        print(f"{name}: simulating {a.days} days, seed {a.seed}", flush=True)
        data = simulate(name, a.days, a.seed, log=lambda s: print(s, flush=True))
        write_atomic(path, data)
        g, s = data["generator"], data["summary"]
        print(f"{name}: wrote {path} — cpu {g['cpu_seconds']}s ({g['cpu_seconds_per_sim_day']} s/day), "
              f"mean {s['mean_mg_dl']}, <70 {s['pct_below_70']}%, 70-180 {s['pct_70_180']}%, "
              f">250 {s['pct_above_250']}%, maxrss {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
