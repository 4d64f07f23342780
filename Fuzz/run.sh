#!/usr/bin/env bash
# Fuzzes every reader of outside input with libFuzzer (docs/SECURITY.md, "Fuzzing").
#
#     Fuzz/run.sh                      # every target, FUZZ_SECONDS (default 60) each
#     FUZZ_SECONDS=600 FUZZ_SEED=7 Fuzz/run.sh apple-health nightscout    # longer, chosen targets, another seed
#
# Builds Fuzz/ (one binary, CinnFuzz, whose CINN_FUZZ_TARGET picks the reader) with libFuzzer and AddressSanitizer
# (coverage named explicitly: this toolchain's -sanitize=fuzzer alone instruments nothing, and edge coverage alone
# means trace-pc-guard, which libFuzzer no longer reads)
# into .build-fuzz, then runs each target for FUZZ_SECONDS with a seed corpus copied from the test fixtures,
# a 10 s limit per input and 2 GB of memory. Every input that crashed, hung or blew the memory limit is kept
# in artifacts/fuzz/TARGET/ and makes the script fail (leaks are not looked for: ZIPFoundation leaks 64 bytes per
# archive it opens); add it to Tests/ as a regression test once fixed. Prints one
# line per target: executions, seconds, corpus size, findings.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_PER_TARGET="${FUZZ_SECONDS:-60}"
SEED="${FUZZ_SEED:-1}"      # fixed, so that a run explores the same inputs each time; vary it for longer runs
FIXTURES="$ROOT/Tests/CinnImportTests/Fixtures"
OUT="$ROOT/artifacts/fuzz"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/cinn-fuzz.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"

# The seed inputs of each target: files of its format from the fixtures.
seeds() {
    case "$1" in
        weights) echo "$FIXTURES"/weight_2024-03-01.csv "$FIXTURES"/body_fat_2024-03-01.csv "$FIXTURES"/libra_export.csv "$FIXTURES"/hackdiet_db.csv ;;
        fitbit) echo "$FIXTURES"/weight-2024-02-01.json ;;
        workouts) echo "$FIXTURES"/WorkoutExport.csv "$FIXTURES"/strong_export_classic_comma.csv "$FIXTURES"/strong_export_v6_semicolon.csv "$FIXTURES"/FitNotes_Export_2024_03_07.csv ;;
        myfitnesspal) echo "$FIXTURES"/myfitnesspal/File-Export-2024-03-01-to-2024-03-07/*.csv "$FIXTURES"/myfitnesspal-excel/*.csv ;;
        myfitnesspal-zip) echo "$FIXTURES"/myfitnesspal/File-Export-2024-03-01-to-2024-03-07.zip "$FIXTURES"/myfitnesspal/zip64.zip ;;
        nightscout|nightscout-document) echo "$FIXTURES"/nightscout/*.json ;;
        apple-health) echo "$FIXTURES"/apple_health/export.xml ;;
        apple-health-zip) echo "$FIXTURES"/apple_health/export.zip ;;
        usda) echo "$FIXTURES"/fooddata.SAMPLE.csv ;;
        openfoodfacts) echo "$FIXTURES"/openfoodfacts-products.SUBSET.jsonl ;;
        openfoodfacts-csv) echo "$FIXTURES"/en.openfoodfacts.org.products.SUBSET.csv ;;
        food-journal|sync-push) echo "$FIXTURES"/product_4056489123453.json "$FIXTURES"/nightscout/entries.json ;;
        health-auto-export) echo "$FIXTURES"/health_auto_export/*.json ;;
        nightscout-treatments|nightscout-devicestatus) echo "$FIXTURES"/nightscout/*.json ;;
        fitnotes-body) echo "$FIXTURES"/FitNotes_BodyTracker_Export_2024_03_07.csv ;;
        *) echo "unknown target $1" >&2; return 1 ;;
    esac
}

ALL=(weights fitbit workouts myfitnesspal myfitnesspal-zip nightscout nightscout-document apple-health apple-health-zip usda
     openfoodfacts openfoodfacts-csv food-journal sync-push health-auto-export nightscout-treatments nightscout-devicestatus
     fitnotes-body)
TARGETS=("$@")
(( ${#TARGETS[@]} )) || TARGETS=("${ALL[@]}")

echo "building Fuzz/ with --sanitize=fuzzer --sanitize=address (.build-fuzz)"
(cd "$ROOT/Fuzz" && swift build -c release --scratch-path "$ROOT/.build-fuzz" \
    --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp 2>&1 | grep -E "error|warning: unre|Compiling CinnFuzz|Build complete" || true)
BIN="$ROOT/.build-fuzz/release/CinnFuzz"
[[ -x $BIN ]] || { echo "the fuzz build failed" >&2; exit 1; }

mkdir -p "$OUT"
failed=0
for target in "${TARGETS[@]}"; do
    corpus="$WORK/$target"
    mkdir -p "$corpus"
    for seed in $(seeds "$target"); do cp "$seed" "$corpus/"; done
    log="$WORK/$target.log"
    mkdir -p "$OUT/$target"
    status=0
    ASAN_OPTIONS=detect_leaks=0 CINN_FUZZ_TARGET="$target" "$BIN" "$corpus" -max_total_time="$SECONDS_PER_TARGET" -seed="$SEED" -timeout=10 -rss_limit_mb=2048 \
        -max_len=1048576 -detect_leaks=0 -artifact_prefix="$OUT/$target/" -print_final_stats=1 >"$log" 2>&1 || status=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    took=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o 'in [0-9]*' | grep -o '[0-9]*' || echo "$SECONDS_PER_TARGET")
    findings=$(find "$OUT/$target" -type f | wc -l)
    printf '%-20s %10s executions %5s s  corpus %5s  findings %s\n' "$target" "$runs" "$took" "$(ls "$corpus" | wc -l)" "$findings"
    if (( status != 0 || findings > 0 )); then
        failed=1
        echo "---- $target (exit $status): the end of libFuzzer's log ----"
        tail -40 "$log"
    fi
done
if (( failed )); then
    echo "fuzzing found problems: the inputs are in $OUT" >&2
    exit 1
fi
echo "fuzzing: no crash, hang or memory blow-up in ${#TARGETS[@]} targets"
