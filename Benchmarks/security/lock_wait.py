#!/usr/bin/env python3
"""How long a command keeps other SQLite writers out.

Runs COMMAND (for example a `cinn food import-usda --database DB FILE`) while another connection to DB takes the
write lock every 0.1 s (BEGIN IMMEDIATE; COMMIT, waiting as long as it must), and prints the command's wall time
and the longest of those waits: the time the command held SQLite's only write lock in one piece.

    python3 Benchmarks/security/lock_wait.py DB -- COMMAND...

DB must exist (run `cinn migrate --database DB` first).
"""
import sqlite3
import subprocess
import sys
import threading
import time


def main() -> None:
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit(__doc__)
    database, command = sys.argv[1], sys.argv[3:]
    waits: list[float] = []
    done = threading.Event()

    def probe() -> None:
        connection = sqlite3.connect(database, timeout=3600, isolation_level=None)
        while not done.is_set():
            start = time.monotonic()
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("COMMIT")
            waits.append(time.monotonic() - start)
            time.sleep(0.1)
        connection.close()

    start = time.monotonic()
    prober = threading.Thread(target=probe)
    prober.start()
    result = subprocess.run(command)
    wall = time.monotonic() - start
    done.set()
    prober.join()
    print(f"exit {result.returncode}, wall {wall:.2f} s, {len(waits)} lock probes, longest wait {max(waits):.2f} s")
    sys.exit(result.returncode)


if __name__ == "__main__":
    main()
