#!/usr/bin/env bash
# The Apple Health import benchmark, side by side in one run:
#
#     Benchmarks/applehealth/run.sh                       # 1,000,000 records, 3 runs each
#     SIZES="1000000 4000000" RUNS=3 Benchmarks/applehealth/run.sh
#
# What it does, for each size in SIZES:
#   1. writes an export with the generator beside this script (gen_apple_health.py --records N) into
#      WORK (default /dev/shm/cinn-applehealth, tmpfs, so that the disk does not decide), once per size;
#   2. RUNS times, alternating: `unzip -p export.zip apple_health_export/export.xml | xmllint --stream --noout -`
#      (decompressing and parsing alone, the floor), `cinn import export.zip` into a fresh SQLite journal on
#      tmpfs, and healthkit-to-sqlite 1.0.1 (PyPI, installed into a venv in WORK) on the same zip into a fresh
#      database on tmpfs; each under /usr/bin/time -v (wall, peak RSS);
#   3. with POSTGRES_URL set (say postgres://postgres@127.0.0.1:5434/postgres, a server whose data directory is on
#      tmpfs too), also `cinn import export.zip` into that database, its public schema emptied before each run
#      (the COPY path);
#   4. with BEFORE set (the path of another `cinn` binary, an earlier commit's), also its import in the same runs, so
#      that a change is measured side by side;
#   5. prints the medians and the ratios; the targets (BENCHMARKS.md): cinn ≥ 10× faster than healthkit-to-sqlite,
#      ≤ 1.5× the unzip | xmllint time, peak RSS < 150 MB.
# Needs: python3 with venv, unzip, xmllint (libxml2-utils), GNU time; psql for POSTGRES_URL. Builds `cinn` (release) in
# CINN_SCRATCH (default /tmp/build-bench-main), unless CINN names a release binary already built.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SCRATCH="${CINN_SCRATCH:-/tmp/build-bench-main}"
SIZES="${SIZES:-1000000}"
RUNS="${RUNS:-3}"
WORK="${WORK:-/dev/shm/cinn-applehealth}"
mkdir -p "$WORK"

for tool in unzip xmllint /usr/bin/time python3; do
    command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }
done
if [[ -z "${CINN:-}" ]]; then
    echo "== building cinn (release, $SCRATCH)" >&2
    (cd "$ROOT" && swift build -c release --product cinn --scratch-path "$SCRATCH" 2>&1 | grep -E "error|Compiling cinn|Build" || true)
    CINN="$(cd "$ROOT" && swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/cinn"
fi
[[ -x "$CINN" ]] || { echo "missing $CINN" >&2; exit 1; }
if [[ ! -x "$WORK/venv/bin/healthkit-to-sqlite" ]]; then
    echo "== installing healthkit-to-sqlite 1.0.1 into $WORK/venv" >&2
    python3 -m venv "$WORK/venv" && "$WORK/venv/bin/pip" install -q healthkit-to-sqlite==1.0.1
fi

# "wall_seconds peak_rss_mb" of a command, from GNU time.
measure() {
    local log="$WORK/time.log"
    /usr/bin/time -v -o "$log" "$@" >/dev/null 2>"$WORK/stderr.log" || { cat "$WORK/stderr.log" >&2; return 1; }
    local wall rss
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {split($2, t, ":"); s = 0; for (i = 1; i <= length(t); i++) s = s * 60 + t[i]; print s}' "$log")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$log")
    echo "$wall $rss"
}
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

COMMIT="$(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- Sources Package.swift || echo '+changes')"
echo "commit $COMMIT, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ), work in $WORK"
for size in $SIZES; do
    dir="$WORK/export-$size"
    if [[ ! -f "$dir/export.zip" ]]; then
        echo "== generating $size records" >&2
        python3 "$ROOT/Benchmarks/applehealth/gen_apple_health.py" --records "$size" --out "$dir" >/dev/null
    fi
    floor=(); cinn=(); before=(); hk=(); cinn_rss=(); hk_rss=(); pg=(); pg_rss=()
    for run in $(seq "$RUNS"); do
        read -r wall _ < <(measure bash -c "unzip -p '$dir/export.zip' apple_health_export/export.xml | xmllint --stream --noout -")
        floor+=("$wall")
        rm -f "$WORK/cinn.sqlite" "$WORK/cinn.sqlite-wal" "$WORK/cinn.sqlite-shm"
        read -r wall rss < <(measure "$CINN" import "$dir/export.zip" --database "$WORK/cinn.sqlite")
        cinn+=("$wall"); cinn_rss+=("$rss")
        if [[ -n "${BEFORE:-}" ]]; then
            rm -f "$WORK/before.sqlite" "$WORK/before.sqlite-wal" "$WORK/before.sqlite-shm"
            read -r wall _ < <(measure "$BEFORE" import "$dir/export.zip" --database "$WORK/before.sqlite")
            before+=("$wall")
            echo "  run $run: cinn (before) ${before[-1]} s"
        fi
        rm -f "$WORK/hk.db"
        read -r wall rss < <(measure "$WORK/venv/bin/healthkit-to-sqlite" "$dir/export.zip" "$WORK/hk.db")
        hk+=("$wall"); hk_rss+=("$rss")
        echo "  run $run: floor ${floor[-1]} s, cinn ${cinn[-1]} s (${cinn_rss[-1]} MB), healthkit-to-sqlite ${hk[-1]} s (${hk_rss[-1]} MB)"
        if [[ -n "${POSTGRES_URL:-}" ]]; then
            psql -q "$POSTGRES_URL" -c "DROP SCHEMA public CASCADE; CREATE SCHEMA public" >/dev/null 2>&1
            read -r wall rss < <(measure "$CINN" import "$dir/export.zip" --database "$POSTGRES_URL")
            pg+=("$wall"); pg_rss+=("$rss")
            echo "  run $run: cinn import into PostgreSQL ${pg[-1]} s (${pg_rss[-1]} MB)"
        fi
    done
    f=$(printf '%s\n' "${floor[@]}" | median); c=$(printf '%s\n' "${cinn[@]}" | median); h=$(printf '%s\n' "${hk[@]}" | median)
    cr=$(printf '%s\n' "${cinn_rss[@]}" | sort -n | tail -1); hr=$(printf '%s\n' "${hk_rss[@]}" | sort -n | tail -1)
    echo "$size records (zip $(du -h "$dir/export.zip" | cut -f1), xml $(du -h "$dir/export.xml" | cut -f1)), median of $RUNS:"
    echo "  unzip | xmllint --stream: $f s"
    echo "  cinn import:              $c s, peak RSS $cr MB"
    echo "  healthkit-to-sqlite:      $h s, peak RSS $hr MB"
    if [[ -n "${BEFORE:-}" ]]; then
        b=$(printf '%s\n' "${before[@]}" | median)
        awk -v b="$b" -v h="$h" 'BEGIN { printf "  cinn import (before):     %s s, %.1f× faster than healthkit-to-sqlite\n", b, h / b }'
    fi
    if [[ -n "${POSTGRES_URL:-}" ]]; then
        echo "  cinn import (PostgreSQL): $(printf '%s\n' "${pg[@]}" | median) s, peak RSS $(printf '%s\n' "${pg_rss[@]}" | sort -n | tail -1) MB"
    fi
    awk -v f="$f" -v c="$c" -v h="$h" 'BEGIN { printf "  cinn is %.1f× faster than healthkit-to-sqlite (target ≥ 10×); %.2f× the unzip | xmllint time (target ≤ 1.5×)\n", h / c, c / f }'
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
