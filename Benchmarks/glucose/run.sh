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
#
# Then the meal expectation ("Can I nom nom this?", `Journal.nom`, POST /api/v1/nom) on a journal of its own with
# NOM_DAYS of CGM, meals and insulin (default 730, two years; 0 skips it), beside the 30-day report on that journal
# (GlucoseBench --phase nom, NomPhase.swift), NOM_ITERATIONS rounds (default 200), SQLite and then PostgreSQL as above.
# DAYS and ITERATIONS stay the month's. Filling two years took 6 s (SQLite) and 28 s (PostgreSQL) in a debug build.
#
# CONFIG=debug builds and runs a debug build (default release, which takes ~45 minutes from scratch on 2 cores); the
# output says which. E.g. the nom phase alone, debug:
#
#     CONFIG=debug DAYS=0 Benchmarks/glucose/run.sh      # DAYS=0 skips the month's cases
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BENCH="$ROOT/Benchmarks"
BENCH_SCRATCH="${BENCH_SCRATCH:-$BENCH/.build}"
ITERATIONS="${ITERATIONS:-300}"
DAYS="${DAYS:-30}"
NOM_DAYS="${NOM_DAYS:-730}"
NOM_ITERATIONS="${NOM_ITERATIONS:-200}"
CONFIG="${CONFIG:-release}"
[[ "$CONFIG" == release || "$CONFIG" == debug ]] || { echo "CONFIG is release or debug" >&2; exit 1; }
PG_URL="${CINN_BENCH_POSTGRES_URL:-${CINN_TEST_POSTGRES_URL:-}}"
RESULTS="$(mktemp -d "${TMPDIR:-/tmp}/cinn-glucose.XXXXXX")"
SCHEMA="glucose_bench_$$"
NOM_SCHEMA="glucose_nom_bench_$$"

drop_schema() {
    if [[ -n "$PG_URL" ]]; then
        psql "$PG_URL" -q -c "DROP SCHEMA IF EXISTS $SCHEMA CASCADE" >/dev/null 2>&1 || true
        psql "$PG_URL" -q -c "DROP SCHEMA IF EXISTS $NOM_SCHEMA CASCADE" >/dev/null 2>&1 || true
    fi
}
trap drop_schema EXIT

echo "== building GlucoseBench ($CONFIG, $BENCH_SCRATCH)" >&2
(cd "$BENCH" && swift build -c "$CONFIG" --product GlucoseBench --scratch-path "$BENCH_SCRATCH" 2>&1 | grep -vE '^(warning: .*unhandled|\[)|CMakeLists.txt$' || true)
BIN="$(cd "$BENCH" && swift build -c "$CONFIG" --scratch-path "$BENCH_SCRATCH" --show-bin-path)/GlucoseBench"
[[ -x "$BIN" ]] || { echo "missing $BIN (build failed?)" >&2; exit 1; }
COMMIT="$(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- Sources Package.swift || echo '+changes')"
echo "commit $COMMIT, $CONFIG build, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
if [[ -n "$PG_URL" ]]; then command -v psql >/dev/null || { echo "psql is needed to make the PostgreSQL schema" >&2; exit 1; }; fi

if (( DAYS > 0 )); then
    echo
    "$BIN" --database "$RESULTS/glucose.sqlite" --days "$DAYS" --iterations "$ITERATIONS" | tee "$RESULTS/sqlite.txt"
    if [[ -n "$PG_URL" ]]; then
        psql "$PG_URL" -q -c "CREATE SCHEMA $SCHEMA" >/dev/null
        echo
        "$BIN" --database "$PG_URL" --schema "$SCHEMA" --days "$DAYS" --iterations "$ITERATIONS" | tee "$RESULTS/postgresql.txt"
    else
        echo "(no CINN_BENCH_POSTGRES_URL or CINN_TEST_POSTGRES_URL: PostgreSQL skipped)"
    fi
fi
if (( NOM_DAYS > 0 )); then
    echo
    echo "load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
    "$BIN" --phase nom --database "$RESULTS/nom.sqlite" --days "$NOM_DAYS" --iterations "$NOM_ITERATIONS" | tee "$RESULTS/nom-sqlite.txt"
    if [[ -n "$PG_URL" ]]; then
        psql "$PG_URL" -q -c "CREATE SCHEMA $NOM_SCHEMA" >/dev/null
        echo
        echo "load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
        "$BIN" --phase nom --database "$PG_URL" --schema "$NOM_SCHEMA" --days "$NOM_DAYS" --iterations "$NOM_ITERATIONS" \
            | tee "$RESULTS/nom-postgresql.txt"
    fi
fi
echo
echo "load $(cut -d' ' -f1-3 /proc/loadavg); raw outputs: $RESULTS"
