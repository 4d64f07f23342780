#!/usr/bin/env python3
"""Cinn opens offline: its service worker in headless Chromium at 390 px, with the server stopped for real.

  1. `cinn serve --demo` on a fixed port: the dashboard, the food day and Add food are opened once the worker
     controls the page (it installs on the first page, storing this binary's static files), and a workout is started
     from a routine (its logging page opened).
  2. The server process is stopped. Reloading the dashboard and the food day shows each one's last copy with
     `#offline-mark` ("Offline — as of HH:MM"); a page never opened on this device says so (503) instead.
  3. Still offline, a weigh-in, a quick add and a workout set are entered on those copies: each is kept on the device
     and the page says how many wait to send (`#queue`); so is a weigh-in with a likely typo.
  4. The server starts again on the same port and database: the dashboard comes from the server, unmarked; the queue
     is sent, and the API finds each entry exactly once; the typo waits with the server's question until it is
     removed; loading pages again adds nothing.
  5. Hosted mode: a person signs up and opens pages (copies kept); with the server stopped she adds a weigh-in, and
     her session ends; when the server is back the entry waits for her log-in, then is sent under her new session's
     token, once. She logs out, and no page of hers is left in the worker's cache for the next person on the device.

Screenshots: offline-dashboard.png, offline-food-day.png, offline-not-yet.png, offline-waiting.png,
offline-waiting-dark-320.png, offline-sent.png, offline-sent-dark.png (OUT).

    python e2e/test_offline.py --cinn .build/debug/cinn [--out artifacts]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import sqlite3
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

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


def queued(driver) -> list[str]:
    """The entries the worker keeps to send, as "state what", read from its IndexedDB."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1], opening = indexedDB.open('cinn-queue', 1);"
        "opening.onupgradeneeded = () => opening.result.createObjectStore('entries', { keyPath: 'id', autoIncrement: true });"
        "opening.onerror = () => done(['error ' + opening.error]);"
        "opening.onsuccess = () => { const db = opening.result, all = db.transaction('entries').objectStore('entries').getAll();"
        "all.onsuccess = () => { db.close(); done(all.result.map(e => e.state + ' ' + e.what)); }; };")


def queue_box(driver) -> str:
    boxes = driver.find_elements(By.ID, "queue")
    return boxes[0].text if boxes else ""


def wait_for(what: str, probe, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if probe():
            return
        time.sleep(0.25)
    raise CheckFailed(what)


def submit(driver, form) -> None:
    """Submits FORM as its button would, and waits for the page that answers."""
    old = driver.find_element(By.TAG_NAME, "html")
    driver.execute_script("arguments[0].requestSubmit()", form)
    WebDriverWait(driver, 15).until(expected_conditions.staleness_of(old))


def api(url: str, path: str) -> dict:
    with urllib.request.urlopen(url + path, timeout=30) as response:
        return json.load(response)


def stored_once(url: str, workout: str) -> dict[str, int]:
    """How many of the three entries made offline the server holds."""
    weigh_ins = api(url, "/api/v1/weigh-ins?limit=50")["weigh_ins"]
    soups = api(url, "/api/v1/food-entries?search=Offline%20soup")["entries"]
    sets = api(url, f"/api/v1/workouts/{workout}")["sets"]
    return {
        "weigh-in": sum(1 for entry in weigh_ins if entry.get("note") == "kept offline"),
        "quick add": sum(1 for entry in soups if entry["name"] == "Offline soup"),
        "set": sum(1 for entry in sets if entry.get("note") == "kept offline"),
    }


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
        driver.get(url + "/food/search")
        driver.get(url + "/lifts")
        submit(driver, driver.find_element(By.CSS_SELECTOR, "ul.routines form[action='/workouts/start']"))
        check("/log" in driver.current_url, f"starting a routine opens its logging page ({driver.current_url})")
        log_page = driver.current_url.split("#")[0]
        workout = log_page.rstrip("/").split("/")[-2]
        driver.get(url + "/")
        dashboard = driver.find_element(By.TAG_NAME, "h1").text
        placeholder = driver.find_element(By.ID, "weight").get_attribute("placeholder") or ""
        weight = placeholder if placeholder.replace(".", "", 1).isdigit() else "80"

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

        print("\nOffline: a weigh-in, a quick add and a set are kept to send", flush=True)
        driver.get(url + "/")
        driver.find_element(By.ID, "weight").send_keys(weight)
        driver.find_element(By.ID, "note").send_keys("kept offline")
        submit(driver, driver.find_element(By.ID, "add-weight"))
        wait_for("the dashboard says one entry waits to send",
                 lambda: "1 entry waiting to send" in queue_box(driver))
        check(offline_mark(driver).startswith("Offline"), "the dashboard shown is its offline copy")
        driver.get(url + "/food/search")
        driver.execute_script("document.getElementById('quick-add').open = true")
        driver.find_element(By.ID, "quick-energy").send_keys("321")
        driver.find_element(By.ID, "quick-name").send_keys("Offline soup")
        submit(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/food/quick']"))
        wait_for("Add food says two entries wait to send", lambda: "2 entries waiting to send" in queue_box(driver))
        driver.get(log_page)
        set_form = driver.find_element(By.CSS_SELECTOR, "form.set-form")
        driver.execute_script("arguments[0].querySelector('input[name=note]').value = 'kept offline';"
                              "arguments[0].querySelector('input[name=reps]').value = '7';", set_form)
        submit(driver, set_form)
        wait_for("the workout says three entries wait to send", lambda: "3 entries waiting to send" in queue_box(driver))
        driver.get(url + "/")
        typo = f"{float(weight) / 10:.2f}"
        driver.find_element(By.ID, "weight").send_keys(typo)
        submit(driver, driver.find_element(By.ID, "add-weight"))
        wait_for("the dashboard lists the four", lambda: "4 entries waiting to send" in queue_box(driver))
        box = queue_box(driver)
        check("Weigh-in" in box and "Offline soup" in box and "× 7" in box, f"each waiting entry is named ({box!r})")
        driver.save_screenshot(str(out / "offline-waiting.png"))
        # The same state in the dark theme, at 320 px (Emulation.setDeviceMetricsOverride: the viewport only).
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "media": "", "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 320, "height": 700, "deviceScaleFactor": 1, "mobile": True})
        check(driver.execute_script("return document.documentElement.scrollWidth") <= 320, "the waiting list fits 320 px")
        driver.save_screenshot(str(out / "offline-waiting-dark-320.png"))
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "media": "", "features": [{"name": "prefers-color-scheme", "value": "light"}]})
        kept = queued(driver)
        check(len(kept) == 4 and all(entry.startswith("waiting ") for entry in kept), f"the queue holds four ({kept})")

        print("\nThe server starts again on the same port and database", flush=True)
        server = Server(cinn, database, env, ["--port", str(port)])
        servers.append(server)
        server.wait_for_url(LISTEN_TIMEOUT)
        driver.get(url + "/")
        check(not offline_mark(driver), "back online, the dashboard comes from the server")
        wait_for("the queue is sent once the server answers", lambda: len(queued(driver)) == 1)
        left = queued(driver)
        check(left[0].startswith(f"confirm Weigh-in {typo}"), f"the typo waits for an answer ({left})")
        wait_for("the page says what was sent and asks about the typo",
                 lambda: "Sent 3 entries" in queue_box(driver) and "Cinn asks:" in queue_box(driver))
        driver.save_screenshot(str(out / "offline-sent.png"))
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "media": "", "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        driver.save_screenshot(str(out / "offline-sent-dark.png"))
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "media": "", "features": [{"name": "prefers-color-scheme", "value": "light"}]})
        driver.find_element(By.XPATH, "//section[@id='queue']//button[text()='Remove']").click()
        wait_for("the typo is removed", lambda: queued(driver) == [])
        counts = stored_once(url, workout)
        check(counts == {"weigh-in": 1, "quick add": 1, "set": 1}, f"each entry is stored exactly once ({counts})")
        for page in ("/", "/food/search", log_page):
            driver.get(page if page.startswith("http") else url + page)
        time.sleep(1)
        counts = stored_once(url, workout)
        check(counts == {"weigh-in": 1, "quick add": 1, "set": 1}, f"loading pages again adds nothing ({counts})")

        print("\nHosted mode: logging out forgets the person's pages", flush=True)
        hosted_port = free_port()
        hosted_args = ["--accounts", "--signup", "open", "--port", str(hosted_port)]
        hosted = Server(cinn, tmp / "hosted.sqlite", env, hosted_args)
        servers.append(hosted)
        hosted_url = hosted.wait_for_url(LISTEN_TIMEOUT)
        driver.get(hosted_url + "/login")
        sign_up(driver, hosted_url, "anna", "anna-password-1")
        driver.get(hosted_url + "/welcome")
        submit(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/welcome/skip']"))
        controlled(driver, hosted_url)
        check(hosted.stop() == 0, "the hosted server stops")
        driver.get(hosted_url + "/")
        driver.find_element(By.ID, "weight").send_keys("70")
        driver.find_element(By.ID, "note").send_keys("anna offline")
        submit(driver, driver.find_element(By.ID, "add-weight"))
        wait_for("anna's weigh-in waits to send", lambda: "1 entry waiting to send" in queue_box(driver))
        driver.delete_cookie("cinn_session")
        hosted = Server(cinn, tmp / "hosted.sqlite", env, hosted_args)
        servers.append(hosted)
        hosted.wait_for_url(LISTEN_TIMEOUT)
        driver.get(hosted_url + "/")
        check("/login" in driver.current_url, f"with her session ended, anna is asked to log in ({driver.current_url})")
        wait_for("the entry waits for a log-in",
                 lambda: [entry.split(" · ")[0] for entry in queued(driver)] == ["login Weigh-in 70"])
        wait_for("the log-in page says an entry waits", lambda: "waits for the account that made it" in queue_box(driver))
        log_in = driver.find_element(By.CSS_SELECTOR, "form[action^='/login']")
        log_in.find_element(By.NAME, "name").send_keys("anna")
        log_in.find_element(By.NAME, "password").send_keys("anna-password-1")
        submit(driver, log_in)
        wait_for("after the log-in the entry is sent", lambda: queued(driver) == [])
        with sqlite3.connect(tmp / "hosted.sqlite") as database:
            stored = database.execute("SELECT count(*) FROM weigh_ins WHERE note = 'anna offline' AND deleted = 0").fetchone()[0]
        check(stored == 1, f"anna's weigh-in is stored once, under her new session ({stored})")
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
          "copy marked offline, a page never opened said so, a weigh-in, a quick add and a set waited on the device, "
          "the restarted server answered again and stored each of them once, and logging out left none of the "
          "person's pages", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
