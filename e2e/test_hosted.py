#!/usr/bin/env python3
"""Browser test of hosted mode and the glucose pages, in real headless Chromium at 390x844.

Runs `cinn serve --accounts --signup open` over a fresh SQLite journal and checks, through the pages only:
  1. a visitor is sent to log in; signing up (the first account) logs in, and the account bar names the user;
  2. on Glucose: a meal is defined on the Meals page, readings every 15 minutes around a breakfast, a bolus and
     the meal eaten are added with the page's forms; "Which meals spike me" ranks the meal with its rise, and
     the day's page draws the chart (glucose line, the meal, the bolus); a breakfast quick-added in the food log
     is a meal the Glucose page lists with the same response (one meal log for food and glucose);
  3. log-out ends the session (the glucose page sends the browser to log in again);
  4. a second person signs up in the same browser and sees none of the first person's meals or readings.
Screenshots go to --out (hosted-*.png). Exit status 0 when every check passes.

    python3 e2e/test_hosted.py --cinn .build/debug/cinn [--out artifacts]
"""
import argparse
import datetime as dt
import os
import shutil
import sys
import tempfile
from pathlib import Path

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By

from test_dashboard import LISTEN_TIMEOUT, CheckFailed, Server, check, new_driver, screenshot, wait_for_new_page


def submit(driver, form_selector: str, fields: dict[str, str], what: str) -> None:
    """Fills a form's fields (by name, through the DOM so date-time inputs take any value) and submits it."""
    form = driver.find_element(By.CSS_SELECTOR, form_selector)
    for name, value in fields.items():
        field = form.find_element(By.NAME, name)
        driver.execute_script("arguments[0].value = arguments[1]", field, value)
    html = driver.find_element(By.TAG_NAME, "html")
    driver.execute_script("arguments[0].requestSubmit()", form)
    wait_for_new_page(driver, html, what)


def sign_up(driver, url: str, name: str, password: str) -> None:
    driver.get(url + "/signup")
    submit(driver, "form[action='/signup']", {"name": name, "password": password}, f"signing up {name}")
    driver.get(url + "/more")
    who = driver.find_elements(By.CSS_SELECTOR, "main .card b")
    check(bool(who) and who[0].text == name, f"the More page names {name} after signing up")


def glucose(driver, url: str, out: Path, day: str) -> None:
    driver.get(url + "/glucose/meals")
    submit(driver, "form[action='/glucose/meals']", {"name": "Porridge", "carbohydrate_g": "45"}, "adding a meal")
    check("45 g carbohydrate" in driver.page_source, "the Meals page lists the new meal")
    driver.get(url + "/glucose")
    for time, value in [("07:50", "100"), ("08:15", "120"), ("08:30", "150"), ("08:45", "130"), ("09:00", "90"),
                        ("09:30", "80"), ("10:00", "110"), ("10:30", "140")]:
        submit(driver, "form#add-reading", {"value": value, "time": f"{day}T{time}"}, f"adding {value} at {time}")
    submit(driver, "form#add-insulin", {"units": "4", "kind": "bolus", "insulin": "Humalog", "time": f"{day}T07:45"},
           "adding insulin")
    submit(driver, "form#log-meal", {"time": f"{day}T08:00", "portion": "1"}, "logging the meal")
    driver.get(url + "/glucose?days=7")
    page = driver.page_source
    check("In range 70–180 <b>100 %</b>" in page, "time in range shows 100 % for readings between 80 and 150")
    check("↑ 50 mg/dL to 150 after 30 min, area 1494 mg/dL·min, 4 U bolus" in page, "the meal eaten shows its response and bolus")
    check("1 of 1 counted" in page and "1494" in page, "Which meals spike me ranks Porridge with its area")
    screenshot(driver, out, "hosted-glucose.png")
    driver.get(url + f"/food/search?meal=breakfast&date={day}")
    details = driver.find_element(By.ID, "quick-add")
    details.find_element(By.TAG_NAME, "summary").click()
    form = details.find_element(By.TAG_NAME, "form")
    check(form.find_element(By.NAME, "date").get_attribute("value") == day, "the quick add is for the day of the readings")
    for name, value in (("energy", "300"), ("carbohydrate_g", "45"), ("name", "Toast")):
        form.find_element(By.NAME, name).send_keys(value)
    html = driver.find_element(By.TAG_NAME, "html")
    form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
    wait_for_new_page(driver, html, "the quick add")
    driver.get(url + "/glucose?days=7")
    items = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#meal-events li")]
    toast = [text for text in items if "Breakfast: Toast" in text]
    check(len(toast) == 1 and "↑ 50 mg/dL to 150 after 30 min, area 1494 mg/dL·min, 4 U bolus" in toast[0]
          and "in the food log" in toast[0], f"the breakfast of the food log is a meal glucose answers (got {items!r})")
    screenshot(driver, out, "hosted-glucose-diary.png")
    driver.get(url + f"/glucose/days/{day}")
    circles = driver.find_elements(By.CSS_SELECTOR, "svg#glucose-chart g.glucose circle")
    check(len(circles) == 8, "the day chart draws a dot for each of the 8 readings")
    check(len(driver.find_elements(By.CSS_SELECTOR, "svg#glucose-chart g.meal path")) == 2, "the day chart marks both meals")
    check(len(driver.find_elements(By.CSS_SELECTOR, "svg#glucose-chart rect.bolus")) == 1, "the day chart draws the bolus")
    screenshot(driver, out, "hosted-glucose-day.png")


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
    day = (dt.datetime.now(dt.timezone.utc).date() - dt.timedelta(days=1)).isoformat()

    tmp = Path(tempfile.mkdtemp(prefix="cinn-hosted-"))
    server = driver = None
    failure = None
    try:
        server = Server(cinn, tmp / "journal.sqlite", env, ["--accounts", "--signup", "open"])
        url = server.wait_for_url(LISTEN_TIMEOUT)
        driver = new_driver()
        driver.get(url + "/glucose")
        check(driver.current_url.startswith(url + "/login"), "a visitor is sent to log in")
        check(not driver.find_elements(By.CSS_SELECTOR, "nav.tabs"), "the log-in page shows no tabs")
        screenshot(driver, out, "hosted-login.png")
        sign_up(driver, url, "anna", "anna-password-1")
        glucose(driver, url, out, day)

        driver.get(url + "/more")
        submit(driver, "form[action='/logout']", {}, "logging out")
        check(driver.current_url.startswith(url + "/login"), "logging out shows the log-in page")
        driver.get(url + "/glucose")
        check(driver.current_url.startswith(url + "/login"), "after logging out the glucose page asks to log in again")

        sign_up(driver, url, "ben", "ben-password-1")
        driver.get(url + "/glucose?days=7")
        page = driver.page_source
        check("Porridge" not in page and "No glucose readings" in page, "the second person sees none of the first person's meals or readings")
        driver.get(url + "/account")
        check("administrator" not in driver.page_source, "the second account of an open server is not an administrator")
        screenshot(driver, out, "hosted-account.png")
    except (CheckFailed, WebDriverException, OSError) as error:
        failure = str(error) if isinstance(error, CheckFailed) else f"{type(error).__name__}: {error}"
        if driver is not None:
            try:
                driver.save_screenshot(str(out / "hosted-failure.png"))
                (out / "hosted-failure.html").write_text(driver.page_source)
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
    print("\nPASS: hosted mode asked to log in, signed two people up into separate journals and logged out; the glucose "
          "forms added a meal, readings, insulin and the meal eaten, and the report and day chart showed its response; a "
          "breakfast logged in the food log was a meal with the same response", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
