#!/usr/bin/env bash
# The sync benchmarks (the sync work's speed targets) in one run: a push of 10,000 changes in one
# request and a pull of 100,000 records, over HTTP on loopback to a hosted-mode server, on SQLite and
# then on PostgreSQL; then (FAULTS=1) the sync fault test at its full count, 10,000 operations by three
# clients:
#
#     Benchmarks/sync/run.sh                                        # SQLite, and PostgreSQL when a URL is set
#     CINN_BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5433/postgres ITERATIONS=5 FAULTS=1 Benchmarks/sync/run.sh
#
# What it does: builds SyncBench (release, in BENCH_SCRATCH, default Benchmarks/.build); runs it on a fresh
# SQLite file in a results directory, then (with CINN_BENCH_POSTGRES_URL, else CINN_TEST_POSTGRES_URL) on an
# empty PostgreSQL schema it makes with psql and drops after. Targets: push under 1 s, pull under 2 s.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BENCH="$ROOT/Benchmarks"
BENCH_SCRATCH="${BENCH_SCRATCH:-$BENCH/.build}"
ITERATIONS="${ITERATIONS:-5}"
CHANGES="${CHANGES:-10000}"
RECORDS="${RECORDS:-100000}"
PG_URL="${CINN_BENCH_POSTGRES_URL:-${CINN_TEST_POSTGRES_URL:-}}"
RESULTS="$(mktemp -d "${TMPDIR:-/tmp}/cinn-sync.XXXXXX")"
SCHEMA="sync_bench_$$"

drop_schema() {
    if [[ -n "$PG_URL" ]]; then psql "$PG_URL" -q -c "DROP SCHEMA IF EXISTS $SCHEMA CASCADE" >/dev/null 2>&1 || true; fi
}
trap drop_schema EXIT

echo "== building SyncBench (release, $BENCH_SCRATCH)" >&2
(cd "$BENCH" && swift build -c release --product SyncBench --scratch-path "$BENCH_SCRATCH" 2>&1 | grep -vE '^(warning: .*unhandled|\[)|CMakeLists.txt$' || true)
BIN="$(cd "$BENCH" && swift build -c release --scratch-path "$BENCH_SCRATCH" --show-bin-path)/SyncBench"
[[ -x "$BIN" ]] || { echo "missing $BIN (build failed?)" >&2; exit 1; }
COMMIT="$(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- Sources Package.swift || echo '+changes')"
echo "commit $COMMIT, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"

echo
"$BIN" --database "$RESULTS/sync.sqlite" --changes "$CHANGES" --records "$RECORDS" --iterations "$ITERATIONS" | tee "$RESULTS/sqlite.txt"
if [[ -n "$PG_URL" ]]; then
    command -v psql >/dev/null || { echo "psql is needed to make the PostgreSQL schema" >&2; exit 1; }
    psql "$PG_URL" -q -c "CREATE SCHEMA $SCHEMA" >/dev/null
    echo
    "$BIN" --database "$PG_URL" --schema "$SCHEMA" --changes "$CHANGES" --records "$RECORDS" --iterations "$ITERATIONS" | tee "$RESULTS/postgresql.txt"
else
    echo "(no CINN_BENCH_POSTGRES_URL or CINN_TEST_POSTGRES_URL: PostgreSQL skipped)"
fi
if [[ "${FAULTS:-0}" == 1 ]]; then
    echo
    echo "== the fault test at 10,000 operations (debug build of the tests)" >&2
    (cd "$ROOT" && CINN_SYNC_FAULT_OPS=10000 CINN_TEST_POSTGRES_URL="$PG_URL" swift test --filter SyncFaultTests 2>&1 | grep -E "✔|✘|passed|failed" | tail -5)
fi
echo
echo "load $(cut -d' ' -f1-3 /proc/loadavg); raw outputs: $RESULTS"
