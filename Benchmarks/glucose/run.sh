#!/usr/bin/env bash
# The glucose benchmarks (the glucose work's speed targets) in one run: the 30-day report and the day
# chart over a CGM's month (8,640 readings, meals and insulin), in process, on SQLite and then on
# PostgreSQL:
#
#     Benchmarks/glucose/run.sh                                        # SQLite, and PostgreSQL when a URL is set
#     CINN_BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5433/postgres ITERATIONS=300 Benchmarks/glucose/run.sh
#
# What it does: builds GlucoseBench (release, in BENCH_SCRATCH, default Benchmarks/.build); runs it on a fresh
# SQLite file in a results directory, then (with CINN_BENCH_POSTGRES_URL, else CINN_TEST_POSTGRES_URL) on an
# empty PostgreSQL schema it makes with psql and drops after. Target: the report and the day chart under 20 ms.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BENCH="$ROOT/Benchmarks"
BENCH_SCRATCH="${BENCH_SCRATCH:-$BENCH/.build}"
ITERATIONS="${ITERATIONS:-300}"
DAYS="${DAYS:-30}"
PG_URL="${CINN_BENCH_POSTGRES_URL:-${CINN_TEST_POSTGRES_URL:-}}"
RESULTS="$(mktemp -d "${TMPDIR:-/tmp}/cinn-glucose.XXXXXX")"
SCHEMA="glucose_bench_$$"

drop_schema() {
    if [[ -n "$PG_URL" ]]; then psql "$PG_URL" -q -c "DROP SCHEMA IF EXISTS $SCHEMA CASCADE" >/dev/null 2>&1 || true; fi
}
trap drop_schema EXIT

echo "== building GlucoseBench (release, $BENCH_SCRATCH)" >&2
(cd "$BENCH" && swift build -c release --product GlucoseBench --scratch-path "$BENCH_SCRATCH" 2>&1 | grep -vE '^(warning: .*unhandled|\[)|CMakeLists.txt$' || true)
BIN="$(cd "$BENCH" && swift build -c release --scratch-path "$BENCH_SCRATCH" --show-bin-path)/GlucoseBench"
[[ -x "$BIN" ]] || { echo "missing $BIN (build failed?)" >&2; exit 1; }
COMMIT="$(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- Sources Package.swift || echo '+changes')"
echo "commit $COMMIT, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"

echo
"$BIN" --database "$RESULTS/glucose.sqlite" --days "$DAYS" --iterations "$ITERATIONS" | tee "$RESULTS/sqlite.txt"
if [[ -n "$PG_URL" ]]; then
    command -v psql >/dev/null || { echo "psql is needed to make the PostgreSQL schema" >&2; exit 1; }
    psql "$PG_URL" -q -c "CREATE SCHEMA $SCHEMA" >/dev/null
    echo
    "$BIN" --database "$PG_URL" --schema "$SCHEMA" --days "$DAYS" --iterations "$ITERATIONS" | tee "$RESULTS/postgresql.txt"
else
    echo "(no CINN_BENCH_POSTGRES_URL or CINN_TEST_POSTGRES_URL: PostgreSQL skipped)"
fi
echo
echo "load $(cut -d' ' -f1-3 /proc/loadavg); raw outputs: $RESULTS"
