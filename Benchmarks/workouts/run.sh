#!/usr/bin/env bash
# The workouts and strength benchmarks, in one run, each step in a process of its own:
#
#     Benchmarks/workouts/run.sh                                   # ~4 min after the builds (1M sets, 5 runs each)
#     ROWS=100000 IMPORT_RUNS=3 ITERATIONS=100 DURATION=5s Benchmarks/workouts/run.sh   # quicker
#
# What it does:
#   1. builds WorkoutBench (release, in BENCH_SCRATCH, default Benchmarks/.build) and `cinn` (release, in
#      CINN_SCRATCH, default /tmp/build-bench-main; never the main package's .build);
#   2. writes a Fitbod export of ROWS sets (default 1,000,000) with the generator
#      (Benchmarks/reference/gen_fitbod.py, seed 42, the newest workout yesterday: FITBOD_END) into the results
#      directory;
#   3. imports it IMPORT_RUNS times, alternating the plain-Python reference (Benchmarks/reference/py_csv_sqlite_import.py,
#      csv + sqlite3, --fresh) and `cinn import` into a fresh SQLite journal (file deleted before each run; both
#      files in the results directory, on one filesystem), each under /usr/bin/time -v (wall, CPU, peak RSS);
#      the target: cinn at least 3× faster than the reference, peak RSS under 100 MB;
#   4. times, in process and interleaved (WorkoutBench page, on the last journal cinn imported):
#      Journal.exercisePage for the exercise with the most sets, with and without resolving it by id,
#      Journal.lifts(), Journal.exercise(named:) and the page's parts (Store.exercises, Store.exerciseDays and
#      its query raw, ExerciseReport.compute, Store.workoutID and its query raw); target: the page p99 under 10 ms;
#   4b. WorkoutBench logging on that journal: a routine of its three busiest exercises, a workout started from it
#      (two sets done, left in progress) and a finished one; the logging page's work, the finish summary's,
#      marking a set done and back, and the exercise page beside them, interleaved;
#   5. serves that journal with `cinn serve` and, if GET /api/v1/exercises answers 200, runs wrk (1 connection,
#      DURATION each after a 2 s warm-up) against every workout route that answers 200 (/api/v1/exercises,
#      /api/v1/exercises/{id}, /lifts, /lifts/{id}, the logging page /workouts/{id}/log and the finish summary
#      /workouts/{id}?finished=1) and /health as the floor; otherwise skips this step with a
#      message (the routes are not in this build);
#   6. prints every table; stops the server it started by PID. Raw outputs stay in the results directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BENCH="$ROOT/Benchmarks"
SCRATCH="${CINN_SCRATCH:-/tmp/build-bench-main}"
BENCH_SCRATCH="${BENCH_SCRATCH:-$BENCH/.build}"
ROWS="${ROWS:-1000000}"
IMPORT_RUNS="${IMPORT_RUNS:-5}"
ITERATIONS="${ITERATIONS:-300}"
DURATION="${DURATION:-10s}"
FITBOD_END="${FITBOD_END:-$(date -u -d yesterday +%F)}"  # so that the last 30 days hold a "current" estimate
# The Fitbod generator and the plain-Python reference importer: Benchmarks/reference/ in this repository
# (CINN_BENCH_REFERENCE names another folder holding the two scripts).
REFERENCE="${CINN_BENCH_REFERENCE:-$BENCH/reference}"
RESULTS="$(mktemp -d "${TMPDIR:-/tmp}/cinn-workouts.XXXXXX")"
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

for script in gen_fitbod.py py_csv_sqlite_import.py; do
    [[ -f "$REFERENCE/$script" ]] || { echo "no $REFERENCE/$script (set CINN_BENCH_REFERENCE to a folder holding it)" >&2; exit 1; }
done
if ! command -v wrk >/dev/null; then
    log "installing wrk"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi

log "building WorkoutBench (release, $BENCH_SCRATCH) and cinn (release, $SCRATCH)"
(cd "$BENCH" && swift build -c release --product WorkoutBench --scratch-path "$BENCH_SCRATCH" 2>&1 | grep -vE '^(warning: .*unhandled|\[)|CMakeLists.txt$' || true)
(cd "$ROOT" && swift build -c release --product cinn --scratch-path "$SCRATCH" 2>&1 | grep -vE '^(warning: .*unhandled|\[)|CMakeLists.txt$' || true)
BIN="$(cd "$BENCH" && swift build -c release --scratch-path "$BENCH_SCRATCH" --show-bin-path)"
CINN="$SCRATCH/release/cinn"
for tool in "$BIN/WorkoutBench" "$CINN"; do
    [[ -x "$tool" ]] || { echo "missing $tool (build failed?)" >&2; exit 1; }
done
COMMIT="$(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- Sources Package.swift || echo '+changes')"

# 2. The Fitbod export.
CSV="$RESULTS/fitbod.csv"
log "Fitbod export: $ROWS sets, seed 42, ending $FITBOD_END"
/usr/bin/time -f '%e' python3 "$REFERENCE/gen_fitbod.py" --rows "$ROWS" --seed 42 --end "$FITBOD_END" --out "$CSV" 2>"$RESULTS/gen.txt"
cat "$RESULTS/gen.txt" >&2
mark_load "export written"

# 3. The import beside the plain-Python reference, alternately.
log "import: the Python reference and cinn import alternately, $IMPORT_RUNS runs each"
CDB="$RESULTS/cinn.sqlite"
PDB="$RESULTS/python.sqlite"
for run in $(seq "$IMPORT_RUNS"); do
    /usr/bin/time -v python3 "$REFERENCE/py_csv_sqlite_import.py" "$CSV" "$PDB" --fresh \
        >"$RESULTS/python-$run.json" 2>"$RESULTS/python-$run.time" || true
    rm -f "$CDB" "$CDB-wal" "$CDB-shm"
    /usr/bin/time -v "$CINN" import "$CSV" --database "$CDB" >"$RESULTS/cinn-$run.out" 2>"$RESULTS/cinn-$run.time" || true
    echo "  run $run: python $(grep 'Elapsed' "$RESULTS/python-$run.time" | awk '{print $NF}'), cinn $(grep 'Elapsed' "$RESULTS/cinn-$run.time" | awk '{print $NF}')" >&2
done
python3 - "$CDB" "$PDB" >"$RESULTS/counts.json" <<'EOF'
import json, os, sqlite3, sys
cinn, python = (sqlite3.connect(path) for path in sys.argv[1:3])
one = lambda db, sql: db.execute(sql).fetchone()[0]
print(json.dumps({
    "cinn_sets": one(cinn, "SELECT COUNT(*) FROM workout_sets"), "cinn_workouts": one(cinn, "SELECT COUNT(*) FROM workouts WHERE deleted = 0"),
    "cinn_exercises": one(cinn, "SELECT COUNT(*) FROM exercises WHERE deleted = 0"),
    "cinn_bytes": os.path.getsize(sys.argv[1]), "python_bytes": os.path.getsize(sys.argv[2]),
    "python_sets": one(python, "SELECT COUNT(*) FROM sets"), "python_workouts": one(python, "SELECT COUNT(*) FROM workouts"),
}))
EOF
mark_load "imports done"

# 4. In process.
log "in process: WorkoutBench page, $ITERATIONS interleaved rounds (load average now: $(loadavg))"
"$BIN/WorkoutBench" page --database "$CDB" --iterations "$ITERATIONS" --json >"$RESULTS/page.json"
log "in process: WorkoutBench logging, $ITERATIONS interleaved rounds"
"$BIN/WorkoutBench" logging --database "$CDB" --iterations "$ITERATIONS" --json >"$RESULTS/logging.json"
mark_load "in-process done"

# 5. Over HTTP, when the workout routes are there.
log "HTTP: cinn serve, wrk -t1 -c1 -d$DURATION per route"
"$CINN" serve --port 0 --database "$CDB" --off-url none >"$RESULTS/server.log" 2>&1 &
SERVER_PID=$!
URL=""
for _ in $(seq 200); do
    URL="$(grep -o 'http://[0-9.]*:[0-9]*' "$RESULTS/server.log" | head -n 1 || true)"
    [[ -n "$URL" ]] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$RESULTS/server.log" >&2; echo "cinn serve exited" >&2; exit 1; }
    sleep 0.05
done
[[ -n "$URL" ]] || { echo "cinn serve did not start listening" >&2; exit 1; }
: >"$RESULTS/http.txt"
probe="$(curl -s -o "$RESULTS/body-probe" -w '%{http_code}' "$URL/api/v1/exercises" || true)"
if [[ "$probe" != 200 ]]; then
    echo "  GET /api/v1/exercises answered $probe: the workout routes are not in this build; HTTP step skipped" >&2
    echo "skipped: GET /api/v1/exercises answered $probe" >"$RESULTS/http-skipped.txt"
else
    ID="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["exercise"]["id"])' "$RESULTS/page.json")"
    LOGGING="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["in_progress"])' "$RESULTS/logging.json")"
    FINISHED="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["finished"])' "$RESULTS/logging.json")"
    ENDPOINTS=(
        "health|/health"
        "exercises|/api/v1/exercises"
        "exercise|/api/v1/exercises/$ID"
        "lifts|/lifts"
        "liftpage|/lifts/$ID"
        "logging|/workouts/$LOGGING/log"
        "summary|/workouts/$FINISHED?finished=1"
    )
    for endpoint in "${ENDPOINTS[@]}"; do
        IFS='|' read -r label path <<<"$endpoint"
        read -r status bytes < <(curl -s -o "$RESULTS/body-$label" -w '%{http_code} %{size_download}\n' "$URL$path")
        if [[ "$status" != 200 ]]; then
            echo "  GET $path answered $status; not measured" >&2
            continue
        fi
        wrk -t1 -c1 -d2s "$URL$path" >/dev/null
        out="$RESULTS/wrk-$label.txt"
        before="$(loadavg)"
        wrk -t1 -c1 -d"$DURATION" --latency "$URL$path" >"$out"
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
fi
stop_server
mark_load "HTTP done"

log "results ($(nproc) cores; load average now: $(loadavg))"
python3 - "$RESULTS" "$IMPORT_RUNS" "$DURATION" "$COMMIT" <<'EOF'
import json, os, statistics, sys
results, runs, duration, commit = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
med = statistics.median

def timed(path):
    return dict(line.strip().rsplit(": ", 1) for line in open(path) if ": " in line)

def wall(text):
    return sum(float(p) * 60 ** i for i, p in enumerate(reversed(text.split(":"))))

print(f"commit {commit}; load average:")
for line in open(f"{results}/load.txt"):
    print(f"  {line.strip()}")
print(f"\nexport: {open(f'{results}/gen.txt').read().split(chr(10))[0]}; {os.path.getsize(f'{results}/fitbod.csv'):,} bytes")

runs_seen = {"python": [], "cinn": []}
for run in range(1, runs + 1):
    for tool in ("python", "cinn"):
        t = timed(f"{results}/{tool}-{run}.time")
        output = f"{results}/{tool}-{run}." + ("json" if tool == "python" else "out")
        if t.get("Exit status", "0") != "0":
            print(f"{tool} run {run} failed (exit {t.get('Exit status')}):", open(output).read()[:800])
        runs_seen[tool].append({
            "wall": wall(t["Elapsed (wall clock) time (h:mm:ss or m:ss)"]),
            "cpu": float(t["User time (seconds)"]) + float(t["System time (seconds)"]),
            "rss": int(t["Maximum resident set size (kbytes)"]) / 1024,
        })
counts = json.load(open(f"{results}/counts.json"))
py = json.load(open(f"{results}/python-{runs}.json"))
print(f"stored: cinn {counts['cinn_sets']:,} sets in {counts['cinn_workouts']:,} workouts, {counts['cinn_exercises']} exercises, "
      f"{counts['cinn_bytes'] / 1e6:.0f} MB; python {counts['python_sets']:,} sets in {counts['python_workouts']:,} workouts, "
      f"{counts['python_bytes'] / 1e6:.0f} MB (its own timer: {py['seconds']} s, SQLite {py['sqlite']})")
print(f"cinn's report: {open(f'{results}/cinn-{runs}.out').read().strip()[:300]}")

print(f"\n| run | Python wall s | Python CPU s | Python peak MB | cinn wall s | cinn CPU s | cinn peak MB | Python ÷ cinn |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|")
for i, (p, c) in enumerate(zip(runs_seen["python"], runs_seen["cinn"]), start=1):
    print(f"| {i} | {p['wall']:.2f} | {p['cpu']:.2f} | {p['rss']:.1f} | {c['wall']:.2f} | {c['cpu']:.2f} | {c['rss']:.1f} | {p['wall'] / c['wall']:.2f}× |")
pm = {k: med(r[k] for r in runs_seen["python"]) for k in ("wall", "cpu", "rss")}
cm = {k: med(r[k] for r in runs_seen["cinn"]) for k in ("wall", "cpu", "rss")}
print(f"| **median** | **{pm['wall']:.2f}** | {pm['cpu']:.2f} | {pm['rss']:.1f} | **{cm['wall']:.2f}** | {cm['cpu']:.2f} | {cm['rss']:.1f} | "
      f"**{pm['wall'] / cm['wall']:.2f}×** |")
ratio = pm["wall"] / cm["wall"]
peak = max(r["rss"] for r in runs_seen["cinn"])
print(f"\nratio (median wall, Python ÷ cinn): {ratio:.2f}× (target ≥ 3×: {'met' if ratio >= 3 else 'missed'}); "
      f"cinn peak RSS max {peak:.1f} MB (target < 100 MB: {'met' if peak < 100 else 'missed'}); "
      f"rows/s (median): cinn {counts['cinn_sets'] / cm['wall']:,.0f}, Python {counts['python_sets'] / pm['wall']:,.0f}")

page = json.load(open(f"{results}/page.json"))
e, j = page["exercise"], page["journal"]
print(f"\njournal: {j['sets']:,} sets, {j['workouts']:,} workouts, {j['exercises']} exercises; page of {e['name']} ({e['id']}): "
      f"{e['sets']:,} sets on {e['days']:,} days ({e['lifts']:,} unbeaten lifts), {e['history_days']:,} days with an estimate, {e['first_day']} … {e['last_day']}; "
      f"best {e['best_kg']} kg on {e['best_day']}, current {e['current_kg']} kg; WorkoutBench peak RSS {page['peak_rss_mb']} MB")
cases = {c["name"]: c for c in page["cases"]}
print(f"\n| in process ({page['iterations']} interleaved rounds after {page['warmup']} warm-up, {page['seconds']} s) | p50 ms | p99 ms | max ms | mean ms | CPU p50 ms |")
print("|---|---:|---:|---:|---:|---:|")
for c in page["cases"]:
    print(f"| {c['label']} | {c['p50_ms']:.3f} | {c['p99_ms']:.3f} | {c['max_ms']:.3f} | {c['mean_ms']:.3f} | {c['cpu_p50_ms']:.3f} |")
p = cases["page"]
parts = ["settings", "exerciseDays", "report", "workoutIDBest"] + (["workoutIDCurrent"] if "workoutIDCurrent" in cases else [])
print(f"\nexercisePage p99 {p['p99_ms']:.3f} ms (target < 10 ms: {'met' if p['p99_ms'] < 10 else 'missed'}); "
      f"by id p99 {cases['pageByID']['p99_ms']:.3f} ms; parts at p50: " +
      ", ".join(f"{name} {cases[name]['p50_ms']:.3f}" for name in parts) +
      f" (sum {sum(cases[name]['p50_ms'] for name in parts):.3f} of {p['p50_ms']:.3f} ms); "
      f"exerciseDays' query raw {cases['exerciseDaysRaw']['p50_ms']:.3f} ms, workoutID's raw {cases['workoutIDRaw']['p50_ms']:.3f} ms")

logging = json.load(open(f"{results}/logging.json"))
print(f"\n| logging, in process ({logging['iterations']} interleaved rounds after {logging['warmup']} warm-up, {logging['seconds']} s; "
      f"exercises {', '.join(logging['exercises'])}) | p50 ms | p99 ms | max ms | mean ms | CPU p50 ms |")
print("|---|---:|---:|---:|---:|---:|")
for c in logging["cases"]:
    print(f"| {c['label']} | {c['p50_ms']:.3f} | {c['p99_ms']:.3f} | {c['max_ms']:.3f} | {c['mean_ms']:.3f} | {c['cpu_p50_ms']:.3f} |")

if os.path.exists(f"{results}/http-skipped.txt"):
    print(f"\nHTTP: {open(f'{results}/http-skipped.txt').read().strip()}")
else:
    print(f"\n| GET, wrk -t1 -c1 -d{duration} | body bytes | p50 ms | p90 ms | p99 ms | req/s | load before |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for label, path, size, p50, p90, p99, rps, load in (line.strip().split("|") for line in open(f"{results}/http.txt")):
        print(f"| `{path}` | {int(size):,} | {float(p50):.3f} | {float(p90):.3f} | {float(p99):.3f} | {float(rps):,.0f} | {load} |")
EOF
echo
echo "raw outputs and the journals: $RESULTS"
