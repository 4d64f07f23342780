#!/usr/bin/env python3
"""Resource limits of a hosted Cinn under abuse, side by side for one or two `cinn` binaries.

    swift build && cp .build/debug/cinn /tmp/cinn-after     # an older build as /tmp/cinn-before (BENCHMARKS.md: debug builds)
    python3 Benchmarks/security/run.py --cinn /tmp/cinn-after [--cinn-before /tmp/cinn-before] \
        [--only login,guesses,push,nested,import,devicestatus,delivery,plates] [--export PATH/export.zip]

Every case runs on a fresh `cinn serve --accounts` (users anna and bob, a fresh SQLite journal in a temp
directory, 127.0.0.1, a free port), killed by its PID afterwards, also on error:

- login: 100 simultaneous wrong log-ins for made-up names, each with its own X-Forwarded-For (honoured by
  versions that trust a proxy on 127.0.0.1), while bob, logged in, times GET /api/v1/weigh-ins 5 times.
- guesses: 30 simultaneous wrong log-ins for anna from one client: how many passwords were checked (401)
  before the throttle (429) or the busy guard (503) answered.
- push: a sync push of ~1 MB and of ~12 MB of empty changes (`{}`), with the server's RSS around it
  (the peak is the kernel's VmHWM, reset just before the push, and a sampler every 20 ms).
- import: anna uploads an Apple Health export (--export; a 1,000,000-record one is made with
  Benchmarks/applehealth/gen_apple_health.py) to POST /api/v1/imports while bob posts a weigh-in every
  half second until the upload answers: each weigh-in's status and time, and the import's.
- nested: no server; `cinn import ZIP --database DB` (a fresh SQLite journal in a temp directory) of an Apple
  Health export whose export.xml nests 100,000,000 `<a>` elements (700 MB of XML, under 2 MB zipped; made once
  and kept as /tmp/cinn-nested-export.zip), under `/usr/bin/time -v` (else the child's own rusage from wait4),
  killed after 120 s or beyond 8 GB of RSS: exit status, wall time, max RSS and the first line of stderr.
- devicestatus: anna (her API token as `?token=`) posts 8 MiB of `[{},{},…]` (2.8 million empty documents) to
  /nightscout/api/v1/devicestatus: status, time, the server's extra peak RSS; then how many device statuses
  GET /nightscout/api/v1/devicestatus.json?count=100000 (Nightscout's count, at most 100,000) returns, and how many
  rows nightscout_documents holds (read from the SQLite file).
- delivery: anna posts a Health Auto Export delivery of a century of daily values (5 metrics x 36,500 days from
  1926-01-01, 13 MB; `--delivery-metrics 6` makes it 16 MB, up to 7) to /api/v1/ingest/health-auto-export while bob posts a weigh-in every 0.1 s: the delivery's
  status, time and extra peak RSS, bob's slowest and median weigh-in; then anna undoes that import
  (POST /api/v1/imports/{id}/undo) while bob keeps posting: its status, time, extra peak RSS and bob's slowest wait.
- plates: anna owns 12 plate kinds of 40 each whose weights share no common step (POST /lifts/plates, the Lifts
  page's form, with her bearer token), makes a routine of the catalogue's 48 barbell exercises, each 10 sets of
  5 at 952.5 + n kg, starts a workout from it (POST /workouts/start) and GETs its log page
  (/workouts/{id}/log, which works out the plates of every planned set) three times: status, median and slowest.

In the server cases above (devicestatus, delivery, plates) a server still busy after CASE_LIMIT s, or beyond
RSS_LIMIT_MB of RSS, is killed by its PID, and the table says so ("server": killed by the benchmark ...).
The extra peak RSS is the kernel's VmHWM (reset just before) or a sampler every 20 ms, whichever is higher, less
the RSS before.

Prints a JSON line per case as it ends, and a markdown table at the end. Python 3.11, standard library only.
"""
import argparse
import collections
import http.client
import json
import os
import re
import resource
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from serving import listening_address  # noqa: E402

START_TIMEOUT = 120   # s, until "Listening on"
LOGIN_TIMEOUT = 120   # s, per log-in or GET
PUSH_TIMEOUT = 300    # s, per push
IMPORT_TIMEOUT = 120  # s, per import
IMPORT_RSS_LIMIT_MB = 8192  # an import beyond this RSS is killed too, to spare the machine
WEIGH_IN_EVERY = 0.5  # s, between bob's weigh-ins during an import
CASE_LIMIT = 180      # s: in devicestatus, delivery and plates, a server still busy with a request after this is killed
RSS_LIMIT_MB = 6144   # ... and a server beyond this RSS too
BOB_EVERY = 0.1       # s, between bob's weigh-ins during a delivery and its undo
NIGHTSCOUT_UPLOAD = 8 << 20  # bytes: Cinn's largest Nightscout upload (NightscoutJSON.maximumUpload)
NIGHTSCOUT_COUNT = 100_000   # Nightscout's `count`: Cinn's largest (a larger one is answered 422)
HAE_METRICS = ["step_count", "active_energy", "resting_heart_rate", "walking_running_distance", "flights_climbed",
               "basal_energy_burned", "apple_exercise_time"]
HAE_DAYS = 36_500
PLATES = [99.99, 97.03, 91.01, 83.07, 71.11, 61.13, 53.17, 47.19, 41.23, 37.29, 31.31, 29.37]  # kg, 40 of each
BARBELL_EXERCISES = [  # the built-in catalogue's barbell exercises (Sources/CinnCore/Workouts/exercises.tsv)
    "Barbell Bench Press", "Incline Barbell Bench Press", "Decline Barbell Bench Press", "Close Grip Bench Press",
    "Floor Press", "Deadlift", "Sumo Deadlift", "Romanian Deadlift", "Stiff Leg Deadlift", "Deficit Deadlift",
    "Rack Pull", "Good Morning", "Barbell Row", "Pendlay Row", "T-Bar Row", "Barbell Shrug", "Overhead Press",
    "Seated Barbell Press", "Push Press", "Behind the Neck Press", "Landmine Press", "Upright Row", "Barbell Curl",
    "Reverse Curl", "Barbell Squat", "Low Bar Squat", "Front Squat", "Pause Squat", "Box Squat", "Overhead Squat",
    "Zercher Squat", "Safety Bar Squat", "Barbell Split Squat", "Barbell Lunge", "Barbell Hip Thrust",
    "Barbell Glute Bridge", "Power Clean", "Hang Clean", "Clean and Jerk", "Snatch", "Clean", "Thruster",
    "Meadows Row", "Seal Row", "Landmine Squat", "Jefferson Curl", "Drag Curl", "JM Press"]
NESTED_ZIP = "/tmp/cinn-nested-export.zip"
NESTED_MEMBER = "apple_health_export/export.xml"
NESTED_DEPTH = 100_000_000
NESTED_HEAD = b'<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n<ExportDate value="2024-03-10 09:00:00 +0100"/>\n'
NESTED_TAIL = b"\n</HealthData>\n"
NESTED_SIZE = len(NESTED_HEAD) + NESTED_DEPTH * len(b"<a></a>") + len(NESTED_TAIL)
TIME = "/usr/bin/time"
JSON_ONLY = {"answer"}  # response bodies, too long for the table
WIDE = {"stderr (first line)"}  # error messages, shown up to 200 characters


def password(name):
    return f"password-for-{name}-1"


def memory_mb(pid):
    """(VmRSS, VmHWM) of a process in MB; None for what cannot be read (the process is gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            fields = dict(line.split(":", 1) for line in status if line.startswith(("VmRSS", "VmHWM")))
    except OSError:
        return None, None
    return tuple(int(fields[key].split()[0]) / 1024 if key in fields else None for key in ("VmRSS", "VmHWM"))


class Server:
    """`cinn serve --accounts` on a free port of 127.0.0.1, with its journal and log in `directory`."""

    def __init__(self, cinn, directory):
        self.cinn, self.directory = cinn, directory
        self.database = os.path.join(directory, "cinn.sqlite")
        self.log_path = os.path.join(directory, "serve.log")
        self.process = None
        self.killed = None  # why the benchmark killed it (Monitor), if it did

    def add_user(self, name):
        done = subprocess.run([self.cinn, "user", "add", name, "--admin", "--database", self.database],
                              input=password(name) + "\n", text=True, capture_output=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"user add {name} exited {done.returncode}: {done.stderr.strip()[-300:]}")

    def start(self):
        with open(self.log_path, "w") as log:  # the child keeps its own descriptor
            self.process = subprocess.Popen(
                [self.cinn, "serve", "--accounts", "--database", self.database, "--port", "0", "--host", "127.0.0.1"],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log, text=True)
        self.host, self.port = listening_address(self.process, START_TIMEOUT, self.log_tail)

    def exit_code(self):
        return None if self.process is None else self.process.poll()

    def log_tail(self, characters=300):
        try:
            with open(self.log_path, errors="replace") as log:
                return log.read()[-characters:].strip()
        except OSError:
            return ""

    def stop(self):
        if self.process is None or self.process.poll() is not None:
            return
        os.kill(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()


def call(server, method, path, body=None, headers=None, timeout=LOGIN_TIMEOUT, connection=None):
    """One request on a new (or the given) connection: (status or error name, body bytes, seconds)."""
    connection = connection or http.client.HTTPConnection(server.host, server.port, timeout=timeout)
    start = time.perf_counter()
    try:
        try:
            connection.request(method, path, body=body, headers=headers or {})
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may answer (413) and close before it has read the whole body: read the answer
        response = connection.getresponse()
        status, data = response.status, response.read()
    except (OSError, http.client.HTTPException) as error:
        status, data = type(error).__name__, b""
    finally:
        connection.close()
    return status, data, time.perf_counter() - start


def log_in(server, name, secret, forwarded_for=None, connection=None):
    headers = {"Content-Type": "application/json"}
    if forwarded_for:
        headers["X-Forwarded-For"] = forwarded_for
    body = json.dumps({"name": name, "password": secret, "token_name": "x"})
    return call(server, "POST", "/api/v1/login", body, headers, connection=connection)


def token(server, name):
    status, data, _ = log_in(server, name, password(name))
    if status != 201:
        raise RuntimeError(f"log-in of {name} answered {status}: {data[:200]!r}")
    return json.loads(data)["token"]


def counts(values):
    return ", ".join(f"{key}: {n}" for key, n in sorted(collections.Counter(values).items(), key=lambda kv: str(kv[0])))


def burst(server, attempts, during=None):
    """Wrong log-ins, one thread each ((name, X-Forwarded-For or None)), connected first and then released
    at once by a barrier; `during()` runs 100 ms after the release.
    Returns (statuses, {status: first answer's body}, wall s, what during() returned)."""
    barrier = threading.Barrier(len(attempts) + 1)
    statuses, bodies, ends = [None] * len(attempts), [b""] * len(attempts), [0.0] * len(attempts)

    def attempt(index, name, forwarded_for):
        connection = http.client.HTTPConnection(server.host, server.port, timeout=LOGIN_TIMEOUT)
        try:
            connection.connect()  # so that the burst is the requests, not the handshakes
        except OSError:
            pass  # request() connects again and reports the error
        barrier.wait(60)
        statuses[index], bodies[index], _ = log_in(server, name, "wrong-password-1", forwarded_for, connection)
        ends[index] = time.perf_counter()

    threads = [threading.Thread(target=attempt, args=(i, *pair)) for i, pair in enumerate(attempts)]
    for thread in threads:
        thread.start()
    barrier.wait(60)
    start = time.perf_counter()
    result = None
    if during:
        time.sleep(0.1)
        result = during()
    for thread in threads:
        thread.join()
    answers = {}
    for status, body in zip(statuses, bodies):
        answers.setdefault(str(status), body[:200].decode(errors="replace"))
    return statuses, answers, max(ends) - start, result


def scenario_login(server):
    bob = token(server, "bob")

    def time_bob():
        auth = {"Authorization": f"Bearer {bob}"}
        return [call(server, "GET", "/api/v1/weigh-ins", headers=auth) for _ in range(5)]

    attempts = [(f"ghost{i:03d}", f"10.0.{1 + i // 200}.{1 + i % 200}") for i in range(100)]
    statuses, answers, wall, bob_calls = burst(server, attempts, during=time_bob)
    latencies = [seconds * 1000 for _, _, seconds in bob_calls]
    return {"100 wrong log-ins: statuses": counts(statuses), "burst wall time (s)": f"{wall:.2f}",
            "bob GET statuses": counts(status for status, _, _ in bob_calls),
            "bob GET latency max (ms)": f"{max(latencies):.0f}",
            "bob GET latency median (ms)": f"{statistics.median(latencies):.0f}", "answer": answers}


def scenario_guesses(server):
    statuses, answers, wall, _ = burst(server, [("anna", "10.0.9.9")] * 30)
    return {"30 guesses for anna: statuses": counts(statuses), "checked (401)": statuses.count(401),
            "refused (429 + 503)": statuses.count(429) + statuses.count(503), "burst wall time (s)": f"{wall:.2f}",
            "answer": answers}


def scenario_push(server, megabytes):
    bob = token(server, "bob")
    pid = server.process.pid
    body = ('{"changes": [' + ",".join(["{}"] * (megabytes * 1_000_000 // 3)) + "]}").encode()
    rss_before, _ = memory_mb(pid)
    try:  # "5" resets VmHWM to the current RSS (Linux 4.0+), so that it is the push's peak
        with open(f"/proc/{pid}/clear_refs", "w") as clear_refs:
            clear_refs.write("5")
        hwm_reset = True
    except OSError:
        hwm_reset = False
    peak, stop = [rss_before], threading.Event()

    def sample():
        while not stop.wait(0.02):
            rss, _ = memory_mb(pid)
            if rss:
                peak[0] = max(peak[0], rss)
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    headers = {"Authorization": f"Bearer {bob}", "Content-Type": "application/json"}
    status, data, seconds = call(server, "POST", "/api/v1/sync/push", body, headers, timeout=PUSH_TIMEOUT)
    stop.set()
    sampler.join()
    rss_after, hwm_after = memory_mb(pid)
    if hwm_reset and hwm_after:
        peak[0] = max(peak[0], hwm_after)
    return {"body (MB)": f"{len(body) / 1e6:.1f}", "status": status, "time (s)": f"{seconds:.2f}",
            "RSS before / after (MB)": f"{rss_before:.0f} / {rss_after:.0f}" if rss_after else f"{rss_before:.0f} / -",
            "peak RSS increase (MB)": f"{peak[0] - rss_before:.0f}",
            "answer": data[:200].decode(errors="replace")}


def scenario_import(server, export):
    anna, bob = token(server, "anna"), token(server, "bob")
    with open(export, "rb") as file:
        body = file.read()
    done, answer = threading.Event(), {}

    def upload():
        headers = {"Authorization": f"Bearer {anna}", "Content-Type": "application/zip"}
        answer["status"], answer["body"], answer["seconds"] = call(
            server, "POST", "/api/v1/imports?format=apple-health&file_name=export.zip", body, headers, timeout=IMPORT_TIMEOUT * 10)
        done.set()
    thread = threading.Thread(target=upload)
    thread.start()
    weigh_ins = []
    headers = {"Authorization": f"Bearer {bob}", "Content-Type": "application/json"}
    while not done.wait(WEIGH_IN_EVERY):
        weigh_ins.append(call(server, "POST", "/api/v1/weigh-ins", json.dumps({"weight": 80.5, "unit": "kg"}), headers))
    thread.join()
    latencies = [seconds for _, _, seconds in weigh_ins]
    return {"export (MB)": f"{len(body) / 1e6:.1f}", "import status": answer["status"],
            "import time (s)": f"{answer['seconds']:.1f}",
            "bob's weigh-ins during it": counts(status for status, _, _ in weigh_ins),
            "slowest weigh-in (s)": f"{max(latencies):.2f}" if latencies else "-",
            "median weigh-in (s)": f"{statistics.median(latencies):.3f}" if latencies else "-",
            "answer": answer["body"][:200].decode(errors="replace")}


class Monitor:
    """The server's memory while a request (or several) runs: VmHWM reset on entry, RSS sampled every 20 ms; the
    server killed (SIGKILL, by its PID) once it has been busy `limit` s or beyond `rss_limit_mb`, so that a version that
    takes minutes or all the memory ends the case, reported as such (server.killed)."""

    def __init__(self, server, limit=None, rss_limit_mb=None):
        self.server, self.limit = server, CASE_LIMIT if limit is None else limit
        self.rss_limit_mb = RSS_LIMIT_MB if rss_limit_mb is None else rss_limit_mb
        self.pid = server.process.pid
        self.stop = threading.Event()

    def __enter__(self):
        self.rss_before, _ = memory_mb(self.pid)
        self.rss_before = self.rss_before or 0.0
        try:  # "5" resets VmHWM to the current RSS (Linux 4.0+), so that it is this request's peak
            with open(f"/proc/{self.pid}/clear_refs", "w") as clear_refs:
                clear_refs.write("5")
            self.hwm_reset = True
        except OSError:
            self.hwm_reset = False
        self.peak, self.started = self.rss_before, time.perf_counter()
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()
        return self

    def sample(self):
        while not self.stop.wait(0.02):
            rss, _ = memory_mb(self.pid)
            if rss is None:
                return  # the server is gone
            self.peak = max(self.peak, rss)
            busy = time.perf_counter() - self.started
            if (busy > self.limit or rss > self.rss_limit_mb) and self.server.killed is None:
                self.server.killed = (f"killed by the benchmark after {busy:.0f} s (limit {self.limit} s)" if busy > self.limit
                                      else f"killed by the benchmark at {rss:.0f} MB RSS after {busy:.0f} s")
                os.kill(self.pid, signal.SIGKILL)
                return

    def __exit__(self, *_):
        self.stop.set()
        self.thread.join()
        _, hwm = memory_mb(self.pid)
        if self.hwm_reset and hwm:
            self.peak = max(self.peak, hwm)
        return False

    @property
    def increase(self):
        return f"{self.peak - self.rss_before:.0f}" + (" (killed)" if self.server.killed else "")


def bearer(secret, content_type="application/json"):
    return {"Authorization": f"Bearer {secret}", "Content-Type": content_type}


def scenario_devicestatus(server):
    anna = token(server, "anna")
    documents = (NIGHTSCOUT_UPLOAD - 1) // 3  # "[{},{},…,{}]" is 3n + 1 bytes: at most 8 MiB
    body = ("[" + ",".join(["{}"] * documents) + "]").encode()
    path = "/nightscout/api/v1/devicestatus?token=" + urllib.parse.quote(anna)
    with Monitor(server) as monitor:
        status, data, seconds = call(server, "POST", path, body, {"Content-Type": "application/json"}, timeout=CASE_LIMIT + 60)
    result = {"body (MiB)": f"{len(body) / 2**20:.2f}", "documents sent": f"{documents:,}", "status": status,
              "time (s)": f"{seconds:.2f}", "peak RSS increase (MB)": monitor.increase}
    if server.killed is None:
        get = f"/nightscout/api/v1/devicestatus.json?count={NIGHTSCOUT_COUNT}&token=" + urllib.parse.quote(anna)
        with Monitor(server, limit=60) as listing:
            got, listed, list_seconds = call(server, "GET", get, timeout=120)
        try:
            returned = f"{len(json.loads(listed)):,}" if got == 200 else "-"
        except ValueError:
            returned = "unreadable"
        result.update({f"GET count={NIGHTSCOUT_COUNT}: status": got, "GET: device statuses returned": returned,
                       "GET: time (s)": f"{list_seconds:.2f}", "GET: peak RSS increase (MB)": listing.increase})
    try:  # what the journal holds, whatever the server answered (or if it was killed)
        with sqlite3.connect(f"file:{server.database}?mode=ro", uri=True, timeout=30) as database:
            rows = database.execute("SELECT count(*) FROM nightscout_documents WHERE collection = 'devicestatus'").fetchone()[0]
        result["rows in nightscout_documents (devicestatus)"] = f"{rows:,}"
    except sqlite3.Error as error:
        result["rows in nightscout_documents (devicestatus)"] = f"{type(error).__name__}: {error}"
    result["answer"] = data[:200].decode(errors="replace")
    return result


HAE_BODY = []  # made once: the same century for every binary


def century_delivery():
    """Health Auto Export's JSON (version 2) of HAE_METRICS, one point a day for HAE_DAYS days from 1926-01-01."""
    if not HAE_BODY:
        import datetime
        start = datetime.date(1926, 1, 1)
        days = [(start + datetime.timedelta(days=i)).isoformat() + " 00:00:00 +0000" for i in range(HAE_DAYS)]
        metrics = [{"name": name, "units": "count",
                    "data": [{"date": day, "qty": 1000 + i % 500, "source": "iPhone"} for i, day in enumerate(days)]}
                   for name in HAE_METRICS]
        HAE_BODY.append(json.dumps({"data": {"metrics": metrics, "workouts": []}}).encode())
    return HAE_BODY[0]


class WeighIns:
    """bob posting a weigh-in every BOB_EVERY s on a thread of its own, until stopped: each one's status and time."""

    def __init__(self, server, secret):
        self.server, self.headers = server, bearer(secret)
        self.calls, self.done = [], threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.done.is_set():
            self.calls.append(call(self.server, "POST", "/api/v1/weigh-ins", json.dumps({"weight": 80, "unit": "kg"}),
                                   self.headers, timeout=CASE_LIMIT + 60))
            self.done.wait(BOB_EVERY)

    def __enter__(self):
        self.thread.start()
        time.sleep(0.5)  # a few before the request, as a baseline
        return self

    def __exit__(self, *_):
        self.done.set()
        self.thread.join()
        return False

    def report(self, prefix):
        latencies = [seconds for _, _, seconds in self.calls]
        return {f"{prefix}: bob's weigh-ins": counts(status for status, _, _ in self.calls),
                f"{prefix}: bob's slowest weigh-in (s)": f"{max(latencies):.2f}" if latencies else "-",
                f"{prefix}: bob's median weigh-in (s)": f"{statistics.median(latencies):.3f}" if latencies else "-"}


def scenario_delivery(server):
    anna, bob = token(server, "anna"), token(server, "bob")
    body = century_delivery()
    result = {"delivery (MB)": f"{len(body) / 1e6:.1f}", "points": f"{len(HAE_METRICS) * HAE_DAYS:,}"}
    with WeighIns(server, bob) as weigh_ins, Monitor(server) as monitor:
        status, data, seconds = call(server, "POST", "/api/v1/ingest/health-auto-export", body, bearer(anna),
                                     timeout=CASE_LIMIT + 60)
    result.update({"delivery: status": status, "delivery: time (s)": f"{seconds:.2f}",
                   "delivery: peak RSS increase (MB)": monitor.increase, **weigh_ins.report("delivery")})
    try:
        report = json.loads(data)
        result["delivery: imported / rejected"] = f"{report.get('imported')} / {report.get('rejected') if isinstance(report.get('rejected'), int) else len(report.get('rejected') or [])}"
    except (ValueError, AttributeError):
        result["delivery: answer"] = data[:200].decode(errors="replace")
    if server.killed or status not in (200, 201):
        return result
    got, listed, _ = call(server, "GET", "/api/v1/imports", headers=bearer(anna))
    imports = json.loads(listed).get("imports", []) if got == 200 else []
    ids = [batch["id"] for batch in imports if batch.get("undone_at") is None]
    if not ids:
        result["undo"] = f"no import to undo (GET /api/v1/imports answered {got})"
        return result
    with WeighIns(server, bob) as weigh_ins, Monitor(server) as monitor:
        status, data, seconds = call(server, "POST", f"/api/v1/imports/{ids[0]}/undo", b"", bearer(anna), timeout=CASE_LIMIT + 60)
    result.update({"undo: status": status, "undo: time (s)": f"{seconds:.2f}", "undo: peak RSS increase (MB)": monitor.increase,
                   **weigh_ins.report("undo"), "undo: answer": data[:100].decode(errors="replace")})
    return result


def scenario_plates(server):
    anna = token(server, "anna")
    plates = " ".join(f"{weight:.2f}x40" for weight in PLATES)
    form = urllib.parse.urlencode({"unit": "kg", "bar": "20", "plates": plates})
    status, data, _ = call(server, "POST", "/lifts/plates", form, bearer(anna, "application/x-www-form-urlencoded"))
    if status != 303:
        raise RuntimeError(f"POST /lifts/plates answered {status}: {data[:200]!r}")
    exercises = [{"exercise": name, "sets": 10, "reps": 5, "weight": 952.5 + number}
                 for number, name in enumerate(BARBELL_EXERCISES)]
    routine = json.dumps({"name": "A thousand kilograms", "unit": "kg", "exercises": exercises})
    status, data, _ = call(server, "POST", "/api/v1/routines", routine, bearer(anna))
    if status != 201:
        raise RuntimeError(f"POST /api/v1/routines answered {status}: {data[:200]!r}")
    routine_id = json.loads(data)["id"]
    connection = http.client.HTTPConnection(server.host, server.port, timeout=LOGIN_TIMEOUT)
    try:
        connection.request("POST", "/workouts/start", urllib.parse.urlencode({"routine": routine_id}),
                           bearer(anna, "application/x-www-form-urlencoded"))
        response = connection.getresponse()
        response.read()
        location = response.getheader("Location") or ""
    finally:
        connection.close()
    if response.status != 303 or not (match := re.fullmatch(r"/workouts/([0-9a-f-]+)/log", location)):
        raise RuntimeError(f"POST /workouts/start answered {response.status}, Location {location!r}")
    page = f"/workouts/{match[1]}/log"
    result = {"plates (kg, 40 each)": plates.replace("x40", ""), "routine": f"{len(exercises)} barbell exercises x 10 sets",
              "planned weights (kg)": f"{exercises[0]['weight']} to {exercises[-1]['weight']}"}
    loads = []
    with Monitor(server) as monitor:
        for _ in range(3):
            loads.append(call(server, "GET", page, headers={"Authorization": f"Bearer {anna}"}, timeout=CASE_LIMIT + 60))
            if server.killed:
                break
    times = [seconds for _, _, seconds in loads]
    pages = [body for status, body, _ in loads if status == 200]
    result.update({"GET log page: statuses": counts(status for status, _, _ in loads),
                   "GET log page: median (s)": f"{statistics.median(times):.2f}",
                   "GET log page: slowest (s)": f"{max(times):.2f}",
                   "GET log page: each (s)": ", ".join(f"{seconds:.2f}" for seconds in times),
                   "page (KB)": f"{len(pages[0]) / 1024:.0f}" if pages else "-",
                   "sets with plates shown": pages[0].count(b'class="plates"') if pages else "-",
                   "first set's plates": (re.search(rb'class="plates">([^<]*)<', pages[0]) or [b"", b"-"])[1].decode(errors="replace")
                                         if pages else "-",
                   "peak RSS increase (MB)": monitor.increase})
    return result


def nested_export():
    """The path of the zip whose export.xml nests NESTED_DEPTH `<a>` elements, made (streamed) unless already there."""
    import zipfile
    try:
        with zipfile.ZipFile(NESTED_ZIP) as archive:
            if archive.getinfo(NESTED_MEMBER).file_size == NESTED_SIZE:
                return NESTED_ZIP
    except (OSError, KeyError, zipfile.BadZipFile):
        pass
    print(f"# making {NESTED_ZIP} ({NESTED_SIZE / 1e6:.0f} MB of XML) ...", file=sys.stderr, flush=True)
    started = time.perf_counter()
    partial = f"{NESTED_ZIP}.{os.getpid()}.partial"
    repeats = 250_000  # 750 KB of "<a>" (1 MB of "</a>") per write; divides NESTED_DEPTH
    try:
        with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
            with archive.open(NESTED_MEMBER, "w", force_zip64=True) as member:
                member.write(NESTED_HEAD)
                for tag in (b"<a>", b"</a>"):
                    chunk = tag * repeats
                    for _ in range(NESTED_DEPTH // repeats):
                        member.write(chunk)
                member.write(NESTED_TAIL)
        os.replace(partial, NESTED_ZIP)
    finally:
        if os.path.exists(partial):
            os.remove(partial)
    print(f"# made it in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    return NESTED_ZIP


def child_pids(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            return [int(child) for child in children.read().split()]
    except OSError:
        return []


def timed_run(command, directory, timeout=IMPORT_TIMEOUT, rss_limit_mb=IMPORT_RSS_LIMIT_MB):
    """Runs `command` (stdout and stderr to files in `directory`) under /usr/bin/time -v when there is one, in its
    own process group, killed (the group) after `timeout` s or beyond `rss_limit_mb`. Returns a dict of measures."""
    report_path = os.path.join(directory, "time.txt")
    use_time = os.access(TIME, os.X_OK)
    argv = [TIME, "-v", "-o", report_path] + command if use_time else command
    with open(os.path.join(directory, "stdout.txt"), "wb") as out, \
            open(os.path.join(directory, "stderr.txt"), "wb") as err:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, start_new_session=True)
    killed, peak_mb, status, usage = None, 0.0, None, None
    try:
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            wall = time.perf_counter() - start
            target = (child_pids(process.pid) or [None])[0] if use_time else process.pid
            rss, hwm = memory_mb(target) if target else (None, None)
            peak_mb = max(peak_mb, hwm or 0, rss or 0)
            if wall > timeout or (rss or 0) > rss_limit_mb:
                killed = f"killed after {timeout} s" if wall > timeout else f"killed at {rss:.0f} MB RSS after {wall:.0f} s"
                os.killpg(process.pid, signal.SIGKILL)  # the group of the child started here: time and cinn
                _, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.05)
        wall = time.perf_counter() - start
    finally:
        if process.returncode is None and status is None:  # an exception above: leave nothing running
            os.killpg(process.pid, signal.SIGKILL)
            _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status) if status is not None else -1

    code = process.returncode
    exit_text = f"signal {-code} ({signal.Signals(-code).name})" if code < 0 else str(code)
    max_rss_mb = usage.ru_maxrss / 1024 if not use_time else None  # KB on Linux
    if use_time and not killed:
        try:
            with open(report_path, errors="replace") as file:
                report = file.read()
        except OSError:
            report = ""
        if match := re.search(r"Maximum resident set size \(kbytes\): (\d+)", report):
            max_rss_mb = int(match[1]) / 1024
        if match := re.search(r"Command terminated by signal (\d+)", report):
            exit_text = f"signal {match[1]} ({signal.Signals(int(match[1])).name})"
        elif match := re.search(r"Exit status: (\d+)", report):
            exit_text = match[1]
    if max_rss_mb is None or killed:  # time was killed with its child: what the sampler saw
        max_rss_mb = max(max_rss_mb or 0, peak_mb)
    with open(os.path.join(directory, "stderr.txt"), "rb") as err:
        lines = [line.strip() for line in err.read(64_000).decode(errors="replace").splitlines() if line.strip()]
    return {"exit status": killed or exit_text, "wall time (s)": f"{wall:.2f}", "max RSS (MB)": f"{max_rss_mb:.0f}",
            "stderr (first line)": lines[0] if lines else "",
            "measured by": "/usr/bin/time -v" if use_time and not killed else
                           ("wait4 rusage" if not use_time else "/proc sampler (every 50 ms)")}


def scenario_nested(cinn, directory):
    export = nested_export()
    result = {"export zip (KB)": f"{os.path.getsize(export) / 1024:.0f}",
              "export.xml (MB)": f"{NESTED_SIZE / 1e6:.0f}"}
    database = os.path.join(directory, "cinn.sqlite")
    result.update(timed_run([cinn, "import", export, "--database", database], directory))
    return result


CASES = {  # --only names: [(case, scenario)]
    "login": [("login", scenario_login)],
    "guesses": [("guesses", scenario_guesses)],
    "push": [("push 1 MB", lambda server: scenario_push(server, 1)),
             ("push 12 MB", lambda server: scenario_push(server, 12))],
    "nested": [("nested", scenario_nested)],
    "import": [("import", lambda server: scenario_import(server, EXPORT[0]))],
    "devicestatus": [("devicestatus", scenario_devicestatus)],
    "delivery": [("delivery", scenario_delivery)],
    "plates": [("plates", scenario_plates)],
}
EXPORT = ["/dev/shm/cinn-applehealth/export-1000000/export.zip"]  # --export
SERVERLESS = {scenario_nested}  # called with (cinn, a temp directory) instead of a running server


def run_serverless_case(cinn, scenario):
    directory = tempfile.mkdtemp(prefix="cinn-security-")
    result = {}
    try:
        result.update(scenario(cinn, directory))
    except Exception as error:  # reported in the table; the next case runs
        result["error"] = f"{type(error).__name__}: {error}"
        result["directory"] = directory
    else:
        shutil.rmtree(directory, ignore_errors=True)
    return result


def run_case(cinn, case, scenario):
    if scenario in SERVERLESS:
        return run_serverless_case(cinn, scenario)
    directory = tempfile.mkdtemp(prefix="cinn-security-")
    server = Server(cinn, directory)
    result, keep = {}, False
    try:
        server.add_user("anna")
        server.add_user("bob")
        server.start()
        result.update(scenario(server))
    except Exception as error:  # reported in the table; the next case runs
        result["error"] = f"{type(error).__name__}: {error}"
        keep = True
    finally:
        code = server.exit_code()
        if server.process is not None:
            _, hwm = memory_mb(server.process.pid) if code is None and not server.killed else (None, None)
            result["server VmHWM at end (MB)"] = f"{hwm:.0f}" if hwm else "-"
            result["server"] = server.killed or ("alive" if code is None else f"died (exit {code}): {server.log_tail()}")
            keep = keep or code is not None or server.killed is not None
        server.stop()
        if keep:
            result["directory"] = directory
        else:
            shutil.rmtree(directory, ignore_errors=True)
    return result


def cell(value, width=100):
    text = str(value).replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= width else text[:width - 3] + "..."


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cinn", required=True, help="the cinn binary to measure (label: after)")
    parser.add_argument("--cinn-before", help="an older cinn binary to compare (label: before)")
    parser.add_argument("--only", default=",".join(CASES), help=f"comma-separated, of: {', '.join(CASES)}")
    parser.add_argument("--export", default=EXPORT[0], help="the Apple Health export.zip of the import scenario")
    parser.add_argument("--delivery-metrics", type=int, default=5, choices=range(1, len(HAE_METRICS) + 1),
                        help="daily metrics in the century delivery (5: 13 MB, 6: 16 MB)")
    arguments = parser.parse_args()
    del HAE_METRICS[arguments.delivery_metrics:]
    EXPORT[0] = arguments.export
    only = [name.strip() for name in arguments.only.split(",") if name.strip()]
    if unknown := [name for name in only if name not in CASES]:
        parser.error(f"unknown scenario {', '.join(unknown)}; choose from {', '.join(CASES)}")
    binaries = [(label, os.path.abspath(path)) for label, path in
                (("before", arguments.cinn_before), ("after", arguments.cinn)) if path]
    for label, path in binaries:
        if not os.access(path, os.X_OK):
            parser.error(f"{label}: {path} is not an executable")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # 100+ sockets at once
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(soft, 4096), hard), hard))

    print(f"# {os.cpu_count()} cores, load {' '.join(open('/proc/loadavg').read().split()[:3])}, "
          f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}", file=sys.stderr)
    results = {}  # (case, label) -> {measure: value}
    for label, path in binaries:
        for name in only:
            for case, scenario in CASES[name]:
                print(f"# {label}: {case} ...", file=sys.stderr, flush=True)
                started = time.perf_counter()
                result = run_case(path, case, scenario)
                results[case, label] = result
                print(json.dumps({"binary": label, "path": path, "scenario": case,
                                  "seconds": round(time.perf_counter() - started, 2), **result}), flush=True)

    labels = [label for label, _ in binaries]
    print()
    print("| scenario | measure | " + " | ".join(f"{label} (`{path}`)" for label, path in binaries) + " |")
    print("|---|---|" + "---|" * len(labels))
    for name in only:
        for case, _ in CASES[name]:
            measures = list(dict.fromkeys(key for label in labels for key in results[case, label]))
            for measure in measures:
                if measure not in JSON_ONLY:
                    width = 200 if measure in WIDE else 100
                    values = [cell(results[case, label].get(measure, ""), width) for label in labels]
                    print(f"| {case} | {measure} | " + " | ".join(values) + " |")


if __name__ == "__main__":
    main()
