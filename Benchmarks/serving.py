"""What the benchmark scripts share about a `cinn serve` they start: waiting for its "Listening on" line, its peak
memory, the end of its log, stopping it.

Imported by Benchmarks/security/run.py, Benchmarks/nightscout/side_by_side.py and Benchmarks/nom/speed.py (each puts
Benchmarks/ on sys.path).
"""
import os
import queue
import re
import signal
import subprocess
import threading
import time


def listening_address(process, timeout, log_tail):
    """(host, port) from the "Listening on http://HOST:PORT" line `process` (a `cinn serve` started with
    stdout=PIPE, text=True) prints. Its stdout is read to its end on a thread of its own, so the server never blocks
    on a full pipe. RuntimeError, with the end of its log (`log_tail()`), when it exits first or says nothing within
    `timeout` seconds."""
    lines = queue.Queue()

    def pump():
        for line in process.stdout:
            lines.put(line)
        lines.put(None)
    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            continue
        if line is None:
            raise RuntimeError(f"serve exited {process.wait()} before listening: {log_tail()}")
        if match := re.search(r"Listening on http://([\d.]+):(\d+)", line):
            return match[1], int(match[2])
    raise RuntimeError(f"no 'Listening on' within {timeout} s")


def peak_rss_mb(pid):
    """The process's peak resident memory in MB (VmHWM), None when it cannot be read."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def log_tail(path, characters=300):
    """The last `characters` of the log at `path`, "" when it cannot be read."""
    try:
        with open(path, errors="replace") as log:
            return log.read()[-characters:].strip()
    except OSError:
        return ""


def stop(process, timeout):
    """SIGTERM, then SIGKILL after `timeout` seconds; nothing when the process has ended."""
    if process.poll() is not None:
        return
    os.kill(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
