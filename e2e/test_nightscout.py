#!/usr/bin/env python3
"""Cinn's Nightscout API against a real Nightscout client library and uploaders' own JSON.

Runs `cinn serve --host 0.0.0.0 --api-secret SECRET` over a fresh SQLite journal (beyond loopback, so the secret is
needed) and checks:
  1. uploads shaped exactly as xDrip+ and Loop send them (`POST /nightscout/api/v1/entries` with the `api-secret`
     header holding the secret's SHA-1 hex) are accepted; xDrip+'s status code (sgv under 39) is skipped; sending the
     backlog again adds nothing;
  2. Loop's treatments (a correction bolus, a carb correction) and device status are kept, once;
     py-nightscout, the library Home Assistant's Nightscout integration uses, reads the status (units), the current
     value (its newest SGV, as Home Assistant takes it), the readings with direction and delta, the treatments and
     the latest device status;
  3. a wrong secret and no secret are refused (401); `?token=SECRET` is let in;
  4. in headless Chromium, the Glucose page leads with the newest reading, and puts a newer one an uploader sends in
     place by itself (its script, woken as when the page is shown again); /glance shows it too.

    python3 e2e/test_nightscout.py --cinn .build/debug/cinn
"""
import argparse
import asyncio
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import aiohttp
import py_nightscout

from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from test_dashboard import LISTEN_TIMEOUT, CheckFailed, Server, check, new_driver

SECRET = "a Nightscout secret for the test"


def now_ms() -> int:
    return int(time.time() * 1000) // 300_000 * 300_000


def xdrip_entries(start: int) -> list[dict]:
    """xDrip+'s upload (its NightscoutUploader: device, date, dateString, sgv, delta, direction, type, filtered,
    unfiltered, rssi, noise, sysTime), newest first, every 5 minutes; the oldest is a status code (under 39; 39 itself
    is a sensor's LOW, a reading)."""
    values = [(0, 131, "FortyFiveUp", 6.0), (5, 125, "Flat", 1.0), (10, 124, "Flat", 0.0), (15, 5, "NOT COMPUTABLE", 0.0)]
    entries = []
    for minutes, sgv, direction, delta in values:
        date = start - minutes * 60_000
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000+0000", time.gmtime(date / 1000))
        entries.append({"device": "xDrip-DexcomG6", "date": date, "dateString": stamp, "sgv": sgv, "delta": delta,
                        "direction": direction, "type": "sgv", "filtered": sgv * 1000, "unfiltered": sgv * 1000,
                        "rssi": 100, "noise": 1, "sysTime": stamp})
    return entries


def loop_entry(date: int, sgv: int) -> dict:
    """Loop's glucose upload (NightscoutKit's GlucoseEntry: date, dateString, device, direction, sgv, type)."""
    return {"date": date, "dateString": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(date / 1000)),
            "device": "loop://iPhone", "direction": "Flat", "sgv": sgv, "type": "sgv"}


def post(url: str, body: object, secret: str | None) -> tuple[int, object]:
    headers = {"Content-Type": "application/json"}
    if secret is not None:
        headers["api-secret"] = hashlib.sha1(secret.encode()).hexdigest()
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def get_status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


async def read_with_py_nightscout(base: str, start: int) -> None:
    api = py_nightscout.Api(base, api_secret=SECRET)
    status = await api.get_server_status()
    check(status.status == "ok", f"py-nightscout reads the status as ok (got {status.status})")
    check(status.settings.get("units") == "mg/dl", f"the status gives the journal's unit (got {status.settings})")
    sgvs = await api.get_sgvs()
    check(len(sgvs) == 4, f"py-nightscout reads the four sensor readings (got {len(sgvs)})")
    current = sgvs[0]
    check(current.sgv == 131 and current.direction == "FortyFiveUp" and current.delta == 6.0,
          f"its current value is the newest with its direction and delta (got {current.sgv} {current.direction} {current.delta})")
    check(int(current.date.timestamp() * 1000) == start, f"the current value has its time ({current.date})")
    check([s.sgv for s in sgvs] == [131, 125, 124, 120], f"readings newest first (got {[s.sgv for s in sgvs]})")
    check(sgvs[3].device == "loop://iPhone", "Loop's reading keeps its device")
    treatments = await api.get_treatments()
    check([t.eventType for t in treatments] == ["Carb Correction", "Correction Bolus"],
          f"py-nightscout reads the treatments newest first (got {[t.eventType for t in treatments]})")
    check(treatments[1].insulin == 1.5 and treatments[0].carbs == 30, "with their insulin and carbs as sent")
    statuses = await api.get_latest_devices_status()
    check("loop://iPhone" in statuses, f"py-nightscout reads the latest device status by device (got {list(statuses)})")
    wrong = py_nightscout.Api(base, api_secret="not the secret at all")
    try:
        await wrong.get_sgvs()
        raise CheckFailed("a wrong secret was let in")
    except aiohttp.ClientResponseError as error:
        check(error.status == 401, f"a wrong secret is refused with 401 (got {error.status})")


def watch_the_glucose_page(url: str) -> None:
    driver = new_driver()
    try:
        driver.get(url + "/glucose")
        shown = driver.find_element(By.ID, "live-value").text
        newest = json.loads(urllib.request.urlopen(url + "/nightscout/api/v1/entries/current.json?token=" + urllib.parse.quote(SECRET)).read())[0]
        check(shown == str(newest["sgv"]), f"the Glucose page leads with the newest reading, {newest['sgv']} (shows {shown!r})")
        status, stored = post(url + "/nightscout/api/v1/entries",
                              [{"type": "sgv", "sgv": 222, "date": int(time.time() * 1000), "direction": "DoubleUp", "device": "xDrip-DexcomG6"}],
                              SECRET)
        check(status == 200 and len(stored) == 1, f"a newer reading is uploaded (got {status}, {stored})")
        driver.execute_script("document.dispatchEvent(new Event('visibilitychange'))")
        try:
            # Read in one script: the section may be replaced between finding an element and reading it.
            WebDriverWait(driver, 15).until(
                lambda d: d.execute_script("return document.getElementById('live-value')?.textContent") == "222")
        except TimeoutException:
            raise CheckFailed("the Glucose page did not put the newer reading in place by itself")
        arrow = driver.execute_script("return document.querySelector('#live .arrow')?.getAttribute('aria-label')")
        check(arrow == "rising fast", f"with its arrow, DoubleUp (says {arrow!r})")
        driver.get(url + "/glance")
        glucose = driver.find_element(By.ID, "glance-glucose").text
        check(glucose.startswith("222"), f"/glance shows it too (shows {glucose!r})")
    finally:
        driver.quit()


def run(url: str) -> None:
    base = url + "/nightscout"
    start = now_ms()
    status, stored = post(base + "/api/v1/entries", xdrip_entries(start), SECRET)
    check(status == 200 and isinstance(stored, list) and len(stored) == 3,
          f"xDrip+'s upload is accepted, its status code skipped (got {status}, {stored})")
    status, again = post(base + "/api/v1/entries", xdrip_entries(start), SECRET)
    check(status == 200 and again == [], f"the same backlog again adds nothing (got {status}, {again})")
    status, looped = post(base + "/api/v1/entries", [loop_entry(start - 20 * 60_000, 120), loop_entry(start - 5 * 60_000, 125)], SECRET)
    check(status == 200 and isinstance(looped, list) and len(looped) == 1,
          f"Loop's upload is accepted; its reading at a time xDrip+ sent already adds nothing (got {status}, {looped})")
    # Loop's treatments (NightscoutKit: a correction bolus and a carb correction) and its device status.
    bolus_at = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime((start - 10 * 60_000) / 1000))
    carbs_at = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime((start - 5 * 60_000) / 1000))
    loop_treatments = [
        {"eventType": "Correction Bolus", "created_at": bolus_at, "timestamp": bolus_at, "insulin": 1.5, "programmed": 1.5,
         "type": "normal", "unabsorbed": 0, "duration": 0.4, "enteredBy": "loop://iPhone", "utcOffset": 0},
        {"eventType": "Carb Correction", "created_at": carbs_at, "timestamp": carbs_at, "carbs": 30, "absorptionTime": 180,
         "foodType": "Toast", "enteredBy": "loop://iPhone", "syncIdentifier": "c0ffee", "utcOffset": 0},
    ]
    status, kept = post(base + "/api/v1/treatments", loop_treatments, SECRET)
    check(status == 200 and isinstance(kept, list) and len(kept) == 2, f"Loop's treatments are kept (got {status}, {kept})")
    status, kept = post(base + "/api/v1/treatments", loop_treatments, SECRET)
    check(status == 200 and kept == [], f"Loop's treatments sent again add nothing (got {status}, {kept})")
    device = {"device": "loop://iPhone", "created_at": carbs_at, "loop": {"iob": {"iob": 1.2}}, "pump": {"reservoir": 120}}
    status, kept = post(base + "/api/v1/devicestatus", device, SECRET)
    check(status == 200 and isinstance(kept, list) and len(kept) == 1, f"Loop's device status is kept (got {status}, {kept})")
    status, _ = post(base + "/api/v1/entries", xdrip_entries(start), None)
    check(status == 401, f"an upload without the secret is refused (got {status})")
    check(get_status(base + "/api/v1/status.json") == 401, "reading without the secret is refused")
    check(get_status(base + "/api/v1/status.json?token=" + urllib.parse.quote(SECRET)) == 200, "?token= with the secret is let in")
    asyncio.run(read_with_py_nightscout(base, start))
    watch_the_glucose_page(url)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cinn", required=True, help="the built cinn binary")
    args = parser.parse_args()
    env = dict(os.environ, TZ="UTC")
    env.pop("CINN_DATABASE", None)
    tmp = Path(tempfile.mkdtemp(prefix="cinn-nightscout-"))
    server = None
    failure = None
    try:
        server = Server(os.path.abspath(args.cinn), tmp / "journal.sqlite", env, ["--host", "0.0.0.0", "--api-secret", SECRET])
        run(server.wait_for_url(LISTEN_TIMEOUT))
    except (CheckFailed, OSError, aiohttp.ClientError, WebDriverException) as error:
        failure = str(error) if isinstance(error, CheckFailed) else f"{type(error).__name__}: {error}"
    finally:
        if server is not None:
            code = server.stop()
            if failure is None and code != 0:
                failure = f"cinn serve exited {code} on SIGTERM"
            if failure is not None and server.lines:
                print("\n--- cinn serve output (last 40 lines) ---\n" + "\n".join(server.lines[-40:]) + "\n---")
        shutil.rmtree(tmp, ignore_errors=True)
    if failure is not None:
        print(f"\nFAIL: {failure}", flush=True)
        return 1
    print("\nPASS: xDrip+ and Loop uploads were stored once each, py-nightscout read the status, the current value "
          "and the readings with the secret (and was refused without it), and the Glucose page kept itself current", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
