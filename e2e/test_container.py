#!/usr/bin/env python3
"""The container image (Containerfile), built and run with podman as a self-hoster runs it.

  1. builds the image from the Containerfile with the given cinn binary (linked with --static-swift-stdlib) on the
     given base image, in docker format so that the HEALTHCHECK stays;
  2. the image: its health check is `cinn health-check`, its user is not root, and it holds no compiler or Swift;
  3. SQLite in a volume: runs it with /data on a named volume and a published port, waits until its health check
     passes, adds a weigh-in through the API, checks that the server runs as the image's user, stops it (SIGTERM,
     exit 0), starts it again, finds the weigh-in, backs the journal up with `cinn backup` inside the container, then
     replaces the container with a new one on the same volume (an upgrade) and finds the weigh-in again;
  4. PostgreSQL (with --postgres): the same image in hosted mode on a database of that server (CINN_DATABASE,
     CINN_ACCOUNTS), an administrator added with `cinn user add` inside the container, a weigh-in through a token,
     a restart, the weigh-in found;
  5. the release archive (with --archive) on the bare base image, Debian without Swift: unpacked, a weigh-in
     added and listed with the CLI, a server started until its health check passes, and stopped;
  6. compose.sqlite.yaml (with --compose, podman-compose): up, a weigh-in, down and up again, the weigh-in kept;
  7. compose.yaml (with --compose): hosted mode beside PostgreSQL, an administrator added with `compose exec`, a
     weigh-in, down and up again, the weigh-in kept, and pg_dump in the database's container. Its postgres image
     comes from a registry this test does not reach, so Debian's PostgreSQL on the same base stands in for it
     (e2e/postgres-image, which takes the same POSTGRES_* variables).
Prints the image's size and how long the server took to be healthy, and removes what it made. Exit status 0 when
every check passes.

    python3 e2e/test_container.py --cinn .build-static/debug/cinn --base localhost/cinn-base:bookworm \
        [--postgres postgres://postgres@127.0.0.1:5433/postgres --psql /usr/lib/postgresql/15/bin/psql] \
        [--compose .venv/bin/podman-compose]
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable
from pathlib import Path

from checks import CheckFailed, check

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Podman:
    def __init__(self, binary: str):
        self.binary = binary

    def run(self, *arguments: str, input: str | None = None, check_status: bool = True,
            timeout: float = 600) -> subprocess.CompletedProcess:
        done = subprocess.run([self.binary, *arguments], input=input, capture_output=True, text=True, timeout=timeout)
        if check_status and done.returncode != 0:
            raise CheckFailed(f"podman {' '.join(arguments[:3])} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
        return done

    def wait_healthy(self, name: str, start: float, limit: float = 180) -> float:
        """Polls the health check (podman runs no timer without systemd) until it passes; the seconds since `start`."""
        while time.monotonic() - start < limit:
            if self.run("healthcheck", "run", name, check_status=False, timeout=30).returncode == 0:
                return time.monotonic() - start
            state = self.run("inspect", "--format", "{{.State.Status}}", name).stdout.strip()
            if state != "running":
                raise CheckFailed(f"{name} is {state}: {self.run('logs', name, check_status=False).stderr[-3000:]}")
            time.sleep(0.2)
        raise CheckFailed(f"{name} was not healthy within {limit:.0f} s: {self.run('logs', name, check_status=False).stderr[-3000:]}")


def request(method: str, url: str, value=None, token: str | None = None) -> tuple[int, object]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    body = None if value is None else json.dumps(value).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=body, method=method, headers=headers), timeout=60) as answer:
            text, status = answer.read().decode(), answer.status
    except urllib.error.HTTPError as error:
        text, status = error.read().decode(), error.code
    try:
        return status, json.loads(text) if text else None
    except json.JSONDecodeError:
        return status, text


def weights(base: str, token: str | None = None) -> list[float]:
    status, body = request("GET", base + "/api/v1/weigh-ins?limit=100", token=token)
    if status != 200:
        raise CheckFailed(f"the weigh-ins answered {status}: {body}")
    return [item["weight"] for item in body["weigh_ins"]]


def build(podman: Podman, cinn: Path, base: str, tag: str) -> tuple[float, int]:
    """Builds the image in a context of its own (the Containerfile and the binary); seconds taken and bytes."""
    with tempfile.TemporaryDirectory(prefix="cinn-image-") as context:
        (Path(context) / "dist").mkdir()
        shutil.copy(ROOT / "Containerfile", context)
        shutil.copy(cinn, Path(context) / "dist" / "cinn")
        start = time.monotonic()
        podman.run("build", "--format", "docker", "--network", "host", "--build-arg", f"BASE={base}", "-t", tag,
                   "-f", str(Path(context) / "Containerfile"), context, timeout=1200)
        seconds = time.monotonic() - start
    size = int(podman.run("image", "inspect", "--format", "{{.Size}}", tag).stdout.strip())
    return seconds, size


def check_image(podman: Podman, tag: str) -> None:
    config = json.loads(podman.run("image", "inspect", tag).stdout)[0]
    health = json.dumps(config.get("Healthcheck"))
    check("health-check" in health, f"the image's HEALTHCHECK runs cinn health-check: {health}")
    user = config.get("Config", {}).get("User") or config.get("User")
    check(user not in (None, "", "root", "0"), f"the image runs as a user of its own ({user!r})")
    found = podman.run("run", "--rm", "--tmpfs", "/data", "--entrypoint", "/bin/sh", tag, "-c",
                       "for tool in swift swiftc clang gcc cc c++ ld; do command -v $tool; done; "
                       "ls -d /usr/lib/swift /usr/share/swift /opt/swift 2>/dev/null; true").stdout.split()
    check(found == [], f"the image holds no compiler or Swift toolchain: {found}")


def run_sqlite(podman: Podman, tag: str, suffix: str) -> dict:
    name, volume, port = f"cinn-test-{suffix}", f"cinn-test-data-{suffix}", free_port()
    base = f"http://127.0.0.1:{port}"
    podman.run("volume", "create", volume)
    measured = {}
    try:
        start = time.monotonic()
        podman.run("run", "-d", "--name", name, "-p", f"127.0.0.1:{port}:8080", "-v", f"{volume}:/data", tag)
        measured["new_journal_healthy_seconds"] = podman.wait_healthy(name, start)
        status, body = request("POST", base + "/api/v1/weigh-ins", {"weight": 81.3, "unit": "kg", "date": "2026-11-20T07:30:00Z"})
        check(status == 201, f"a weigh-in is added through the API: {status} {body}")
        status_line = next(line for line in podman.run("exec", name, "cat", "/proc/1/status").stdout.splitlines()
                           if line.startswith("Uid:"))
        check(status_line.split()[1] != "0", f"the server does not run as root: {status_line}")

        podman.run("stop", "--time", "30", name)
        exit_code = podman.run("inspect", "--format", "{{.State.ExitCode}}", name).stdout.strip()
        check(exit_code == "0", f"SIGTERM stops the server cleanly (exit {exit_code})")
        start = time.monotonic()
        podman.run("start", name)
        measured["restart_healthy_seconds"] = podman.wait_healthy(name, start)
        check(81.3 in weights(base), "the weigh-in is there after a restart")

        backup = podman.run("exec", name, "cinn", "backup", "/data/backup.sqlite")
        check("Backed up /data/cinn.sqlite" in backup.stdout, f"cinn backup inside the container: {backup.stdout}")
        listed = podman.run("exec", name, "cinn", "weight", "list", "--database", "/data/backup.sqlite").stdout
        check("81.3" in listed, f"the backup holds the weigh-in: {listed}")

        podman.run("rm", "--force", "--time", "30", name)
        podman.run("run", "-d", "--name", name, "-p", f"127.0.0.1:{port}:8080", "-v", f"{volume}:/data", tag)
        podman.wait_healthy(name, time.monotonic())
        check(81.3 in weights(base), "a new container on the same volume (an upgrade) finds the weigh-in")
        print(f"ok: SQLite in a volume: healthy, weigh-in kept across a restart and a new container, backup "
              f"({measured['new_journal_healthy_seconds']:.1f} s to healthy on a new journal, "
              f"{measured['restart_healthy_seconds']:.1f} s after a restart)")
    finally:
        podman.run("rm", "--force", "--volumes", "--time", "5", name, check_status=False)
        podman.run("volume", "rm", "--force", volume, check_status=False)
    return measured


def run_archive(podman: Podman, archive: Path, base: str) -> None:
    """The release archive on the bare base (Debian without Swift, without the image's additions)."""
    script = (
        "set -e; cd /tmp; tar -xzf /archive.tar.gz; cd cinn-*; "
        "./cinn weight add 80.1 --unit kg --date 2026-11-20 --database /tmp/journal.sqlite >/dev/null; "
        "./cinn weight list --database /tmp/journal.sqlite; "
        "./cinn serve --port 18099 --database /tmp/journal.sqlite >/tmp/serve.log 2>&1 & server=$!; "
        "for attempt in $(seq 1 600); do ./cinn health-check --url http://127.0.0.1:18099/ready >/dev/null 2>&1 && break; sleep 0.1; done; "
        "./cinn health-check --url http://127.0.0.1:18099/ready; kill -TERM $server; wait $server")
    done = podman.run("run", "--rm", "--tmpfs", "/tmp", "-v", f"{archive.resolve()}:/archive.tar.gz:ro", base,
                      "/bin/sh", "-c", script, check_status=False)
    check(done.returncode == 0 and "80.1 kg" in done.stdout and "ready" in done.stdout,
          f"the release archive runs on Debian without Swift: the CLI and a server ({done.stdout.strip()} {done.stderr.strip()[-1000:]})")


class Compose:
    """podman-compose on some compose files as one project, with the image under test and a port of its own."""

    def __init__(self, binary: str, files: list[str], project: str, tag: str, port: int, **variables: str):
        self.arguments = [binary, *(part for file in files for part in ("-f", str(ROOT / file))), "-p", project]
        self.environment = {**os.environ, "CINN_VERSION": tag.split(":", 1)[1], "CINN_PUBLISHED_PORT": str(port),
                            **variables}

    def run(self, *command: str, input: str | None = None) -> str:
        done = subprocess.run([*self.arguments, *command], env=self.environment, input=input, capture_output=True,
                              text=True, timeout=300)
        if done.returncode != 0:
            raise CheckFailed(f"podman-compose {' '.join(command)} failed: {done.stderr[-2000:]}")
        return done.stdout

    def remove(self) -> None:
        """Down, with the volumes, whatever state it is in."""
        subprocess.run([*self.arguments, "down", "--volumes"], env=self.environment, capture_output=True, timeout=300)


def administrator_token(add_user: Callable[[str], str], base: str, name: str) -> str:
    """Adds an administrator with `add_user` (`cinn user add NAME --admin` somewhere, the password on standard input)
    and logs in through the API; the token."""
    added = add_user("a long password\n")
    check(name in added, f"cinn user add: {added.strip()}")
    status, body = request("POST", base + "/api/v1/login", {"name": name, "password": "a long password", "token_name": "container test"})
    check(status == 201 and isinstance(body, dict) and "token" in body, f"log-in gives a token ({status})")
    return body["token"]


def run_compose(podman: Podman, binary: str, tag: str, suffix: str) -> None:
    """compose.sqlite.yaml as a person runs it, with the image under test and a free port."""
    project, port = f"cinn-test-{suffix}", free_port()
    compose = Compose(binary, ["compose.sqlite.yaml"], project, tag, port)
    base = f"http://127.0.0.1:{port}"
    try:
        compose.run("up", "-d")
        name = f"{project}_cinn_1"
        podman.wait_healthy(name, time.monotonic())
        status, body = request("POST", base + "/api/v1/weigh-ins", {"weight": 72.4, "unit": "kg", "date": "2026-11-22T07:00:00Z"})
        check(status == 201, f"a weigh-in through the compose setup ({status})")
        compose.run("down")
        compose.run("up", "-d")
        podman.wait_healthy(name, time.monotonic())
        check(72.4 in weights(base), "compose down and up again keeps the journal in its volume")
        print("ok: compose.sqlite.yaml: up, a weigh-in, down and up, the weigh-in kept")
    finally:
        compose.remove()


def run_compose_postgres(podman: Podman, binary: str, tag: str, suffix: str, base_image: str) -> None:
    """compose.yaml, hosted mode beside PostgreSQL, with Debian's PostgreSQL on the test's base standing in for the
    registry's postgres image (e2e/postgres-image, named by e2e/compose.test-postgres.yaml)."""
    postgres_image = f"localhost/cinn-test-postgres:{suffix}"
    podman.run("build", "--format", "docker", "--network", "host", "--build-arg", f"BASE={base_image}",
               "-t", postgres_image, str(ROOT / "e2e" / "postgres-image"), timeout=1200)
    project, port = f"cinn-test-pg-{suffix}", free_port()
    compose = Compose(binary, ["compose.yaml", "e2e/compose.test-postgres.yaml"], project, tag, port,
                      POSTGRES_PASSWORD=uuid.uuid4().hex, CINN_TEST_POSTGRES_IMAGE=postgres_image)
    base = f"http://127.0.0.1:{port}"

    def up() -> None:
        # podman-compose on podman 4.3 does not wait for the database's health check (depends_on's service_healthy,
        # which docker compose honours), so the test starts the database first and waits for it.
        compose.run("up", "-d", "db")
        podman.wait_healthy(f"{project}_db_1", time.monotonic())
        compose.run("up", "-d")
        podman.wait_healthy(f"{project}_cinn_1", time.monotonic())

    try:
        up()
        token = administrator_token(
            lambda password: compose.run("exec", "-T", "cinn", "cinn", "user", "add", "anna", "--admin", input=password),
            base, "anna")
        status, body = request("POST", base + "/api/v1/weigh-ins", {"weight": 58.9, "unit": "kg", "date": "2026-11-23T07:00:00Z"}, token)
        check(status == 201, f"a weigh-in in the compose setup's PostgreSQL ({status})")
        compose.run("down")
        up()
        check(58.9 in weights(base, token), "compose down and up again keeps the journal in PostgreSQL's volume")
        dump = compose.run("exec", "-T", "db", "pg_dump", "-U", "cinn", "cinn")
        check("58.9" in dump and "weigh_ins" in dump, "pg_dump in the database's container holds the weigh-in")
        print("ok: compose.yaml with PostgreSQL: up, an administrator, a weigh-in, down and up, pg_dump")
    finally:
        compose.remove()
        podman.run("rmi", "--force", postgres_image, check_status=False)


def run_postgres(podman: Podman, tag: str, suffix: str, server: str, psql: str) -> None:
    database = f"cinn_container_{suffix}"
    subprocess.run([psql, server, "-Atqc", f"create database {database}"], check=True, capture_output=True)
    parts = urllib.parse.urlsplit(server)
    url = urllib.parse.urlunsplit(parts._replace(path="/" + database))
    name, port = f"cinn-test-pg-{suffix}", free_port()
    base = f"http://127.0.0.1:{port}"
    try:
        podman.run("run", "-d", "--name", name, "--network", "host", "-e", f"CINN_PORT={port}",
                   "-e", f"CINN_DATABASE={url}", "-e", "CINN_ACCOUNTS=true", tag)
        podman.wait_healthy(name, time.monotonic())
        token = administrator_token(
            lambda password: podman.run("exec", "-i", name, "cinn", "user", "add", "alice", "--admin", input=password).stdout,
            base, "alice")
        status, body = request("POST", base + "/api/v1/weigh-ins", {"weight": 64.2, "unit": "kg", "date": "2026-11-21T07:00:00Z"}, token)
        check(status == 201, f"a weigh-in on PostgreSQL: {status} {body}")
        podman.run("restart", "--time", "30", name)
        podman.wait_healthy(name, time.monotonic())
        check(64.2 in weights(base, token), "the weigh-in is in PostgreSQL after a restart")
        print("ok: PostgreSQL: hosted mode from CINN_ variables, a user added inside the container, weigh-in kept")
    finally:
        podman.run("rm", "--force", "--volumes", "--time", "5", name, check_status=False)
        subprocess.run([psql, server, "-Atqc", f"drop database if exists {database} with (force)"], capture_output=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cinn", required=True, help="a cinn binary linked with --static-swift-stdlib")
    parser.add_argument("--base", required=True, help="the base image (BASE)")
    parser.add_argument("--podman", default="podman")
    parser.add_argument("--postgres", help="a PostgreSQL server's URL, for the hosted-mode run")
    parser.add_argument("--psql", default="psql")
    parser.add_argument("--archive", help="a release archive (scripts/release) to run on the bare base")
    parser.add_argument("--compose", help="podman-compose, for the runs of both compose files")
    parser.add_argument("--summary", help="write the measurements here as JSON")
    options = parser.parse_args()
    podman = Podman(options.podman)
    suffix = uuid.uuid4().hex[:8]
    tag = f"localhost/cinn:test-{suffix}"
    try:
        seconds, size = build(podman, Path(options.cinn), options.base, tag)
        print(f"ok: image built in {seconds:.0f} s, {size / 1_000_000:.0f} MB")
        check_image(podman, tag)
        print("ok: the image's health check is cinn health-check, its user is not root, and it holds no compiler")
        measured = {"build_seconds": seconds, "image_bytes": size, **run_sqlite(podman, tag, suffix)}
        if options.archive:
            run_archive(podman, Path(options.archive), options.base)
        if options.compose:
            run_compose(podman, options.compose, tag, suffix)
            run_compose_postgres(podman, options.compose, tag, suffix, options.base)
        if options.postgres:
            run_postgres(podman, tag, suffix, options.postgres, options.psql)
        if options.summary:
            Path(options.summary).parent.mkdir(parents=True, exist_ok=True)
            Path(options.summary).write_text(json.dumps(measured, indent=2) + "\n")
    except CheckFailed as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        podman.run("rmi", "--force", tag, check_status=False)
    print("container test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
