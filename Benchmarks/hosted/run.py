#!/usr/bin/env python3
"""Hosted Cinn under load: several `cinn serve --accounts` on one PostgreSQL database behind nginx
(docs/nginx/cinn.conf, TLS at nginx), driven by locust (locustfile.py) with many people, each with their own journal
and token.

    python3 Benchmarks/hosted/run.py load --cinn .build-release/release/cinn --postgres postgres://postgres@127.0.0.1:5433/postgres
    python3 Benchmarks/hosted/run.py soak --cinn ... --postgres ... --minutes 30

load: seeds PEOPLE journals (sign-up, a token, a year of weigh-ins, 60 days of food, 7 days of CGM readings), then
      for 1, 2 and 3 instances runs locust for SECONDS with CLIENTS people asking as fast as they are answered. It
      reports requests/s, p50/p99 per request kind, failures, the most PostgreSQL connections in use, each
      instance's resident memory (RSS, its peak during the run) and the computed parts' hits and misses (/metrics).
soak: the same journals, 2 instances, CLIENTS people at a steady moderate pace (0.5-1.5 s between requests) for
      MINUTES; in the middle one instance gets SIGTERM and starts again. It samples each instance's RSS every 30 s,
      counts the requests nginx sent on to the other instance, and checks afterwards that every write answered 2xx is
      in the database.
Results (locust CSVs, samples, logs, summary.json) go to the directory it prints. It needs nginx, openssl, psql and
locust (`pip install locust`, or --locust PATH), and a release build of cinn:
`swift build -c release --product cinn --scratch-path .build-release` (the debug build is several times slower).
"""
import argparse
import concurrent.futures
import datetime as dt
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "e2e"))
from test_multi_instance import TLS, Client, Instance, free_port, psql, render_site, start_nginx  # noqa: E402

HERE = Path(__file__).resolve().parent


def seed_person(base: str, index: int) -> dict:
    """One person: signs up, gets a token, imports a year of weigh-ins, logs 60 days of food and 7 days of CGM."""
    name = f"person{index:04d}"
    password = f"{name}-password"
    # Each person from an address of their own: log-in's throttle counts attempts per client address while they are
    # checked, and eight sign-ups at once from one address would be five attempts at once.
    client = Client(base, forwarded_for=f"10.0.{index // 250}.{index % 250 + 1}")
    client.get("/signup")
    status, _, _ = client.form("/signup", {"name": name, "password": password})
    if status != 303:
        raise RuntimeError(f"sign-up of {name}: HTTP {status}")
    status, answer = client.json("POST", "/api/v1/login", {"name": name, "password": password, "token_name": "load"})
    if status != 201:
        raise RuntimeError(f"log-in of {name}: HTTP {status}")
    token = answer["token"]
    today = dt.date.today()
    weights = "date,weight\n" + "\n".join(
        f"{today - dt.timedelta(days=day)},{80 - day / 100 + random.uniform(-0.8, 0.8):.1f}" for day in range(365, 0, -1))
    request = urllib.request.Request(base + "/api/v1/imports?unit=kg&format=csv", data=weights.encode(), method="POST",
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "text/csv"})
    with urllib.request.urlopen(request, context=TLS, timeout=120) as answer_:
        if answer_.status != 201:
            raise RuntimeError(f"weights of {name}: HTTP {answer_.status}")
    for chunk in range(3):
        entries = []
        for day in range(chunk * 20, chunk * 20 + 20):
            date = today - dt.timedelta(days=day)
            for meal, hour, kcal in (("breakfast", 8, 450), ("lunch", 13, 700), ("dinner", 19, 800), ("snacks", 16, 250)):
                if dt.datetime(date.year, date.month, date.day, hour, tzinfo=dt.timezone.utc) > dt.datetime.now(dt.timezone.utc):
                    continue  # today's meals still to come: Cinn refuses a time in the future
                entries.append({"name": f"{meal.title()} {day}", "energy_kcal": kcal + random.randint(-100, 100),
                                "protein_g": random.randint(10, 40), "carbohydrate_g": random.randint(20, 90),
                                "meal": meal, "time": f"{date}T{hour:02d}:00:00Z"})
        for start in range(0, len(entries), 100):
            status, _ = client.json("POST", "/api/v1/food-entries", {"entries": entries[start:start + 100]}, token)
            if status != 201:
                raise RuntimeError(f"food of {name}: HTTP {status}")
    now = dt.datetime.now(dt.timezone.utc).replace(second=0, microsecond=0)
    readings = [{"type": "sgv", "sgv": int(110 + 40 * ((minute // 5) % 24 - 12) / 12 + random.randint(-8, 8)), "direction": "Flat",
                 "date": int((now - dt.timedelta(minutes=minute)).timestamp() * 1000), "device": "load-test"}
                for minute in range(0, 7 * 1440, 5)]
    for start in range(0, len(readings), 288):
        status, _ = client.json("POST", "/nightscout/api/v1/entries", readings[start:start + 288], token)
        if status != 200:
            raise RuntimeError(f"CGM of {name}: HTTP {status}")
    return {"name": name, "token": token}


class Sampler(threading.Thread):
    """Every `every` seconds: each instance's RSS (kB) and the database's connections."""

    def __init__(self, instances: list[Instance], postgres_bin: str, url: str, database: str, every: float):
        super().__init__(daemon=True)
        self.instances, self.psql, self.url, self.database, self.every = instances, postgres_bin, url, database, every
        self.samples: list[dict] = []
        self.running = True

    def run(self) -> None:
        start = time.monotonic()
        while self.running:
            sample = {"t": round(time.monotonic() - start, 1)}
            for instance in self.instances:
                sample[f"rss_kb_{instance.port}"] = rss_kb(instance)
            try:
                sample["pg_connections"] = int(psql(self.psql, self.url,
                                                    f"SELECT count(*) FROM pg_stat_activity WHERE datname = '{self.database}'"))
            except subprocess.CalledProcessError:
                sample["pg_connections"] = None
            self.samples.append(sample)
            time.sleep(self.every)


def cpu_seconds_by_program() -> dict[str, float]:
    """CPU seconds (user + system) every running process has used, summed by program: cinn, nginx, postgres, locust."""
    ticks = os.sysconf("SC_CLK_TCK")
    totals: dict[str, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        seconds = (int(fields[11]) + int(fields[12])) / ticks
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        program = ("locust" if any(b"locust" in part for part in command[:3]) else
                   "cinn" if name.startswith("cinn") else "nginx" if name == "nginx" else "postgres" if name == "postgres" else None)
        if program:
            totals[program] = totals.get(program, 0) + seconds
    return totals


def rss_kb(instance: Instance) -> int | None:
    try:
        for line in Path(f"/proc/{instance.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError, AttributeError):
        return None
    return None


def run_locust(locust: str, base: str, users_file: Path, writes: Path | None, clients: int, seconds: int, wait: str,
               prefix: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, CINN_LOAD_USERS=str(users_file), CINN_LOAD_WAIT=wait)
    if writes is not None:
        env["CINN_LOAD_WRITES"] = str(writes)
    command = [locust, "-f", str(HERE / "locustfile.py"), "--headless", "--host", base, "-u", str(clients),
               "-r", str(max(1, clients // 5)), "-t", f"{seconds}s", "--csv", str(prefix), "--only-summary",
               "--stop-timeout", "10", "--exit-code-on-error", "0"]
    return subprocess.run(command, env=env, capture_output=True, text=True)


def read_stats(prefix: Path) -> list[dict]:
    import csv
    with open(f"{prefix}_stats.csv") as file:
        return list(csv.DictReader(file))


class Deployment:
    """K instances and nginx in front of them, on one database."""

    def __init__(self, cinn: str, url: str, count: int, work: Path, nginx: str, uploads: Path, tls_port: int):
        self.work = work
        self.ports = [free_port() for _ in range(count)]
        self.base = f"https://localhost:{tls_port}"
        options = ["--database", url, "--accounts", "--signup", "open", "--secure-cookies", "--public-url", self.base,
                   "--upload-dir", str(uploads), "--no-request-log", "--drain-seconds", "10"]
        self.instances = [Instance(cinn, port, options, work / f"instance-{port}.log") for port in self.ports]
        for instance in self.instances:
            instance.start()
        for instance in self.instances:
            instance.wait_listening()
        (work / "nginx-access.log").unlink(missing_ok=True)
        site = render_site(tls_port, free_port(), self.ports, work / "cert.pem", work / "key.pem")
        self.nginx = start_nginx(nginx, work, site)
        deadline = time.monotonic() + 20
        while True:
            try:
                if Client(self.base).get("/ready")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("nginx did not answer")
            time.sleep(0.1)

    def stop(self) -> None:
        self.nginx.send_signal(signal.SIGQUIT)
        try:
            self.nginx.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.nginx.kill()
        for instance in self.instances:
            instance.stop()


def computed_parts(instances: list[Instance]) -> dict[str, dict[str, int]]:
    """The instances' kept computed parts (`cinn_computed_parts_total`): hits and misses by part, summed."""
    counts: dict[str, dict[str, int]] = {}
    for instance in instances:
        with urllib.request.urlopen(f"http://127.0.0.1:{instance.port}/metrics", timeout=10) as answer:
            text = answer.read().decode()
        for line in text.splitlines():
            if not line.startswith("cinn_computed_parts_total{"):
                continue
            labels, value = line[len("cinn_computed_parts_total{"):].rsplit("} ", 1)
            fields = dict(pair.split("=", 1) for pair in labels.split(","))
            part, result = fields["part"].strip('"'), fields["result"].strip('"')
            counts.setdefault(part, {"hit": 0, "miss": 0})[result] += int(float(value))
    return counts


def summarize(stats: list[dict]) -> list[dict]:
    rows = []
    for row in stats:
        rows.append({"name": row["Name"], "requests": int(row["Request Count"]), "failures": int(row["Failure Count"]),
                     "rps": round(float(row["Requests/s"]), 1), "p50_ms": row["50%"], "p99_ms": row["99%"]})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["load", "soak"])
    parser.add_argument("--cinn", required=True)
    parser.add_argument("--postgres", default=os.environ.get("CINN_TEST_POSTGRES_URL"))
    parser.add_argument("--psql", default=shutil.which("psql") or "/usr/lib/postgresql/15/bin/psql")
    parser.add_argument("--nginx", default=shutil.which("nginx") or "/usr/sbin/nginx")
    parser.add_argument("--locust", default=shutil.which("locust") or "locust")
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--clients", type=int, default=None, help="simulated people at once (load 48, soak 16)")
    parser.add_argument("--seconds", type=int, default=90)
    parser.add_argument("--minutes", type=int, default=30)
    parser.add_argument("--instances", type=int, nargs="*", default=[1, 2, 3])
    args = parser.parse_args()
    cinn = str(Path(args.cinn).resolve())
    work = Path(tempfile.mkdtemp(prefix=f"cinn-hosted-{args.mode}-"))
    print(f"results in {work}", flush=True)
    database = "cinn_hosted_" + uuid.uuid4().hex[:8]
    psql(args.psql, args.postgres, f"CREATE DATABASE {database}")
    url = urllib.parse.urlsplit(args.postgres)._replace(path="/" + database).geturl()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-keyout", str(work / "key.pem"), "-out", str(work / "cert.pem")], check=True, capture_output=True)
    uploads = work / "uploads"
    summary: dict = {"mode": args.mode, "people": args.people, "machine": os.uname().nodename, "cores": os.cpu_count(),
                     "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"), "runs": []}
    deployment = None
    try:
        tls_port = free_port()
        deployment = Deployment(cinn, url, 2, work, args.nginx, uploads, tls_port)
        started = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            people = list(pool.map(lambda index: seed_person(deployment.base, index), range(args.people)))
        summary["seed_seconds"] = round(time.monotonic() - started, 1)
        print(f"seeded {len(people)} journals in {summary['seed_seconds']} s", flush=True)
        users_file = work / "people.json"
        users_file.write_text(json.dumps(people))
        psql(args.psql, url, "ANALYZE")
        deployment.stop()
        deployment = None

        if args.mode == "load":
            clients = args.clients or 48
            for count in args.instances:
                deployment = Deployment(cinn, url, count, work, args.nginx, uploads, tls_port)
                sampler = Sampler(deployment.instances, args.psql, args.postgres, database, 1.0)
                sampler.start()
                prefix = work / f"load-{count}"
                cpu_before = cpu_seconds_by_program()
                children_before = sum(resource.getrusage(resource.RUSAGE_CHILDREN)[:2])
                result = run_locust(args.locust, deployment.base, users_file, None, clients, args.seconds, "0", prefix)
                cpu_after = cpu_seconds_by_program()
                children_after = sum(resource.getrusage(resource.RUSAGE_CHILDREN)[:2])
                sampler.running = False
                sampler.join()
                (work / f"load-{count}.out").write_text(result.stdout + result.stderr)
                rows = summarize(read_stats(prefix))
                run = {"instances": count, "clients": clients, "seconds": args.seconds, "rows": rows,
                       "pg_connections_max": max((s["pg_connections"] or 0) for s in sampler.samples),
                       "rss_mb_peak": {str(port): round(max((s.get(f"rss_kb_{port}") or 0) for s in sampler.samples) / 1024, 1)
                                       for port in deployment.ports},
                       "rss_mb_end": {str(port): round((rss_kb(i) or 0) / 1024, 1) for port, i in zip(deployment.ports, deployment.instances)},
                       # locust has exited by the second reading: its CPU (and the sampler's psql calls') is the children's.
                       "cpu_seconds": {program: round(cpu_after.get(program, 0) - cpu_before.get(program, 0), 1)
                                       for program in ("cinn", "postgres", "nginx")}}
                run["cpu_seconds"]["locust and psql"] = round(children_after - children_before, 1)
                run["computed_parts"] = computed_parts(deployment.instances)
                summary["runs"].append(run)
                total = next(row for row in rows if row["name"] == "Aggregated")
                print(f"{count} instance(s): {total['rps']} req/s, p50 {total['p50_ms']} ms, p99 {total['p99_ms']} ms, "
                      f"{total['failures']} failures, {run['pg_connections_max']} PostgreSQL connections at most, "
                      f"RSS peak {run['rss_mb_peak']} MB, CPU seconds {run['cpu_seconds']}, "
                      f"computed parts kept (hits, misses) {run['computed_parts']}", flush=True)
                deployment.stop()
                deployment = None
        else:
            clients = args.clients or 16
            deployment = Deployment(cinn, url, 2, work, args.nginx, uploads, tls_port)
            sampler = Sampler(deployment.instances, args.psql, args.postgres, database, 30.0)
            sampler.start()
            writes = work / "writes.txt"
            seconds = args.minutes * 60
            restart_at = seconds / 2

            def restart() -> None:
                time.sleep(restart_at)
                instance = deployment.instances[0]
                code = instance.stop()
                summary["restart"] = {"at_seconds": restart_at, "exit_code": code}
                instance.start()
                instance.wait_listening()
                print(f"restarted the instance on {instance.port} (it exited {code})", flush=True)

            threading.Thread(target=restart, daemon=True).start()
            prefix = work / "soak"
            result = run_locust(args.locust, deployment.base, users_file, writes, clients, seconds, "0.5-1.5", prefix)
            sampler.running = False
            sampler.join()
            (work / "soak.out").write_text(result.stdout + result.stderr)
            rows = summarize(read_stats(prefix))
            written = [line.split() for line in writes.read_text().splitlines()] if writes.exists() else []
            missing = {}
            for kind, table in (("weigh_in", "weigh_ins"), ("food_entry", "food_entries"), ("glucose_reading", "glucose_readings")):
                ids = [identifier for k, identifier in written if k == kind]
                found = 0
                for start in range(0, len(ids), 1000):
                    chunk = ",".join(f"'{identifier}'" for identifier in ids[start:start + 1000])
                    found += int(psql(args.psql, url, f"SELECT count(*) FROM {table} WHERE id IN ({chunk}) AND deleted = 0"))
                missing[kind] = {"written": len(ids), "found": found}
            access = (work / "nginx-access.log").read_text().splitlines()
            summary["runs"].append({"instances": 2, "clients": clients, "minutes": args.minutes, "rows": rows, "writes": missing,
                                    "retried_by_nginx": sum(1 for line in access if ", " in line.split("|")[4]),
                                    "answered_5xx_to_clients": sum(1 for line in access if line.split("|")[3].startswith("5")),
                                    "samples": sampler.samples})
            total = next(row for row in rows if row["name"] == "Aggregated")
            print(f"soak: {total['requests']} requests, {total['failures']} failures, {total['rps']} req/s, p99 {total['p99_ms']} ms; "
                  f"writes {missing}; nginx retried {summary['runs'][0]['retried_by_nginx']}", flush=True)
            deployment.stop()
            deployment = None
        (work / "summary.json").write_text(json.dumps(summary, indent=2))
        print(f"summary: {work / 'summary.json'}", flush=True)
        return 0
    finally:
        if deployment is not None:
            deployment.stop()
        try:
            psql(args.psql, args.postgres, f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        except subprocess.CalledProcessError as error:
            print(f"could not drop {database}: {error.stderr}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
