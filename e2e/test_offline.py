#!/usr/bin/env python3
"""Cinn opens offline: its service worker in headless Chromium at 390 px, with the server stopped for real.

  1. `cinn serve --demo` on a fixed port: the dashboard and the food day are opened once the worker controls the
     page (it installs on the first page, storing this binary's static files).
  2. The server process is stopped. Reloading the dashboard and the food day shows each one's last copy with
     `#offline-mark` ("Offline — as of HH:MM"); a page never opened on this device says so (503) instead.
  3. The server starts again on the same port and database: the dashboard comes from the server, unmarked.
  4. Hosted mode: a person signs up and opens pages (copies kept), logs out, and no page of theirs is left in the
     worker's cache for the next person on the device.

Screenshots: offline-dashboard.png, offline-food-day.png, offline-not-yet.png (OUT).

    python e2e/test_offline.py --cinn .build/debug/cinn [--out artifacts]
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import sys
import tempfile
import time
from pathlib import Path

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By

from test_dashboard import LISTEN_TIMEOUT, CheckFailed, Server, check
from test_food import new_driver
from test_hosted import sign_up


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def controlled(driver, url: str) -> None:
    """Opens the dashboard until the service worker is active and controls it."""
    driver.get(url + "/")
    ready = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "navigator.serviceWorker.ready.then(r => done(!!r.active)).catch(() => done(false));")
    check(ready, "the service worker installs and activates")
    for _ in range(20):
        driver.get(url + "/")
        if driver.execute_script("return !!navigator.serviceWorker.controller"):
            return
        time.sleep(0.25)
    raise CheckFailed("the service worker controls the page after a reload")


def offline_mark(driver) -> str:
    marks = driver.find_elements(By.ID, "offline-mark")
    return marks[0].text if marks else ""


def page_cache(driver) -> list[str]:
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "caches.has('cinn-pages').then(has => has ? caches.open('cinn-pages').then(c => c.keys())"
        ".then(keys => done(keys.map(k => new URL(k.url).pathname))) : done([])).catch(e => done(['error ' + e]));")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cinn", required=True, help="the built cinn binary")
    parser.add_argument("--out", default="artifacts", help="directory for screenshots (default: artifacts/)")
    args = parser.parse_args()
    cinn = os.path.abspath(args.cinn)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, TZ="UTC")
    env.pop("CINN_DATABASE", None)
    tmp = Path(tempfile.mkdtemp(prefix="cinn-offline-"))
    servers: list[Server] = []
    driver = None
    failure = None
    try:
        port = free_port()
        database = tmp / "demo.sqlite"
        server = Server(cinn, database, env, ["--demo", "--port", str(port)])
        servers.append(server)
        url = server.wait_for_url(LISTEN_TIMEOUT)
        check(url.endswith(f":{port}"), f"cinn listens on the port asked for ({url})")
        driver = new_driver()

        print(f"\nGET {url}/ and /food with the service worker", flush=True)
        controlled(driver, url)
        check(not offline_mark(driver), "online, the dashboard has no offline mark")
        driver.get(url + "/food")
        day = driver.find_element(By.TAG_NAME, "h1").text
        driver.get(url + "/")
        dashboard = driver.find_element(By.TAG_NAME, "h1").text

        print("\nThe server stops", flush=True)
        check(server.stop() == 0, "cinn serve stops on SIGTERM")
        driver.get(url + "/")
        mark = offline_mark(driver)
        check(mark.startswith("Offline — as of "), f"the dashboard's last copy is shown, marked ({mark!r})")
        check(driver.find_element(By.TAG_NAME, "h1").text == dashboard, "the copy is the dashboard as it was")
        driver.save_screenshot(str(out / "offline-dashboard.png"))
        driver.get(url + "/food")
        check(offline_mark(driver).startswith("Offline — as of ") and driver.find_element(By.TAG_NAME, "h1").text == day,
              "the food day's last copy is shown, marked")
        driver.save_screenshot(str(out / "offline-food-day.png"))
        driver.get(url + "/energy")
        check("has not been opened on this device" in offline_mark(driver), "a page never opened says so")
        driver.save_screenshot(str(out / "offline-not-yet.png"))

        print("\nThe server starts again on the same port and database", flush=True)
        server = Server(cinn, database, env, ["--port", str(port)])
        servers.append(server)
        server.wait_for_url(LISTEN_TIMEOUT)
        driver.get(url + "/")
        check(not offline_mark(driver), "back online, the dashboard comes from the server")

        print("\nHosted mode: logging out forgets the person's pages", flush=True)
        hosted = Server(cinn, tmp / "hosted.sqlite", env, ["--accounts", "--signup", "open"])
        servers.append(hosted)
        hosted_url = hosted.wait_for_url(LISTEN_TIMEOUT)
        driver.get(hosted_url + "/login")
        sign_up(driver, hosted_url, "anna", "anna-password-1")
        controlled(driver, hosted_url)
        driver.get(hosted_url + "/food")
        kept = page_cache(driver)
        check("/food" in kept and "/more" in kept, f"anna's pages are kept while she is logged in ({kept})")
        check(not any(path.startswith(("/login", "/signup", "/account", "/api/")) for path in kept),
              f"no log-in, account or API answer is kept ({kept})")
        driver.get(hosted_url + "/more")
        driver.execute_script("document.querySelector(\"form[action='/logout']\").requestSubmit()")
        for _ in range(40):
            if "/login" in driver.current_url:
                break
            time.sleep(0.25)
        check("/login" in driver.current_url, f"logging out leads to the log-in page ({driver.current_url})")
        left = page_cache(driver)
        check(left == [],
              f"after logging out no page of anna's is kept ({left})")
    except (CheckFailed, WebDriverException, OSError) as error:
        failure = str(error) if isinstance(error, CheckFailed) else f"{type(error).__name__}: {error}"
        if driver is not None:
            try:
                driver.save_screenshot(str(out / "offline-failure.png"))
            except WebDriverException:
                pass
    finally:
        if driver is not None:
            driver.quit()
        for server in servers:
            server.stop()
        if failure is not None:
            for server in servers:
                print("\n".join(server.lines[-20:]), flush=True)
        shutil.rmtree(tmp, ignore_errors=True)
    if failure is not None:
        print(f"\nFAIL: {failure}", flush=True)
        return 1
    print("\nPASS: the service worker kept the dashboard and the food day; with the server stopped each showed its last "
          "copy marked offline, a page never opened said so, the restarted server answered again, and logging out "
          "left none of the person's pages", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
