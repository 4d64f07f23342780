#!/usr/bin/env bash
# Load test of `GET /api/v1/trend` (the weight journal's speed target: p99 under 5 ms at range=year over
# 10 years of data), beside a minimal Hummingbird app answering a constant body of the same size (the
# reference).
#
#     Benchmarks/load/run.sh                 # from anywhere; about 2 min after the builds
#     DURATION=30s Benchmarks/load/run.sh    # longer runs
#
# What it does:
#   1. builds `cinn` in release into .build-release (never touches the debug .build) and the
#      Benchmarks package's ReferenceServer and WeightCSVTool in release;
#   2. writes 10 years of daily weigh-ins ending today (~10% of days without one) as a CSV,
#      imports it with `cinn import` into a fresh SQLite journal and sets a goal;
#   3. starts `cinn serve --port 0` on 127.0.0.1, checks the responses, and runs wrk (bounded in
#      time) against range=year and range=all at two loads: 1 connection, and 8 connections on
#      2 threads;
#   4. starts ReferenceServer with a body of the year response's size and runs the same loads;
#   5. prints p50/p99 and requests/s of each and the ratios; stops every server it started by PID.
# Raw wrk output and the servers' logs stay in the results directory it prints.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BENCH="$ROOT/Benchmarks"
SCRATCH="$ROOT/.build-release"
DURATION="${DURATION:-10s}"
export TZ="${TZ:-UTC}"  # cinn's "today" and this script's `date` must agree
RESULTS="$(mktemp -d "${TMPDIR:-/tmp}/cinn-load.XXXXXX")"
PIDS=()

stop_servers() {
    for pid in "${PIDS[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then
            kill -TERM "$pid" 2>/dev/null || true
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
        fi
    done
    PIDS=()
}
trap stop_servers EXIT

log() { printf '\n== %s\n' "$*" >&2; }

if ! command -v wrk >/dev/null; then
    log "installing wrk"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi

log "building cinn (release, $SCRATCH)"
(cd "$ROOT" && swift build -c release --product cinn --scratch-path "$SCRATCH" 2>&1 | grep -vE '^(warning: .*unhandled|\[)|CMakeLists.txt$' || true)
CINN="$SCRATCH/release/cinn"
log "building ReferenceServer and WeightCSVTool (release, Benchmarks/.build)"
(cd "$BENCH" && swift build -c release --product ReferenceServer 2>&1 | grep -vE '^(warning: .*unhandled|\[)|CMakeLists.txt$' || true)
(cd "$BENCH" && swift build -c release --product WeightCSVTool 2>&1 | grep -vE '^(warning: .*unhandled|\[)|CMakeLists.txt$' || true)
BIN="$(cd "$BENCH" && swift build -c release --show-bin-path)"
for tool in "$CINN" "$BIN/ReferenceServer" "$BIN/WeightCSVTool"; do
    [[ -x "$tool" ]] || { echo "missing $tool (build failed?)" >&2; exit 1; }
done

log "journal: 10 years of daily weigh-ins ending $(date +%F), a goal"
DB="$RESULTS/journal.sqlite"
"$BIN/WeightCSVTool" --span-days 3653 --readings daily --end "$(date +%F)" --out "$RESULTS/ten-years.csv"
"$CINN" import "$RESULTS/ten-years.csv" --unit kg --database "$DB"
"$CINN" goal set 72 --unit kg --rate 0.4 --database "$DB"

# Starts a server in the background, waits for "Listening on http://HOST:PORT", prints the base URL.
# Runs in a command substitution (a subshell), so the caller records the PID from $name.pid.
start_server() {
    local name="$1"; shift
    "$@" >"$RESULTS/$name.log" 2>&1 &
    local pid=$!
    echo "$pid" >"$RESULTS/$name.pid"
    for _ in $(seq 200); do
        local url
        url="$(grep -o 'http://[0-9.]*:[0-9]*' "$RESULTS/$name.log" 2>/dev/null | head -n 1 || true)"
        if [[ -n "$url" ]]; then echo "$url"; return; fi
        kill -0 "$pid" 2>/dev/null || { cat "$RESULTS/$name.log" >&2; echo "$name exited" >&2; exit 1; }
        sleep 0.05
    done
    echo "$name did not start listening" >&2; exit 1
}

# Runs wrk and prints "p50_ms p99_ms requests_per_s" (raw output kept in the results directory).
run_wrk() {
    local label="$1" threads="$2" connections="$3" url="$4"
    local out="$RESULTS/wrk-$label-t$threads-c$connections.txt"
    wrk -t"$threads" -c"$connections" -d"$DURATION" --latency "$url" >"$out"
    if grep -qE 'Non-2xx|Socket errors' "$out"; then
        echo "wrk reported errors for $url:" >&2; cat "$out" >&2; exit 1
    fi
    awk '
        function ms(v) {
            if (v ~ /us$/) return substr(v, 1, length(v) - 2) / 1000
            if (v ~ /ms$/) return substr(v, 1, length(v) - 2) + 0
            if (v ~ /s$/)  return substr(v, 1, length(v) - 1) * 1000
            return v
        }
        $1 == "50%" { p50 = ms($2) }
        $1 == "99%" { p99 = ms($2) }
        $1 == "Requests/sec:" { rps = $2 }
        END { printf "%.3f %.3f %.0f\n", p50, p99, rps }
    ' "$out"
}

log "starting cinn serve"
CINN_URL="$(start_server cinn "$CINN" serve --port 0 --database "$DB")" || { PIDS+=("$(cat "$RESULTS/cinn.pid")"); exit 1; }
PIDS+=("$(cat "$RESULTS/cinn.pid")")
echo "cinn at $CINN_URL (pid ${PIDS[-1]})" >&2
YEAR_URL="$CINN_URL/api/v1/trend?range=year"
ALL_URL="$CINN_URL/api/v1/trend?range=all"
YEAR_BYTES="$(curl -sf -o "$RESULTS/year.json" -w '%{size_download}' "$YEAR_URL")"
ALL_BYTES="$(curl -sf -o "$RESULTS/all.json" -w '%{size_download}' "$ALL_URL")"
python3 - "$RESULTS/year.json" "$RESULTS/all.json" <<'EOF' >&2
import json, sys
for path in sys.argv[1:]:
    report = json.load(open(path))
    days = report["days"]
    print(f"{path.rsplit('/', 1)[-1]}: {len(days)} days {days[0]['date']}..{days[-1]['date']}, "
          f"{sum(1 for d in days if d['interpolated'])} interpolated, verdict {report['verdict']['answer']}, "
          f"rate {report['rate_per_week']:.3f} kg/week, forecast {report['forecast_date']}")
EOF
echo "response sizes: year $YEAR_BYTES bytes, all $ALL_BYTES bytes" >&2

LOADS=("1 1" "2 8")
declare -A RESULT
log "wrk against cinn (warm-up 2 s first)"
wrk -t1 -c1 -d2s "$YEAR_URL" >/dev/null
for load in "${LOADS[@]}"; do
    read -r t c <<<"$load"
    RESULT["cinn-year-$t-$c"]="$(run_wrk cinn-year "$t" "$c" "$YEAR_URL")"
    RESULT["cinn-all-$t-$c"]="$(run_wrk cinn-all "$t" "$c" "$ALL_URL")"
done
stop_servers

log "starting ReferenceServer with a $YEAR_BYTES-byte body"
REF_URL="$(start_server reference "$BIN/ReferenceServer" --port 0 --size "$YEAR_BYTES")" || { PIDS+=("$(cat "$RESULTS/reference.pid")"); exit 1; }
PIDS+=("$(cat "$RESULTS/reference.pid")")
echo "reference at $REF_URL (pid ${PIDS[-1]})" >&2
REF_BYTES="$(curl -sf -o /dev/null -w '%{size_download}' "$REF_URL/api/v1/trend?range=year")"
[[ "$REF_BYTES" == "$YEAR_BYTES" ]] || { echo "reference body is $REF_BYTES bytes, not $YEAR_BYTES" >&2; exit 1; }
wrk -t1 -c1 -d2s "$REF_URL/api/v1/trend?range=year" >/dev/null
for load in "${LOADS[@]}"; do
    read -r t c <<<"$load"
    RESULT["ref-year-$t-$c"]="$(run_wrk reference-year "$t" "$c" "$REF_URL/api/v1/trend?range=year")"
done
stop_servers

log "results ($DURATION per run; $(nproc) cores; load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
printf '| load | endpoint | body bytes | p50 ms | p99 ms | req/s |\n|---|---|---:|---:|---:|---:|\n'
for load in "${LOADS[@]}"; do
    read -r t c <<<"$load"
    for key in cinn-year cinn-all ref-year; do
        read -r p50 p99 rps <<<"${RESULT[$key-$t-$c]}"
        case "$key" in
            cinn-year) name="cinn range=year"; bytes=$YEAR_BYTES ;;
            cinn-all) name="cinn range=all"; bytes=$ALL_BYTES ;;
            ref-year) name="reference (constant body)"; bytes=$YEAR_BYTES ;;
        esac
        printf '| -t%s -c%s | %s | %s | %s | %s | %s |\n' "$t" "$c" "$name" "$bytes" "$p50" "$p99" "$rps"
    done
done
printf '\n| load | cinn year ÷ reference: p50 | p99 | reference ÷ cinn: req/s | cinn year p99 < 5 ms? |\n|---|---:|---:|---:|---|\n'
for load in "${LOADS[@]}"; do
    read -r t c <<<"$load"
    read -r cp50 cp99 crps <<<"${RESULT[cinn-year-$t-$c]}"
    read -r rp50 rp99 rrps <<<"${RESULT[ref-year-$t-$c]}"
    awk -v t="$t" -v c="$c" -v cp50="$cp50" -v cp99="$cp99" -v crps="$crps" -v rp50="$rp50" -v rp99="$rp99" -v rrps="$rrps" \
        'BEGIN { printf "| -t%s -c%s | %.1f× | %.1f× | %.1f× | %s |\n", t, c, cp50 / rp50, cp99 / rp99, rrps / crps,
                 (cp99 < 5 ? "met" : "MISSED") }'
done
echo
echo "raw wrk output, server logs and the journal: $RESULTS"
