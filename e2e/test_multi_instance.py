#!/usr/bin/env python3
"""Two `cinn serve --accounts` on one PostgreSQL database behind nginx, as docs/deployment.md sets them up.

nginx runs with docs/nginx/cinn.conf (TLS at the proxy, a self-signed certificate made here), changed only on its
lines marked "test:" (ports, certificate, name). Through nginx, which sends requests to the instances in turn:
  1. both instances start at once on an empty database: each migration is applied once;
  2. sign-up, a session and its CSRF tokens work whichever instance answers; requests reach both;
  3. an upload is checked, polled for progress, imported and undone over several requests;
  4. failed log-ins are counted across the instances (the sixth is 429);
  5. sync push and pull;
  6. a rolling restart under a steady stream of writes: each instance in turn gets SIGTERM (it drains and exits 0)
     and starts again; no request fails, and every write answered 2xx is in the database afterwards;
  7. /health, /ready and /metrics answer on each instance; nginx hides /metrics.
Exit status 0 when every check passes.

    python3 e2e/test_multi_instance.py --cinn .build/debug/cinn [--postgres postgres://postgres@127.0.0.1:5433/postgres]
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from http.cookiejar import CookieJar
from pathlib import Path

from checks import CheckFailed, check

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "docs" / "nginx" / "cinn.conf"
LISTENING = re.compile(r"Listening on (http://\S+)")
TLS = ssl.create_default_context()
TLS.check_hostname = False
TLS.verify_mode = ssl.CERT_NONE


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Instance:
    """One `cinn serve` on a fixed port; its output is kept."""

    def __init__(self, cinn: str, port: int, options: list[str], log: Path):
        self.cinn, self.port, self.options, self.log = cinn, port, options, log
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        cmd = [self.cinn, "serve", "--port", str(self.port), *self.options]
        self.output = open(self.log, "a")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=self.output, stderr=subprocess.STDOUT)

    def wait_listening(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise CheckFailed(f"cinn serve on {self.port} exited with {self.proc.returncode}: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/ready", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.1)
        raise CheckFailed(f"cinn serve on {self.port} not ready within {timeout:.0f} s")

    def stop(self, timeout: float = 40) -> int | None:
        if self.proc is None or self.proc.poll() is not None:
            return None if self.proc is None else self.proc.returncode
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None


class Client:
    """A browser-like client of the site through nginx: cookies, and the CSRF token of the last page's form."""

    def __init__(self, base: str, forwarded_for: str | None = None):
        self.base = base
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=TLS),
                                                  urllib.request.HTTPCookieProcessor(self.jar), NoRedirect())
        self.csrf = None
        self.forwarded_for = forwarded_for

    def send(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
             browser: bool = True) -> tuple[int, dict, str]:
        """A browser's request says where it comes from (Origin); an app's does not."""
        request = urllib.request.Request(self.base + path, data=body, method=method, headers=headers or {})
        if browser:
            request.add_header("Origin", self.base)
        if self.forwarded_for:
            request.add_header("X-Forwarded-For", self.forwarded_for)
        try:
            with self.opener.open(request, timeout=60) as answer:
                text = answer.read().decode()
                status, answer_headers = answer.status, dict(answer.headers)
        except urllib.error.HTTPError as error:
            text = error.read().decode()
            status, answer_headers = error.code, dict(error.headers)
        match = re.search(r'name="_csrf" value="([^"]+)"', text)
        if match:
            self.csrf = match.group(1)
        return status, answer_headers, text

    def get(self, path: str) -> tuple[int, dict, str]:
        return self.send("GET", path)

    def form(self, path: str, fields: dict[str, str]) -> tuple[int, dict, str]:
        body = urllib.parse.urlencode({**fields, "_csrf": self.csrf or ""}).encode()
        return self.send("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"})

    def json(self, method: str, path: str, value=None, token: str | None = None) -> tuple[int, object]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        status, _, text = self.send(method, path, None if value is None else json.dumps(value).encode(), headers, browser=False)
        try:
            return status, json.loads(text) if text else None
        except json.JSONDecodeError:
            return status, text


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def psql(psql_bin: str, url: str, sql: str) -> str:
    return subprocess.run([psql_bin, url, "-Atqc", sql], check=True, capture_output=True, text=True).stdout.strip()


def answered_writes(port: int) -> bool:
    """Whether the instance on `port` counts an answered request of the write load (`/metrics`, since it started)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        text = answer.read().decode()
    return re.search(r'cinn_http_requests_total\{method="(GET|POST)",route="/api/v1/(trend|weigh-ins)",status="20[01]"\} [1-9]',
                     text) is not None


def render_site(tls_port: int, plain_port: int, upstreams: list[int], certificate: Path, key: Path) -> str:
    """docs/nginx/cinn.conf with the lines marked "test:" set for this run (any number of instances; the hosted load test
    in Benchmarks/hosted runs one, two and three)."""
    lines = []
    for line in SITE.read_text().splitlines():
        if "# test: instance" in line:
            # One line an instance, in place of the file's two.
            if "# test: instance 1" in line:
                lines += [re.sub(r"server 127\.0\.0\.1:\d+", f"server 127.0.0.1:{port}", line) for port in upstreams]
            continue
        elif "# test: plain port" in line:
            line = re.sub(r"listen \d+", f"listen 127.0.0.1:{plain_port}", line)
        elif "# test: TLS port" in line:
            line = re.sub(r"listen \d+", f"listen 127.0.0.1:{tls_port}", line)
        elif "# test: server name" in line:
            line = re.sub(r"server_name \S+;", "server_name localhost;", line)
        elif "# test: certificate" in line:
            line = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {certificate};", line)
        elif "# test: key" in line:
            line = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", line)
        lines.append(line)
    return "\n".join(lines) + "\n"


def start_nginx(nginx: str, work: Path, site: str) -> subprocess.Popen:
    (work / "site.conf").write_text(site)
    (work / "nginx.conf").write_text(f"""
daemon off;
worker_processes 1;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log warn;
events {{ worker_connections 1024; }}
http {{
    log_format upstream '$request_id|$request_method|$uri|$status|$upstream_addr|$upstream_status';
    access_log {work}/nginx-access.log upstream;
    client_body_temp_path {work}/client-body;
    proxy_temp_path {work}/proxy;
    fastcgi_temp_path {work}/fastcgi;
    uwsgi_temp_path {work}/uwsgi;
    scgi_temp_path {work}/scgi;
    include {work}/site.conf;
}}
""")
    test = subprocess.run([nginx, "-t", "-c", str(work / "nginx.conf")], capture_output=True, text=True)
    check(test.returncode == 0, f"nginx accepts docs/nginx/cinn.conf ({test.stderr.strip()[-300:]})")
    return subprocess.Popen([nginx, "-c", str(work / "nginx.conf")], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)


def multipart(fields: dict[str, str], file_name: str, content: str) -> tuple[bytes, str]:
    boundary = "----cinn-" + uuid.uuid4().hex
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n' for name, value in fields.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{file_name}"\r\n'
                 f"Content-Type: text/csv\r\n\r\n{content}\r\n--{boundary}--\r\n")
    return "".join(parts).encode(), f"multipart/form-data; boundary={boundary}"


class WriteLoad(threading.Thread):
    """Weigh-ins posted one after another (and the list read between them) until stopped."""

    def __init__(self, base: str, token: str):
        super().__init__(daemon=True)
        self.client, self.token = Client(base), token
        self.created: list[str] = []
        self.failures: list[str] = []
        self.requests = 0
        self.running = True

    def run(self) -> None:
        minute = 0
        while self.running:
            minute += 1
            at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1_600_000_000 + minute * 60))
            status, body = self.client.json("POST", "/api/v1/weigh-ins", {"weight": 70 + minute % 100 / 10, "date": at, "confirm": True}, self.token)
            self.requests += 1
            if status == 201:
                self.created.append(body["id"])
            else:
                self.failures.append(f"POST {status} {str(body)[:200]}")
            status, _ = self.client.json("GET", "/api/v1/trend", token=self.token)
            self.requests += 1
            if status != 200:
                self.failures.append(f"GET trend {status}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cinn", required=True)
    parser.add_argument("--postgres", default=os.environ.get("CINN_TEST_POSTGRES_URL"))
    parser.add_argument("--nginx", default=shutil.which("nginx") or "/usr/sbin/nginx")
    parser.add_argument("--psql", default=shutil.which("psql") or "/usr/lib/postgresql/15/bin/psql")
    args = parser.parse_args()
    if not args.postgres:
        print("needs --postgres or CINN_TEST_POSTGRES_URL", file=sys.stderr)
        return 2
    cinn = str(Path(args.cinn).resolve())
    work = Path(tempfile.mkdtemp(prefix="cinn-multi-"))
    database = "cinn_multi_" + uuid.uuid4().hex[:8]
    psql(args.psql, args.postgres, f"CREATE DATABASE {database}")
    url = urllib.parse.urlsplit(args.postgres)._replace(path="/" + database).geturl()
    ports = [free_port(), free_port()]
    tls_port, plain_port = free_port(), free_port()
    base = f"https://localhost:{tls_port}"
    uploads = work / "uploads"
    options = ["--database", url, "--accounts", "--signup", "open", "--secure-cookies", "--public-url", base,
               "--upload-dir", str(uploads), "--drain-seconds", "10"]
    instances = [Instance(cinn, port, options, work / f"instance-{index + 1}.log") for index, port in enumerate(ports)]
    nginx = None
    try:
        print("\n1. Two instances start at once on an empty database", flush=True)
        for instance in instances:
            instance.start()
        for instance in instances:
            instance.wait_listening()
        versions = psql(args.psql, url, "SELECT COUNT(*), COUNT(DISTINCT version) FROM schema_migrations")
        count, distinct = versions.split("|")
        check(count == distinct and int(count) >= 22, f"each migration applied once ({versions})")

        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                        "-keyout", str(work / "key.pem"), "-out", str(work / "cert.pem")], check=True, capture_output=True)
        nginx = start_nginx(args.nginx, work, render_site(tls_port, plain_port, ports, work / "cert.pem", work / "key.pem"))
        deadline = time.monotonic() + 20
        while True:
            try:
                if Client(base).get("/ready")[0] == 200:
                    break
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            if time.monotonic() > deadline:
                raise CheckFailed("nginx did not answer within 20 s")
            time.sleep(0.1)

        print("\n2. Sign-up, session and CSRF across instances", flush=True)
        alice = Client(base)
        check(alice.get("/signup")[0] == 200 and alice.csrf is not None, "the sign-up page has a CSRF token")
        status, headers, _ = alice.form("/signup", {"name": "alice", "password": "alice-password-1"})
        check(status == 303, f"signing up answers 303 (got {status})")
        check(any(cookie.name == "cinn_session" and cookie.secure for cookie in alice.jar), "the session cookie is Secure")
        for day in range(1, 7):
            alice.get("/account")
            status, _, _ = alice.form("/weigh-ins", {"weight": str(80 - day / 10), "date": f"2024-03-0{day}"})
            check(status == 303, f"weigh-in form {day} accepted (got {status})")
        status, _, page = alice.get("/weigh-ins")
        check(status == 200 and "79.4" in page, "the weigh-ins page lists what the forms sent")
        upstreams = set(re.findall(r"\|127\.0\.0\.1:(\d+)\|", (work / "nginx-access.log").read_text()))
        check(upstreams == {str(port) for port in ports}, f"requests reached both instances ({sorted(upstreams)})")

        print("\n3. An import over several requests", flush=True)
        progress = str(uuid.uuid4())
        alice.get("/account")
        body, content_type = multipart({"progress": progress, "format": ""}, "weights.csv",
                                       "date,weight\n2024-02-01,81.0\n2024-02-02,80.8\n2024-02-03,80.7\n")
        status, _, page = alice.send("POST", f"/import?_csrf={urllib.parse.quote(alice.csrf)}", body, {"Content-Type": content_type})
        asked = re.search(r'action="/import/([0-9a-f-]{36})/unit"', page)
        check(status == 422 and asked is not None, f"a file without a unit asks for it (got {status})")
        alice.get("/account")
        status, _, page = alice.form(f"/import/{asked.group(1)}/unit", {"unit": "kg"})
        token = re.search(r'action="/import/([0-9a-f-]{36})"', page)
        check(status == 200 and token is not None and "Import 3 weigh-ins" in page, f"the answer, on any instance, shows the file (got {status})")
        for _ in range(2):
            status, _, text = alice.get(f"/import/progress/{progress}")
            check(status == 200 and json.loads(text)["done"], "the check's progress is found")
        alice.get("/account")
        status, _, _ = alice.form(f"/import/{token.group(1)}", {})
        check(status == 200, f"the import runs on whichever instance (got {status})")
        alice.get("/account")
        status, _, _ = alice.form(f"/import/{token.group(1)}", {})
        check(status == 404, "sent again, it imports nothing more")
        status, _, page = alice.get("/import")
        batch = re.search(r'href="/imports/(\d+)/undo"', page)
        check(batch is not None, "the import is listed with Undo")
        alice.get("/account")
        status, _, _ = alice.form(f"/imports/{batch.group(1)}/undo", {})
        check(status == 303, "undo answers 303")

        print("\n4. Failed log-ins counted across instances", flush=True)
        guesser = Client(base, forwarded_for="203.0.113.9")
        statuses = [guesser.json("POST", "/api/v1/login", {"name": "alice", "password": "guess-guess-1"})[0] for _ in range(6)]
        check(statuses == [401] * 5 + [429], f"five failures, then 429 (got {statuses})")
        status, answer = Client(base, forwarded_for="198.51.100.7").json("POST", "/api/v1/login",
                                                                          {"name": "alice", "password": "alice-password-1"})
        check(status == 201 and answer["token"].startswith("cinn_"), "alice logs in from her own address")
        api_token = answer["token"]

        print("\n5. Sync through nginx", flush=True)
        reading = str(uuid.uuid4())
        status, answer = alice.json("POST", "/api/v1/sync/push", {"changes": [{
            "type": "glucose_reading", "id": reading, "changed_at": "2024-03-07T08:00:00Z",
            "fields": {"measured_at": "2024-03-07T08:00:00Z", "mg_dl": 104}}]}, api_token)
        check(status == 200 and answer["results"][0]["status"] == "applied", "a push is applied")
        status, answer = alice.json("GET", "/api/v1/sync/changes?limit=1000", token=api_token)
        check(status == 200 and any(change["id"] == reading for change in answer["changes"]), "the pull returns it")

        print("\n6. Rolling restart under writes", flush=True)
        load = WriteLoad(base, api_token)
        load.start()
        time.sleep(2)
        for instance in instances:
            before = load.requests
            code = instance.stop()
            check(code == 0, f"instance on {instance.port} drained and exited 0 (got {code})")
            time.sleep(1)
            instance.start()
            instance.wait_listening()
            # nginx sends nothing to an instance for 2 s after a refused connection (fail_timeout): wait until the new
            # process has answered some of the load, or give up after 10 s (step 7 then fails).
            deadline = time.monotonic() + 10
            while not answered_writes(instance.port) and time.monotonic() < deadline:
                time.sleep(0.2)
            check(load.requests > before, f"requests went on while {instance.port} restarted ({load.requests - before})")
        load.running = False
        load.join(timeout=60)
        check(load.failures == [], f"no request failed ({len(load.failures)} of {load.requests}: {load.failures[:3]})")
        ids = ",".join(f"'{id}'" for id in load.created)
        kept = int(psql(args.psql, url, f"SELECT COUNT(*) FROM weigh_ins WHERE id IN ({ids}) AND deleted = 0"))
        check(kept == len(load.created) and kept > 10, f"every weigh-in answered 201 is kept ({kept} of {len(load.created)})")
        retried = [line for line in (work / "nginx-access.log").read_text().splitlines() if ", " in line.split("|")[4]]
        print(f"  nginx sent {len(retried)} request(s) on to the other instance during the restarts", flush=True)

        print("\n7. Health, readiness and metrics", flush=True)
        for instance in instances:
            check(answered_writes(instance.port), f"instance {instance.port} counts the requests it answered since it started again")
            check("alice" not in text and "2024-03" not in text, f"instance {instance.port}'s metrics hold no user data")
        for path in ["/metrics", "/metrics/", "//metrics", "/metrics?x=1", "/./metrics"]:
            check(Client(base).get(path)[0] == 404, f"nginx does not pass {path} on")
        check(Client(base).get("/health")[0] == 200, "/health through nginx")
        print("\nall checks passed", flush=True)
        return 0
    except CheckFailed as failure:
        print(f"\nFAILED: {failure}", file=sys.stderr, flush=True)
        for log in sorted(work.glob("*.log")):
            print(f"--- {log.name} (last lines)\n" + "\n".join(log.read_text().splitlines()[-15:]), file=sys.stderr)
        return 1
    finally:
        if nginx is not None:
            nginx.send_signal(signal.SIGQUIT)
            try:
                nginx.wait(timeout=10)
            except subprocess.TimeoutExpired:
                nginx.kill()
        for instance in instances:
            instance.stop()
        try:
            psql(args.psql, args.postgres, f"DROP DATABASE IF EXISTS {database}")
        except subprocess.CalledProcessError as error:
            print(f"could not drop {database}: {error.stderr}", file=sys.stderr)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
