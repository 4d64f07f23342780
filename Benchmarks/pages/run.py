#!/usr/bin/env python3
"""The daily pages against the server's own trivial route, side by side in one run.

    python3 Benchmarks/pages/run.py --cinn PATH/TO/release/cinn [--rounds 3] [--duration 5] [--pages /,/food]

Starts `cinn serve --demo` on a fresh journal, then for each page runs wrk with one connection and one thread: `/health`, the page, `/health` again, and reports the page's p50 over the mean of the two `/health`
p50s around it (the machine is shared: a ratio taken in one breath is what compares). Each page is measured in
`--rounds` rounds; the median ratio is reported with its p50 and requests a second. Every request carries the
browser's CSRF cookie, as a browser's would. wrk's raw output stays in the results directory it prints.

Needs wrk (Debian: `apt-get install wrk`). Measure a release build: a debug build is several times slower and its
ratios say little about the program people run.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import serving  # noqa: E402


def wrk(url, duration, cookie, results, name):
    """(p50 in ms, requests a second) of `wrk -c1 -t1` on `url`."""
    output = subprocess.run(
        ["wrk", "-c1", "-t1", f"-d{duration}s", "--latency", "-H", f"Cookie: {cookie}", url],
        check=True, capture_output=True, text=True).stdout
    with open(os.path.join(results, name), "a") as raw:
        raw.write(output + "\n")
    p50 = re.search(r"^\s+50%\s+([\d.]+)(us|ms|s)\s*$", output, re.MULTILINE)
    rate = re.search(r"^Requests/sec:\s+([\d.]+)", output, re.MULTILINE)
    if not p50 or not rate:
        raise RuntimeError(f"wrk's output has no p50: {output}")
    if re.search(r"Non-2xx or 3xx responses", output):
        raise RuntimeError(f"{url} answered errors: {output}")
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p50[2]]
    return float(p50[1]) * scale, float(rate[1])


# The daily pages, `{id}` a logged workout's.
DAILY_PAGES = ["/", "/food", "/food/search", "/lifts", "/workouts/{id}/log", "/glucose", "/glucose/agp", "/weigh-ins",
               "/energy"]


def arguments(doc, duration):
    """The options both page benchmarks take; `--pages` split, `DAILY_PAGES` when none are given."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--cinn", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=duration, help="seconds of each wrk run")
    parser.add_argument("--pages", default="",
                        help="comma-separated paths, {id} a logged workout's (default: every daily page)")
    args = parser.parse_args()
    args.pages = [page for page in args.pages.split(",") if page] or DAILY_PAGES
    return args


def serve(cinn, database, log_path, demo):
    """A running `cinn serve` on `database` (`--demo` fills it when empty) and its base address."""
    with open(log_path, "a") as log_file:
        server = subprocess.Popen(
            [cinn, "serve", "--port", "0", "--database", database] + (["--demo"] if demo else []),
            stdout=subprocess.PIPE, stderr=log_file, text=True, env=dict(os.environ, TZ="UTC"))
    try:
        host, port = serving.listening_address(server, 120, lambda: serving.log_tail(log_path))
    except RuntimeError:
        serving.stop(server, 10)
        raise
    return server, f"http://{host}:{port}"


def main():
    args = arguments(__doc__, duration=5)
    results = tempfile.mkdtemp(prefix="cinn-pages-")
    server, base = serve(args.cinn, os.path.join(results, "journal.sqlite"), os.path.join(results, "serve.log"), demo=True)
    try:
        with urllib.request.urlopen(base + "/") as response:
            cookie = response.headers["Set-Cookie"].split(";")[0]
        with urllib.request.urlopen(base + "/api/v1/workouts?limit=1") as response:
            workout = json.load(response)["workouts"][0]["id"]
        pages = [page.replace("{id}", workout) for page in args.pages]
        for page in pages:
            request = urllib.request.Request(base + page, headers={"Cookie": cookie})
            with urllib.request.urlopen(request) as response:
                assert response.status == 200, f"{page} answers {response.status}"
        ratios = {page: [] for page in pages}
        p50s = {page: [] for page in pages}
        rates = {page: [] for page in pages}
        floors = []
        for round_number in range(args.rounds):
            for page in pages:
                before, _ = wrk(base + "/health", args.duration, cookie, results, "health.txt")
                p50, rate = wrk(base + page, args.duration, cookie, results, "pages.txt")
                after, _ = wrk(base + "/health", args.duration, cookie, results, "health.txt")
                floor = (before + after) / 2
                floors.append(floor)
                ratios[page].append(p50 / floor)
                p50s[page].append(p50)
                rates[page].append(rate)
                print(f"round {round_number + 1} {page}: {p50:.2f} ms, /health {floor:.3f} ms, {p50 / floor:.1f}×",
                      flush=True)
        print(f"\n/health p50, median of {len(floors)}: {statistics.median(floors):.3f} ms")
        print("| page | p50 (ms) | × /health | requests/s |")
        print("|---|---:|---:|---:|")
        for page in pages:
            shown = "/workouts/{id}/log" if page.startswith("/workouts/") else page
            print(f"| `{shown}` | {statistics.median(p50s[page]):.2f} | {statistics.median(ratios[page]):.1f}× | "
                  f"{statistics.median(rates[page]):,.0f} |")
        print(f"\nraw wrk output: {results}")
    finally:
        serving.stop(server, 10)


if __name__ == "__main__":
    main()
