#!/usr/bin/env python3
"""Evaluate Cinn's meal glucose predictor (`POST /api/v1/nom`) on simglucose data.

Needs the files `simulate.py` cached (`$CINN_SIM_CACHE`, default `~/.cache/cinn/simglucose`) and a built
`cinn`. Standard library only (any Python 3.9+). For each patient:

1. Start `cinn serve --database <fresh temporary SQLite> --port 0 --off-url none` on 127.0.0.1 in single-user mode
   (no API secret: on loopback Nightscout uploads need none; `CINN_API_SECRET` is removed from its environment),
   `TZ=UTC`, and set the journal's glucose unit to mg/dL and time zone to UTC (`PUT /api/v1/settings`).
2. Upload as a Nightscout uploader would: `POST /nightscout/api/v1/entries` (sgv, date, dateString, direction,
   device "simglucose") and `POST /nightscout/api/v1/treatments`:
   - a meal with its bolus given when eating starts: `Meal Bolus` with `carbs`, `insulin`, `foodType` = the menu
     name (Cinn names the food-log quick add by `foodType`, else by `notes` when they are one short line; `notes`
     are left out, as Cinn would also copy them into the entry's note), `fat`, `protein` (Nightscout's own fields;
     Cinn keeps the document as sent, but the journal's entry holds carbohydrate only, energy = 4 kcal/g);
   - a meal without a bolus at that moment (late, forgotten, a hypo treatment): `Carb Correction`, same fields;
   - a late meal bolus or a correction: `Correction Bolus` with `insulin`.
3. Time split: everything before 2/3 of the run is uploaded; then, for each meal of the last third in time order,
   everything strictly before the meal is uploaded, Cinn is asked `POST /api/v1/nom` with `at`, the meal's entries
   (name, carbohydrate/protein/fat/fibre as logged) and `bolus_units` = the dose the person will take for it
   (0 when forgotten), and only then is the meal uploaded. Nothing at or after a meal is sent before the question.
4. Truth: the meal's response in the simulated CGM, computed exactly as Cinn's `MealResponse.compute`
   (Sources/CinnCore/Glucose/GlucoseReport.swift): baseline = the last reading at or before eating within
   30 min (else the first within 10 min after), peak = the first maximal reading after the baseline and within
   180 min of eating, rise = peak - baseline, minutes to peak = max(0, peak time - eating time).
5. Baselines, per meal, from the past only:
   (a) the mean rise (and mean minutes to peak) of the person's past meals and snacks whose 180-minute window had
       ended before the meal (so it was fully seen), measured as Cinn measures them;
   (b) logged carbs x CF / CR with the simulator's Quest.csv CF and CR.

Hypo treatments ("glucose tablets") are uploaded like any carbs but not evaluated (`--include-hypo` to ask about
them too). Report: per patient and overall, meals evaluated, answered vs "not sure yet", MAE of the rise for
Cinn / (a) / (b) on the answered meals, MAE of minutes to peak (Cinn vs (a)'s mean), Pearson r of predicted vs
true rise, coverage of the 80 % range, and the wall time of the nom calls. Markdown on stdout, JSON (with every
meal) in the cache directory.

    CINN_SIM_CACHE=/work/cache/simglucose python3 Benchmarks/nom/evaluate.py \\
        --cinn /work/main/.build/debug/cinn [--patients adult#001,child#001] [--days 56] [--seed 1]

`--upload-only` checks the upload part (no questions); `--check-responses` compares the responses Cinn shows for
the uploaded meals (`GET /api/v1/glucose/days/DATE`) with this script's port.
"""

from __future__ import annotations

import argparse
import bisect
import datetime as dt
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

DEFAULT_PATIENTS = ["adolescent#001", "adolescent#002", "adult#001", "adult#002", "child#001", "child#002"]
BASELINE_BEFORE_MS, BASELINE_AFTER_MS, PEAK_WINDOW_MS = 30 * 60000, 10 * 60000, 180 * 60000
ENTRY_BATCH = 2000
DEVICE = "simglucose"


# --------------------------------------------------------------------------------------------------------------
# Cinn's meal response, ported (MealResponse.compute; only what the evaluation needs: baseline, peak, rise, time)

def meal_response(eaten_ms: int, times: list[int], values: list[int]) -> dict | None:
    """`times` ascending (epoch ms), `values` mg/dL. None when Cinn would have no response."""
    # baseline: the last reading with at <= eatenAt and eatenAt - at <= 30 min ...
    i = bisect.bisect_right(times, eaten_ms) - 1
    if i >= 0 and eaten_ms - times[i] <= BASELINE_BEFORE_MS:
        b = i
    else:
        # ... else the first with at > eatenAt and at - eatenAt <= 10 min
        j = bisect.bisect_right(times, eaten_ms)
        if j < len(times) and times[j] - eaten_ms <= BASELINE_AFTER_MS:
            b = j
        else:
            return None
    # peak: the first maximum of the readings after the baseline and within 180 min of eating
    peak = None
    k = b + 1
    while k < len(times) and times[k] - eaten_ms <= PEAK_WINDOW_MS:
        if peak is None or values[k] > values[peak]:
            peak = k
        k += 1
    if peak is None:
        return None
    return {
        "baseline": values[b], "peak": values[peak], "rise": values[peak] - values[b],
        "minutes_to_peak": max(0.0, (times[peak] - eaten_ms) / 60000),
        "peak_ms": times[peak],
    }


# --------------------------------------------------------------------------------------------------------------
# Upload documents

def iso_ms(ms: int) -> str:
    return dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def direction(delta_per_min: float | None) -> str:
    """Dexcom's bands, as Cinn works them out (steady within +-1 mg/dL a minute, slowly to 2, rising to 3)."""
    if delta_per_min is None:
        return "NONE"
    a = abs(delta_per_min)
    if a < 1:
        return "Flat"
    up = delta_per_min > 0
    if a < 2:
        return "FortyFiveUp" if up else "FortyFiveDown"
    if a < 3:
        return "SingleUp" if up else "SingleDown"
    return "DoubleUp" if up else "DoubleDown"


def timeline(data: dict) -> list[tuple[int, int, str, dict]]:
    """Every upload in time order: (time_ms, order, kind "entry"/"treatment", document).
    A meal's own treatment carries its at-meal bolus; kind order puts a meal's treatment after others at its time."""
    docs: list[tuple[int, int, str, dict]] = []
    prev = None
    for ms, v in data["cgm"]:
        d = None if prev is None or ms - prev[0] > 15 * 60000 else (v - prev[1]) / ((ms - prev[0]) / 60000)
        docs.append((ms, 0, "entry", {"type": "sgv", "sgv": int(v), "date": ms, "dateString": iso_ms(ms),
                                      "direction": direction(d), "device": DEVICE}))
        prev = (ms, v)
    at_meal: dict[int, float] = {}
    other: dict[int, float] = {}
    for b in data["boluses"]:
        if b["kind"] == "meal":
            at_meal[b["meal"]] = at_meal.get(b["meal"], 0) + b["units"]
        else:  # late meal bolus or correction; two in one minute are one dose (Nightscout keys by time + type)
            other[b["time_ms"]] = round(other.get(b["time_ms"], 0) + b["units"], 2)
    for ms, units in other.items():
        docs.append((ms, 1, "treatment", {"eventType": "Correction Bolus", "created_at": iso_ms(ms),
                                          "insulin": units, "enteredBy": DEVICE}))
    for i, m in enumerate(data["meals"]):
        docs.append((m["time_ms"], 2, "treatment", meal_treatment(m, at_meal.get(i))))
    docs.sort(key=lambda x: (x[0], x[1]))
    return docs


def meal_treatment(m: dict, insulin: float | None) -> dict:
    doc = {"eventType": "Meal Bolus" if insulin else "Carb Correction", "created_at": iso_ms(m["time_ms"]),
           "carbs": m["carbs"], "foodType": m["name"],
           "fat": m["fat"], "protein": m["protein"], "enteredBy": DEVICE}
    if insulin:
        doc["insulin"] = round(insulin, 2)
    return doc


# --------------------------------------------------------------------------------------------------------------
# Cinn

class Cinn:
    def __init__(self, binary: str, workdir: str, log_name: str):
        self.db = os.path.join(workdir, "journal.sqlite")
        self.log_path = os.path.join(workdir, log_name)
        env = {k: v for k, v in os.environ.items() if not k.startswith("CINN_")}
        env["TZ"] = "UTC"
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            [binary, "serve", "--database", self.db, "--host", "127.0.0.1", "--port", "0", "--off-url", "none",
             "--no-request-log"],
            stdout=subprocess.PIPE, stderr=self.log, stdin=subprocess.DEVNULL, env=env, text=True, cwd=workdir)
        deadline = time.time() + 120
        self.base = None
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            if "Listening on" in line:
                self.base = line.split("Listening on", 1)[1].strip().rstrip("/")
                break
        if self.base is None:
            self.stop()
            raise RuntimeError(f"cinn serve did not start; see {self.log_path}")
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()  # keep draining

    def request(self, method: str, path: str, body=None, timeout=300):
        data = None if body is None else json.dumps(body, separators=(",", ":")).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", "Accept": "application/json"})
        t0 = time.perf_counter()
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                raw, status, headers = r.read(), r.status, r.headers
        except urllib.error.HTTPError as e:
            raw, status, headers = e.read(), e.code, e.headers
        ms = (time.perf_counter() - t0) * 1000
        try:
            payload = json.loads(raw) if raw else None
        except ValueError:
            payload = raw.decode(errors="replace")
        return status, payload, headers, ms

    def upload(self, docs: list[tuple[int, int, str, dict]]) -> None:
        entries = [d for _, _, k, d in docs if k == "entry"]
        treatments = [d for _, _, k, d in docs if k == "treatment"]
        for path, items in (("/nightscout/api/v1/entries", entries), ("/nightscout/api/v1/treatments", treatments)):
            for i in range(0, len(items), ENTRY_BATCH):
                batch = items[i:i + ENTRY_BATCH]
                status, payload, headers, _ = self.request("POST", path, batch)
                if status != 200:
                    raise RuntimeError(f"{path}: HTTP {status}: {payload}")
                rejected = headers.get("Cinn-Rejected")
                if rejected:
                    raise RuntimeError(f"{path}: Cinn rejected documents: {rejected}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


# --------------------------------------------------------------------------------------------------------------
# Evaluation of one patient

def nom_request(m: dict) -> dict:
    return {
        "at": iso_ms(m["time_ms"]),
        "entries": [{"name": m["name"], "carbohydrate_g": m["carbs"], "protein_g": m["protein"],
                     "fat_g": m["fat"], "fiber_g": m["fibre"]}],
        "bolus_units": m["bolus_plan"],
    }


def evaluate_patient(data: dict, args, log) -> dict:
    times = [ms for ms, _ in data["cgm"]]
    values = [v for _, v in data["cgm"]]
    start, days = data["start_ms"], data["days"]
    split_ms = start + int(days * 86400000 * 2 / 3)
    kinds = {"meal", "snack"} | ({"hypo"} if args.include_hypo else set())
    meals = data["meals"]
    truth = [meal_response(m["time_ms"], times, values) for m in meals]
    to_eval = [i for i, m in enumerate(meals) if m["time_ms"] >= split_ms and m["kind"] in kinds]
    if args.max_meals:
        to_eval = to_eval[:args.max_meals]
    docs = timeline(data)
    doc_times = [d[0] for d in docs]

    workdir = tempfile.mkdtemp(prefix="cinn-nom-eval-")
    cinn = Cinn(args.cinn, workdir, "serve.log")
    result = {"patient": data["patient"], "age_group": data["age_group"], "CR": data["CR"], "CF": data["CF"],
              "split": iso_ms(split_ms), "meals": [], "nom_status": None, "workdir": workdir}
    try:
        status, payload, _, _ = cinn.request("PUT", "/api/v1/settings", {"glucose_unit": "mg/dL", "time_zone": "UTC"})
        if status != 200:
            raise RuntimeError(f"PUT /api/v1/settings: HTTP {status}: {payload}")
        # first two thirds
        sent = bisect.bisect_left(doc_times, split_ms)
        t0 = time.perf_counter()
        cinn.upload(docs[:sent])
        result["initial_upload_seconds"] = round(time.perf_counter() - t0, 2)
        log(f"{data['patient']}: uploaded {sent} documents before {iso_ms(split_ms)} "
            f"in {result['initial_upload_seconds']} s; {len(to_eval)} meals to ask about")
        if args.check_responses:
            result["response_check"] = check_responses(cinn, data, truth, split_ms, log)

        ask = not args.upload_only
        for n, i in enumerate(to_eval):
            m = meals[i]
            upto = bisect.bisect_left(doc_times, m["time_ms"])  # strictly before the meal
            if upto > sent:
                cinn.upload(docs[sent:upto])
                sent = upto
            record = {"time": m["time"], "name": m["name"], "kind": m["kind"], "carbs": m["carbs"],
                      "carbs_eaten": m["carbs_eaten"], "bolus_plan": m["bolus_plan"],
                      "bolus_timing": m["bolus_timing"], "truth": truth[i]}
            # baselines from the past only: responses whose 180-min window had ended before this meal
            past = [truth[j] for j, p in enumerate(meals[:i])
                    if p["kind"] in ("meal", "snack") and truth[j] is not None
                    and p["time_ms"] + PEAK_WINDOW_MS <= m["time_ms"]]
            record["baseline_mean_rise"] = statistics.fmean(r["rise"] for r in past) if past else None
            record["baseline_mean_minutes"] = statistics.fmean(r["minutes_to_peak"] for r in past) if past else None
            record["baseline_carbs_cf_cr"] = m["carbs"] * data["CF"] / data["CR"]
            if ask:
                body = nom_request(m)
                status, payload, _, ms = cinn.request("POST", "/api/v1/nom", body)
                record["nom_ms"] = round(ms, 2)
                record["nom_status"] = status
                if status == 404 and n == 0:
                    missing = (f"POST /api/v1/nom answered 404 ({payload}): this cinn has no nom endpoint yet; "
                               "the meals were uploaded and the baselines computed without asking")
                    log(f"{data['patient']}: {missing}")
                    result["nom_status"] = missing
                    ask = False
                    for key in ("nom_ms", "nom_status"):
                        record.pop(key)
                elif status == 200 and isinstance(payload, dict):
                    g = payload.get("glucose")
                    record["glucose"] = g
                    record["glucose_reason"] = payload.get("glucose_reason")
                    record["energy"] = payload.get("energy")
                else:
                    record["error"] = payload
            result["meals"].append(record)
            # the meal itself (with its at-meal bolus), then on
            end = upto
            while end < len(docs) and docs[end][0] == m["time_ms"]:
                end += 1
            cinn.upload(docs[upto:end])
            sent = end
            if (n + 1) % 20 == 0:
                log(f"{data['patient']}: {n + 1}/{len(to_eval)} meals")
        if args.upload_rest and sent < len(docs):
            cinn.upload(docs[sent:])
            sent = len(docs)
        if result["nom_status"] is None:
            result["nom_status"] = "ok" if not args.upload_only else "skipped (--upload-only)"
    finally:
        cinn.stop()
        if not args.keep_db:
            shutil.rmtree(workdir, ignore_errors=True)
            result["workdir"] = None
    return result


def check_responses(cinn: Cinn, data: dict, truth: list, split_ms: int, log) -> dict:
    """Compare the meal responses Cinn shows for uploaded meals with this script's port (first 7 days)."""
    checked = mismatched = 0
    names = set()
    unmatched = []
    by_time = {m["time_ms"]: (m, truth[i]) for i, m in enumerate(data["meals"])}
    day = dt.datetime.fromtimestamp(data["start_ms"] / 1000, dt.timezone.utc).date()
    for d in range(min(7, data["days"])):
        date = day + dt.timedelta(days=d)
        status, payload, _, _ = cinn.request("GET", f"/api/v1/glucose/days/{date.isoformat()}?unit=mg/dL")
        if status != 200:
            log(f"check: GET glucose/days/{date}: HTTP {status}: {payload}")
            continue
        for ev in payload.get("meal_events", []):
            t = dt.datetime.fromisoformat(ev["time"].replace("Z", "+00:00"))
            ms = int(t.timestamp() * 1000)
            names.add(ev.get("meal"))
            if ms not in by_time or ms >= split_ms - PEAK_WINDOW_MS:
                unmatched.append(ev["time"])
                continue
            m, r = by_time[ms]
            c = ev.get("response")
            checked += 1
            if (c is None) != (r is None) or (c and (c["rise"] != r["rise"] or c["minutes_to_peak"] != round(r["minutes_to_peak"]))):
                mismatched += 1
                log(f"check: {m['time']} {m['name']}: Cinn {c} vs port {r}")
    log(f"check: {checked} meal responses compared, {mismatched} differ; names seen: {sorted(n or '' for n in names)[:8]}")
    return {"checked": checked, "mismatched": mismatched, "unmatched": unmatched, "names": sorted(n or "" for n in names)}


# --------------------------------------------------------------------------------------------------------------
# Metrics

def pearson(xs: list[float], ys: list[float]) -> float | None:
    if len(xs) < 3:
        return None
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    return None if sx == 0 or sy == 0 else sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / (sx * sy)


def percentile(xs: list[float], p: float) -> float | None:
    if not xs:
        return None
    s = sorted(xs)
    k = (len(s) - 1) * p
    f = math.floor(k)
    return s[f] if f + 1 >= len(s) else s[f] + (s[f + 1] - s[f]) * (k - f)


def mae(pairs) -> float | None:
    pairs = [(a, b) for a, b in pairs if a is not None and b is not None]
    return statistics.fmean(abs(a - b) for a, b in pairs) if pairs else None


def summarize(records: list[dict]) -> dict:
    rec = [r for r in records if r["truth"] is not None]
    asked = [r for r in rec if r.get("nom_status") is not None]
    answered = [r for r in asked if r.get("nom_status") == 200 and r.get("glucose")]
    unsure = [r for r in asked if r.get("nom_status") == 200 and not r.get("glucose")]
    errors = [r for r in asked if r.get("nom_status") != 200]
    pred = [float(r["glucose"]["expected_rise_mg_dl"]) for r in answered]
    true = [float(r["truth"]["rise"]) for r in answered]
    covered = [r for r in answered if r["glucose"].get("range_mg_dl")
               and r["glucose"]["range_mg_dl"][0] <= r["truth"]["rise"] <= r["glucose"]["range_mg_dl"][1]]
    nom_ms = [r["nom_ms"] for r in asked if "nom_ms" in r]
    return {
        "evaluated": len(rec), "asked": len(asked), "answered": len(answered), "not_sure": len(unsure),
        "errors": len(errors),
        "mae_rise_cinn": mae(zip(pred, true)),
        "mae_rise_mean": mae((r["baseline_mean_rise"], r["truth"]["rise"]) for r in answered),
        "mae_rise_carbs": mae((r["baseline_carbs_cf_cr"], r["truth"]["rise"]) for r in answered),
        "mae_rise_mean_all": mae((r["baseline_mean_rise"], r["truth"]["rise"]) for r in rec),
        "mae_rise_carbs_all": mae((r["baseline_carbs_cf_cr"], r["truth"]["rise"]) for r in rec),
        "mae_minutes_cinn": mae((r["glucose"].get("minutes_to_peak"), r["truth"]["minutes_to_peak"]) for r in answered),
        "mae_minutes_mean": mae((r["baseline_mean_minutes"], r["truth"]["minutes_to_peak"]) for r in answered),
        "pearson_r": pearson(pred, true),
        "coverage": len(covered) / len(answered) if answered else None,
        "mean_true_rise": statistics.fmean(r["truth"]["rise"] for r in rec) if rec else None,
        "nom_ms_p50": percentile(nom_ms, 0.5), "nom_ms_p99": percentile(nom_ms, 0.99),
    }


def fmt(x, digits=1, pct=False):
    if x is None:
        return "—"
    if isinstance(x, int):
        return str(x)
    return f"{x * 100:.0f} %" if pct else f"{x:.{digits}f}"


def table(rows: list[tuple[str, dict]]) -> str:
    head = ("| patient | meals | answered | not sure | errors | MAE rise Cinn | MAE mean-rise (a) | MAE carbs·CF/CR (b) "
            "| MAE min-to-peak Cinn | MAE min-to-peak mean | r | coverage 80 % | nom p50 ms | nom p99 ms |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for name, s in rows:
        lines.append(
            f"| {name} | {s['evaluated']} | {s['answered']} | {s['not_sure']} | {s['errors']} | {fmt(s['mae_rise_cinn'])} "
            f"| {fmt(s['mae_rise_mean'])} | {fmt(s['mae_rise_carbs'])} | {fmt(s['mae_minutes_cinn'])} "
            f"| {fmt(s['mae_minutes_mean'])} | {fmt(s['pearson_r'], 2)} | {fmt(s['coverage'], pct=True)} "
            f"| {fmt(s['nom_ms_p50'])} | {fmt(s['nom_ms_p99'])} |")
    return "\n".join(lines)


def baseline_table(rows: list[tuple[str, dict]]) -> str:
    lines = ["| patient | meals | mean true rise | MAE mean-rise (a), all meals | MAE carbs·CF/CR (b), all meals |",
             "|---|---|---|---|---|"]
    for name, s in rows:
        lines.append(f"| {name} | {s['evaluated']} | {fmt(s['mean_true_rise'])} | {fmt(s['mae_rise_mean_all'])} "
                     f"| {fmt(s['mae_rise_carbs_all'])} |")
    return "\n".join(lines)


def default_binary() -> str:
    if os.environ.get("CINN_BIN"):
        return os.environ["CINN_BIN"]
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    for config in ("release", "debug"):
        path = os.path.join(root, ".build", config, "cinn")
        if os.path.exists(path):
            return path
    return "cinn"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cinn", default=default_binary(),
                    help="the cinn binary (default $CINN_BIN, else .build/release/cinn, else .build/debug/cinn)")
    ap.add_argument("--patients", default=",".join(DEFAULT_PATIENTS))
    ap.add_argument("--days", type=int, default=56, help="which cached run (days) to use")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cache-dir", help="default $CINN_SIM_CACHE or ~/.cache/cinn/simglucose")
    ap.add_argument("--include-hypo", action="store_true", help="also ask about hypo treatments (glucose tablets)")
    ap.add_argument("--max-meals", type=int, help="ask about at most this many meals per patient (a quick run)")
    ap.add_argument("--upload-only", action="store_true", help="upload in the same order without asking (tests uploads)")
    ap.add_argument("--upload-rest", action="store_true", help="upload what follows the last meal asked about too")
    ap.add_argument("--check-responses", action="store_true",
                    help="compare Cinn's meal responses of the first week with this script's port")
    ap.add_argument("--keep-db", action="store_true", help="keep each patient's temporary journal and server log")
    ap.add_argument("--out", help="results JSON (default CACHE/eval-seedS-daysD-<utc time>.json)")
    args = ap.parse_args()

    cache = args.cache_dir or os.environ.get("CINN_SIM_CACHE") or os.path.expanduser("~/.cache/cinn/simglucose")
    if not os.path.exists(args.cinn) and shutil.which(args.cinn) is None:
        print(f"no cinn binary at {args.cinn} (build it, or pass --cinn / CINN_BIN)", file=sys.stderr)
        return 2
    log = lambda s: print(s, file=sys.stderr, flush=True)
    patients = [p.strip() for p in args.patients.split(",") if p.strip()]
    results = []
    for p in patients:
        path = os.path.join(cache, f"{p.replace('#', '')}-seed{args.seed}-days{args.days}.json")
        if not os.path.exists(path):
            log(f"{p}: no cached run {path} (run simulate.py --patients {p} --days {args.days} --seed {args.seed})")
            continue
        with open(path) as f:
            data = json.load(f)
        r = evaluate_patient(data, args, log)
        r["summary"] = summarize(r["meals"])
        results.append(r)
    if not results:
        return 1
    all_records = [m for r in results for m in r["meals"]]
    overall = summarize(all_records)
    rows = [(r["patient"], r["summary"]) for r in results] + [("**all**", overall)]
    print(f"Cinn nom evaluation — simglucose 0.2.11, seed {args.seed}, {args.days} days, last third; "
          f"binary {args.cinn}\n")
    print(table(rows))
    print("\nBaselines on every evaluated meal (answered or not):\n")
    print(baseline_table(rows))
    statuses = {r["patient"]: r["nom_status"] for r in results}
    if any(s != "ok" for s in statuses.values()):
        print()
        for p, s in statuses.items():
            if s != "ok":
                print(f"- {p}: {s}")
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out = args.out or os.path.join(cache, f"eval-seed{args.seed}-days{args.days}-{stamp}.json")
    doc = {"cinn": args.cinn, "seed": args.seed, "days": args.days, "at": stamp, "overall": overall,
           "patients": results}
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1)
    os.replace(tmp, out)
    print(f"\nresults: {out}")
    return 0 if all(s == "ok" for s in statuses.values()) else 3


if __name__ == "__main__":
    sys.exit(main())
