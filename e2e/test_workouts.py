#!/usr/bin/env python3
"""Logging a workout in the browser, at 390 px: start from a routine, see last time's numbers, log three exercises
with the rest timer running, reload in the middle and find the workout where it was, finish, see the records.

Runs a real `cinn serve` over a fresh SQLite journal and drives Debian's headless Chromium (selenium). Before the
server starts, the CLI logs last week's workout (`cinn workout log`) and makes the routine "Push day"
(`cinn routine add`). In the browser:

  1. /lifts: starts "Push day"; the logging page shows each exercise with last week's sets beside the new rows,
     which are prefilled with the routine's targets (3 × 5 @ 60 kg);
  2. marks the first bench press set done with one tap: the page comes back with the set saved and the rest timer
     counting down (checked twice a second apart);
  3. types 62.5 kg into the next row and marks it done: a record (last week's best was 60 kg);
  4. reloads /lifts as if the phone had been closed: "Continue workout" leads back to the two sets;
  5. logs a set of the row and of the squat, finishes: the summary shows the duration, the sets and the records,
     the record set highlighted; the bench press's page marks its records new.

Saves workout-start.png, workout-log.png, workout-rest.png, workout-summary.png and workout-exercise.png (and
workout-log-dark.png for review).

    python e2e/test_workouts.py --cinn .build/debug/cinn [--out artifacts]

The HTML contract:
  /lifts ul.routines form button           starts the routine named by the button's text
  section.exercise h2                      an exercise of the workout being logged; p.last its last sets
  li.todo form.set-form                    a row to do: input[name=weight], input[name=reps], button.tick marks it done
  li.done                                  a set done; li.done.record one that set a record (b.pr names it)
  .rest-timer b                            the rest left, "Rest M:SS", counting down with the script
  form.finish button                       finishes; the summary has .verdict and .numbers, li.record for records
  table.records tr.record                  on an exercise's page, a record set on its last day
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By

from test_dashboard import LISTEN_TIMEOUT, CheckFailed, Server, check, new_driver, screenshot, wait_for_new_page


def cli(cinn: str, database: Path, env: dict[str, str], *args: str) -> str:
    result = subprocess.run([cinn, *args, "--database", str(database)], env=env, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise CheckFailed(f"cinn {' '.join(args)} failed: {result.stderr.strip()}")
    return result.stdout


def blocks(driver) -> dict[str, object]:
    return {block.find_element(By.CSS_SELECTOR, "h2").text: block for block in driver.find_elements(By.CSS_SELECTOR, "section.exercise")}


def mark_done(driver, exercise: str, weight: str | None = None) -> None:
    """Marks the first row to do of `exercise` done (typing `weight` first) and waits for the page to come back."""
    block = blocks(driver)[exercise]
    row = block.find_element(By.CSS_SELECTOR, "li.todo form.set-form")
    if weight is not None:
        field = row.find_element(By.CSS_SELECTOR, 'input[name="weight"]')
        field.clear()
        field.send_keys(weight)
    button = row.find_element(By.CSS_SELECTOR, "button.tick")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
    old = driver.find_element(By.TAG_NAME, "html")
    button.click()
    wait_for_new_page(driver, old, f"marking a set of {exercise} done")


def run(driver, url: str, out: Path) -> None:
    print(f"\nGET {url}/lifts", flush=True)
    driver.get(url + "/lifts")
    screenshot(driver, out, "workout-start.png")
    routine = [button for button in driver.find_elements(By.CSS_SELECTOR, "ul.routines form button") if button.text == "Push day"]
    check(len(routine) == 1, 'the Lifts page offers the routine "Push day"')
    old = driver.find_element(By.TAG_NAME, "html")
    routine[0].click()
    wait_for_new_page(driver, old, "starting the routine")
    check(driver.current_url.endswith("/log"), f"starting it opens the logging page (got {driver.current_url})")
    log_url = driver.current_url
    found = blocks(driver)
    check(list(found) == ["Barbell Bench Press", "Barbell Row", "Barbell Squat"], f"the routine's three exercises in order (got {list(found)})")
    last = found["Barbell Bench Press"].find_element(By.CSS_SELECTOR, "p.last").text
    check("60 kg × 5, 60 kg × 5, 57.5 kg × 6" in last, f"last week's bench press sets beside the new rows (got {last!r})")
    first = found["Barbell Bench Press"].find_element(By.CSS_SELECTOR, 'li.todo input[name="weight"]')
    check(first.get_attribute("value") == "60", f"the first row prefilled with the routine's 60 kg (got {first.get_attribute('value')!r})")
    screenshot(driver, out, "workout-log.png")

    mark_done(driver, "Barbell Bench Press")
    done = blocks(driver)["Barbell Bench Press"].find_elements(By.CSS_SELECTOR, "li.done")
    check(len(done) == 1 and "60 kg × 5" in done[0].text, "the set is saved and shown done")
    timer = driver.find_element(By.CSS_SELECTOR, ".rest-timer b")
    first_reading = timer.text
    time.sleep(1.6)
    second_reading = driver.find_element(By.CSS_SELECTOR, ".rest-timer b").text
    check(first_reading.startswith("Rest ") and first_reading != second_reading,
          f"the rest timer counts down ({first_reading!r}, then {second_reading!r})")
    screenshot(driver, out, "workout-rest.png")

    mark_done(driver, "Barbell Bench Press", weight="62.5")
    record = blocks(driver)["Barbell Bench Press"].find_elements(By.CSS_SELECTOR, "li.done.record b.pr")
    check(len(record) == 1 and "heaviest set" in record[0].text, "62.5 kg × 5 is marked as a new record as it happens")

    print("\nreloading as if the phone had been closed", flush=True)
    driver.get(url + "/lifts")
    resume = driver.find_elements(By.LINK_TEXT, "Continue workout")
    check(len(resume) == 1, "the Lifts page offers to continue the workout in progress")
    old = driver.find_element(By.TAG_NAME, "html")
    resume[0].click()
    wait_for_new_page(driver, old, "continuing the workout")
    check(driver.current_url == log_url, "it is the same workout")
    check(len(blocks(driver)["Barbell Bench Press"].find_elements(By.CSS_SELECTOR, "li.done")) == 2, "both sets are still there")

    mark_done(driver, "Barbell Row")
    mark_done(driver, "Barbell Squat")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    driver.refresh()
    screenshot(driver, out, "workout-log-dark.png")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": [{"name": "prefers-color-scheme", "value": "light"}]})
    driver.refresh()

    finish = driver.find_element(By.CSS_SELECTOR, "form.finish button")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", finish)
    old = driver.find_element(By.TAG_NAME, "html")
    finish.click()
    wait_for_new_page(driver, old, "finishing the workout")
    check("finished=1" in driver.current_url, f"finishing shows the summary (got {driver.current_url})")
    check("workout done" in driver.find_element(By.CSS_SELECTOR, ".verdict").text.lower(), "the summary says the workout is done")
    figures = driver.find_element(By.CSS_SELECTOR, ".numbers").text
    check("Sets\n4" in figures and "Duration" in figures, f"the summary gives the duration and the 4 sets (got {figures!r})")
    records = driver.find_elements(By.CSS_SELECTOR, "li.record")
    check(len(records) >= 1 and "62.5 kg × 5" in records[0].text, "the record set is highlighted in the workout")
    screenshot(driver, out, "workout-summary.png")

    driver.find_element(By.LINK_TEXT, "← Workouts").click()
    driver.get(url + "/lifts")
    bench = [link for link in driver.find_elements(By.CSS_SELECTOR, 'main a[href^="/lifts/"]') if "Barbell Bench Press" in link.text]
    check(len(bench) == 1, "the bench press is on the Lifts page")
    old = driver.find_element(By.TAG_NAME, "html")
    bench[0].click()
    wait_for_new_page(driver, old, "the bench press's page")
    check(len(driver.find_elements(By.CSS_SELECTOR, "table.records tr.record")) >= 1, "the exercise's page marks the new records")
    screenshot(driver, out, "workout-exercise.png")


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
    tmp = Path(tempfile.mkdtemp(prefix="cinn-workouts-"))
    database = tmp / "journal.sqlite"
    server = None
    driver = None
    failure = None
    try:
        week_ago = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=7)).strftime("%Y-%m-%dT18:00:00+00:00")
        cli(cinn, database, env, "workout", "log", "Bench Press", "60x5", "60x5", "57.5x6", "Barbell Row", "50x8", "50x8",
            "Squat", "80x5", "80x5", "80x5", "--date", week_ago, "--name", "Push day")
        cli(cinn, database, env, "routine", "add", "Push day", "Bench Press:3x5@60", "Barbell Row:3x8@50", "Squat:3x5@80")
        server = Server(cinn, database, env)
        url = server.wait_for_url(LISTEN_TIMEOUT)
        driver = new_driver()
        run(driver, url, out)
    except (CheckFailed, WebDriverException, OSError) as error:
        failure = str(error) if isinstance(error, CheckFailed) else f"{type(error).__name__}: {error}"
        if driver is not None:
            try:
                driver.save_screenshot(str(out / "workout-failure.png"))
                (out / "workout-failure.html").write_text(driver.page_source)
            except Exception:
                pass
    finally:
        if driver is not None:
            driver.quit()
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
    print("\nPASS: a workout started from a routine showed last week's sets, saved each set as it was marked done, kept "
          "them through a reload, ran the rest timer, and finished with its records highlighted", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
