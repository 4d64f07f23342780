"""What the benchmark scripts share about a `cinn serve` they start: waiting for its "Listening on" line.

Imported by Benchmarks/security/run.py and Benchmarks/nightscout/side_by_side.py (each puts Benchmarks/ on sys.path).
"""
import queue
import re
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
