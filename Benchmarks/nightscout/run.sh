#!/usr/bin/env bash
# The Nightscout API's benchmarks in one run: a year of 5-minute CGM readings (105,120) uploaded a day (288
# entries, shaped as xDrip+ sends them) a POST, some days sent again, then entries.json?count=288 and a 3-hour
# sgv.json read with the year in the journal; then Health Auto Export deliveries, HAE_DAYS days (default 60) each a
# day at the minute, and the app's overlapping windows; over HTTP on loopback to a single-user server with an API
# secret, on SQLite and then on PostgreSQL:
#
#     Benchmarks/nightscout/run.sh                                      # SQLite, and PostgreSQL when a URL is set
#     CINN_BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5433/postgres DAYS=365 READS=300 Benchmarks/nightscout/run.sh
#
# What it does: builds NightscoutBench (release, in BENCH_SCRATCH, default Benchmarks/.build); runs it on a fresh
# SQLite file in a results directory, then (with CINN_BENCH_POSTGRES_URL, else CINN_TEST_POSTGRES_URL) on an
# empty PostgreSQL schema it makes with psql and drops after (there uploading first, then reading after ANALYZE).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BENCH="$ROOT/Benchmarks"
BENCH_SCRATCH="${BENCH_SCRATCH:-$BENCH/.build}"
DAYS="${DAYS:-365}"
READS="${READS:-300}"
HAE_DAYS="${HAE_DAYS:-60}"
PG_URL="${CINN_BENCH_POSTGRES_URL:-${CINN_TEST_POSTGRES_URL:-}}"
RESULTS="$(mktemp -d "${TMPDIR:-/tmp}/cinn-nightscout.XXXXXX")"
SCHEMA="nightscout_bench_$$"

drop_schema() {
    if [[ -n "$PG_URL" ]]; then psql "$PG_URL" -q -c "DROP SCHEMA IF EXISTS $SCHEMA CASCADE" >/dev/null 2>&1 || true; fi
}
trap drop_schema EXIT

echo "== building NightscoutBench (release, $BENCH_SCRATCH)" >&2
(cd "$BENCH" && swift build -c release --product NightscoutBench --scratch-path "$BENCH_SCRATCH" 2>&1 | grep -vE '^(warning: .*unhandled|\[)|CMakeLists.txt$' || true)
BIN="$(cd "$BENCH" && swift build -c release --scratch-path "$BENCH_SCRATCH" --show-bin-path)/NightscoutBench"
[[ -x "$BIN" ]] || { echo "missing $BIN (build failed?)" >&2; exit 1; }
COMMIT="$(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- Sources Package.swift || echo '+changes')"
echo "commit $COMMIT, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"

echo
"$BIN" --database "$RESULTS/nightscout.sqlite" --days "$DAYS" --reads "$READS" | tee "$RESULTS/sqlite.txt"
"$BIN" --database "$RESULTS/hae.sqlite" --days "$HAE_DAYS" --phase hae | tee -a "$RESULTS/sqlite.txt"
if [[ -n "$PG_URL" ]]; then
    command -v psql >/dev/null || { echo "psql is needed to make the PostgreSQL schema" >&2; exit 1; }
    psql "$PG_URL" -q -c "CREATE SCHEMA $SCHEMA" >/dev/null
    echo
    # Uploaded, then read once the table has statistics, as autovacuum's ANALYZE gives it in service (on this
    # shared server, whose test schemas keep autovacuum busy, a fresh table can wait minutes for them).
    "$BIN" --database "$PG_URL" --schema "$SCHEMA" --days "$DAYS" --phase upload | tee "$RESULTS/postgresql.txt"
    psql "$PG_URL" -q -c "ANALYZE $SCHEMA.glucose_readings"
    "$BIN" --database "$PG_URL" --schema "$SCHEMA" --days "$DAYS" --reads "$READS" --phase read | tee -a "$RESULTS/postgresql.txt"
    psql "$PG_URL" -q -c "DROP SCHEMA $SCHEMA CASCADE" -c "CREATE SCHEMA $SCHEMA" >/dev/null
    "$BIN" --database "$PG_URL" --schema "$SCHEMA" --days "$HAE_DAYS" --phase hae | tee -a "$RESULTS/postgresql.txt"
else
    echo "(no CINN_BENCH_POSTGRES_URL or CINN_TEST_POSTGRES_URL: PostgreSQL skipped)"
fi
echo
echo "load $(cut -d' ' -f1-3 /proc/loadavg); raw outputs: $RESULTS"
