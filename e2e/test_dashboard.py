#!/usr/bin/env python3
"""End-to-end browser test of the onboarding, the dashboard, the food log and a workout import with progress.

Runs a real `cinn serve` over a fresh SQLite journal, drives Debian's headless
Chromium through chromedriver (Python selenium). The first visit to / lands on
the onboarding: the test fills it in (a man born 1990-05-17, 5 ft 11 in,
moderately active) and saves; the dashboard then answers "Can I nom nom today?"
with a calorie budget. It adds a weight through the dashboard form and checks
that the new point appears, the trend verdict flips from "no" to "yes" and the
day's answer from "careful" to "yes". It checks the energy page shows the
formula's expenditure for that profile. Saves welcome.png, dashboard-before.png,
dashboard-after.png and energy.png.

Then the food log: makes a food through the JSON API, types part of its name
into the food search, waits for the result that appears as you type (no page
load), opens it, logs two servings through the log dialog and checks that the
day's energy total grew by exactly that. Saves food-search.png, food-log.png
and food-day.png.

Last the workouts: writes a Fitbod export of 150,000 sets, uploads it
on /import, watches the progress (upload, then rows read while the server checks
and imports), imports it, opens /lifts and Deadlift's page. Saves
import-checking.png, import-check.png, import-importing.png, import-done.png,
lifts.png and exercise.png.

    python e2e/test_dashboard.py --cinn .build/debug/cinn [--out artifacts]

Exit code 0 when every check passes, 1 otherwise. No pytest needed.

The data: 13 weigh-ins of 80.0 kg on the 13 days before today (UTC) and a goal
of 70 kg without a planned rate. The trend is flat, the rate 0, so the verdict
is "no". Adding 79 kg today lowers the last trend value, the rate turns
negative (towards the goal) and the verdict becomes "yes".

The HTML contract this test relies on:
  GET / before onboarding                    redirects to /welcome
  form#profile-form                          radios name="sex" and name="activity", inputs name="birth_date",
                                             "height_ft", "height_in", select name="length_unit"; #save-profile
                                             saves and goes to /
  #today                                     with data-answer="yes"|"careful"|"no"|"unknown": the day's answer
  #verdict                                   with data-answer="yes"|"no"|"unknown": the trend's
  #figure-formula b                          on /energy: the formula's expenditure, "N kcal"
  svg#trend-chart circle.weigh-in            one per day shown; .interpolated on filled days;
                                             data-date="YYYY-MM-DD" on each
  form#add-weight                            an input name="weight" and a submit button;
                                             posting it adds today's weight and comes back
                                             to the dashboard
The dashboard at / must show at least the last 14 days by default.

The food pages' contract:
  #day-energy                                on /food, with data-kcal="N": the day's energy in whole kcal
  form#food-search input[name="q"]           on /food/search; typing shows results in #results without
                                             a page load
  #results li.result[data-food-id="ID"] a    a result; following it opens the log dialog
  form#log-form input[name="servings"]       the log dialog; #log-submit logs and goes to the day view

The import's contract:
  form[data-progress-form]                   on /import: input[type=file][name=file] and a submit button; the
                                             answer (#import-report) holds form[data-progress] whose button
                                             imports; .import-progress shows progress while either works
  main a[href^="/lifts/"]                    on /lifts: an exercise; its page has an svg chart and the name in h1
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from checks import CheckFailed, check

FOOD = {
    "name": "Cinn test granola",
    "brand": "Browser",
    "serving": {"label": "1 bar", "grams": 40},
    "nutrients": {"energy": 180, "protein": 4, "carbohydrate": 24, "fat": 7},
}
FOOD_KCAL_PER_SERVING = 180

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WINDOW = (390, 844)  # phone width

LISTEN_TIMEOUT = 60  # seconds to wait for "Listening on http://HOST:PORT"
CLI_TIMEOUT = 120  # seconds per CLI call (the first one creates the journal)
PAGE_TIMEOUT = 20  # seconds to wait for the page after submitting the form
STOP_TIMEOUT = 30  # seconds for the server to exit after SIGTERM

LISTENING = re.compile(r"Listening on (http://\S+?)/?\s*$")
DOTS = "svg#trend-chart circle.weigh-in:not(.interpolated)"




class Server:
    """`cinn serve --port 0` as a subprocess; its output is collected by a thread."""

    def __init__(self, cinn: str, database: Path, env: dict[str, str], extra: list[str] | None = None):
        cmd = [cinn, "serve", "--port", "0", "--database", str(database)] + (extra or [])
        print("$ " + " ".join(cmd), flush=True)
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            text=True,
            bufsize=1,
        )
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            self._queue.put(line)
        self._queue.put(None)

    def wait_for_url(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise CheckFailed(f"no 'Listening on http://HOST:PORT' within {timeout:.0f} s")
            try:
                line = self._queue.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                code = self.proc.wait()
                raise CheckFailed(f"cinn serve exited with {code} before listening")
            match = LISTENING.search(line)
            if match:
                url = match.group(1)
                # A wildcard bind address is not a place to connect to.
                return url.replace("//0.0.0.0:", "//127.0.0.1:").replace("//[::]:", "//127.0.0.1:")

    def stop(self) -> int | None:
        """SIGTERM, then wait. Returns the exit code (None if it had to be killed)."""
        if self.proc.poll() is not None:
            return self.proc.returncode
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            print(f"  cinn serve did not exit {STOP_TIMEOUT} s after SIGTERM; killing it", flush=True)
            self.proc.kill()
            self.proc.wait()
            return None


def run_cli(cinn: str, args: list[str], database: Path, env: dict[str, str]) -> str:
    cmd = [cinn, *args, "--database", str(database)]
    print("$ " + " ".join(cmd), flush=True)
    try:
        result = subprocess.run(
            cmd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=CLI_TIMEOUT
        )
    except subprocess.TimeoutExpired:
        raise CheckFailed(f"`{' '.join(cmd)}` took longer than {CLI_TIMEOUT} s")
    if result.returncode != 0:
        sys.stdout.write(result.stdout)
        sys.stdout.write(result.stderr)
        raise CheckFailed(f"`{' '.join(cmd)}` exited with {result.returncode}")
    return result.stdout


def set_up_journal(cinn: str, database: Path, env: dict[str, str], today: dt.date) -> list[str]:
    """13 weigh-ins of 80 kg on the 13 days before today, a 70 kg goal, no planned rate."""
    run_cli(cinn, ["settings", "set", "time-zone", "UTC"], database, env)
    run_cli(cinn, ["settings", "set", "unit", "kg"], database, env)
    dates = [(today - dt.timedelta(days=n)).isoformat() for n in range(13, 0, -1)]
    for day in dates:
        run_cli(cinn, ["weight", "add", "80", "--unit", "kg", "--date", day], database, env)
    run_cli(cinn, ["goal", "set", "70", "--unit", "kg"], database, env)
    return dates


def new_driver() -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                f"--window-size={WINDOW[0]},{WINDOW[1]}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    # The window size includes the (invisible) browser UI: grow the window so the
    # page's viewport, and so the screenshots, are exactly 390×844.
    driver.set_window_size(*WINDOW)
    inner_w, inner_h = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(2 * WINDOW[0] - inner_w, 2 * WINDOW[1] - inner_h)
    driver.set_page_load_timeout(PAGE_TIMEOUT)
    return driver


def page_state(driver: webdriver.Chrome) -> tuple[str | None, list[str]]:
    """(the verdict's data-answer, the data-date of every filled weigh-in dot)."""
    verdicts = driver.find_elements(By.CSS_SELECTOR, "#verdict")
    answer = verdicts[0].get_attribute("data-answer") if verdicts else None
    dates = [dot.get_attribute("data-date") or "" for dot in driver.find_elements(By.CSS_SELECTOR, DOTS)]
    return answer, dates


def screenshot(driver: webdriver.Chrome, out: Path, name: str) -> None:
    path = out / name
    if not driver.save_screenshot(str(path)):
        raise CheckFailed(f"could not save {path}")
    print(f"  saved {path}", flush=True)


def wait_for_new_page(driver: webdriver.Chrome, old_html, what: str) -> None:
    """Waits until `old_html` is gone (a new document replaced it) and the new one has loaded."""

    def reloaded(d: webdriver.Chrome) -> bool:
        try:
            old_html.tag_name
            return False
        except WebDriverException:
            return d.execute_script("return document.readyState") == "complete"

    try:
        WebDriverWait(driver, PAGE_TIMEOUT, poll_frequency=0.2).until(reloaded)
    except TimeoutException:
        raise CheckFailed(f"{what} did not load within {PAGE_TIMEOUT} s")
    print(f"  loaded: {driver.current_url}", flush=True)


def today_answer(driver: webdriver.Chrome) -> str | None:
    found = driver.find_elements(By.CSS_SELECTOR, "#today[data-answer]")
    return found[0].get_attribute("data-answer") if found else None


def onboard(driver: webdriver.Chrome, url: str, out: Path) -> None:
    """The first visit lands on the onboarding; fills it in and saves."""
    print(f"\nGET {url}/ (first visit)", flush=True)
    driver.get(url + "/")
    check(driver.current_url.endswith("/welcome"), f"the first visit goes to /welcome (got {driver.current_url})")
    form = driver.find_element(By.CSS_SELECTOR, "form#profile-form")
    for selector in ('input[name="sex"][value="male"]', 'input[name="activity"][value="moderate"]'):
        radio = form.find_element(By.CSS_SELECTOR, selector)
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", radio)
        radio.click()
    birth = form.find_element(By.CSS_SELECTOR, 'input[name="birth_date"]')
    driver.execute_script("arguments[0].value = '1990-05-17';", birth)
    Select(form.find_element(By.CSS_SELECTOR, 'select[name="length_unit"]')).select_by_value("ft_in")
    form.find_element(By.CSS_SELECTOR, 'input[name="height_ft"]').send_keys("5")
    form.find_element(By.CSS_SELECTOR, 'input[name="height_in"]').send_keys("11")
    screenshot(driver, out, "welcome.png")
    page = driver.find_element(By.TAG_NAME, "html")
    save = driver.find_element(By.CSS_SELECTOR, "#save-profile")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", save)
    save.click()
    wait_for_new_page(driver, page, "the dashboard after the onboarding")
    check(driver.current_url.rstrip("/") == url, f"saving the onboarding lands on the dashboard (got {driver.current_url})")


def check_energy(driver: webdriver.Chrome, url: str, out: Path, today: dt.date) -> None:
    """The energy page shows Mifflin–St Jeor × 1.55 for the onboarded man at the trend weight."""
    print(f"\nGET {url}/energy", flush=True)
    driver.get(url + "/energy")
    shown = driver.find_element(By.CSS_SELECTOR, "#figure-formula b").text
    trend = 80 + (79 - 80) / 10
    age = today.year - 1990 - (1 if (today.month, today.day) < (5, 17) else 0)
    expected = round((10 * trend + 6.25 * 180.34 - 5 * age + 5) * 1.55)
    check(shown == f"{expected} kcal", f"#figure-formula shows {expected} kcal (got {shown!r})")
    screenshot(driver, out, "energy.png")


def browse(driver: webdriver.Chrome, url: str, out: Path, today: dt.date, dates: list[str]) -> None:
    answer, shown = page_state(driver)
    check(answer == "no", f'#verdict data-answer is "no" before (got {answer!r})')
    day = today_answer(driver)
    check(day == "careful", f'#today data-answer is "careful" before: a budget left, a flat trend (got {day!r})')
    check(len(shown) == 13, f"13 filled weigh-in dots before (got {len(shown)})")
    check(sorted(shown) == dates, f"the dots' data-date are the 13 days before today (got {sorted(shown)})")
    screenshot(driver, out, "dashboard-before.png")

    print("\nadd 79 through form#add-weight", flush=True)
    form = driver.find_element(By.CSS_SELECTOR, "form#add-weight")
    field = form.find_element(By.CSS_SELECTOR, 'input[name="weight"]')
    field.clear()
    field.send_keys("79")
    buttons = form.find_elements(
        By.CSS_SELECTOR, 'button[type="submit"], input[type="submit"], button:not([type])'
    )
    check(len(buttons) > 0, "form#add-weight has a submit button")
    old_html = driver.find_element(By.TAG_NAME, "html")
    # Bring the button to the middle of the screen: the phone layout's tab bar is fixed at the bottom.
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", buttons[0])
    buttons[0].click()

    # The form posts and the server redirects back to the dashboard.
    wait_for_new_page(driver, old_html, "the dashboard after submitting the form")

    answer, shown = page_state(driver)
    check(answer == "yes", f'#verdict data-answer is "yes" after (got {answer!r})')
    day = today_answer(driver)
    check(day == "yes", f'#today data-answer is "yes" after (got {day!r})')
    check(len(shown) == 14, f"14 filled weigh-in dots after (got {len(shown)})")
    newest = max(shown) if shown else None
    check(newest == today.isoformat(), f"the newest dot's data-date is today, {today} (got {newest!r})")
    check(sorted(shown) == dates + [today.isoformat()], "the other 13 dots are unchanged")
    screenshot(driver, out, "dashboard-after.png")


def day_energy(driver: webdriver.Chrome) -> int | None:
    """The day view's energy total in kcal, from #day-energy[data-kcal]."""
    found = driver.find_elements(By.CSS_SELECTOR, "#day-energy[data-kcal]")
    return int(found[0].get_attribute("data-kcal")) if found else None


def make_food(url: str) -> str:
    """Makes FOOD through the JSON API and returns its id."""
    request = urllib.request.Request(url + "/api/v1/foods", data=json.dumps(FOOD).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=PAGE_TIMEOUT) as response:
        check(response.status == 201, f"POST /api/v1/foods answers 201 (got {response.status})")
        return json.load(response)["id"]


def log_food(driver: webdriver.Chrome, url: str, out: Path) -> None:
    """Searches the food as you type, logs two servings and checks the day's total."""
    print("\nmake a food through POST /api/v1/foods", flush=True)
    food_id = make_food(url)

    print(f"\nGET {url}/food", flush=True)
    driver.get(url + "/food")
    before = day_energy(driver)
    check(before == 0, f"#day-energy data-kcal is 0 before (got {before!r})")

    print(f"\nGET {url}/food/search and type \"test gran\"", flush=True)
    driver.get(url + "/food/search")
    page = driver.find_element(By.TAG_NAME, "html")
    field = driver.find_element(By.CSS_SELECTOR, 'form#food-search input[name="q"]')
    field.send_keys("test gran")
    result = f'#results li.result[data-food-id="{food_id}"] a'
    try:
        WebDriverWait(driver, PAGE_TIMEOUT, poll_frequency=0.2).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, result))
    except TimeoutException:
        raise CheckFailed(f"no result for the food within {PAGE_TIMEOUT} s of typing")
    try:
        page.tag_name
    except WebDriverException:
        raise CheckFailed("the results came with a page load, not as you type")
    check(True, "the food appears in #results as you type, without a page load")
    screenshot(driver, out, "food-search.png")

    link = driver.find_element(By.CSS_SELECTOR, result)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", link)
    link.click()
    wait_for_new_page(driver, page, "the log dialog")
    form = driver.find_element(By.CSS_SELECTOR, "form#log-form")
    servings = form.find_element(By.CSS_SELECTOR, 'input[name="servings"]')
    servings.clear()
    servings.send_keys("2")
    screenshot(driver, out, "food-log.png")

    page = driver.find_element(By.TAG_NAME, "html")
    submit = driver.find_element(By.CSS_SELECTOR, "#log-submit")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", submit)
    submit.click()
    wait_for_new_page(driver, page, "the day view after logging")
    after = day_energy(driver)
    expected = 2 * FOOD_KCAL_PER_SERVING
    check(after == expected, f"#day-energy data-kcal is {expected} after logging 2 servings (got {after!r})")
    screenshot(driver, out, "food-day.png")


WORKOUT_ROWS = 150_000
WORKOUT_LIFTS = [("Back Squat", 100.0), ("Bench Press", 70.0), ("Deadlift", 130.0), ("Overhead Press", 45.0)]


def write_fitbod(path: Path, today: dt.date) -> None:
    """A Fitbod export of WORKOUT_ROWS sets: a workout every other day up to yesterday, 30 sets each."""
    workouts = WORKOUT_ROWS // 30
    with path.open("w") as f:
        f.write("Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),Incline,Resistance,isWarmup,Note,multiplier\n")
        for n in range(workouts):
            day = today - dt.timedelta(days=1 + 2 * (workouts - 1 - n))
            stamp = f"{day.isoformat()} 18:{n % 60:02d}:00 +0000"
            for i in range(30):
                name, base = WORKOUT_LIFTS[i // 8 % len(WORKOUT_LIFTS)]
                weight = base * (0.8 + 0.2 * n / workouts) + 2.5 * (i % 3)
                f.write(f"{stamp},{name},{5 + i % 4},{weight:.2f},0,0,0,0,{'true' if i % 8 == 0 else 'false'},,1\n")


def watch_progress(driver: webdriver.Chrome, out: Path, shot: str, what: str, heading: str) -> list[str]:
    """Samples .import-progress until an #import-report headed `heading` appears; returns the texts it showed."""
    texts: list[str] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if driver.find_elements(By.CSS_SELECTOR, "#import-report") and driver.find_element(By.TAG_NAME, "h1").text == heading:
                return texts
            boxes = [b for b in driver.find_elements(By.CSS_SELECTOR, ".import-progress") if b.is_displayed()]
            if boxes:
                text = boxes[0].text.strip()
                if text and (not texts or texts[-1] != text):
                    texts.append(text)
                    if len(texts) == 2:
                        screenshot(driver, out, shot)
        except WebDriverException:
            pass
        time.sleep(0.1)
    raise CheckFailed(f"no #import-report within 120 s of {what}")


def import_workouts(driver: webdriver.Chrome, url: str, out: Path, tmp: Path, today: dt.date) -> None:
    """Uploads a Fitbod export through the import page, watching the progress, then opens the lifts."""
    path = tmp / "WorkoutExport.csv"
    write_fitbod(path, today)
    print(f"\nGET {url}/import and upload {path.name} ({path.stat().st_size / 1e6:.1f} MB, {WORKOUT_ROWS:,} sets)", flush=True)
    driver.get(url + "/import")
    driver.find_element(By.CSS_SELECTOR, 'input[type="file"][name="file"]').send_keys(str(path))
    driver.find_element(By.CSS_SELECTOR, "form[data-progress-form] button[type=submit]").click()
    checking = watch_progress(driver, out, "import-checking.png", "uploading", "Ready to import")
    print(f"  progress shown while checking: {checking}", flush=True)
    check(bool(checking), "the import page shows progress while the file uploads and is checked")
    button = driver.find_element(By.CSS_SELECTOR, "form[data-progress] button[type=submit]")
    check(f"Import {WORKOUT_ROWS:,}".replace(",", "") in button.text.replace(",", ""),
          f"the check offers to import {WORKOUT_ROWS:,} sets (button: {button.text!r})")
    screenshot(driver, out, "import-check.png")

    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
    button.click()
    importing = watch_progress(driver, out, "import-importing.png", "importing", "Imported")
    print(f"  progress shown while importing: {importing}", flush=True)
    check(any("Checking:" in text and "rows read" in text for text in checking)
          and any("Importing:" in text and "rows read" in text for text in importing),
          "the rows read so far show while the server checks and imports (polled from /import/progress/…)")
    report = driver.find_element(By.CSS_SELECTOR, "#import-report").text
    check(f"Added {WORKOUT_ROWS}" in report,
          f"the import reports {WORKOUT_ROWS} sets added")
    screenshot(driver, out, "import-done.png")

    print(f"\nGET {url}/lifts", flush=True)
    driver.get(url + "/lifts")
    names = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "main a[href^='/lifts/']")]
    check(all(any(name in text for text in names) for name, _ in WORKOUT_LIFTS), f"the lifts list names every exercise ({names})")
    screenshot(driver, out, "lifts.png")
    link = next(a for a in driver.find_elements(By.CSS_SELECTOR, "main a[href^='/lifts/']") if "Deadlift" in a.text)
    page = driver.find_element(By.TAG_NAME, "html")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", link)
    link.click()
    wait_for_new_page(driver, page, "the exercise page")
    check(bool(driver.find_elements(By.CSS_SELECTOR, "svg circle, svg path")), "the exercise page draws its history chart")
    check("Deadlift" in driver.find_element(By.TAG_NAME, "h1").text, "the exercise page is Deadlift's")
    screenshot(driver, out, "exercise.png")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cinn", required=True, help="the built cinn binary")
    parser.add_argument("--out", default="artifacts", help="directory for screenshots (default: artifacts/)")
    args = parser.parse_args()

    cinn = os.path.abspath(args.cinn)
    if not os.access(cinn, os.X_OK):
        print(f"FAIL: {cinn} is not an executable", file=sys.stderr)
        return 1
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)

    env = dict(os.environ, TZ="UTC")
    env.pop("CINN_DATABASE", None)
    today = dt.datetime.now(dt.timezone.utc).date()

    tmp = Path(tempfile.mkdtemp(prefix="cinn-browser-"))
    database = tmp / "journal.sqlite"
    server: Server | None = None
    driver: webdriver.Chrome | None = None
    failure: str | None = None
    try:
        print(f"journal: {database}   today (UTC): {today}", flush=True)
        dates = set_up_journal(cinn, database, env, today)
        server = Server(cinn, database, env)
        url = server.wait_for_url(LISTEN_TIMEOUT)
        print(f"  server at {url}", flush=True)
        driver = new_driver()
        onboard(driver, url, out)
        browse(driver, url, out, today, dates)
        check_energy(driver, url, out, today)
        log_food(driver, url, out)
        import_workouts(driver, url, out, tmp, today)
    except (CheckFailed, WebDriverException, OSError) as error:
        failure = f"{type(error).__name__}: {error}" if not isinstance(error, CheckFailed) else str(error)
        if driver is not None:
            try:
                driver.save_screenshot(str(out / "dashboard-failure.png"))
                (out / "dashboard-failure.html").write_text(driver.page_source)
                print(f"  saved {out / 'dashboard-failure.png'} and dashboard-failure.html", flush=True)
            except Exception:
                pass
    finally:
        if driver is not None:
            driver.quit()
        if server is not None:
            code = server.stop()
            if failure is None:
                try:
                    check(code == 0, f"cinn serve exited 0 on SIGTERM (got {code})")
                except CheckFailed as error:
                    failure = str(error)
            if failure is not None and server.lines:
                print("\n--- cinn serve output (last 40 lines) ---")
                print("\n".join(server.lines[-40:]))
                print("---")
        shutil.rmtree(tmp, ignore_errors=True)

    if failure is not None:
        print(f"\nFAIL: {failure}", flush=True)
        return 1
    print("\nPASS: the onboarding saved the profile; the dashboard showed the new weigh-in, the verdict changed from no to yes "
          "and the day's answer from careful to yes; the energy page showed the formula; "
          "a food found as you type was logged and the day's total changed; a workout file imported through the web "
          "page with progress, and its lifts and exercise page showed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
