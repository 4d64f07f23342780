#!/usr/bin/env python3
"""The "Add food" page beside the search API it is built on, side by side in one run.

For each query, alternately GET /food/search?q=Q (the page a person logs food through) and
GET /api/v1/foods/search?q=Q (the JSON API, the same search), ROUNDS times each, over one keep-alive
connection per endpoint, against a running `cinn serve` in single-user mode. Prints p50 and p99 of each
and the page's p99 as a multiple of the API's.

    python3 Benchmarks/food/page_vs_api.py http://127.0.0.1:8080 [--rounds 200]
"""
import argparse
import http.client
import statistics
import time
import urllib.parse

QUERIES = ["apple", "chicken breast", "oatmeal", "greek yogurt", "banana", "cheddar", "rice", "coca cola"]


def timed(connection: http.client.HTTPConnection, path: str) -> float:
    start = time.perf_counter()
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    elapsed = time.perf_counter() - start
    if response.status != 200 or not body:
        raise SystemExit(f"GET {path}: {response.status}")
    return elapsed


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("--rounds", type=int, default=200, help="requests per endpoint and query")
    args = parser.parse_args()
    parts = urllib.parse.urlsplit(args.url)
    page = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    api = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    times: dict[str, list[float]] = {"page": [], "api": []}
    for query in QUERIES:
        q = urllib.parse.quote(query)
        timed(page, f"/food/search?q={q}")
        timed(api, f"/api/v1/foods/search?q={q}")
        for _ in range(args.rounds):
            times["page"].append(timed(page, f"/food/search?q={q}"))
            times["api"].append(timed(api, f"/api/v1/foods/search?q={q}"))
    print(f"{len(QUERIES)} queries x {args.rounds} rounds, alternating")
    print("| endpoint | p50 | p99 |\n|---|---:|---:|")
    for name, label in (("page", "GET /food/search (the page)"), ("api", "GET /api/v1/foods/search (the API)")):
        print(f"| {label} | {statistics.median(times[name]) * 1000:.1f} ms | {percentile(times[name], 99) * 1000:.1f} ms |")
    ratio50 = statistics.median(times["page"]) / statistics.median(times["api"])
    ratio99 = percentile(times["page"], 99) / percentile(times["api"], 99)
    print(f"\npage / API: p50 {ratio50:.1f}x, p99 {ratio99:.1f}x (target: p99 within 3x)")


if __name__ == "__main__":
    main()
