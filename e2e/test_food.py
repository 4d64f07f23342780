#!/usr/bin/env python3
"""Daily logging in the browser, at 390 px, on a new journal: the built-in foods, quick add, a recipe, nutrition targets,
the barcode field with and without a camera scanner, and the weight side: the trend chart read by a tap, its PNG,
the weigh-ins log and a month.

Runs a real `cinn serve` (no Open Food Facts lookups: `--off-url none`) over a fresh SQLite journal and drives Debian's
headless Chromium (selenium). In the browser:

  1. /food/search: typing "banana" finds the built-in "Banana, raw" first, as you type; a search that matches nothing
     says the journal has no branded products and links to the import;
  2. the barcode field: Chromium on Linux has no BarcodeDetector, so the Scan button stays hidden and the digits
     lead to "make a food" with the barcode filled in;
  3. the same page in a browser given a BarcodeDetector (a stand-in installed before the page's scripts, reading
     Chromium's fake camera): the Scan button shows, and the code it "sees" is looked up the same way;
  4. nutrition targets set on /settings/targets (protein 60 g, carbohydrate 250 g, fat 70 g, sodium at most 2000 mg);
  5. the day view, then a quick add of 500 kcal with 30 g protein into lunch: the day's energy and protein move, and
     the protein and fat bars fill to 50 % and 28 %;
  6. a recipe made in the editor from two built-in foods (searched and added without leaving the page), saved, and one
     serving logged: the day's energy, protein and protein bar move again by the serving's amounts;
  7. five weigh-ins (through the API): every dot of the trend chart has its value as a title, a tap shows the nearest
     day's weight and trend, "PNG" downloads a PNG drawn in the browser; the weigh-ins log shows the trend and the
     change from the weigh-in before; the month view says how far the trend moved.

Saves food-builtin-search.png, food-no-results.png, food-targets.png, food-quick-add.png, food-day-quick.png, food-recipe-editor.png,
food-recipe.png, food-recipes.png, food-day-recipe.png, weight-chart-tap.png, weigh-ins-log.png and weigh-ins-month.png
(and food-recipe-editor-dark.png for review).

    python e2e/test_food.py --cinn .build/debug/cinn [--out artifacts]

The HTML contract:
  form#food-search input[name=q]        the search; #results li.result[data-food-id] a result; #no-results when none
  form#barcode-form input[name=code]    the digits; #scan-barcode the camera button, hidden where it cannot work
  details#quick-add form                the quick add: energy, protein_g, carbohydrate_g, fat_g, name
  #day-energy[data-kcal]                the day's energy; #day-macros b the macro amounts, protein first
  form#targets-form, #save-targets      the targets: protein, carbohydrate, fat, max.KEY / min.KEY
  #day-targets li[data-nutrient]        a target's bar on the day view; data-percent how full it is
  form#recipe-form                      the recipe editor: name, servings, q; button[name=add] adds a result;
                                        #recipe-totals and #recipe-per-serving its sums; #save-recipe saves
  #recipe-ingredients                   on a recipe's food page, its ingredients
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import sys
import tempfile
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from test_dashboard import (CHROMEDRIVER, CHROMIUM, LISTEN_TIMEOUT, PAGE_TIMEOUT, WINDOW, CheckFailed, Server, check,
                            day_energy, screenshot, wait_for_new_page)

# A stand-in for the BarcodeDetector API, installed before any script of the page runs: it "sees" this code in
# whatever the camera shows (Chromium's fake camera, with --use-fake-device-for-media-stream).
SCANNED = "4006381333931"
FAKE_DETECTOR = """
window.BarcodeDetector = class {
  static getSupportedFormats() { return Promise.resolve(['ean_13', 'ean_8', 'upc_a', 'upc_e', 'qr_code']); }
  constructor(options) { this.formats = options.formats; }
  detect(source) { return Promise.resolve([{ rawValue: '%s', format: 'ean_13' }]); }
};
""" % SCANNED


def new_driver(camera: bool = False) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    arguments = ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={WINDOW[0]},{WINDOW[1]}"]
    if camera:
        arguments += ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]
    for argument in arguments:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_window_size(*WINDOW)
    inner_w, inner_h = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(2 * WINDOW[0] - inner_w, 2 * WINDOW[1] - inner_h)
    driver.set_page_load_timeout(PAGE_TIMEOUT)
    if camera:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAKE_DETECTOR})
    return driver


def wait(driver: webdriver.Chrome, condition, what: str):
    try:
        return WebDriverWait(driver, PAGE_TIMEOUT, poll_frequency=0.2).until(condition)
    except TimeoutException:
        raise CheckFailed(f"{what} within {PAGE_TIMEOUT} s")


def submit(driver: webdriver.Chrome, button, what: str) -> None:
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
    old = driver.find_element(By.TAG_NAME, "html")
    button.click()
    wait_for_new_page(driver, old, what)


def protein(driver: webdriver.Chrome) -> float:
    """The day's protein in grams, from the first of #day-macros ("30 g")."""
    text = driver.find_elements(By.CSS_SELECTOR, "#day-macros b")[0].text
    match = re.match(r"([0-9.]+)", text)
    return float(match.group(1)) if match else 0.0


def search(driver: webdriver.Chrome, url: str, out: Path) -> None:
    print(f"\nGET {url}/food/search and type \"banana\"", flush=True)
    driver.get(url + "/food/search?meal=snacks")
    field = driver.find_element(By.CSS_SELECTOR, 'form#food-search input[name="q"]')
    field.send_keys("banana")
    first = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#results li.result .result-name"),
                 "no result for banana as you type")
    check(first[0].text == "Banana, raw", f"the built-in raw banana comes first on a new journal (got {first[0].text!r})")
    screenshot(driver, out, "food-builtin-search.png")
    field.clear()
    field.send_keys("zqxwv crunch")
    wait(driver, lambda d: d.find_element(By.ID, "no-results").is_displayed(), "no 'no food matches' for a nonsense search")
    text = driver.find_element(By.ID, "no-results").text
    check("no branded products yet" in text and "import a food database" in text,
          f"an empty search says what is missing and how to add it (got {text!r})")
    screenshot(driver, out, "food-no-results.png")


def barcode_without_scanner(driver: webdriver.Chrome, url: str) -> None:
    print(f"\nGET {url}/food/search: the barcode field without a scanner", flush=True)
    driver.get(url + "/food/search")
    check(driver.execute_script("return 'BarcodeDetector' in window") is False,
          "headless Chromium on Linux has no BarcodeDetector")
    check(not driver.find_element(By.ID, "scan-barcode").is_displayed(), "so the Scan button stays hidden")
    form = driver.find_element(By.ID, "barcode-form")
    form.find_element(By.NAME, "code").send_keys("5000159484695")
    submit(driver, form.find_element(By.CSS_SELECTOR, 'button[type="submit"]'), "the barcode lookup")
    check("/food/new" in driver.current_url and "barcode=5000159484695" in driver.current_url,
          f"an unknown barcode leads to making the food with its digits (got {driver.current_url})")


def barcode_with_scanner(cinn_url: str) -> None:
    print("\na browser with a BarcodeDetector and a (fake) camera", flush=True)
    driver = new_driver(camera=True)
    try:
        driver.get(cinn_url + "/food/search")
        scan = wait(driver, lambda d: d.find_element(By.ID, "scan-barcode") if d.find_element(By.ID, "scan-barcode").is_displayed()
                    else None, "the Scan button did not show where a BarcodeDetector exists")
        check(True, "where the browser offers a BarcodeDetector, the Scan button shows")
        old = driver.find_element(By.TAG_NAME, "html")
        scan.click()
        wait_for_new_page(driver, old, "the lookup of the scanned code")
        check(f"barcode={SCANNED}" in driver.current_url, f"the scanned code is looked up (got {driver.current_url})")
    finally:
        driver.quit()


def bar(driver: webdriver.Chrome, nutrient: str) -> int:
    """How full the day view's bar of `nutrient` is, in percent (#day-targets li[data-nutrient][data-percent])."""
    found = driver.find_elements(By.CSS_SELECTOR, f'#day-targets li[data-nutrient="{nutrient}"]')
    check(len(found) == 1, f"the day view has a {nutrient} bar")
    return int(found[0].get_attribute("data-percent"))


def set_targets(driver: webdriver.Chrome, url: str, out: Path) -> None:
    print(f"\nGET {url}/settings/targets", flush=True)
    driver.get(url + "/settings/targets")
    form = driver.find_element(By.ID, "targets-form")
    for name, value in (("protein", "60"), ("carbohydrate", "250"), ("fat", "70")):
        form.find_element(By.NAME, name).send_keys(value)
    form.find_element(By.NAME, "max.sodium").send_keys("2000")
    screenshot(driver, out, "food-targets.png")
    submit(driver, driver.find_element(By.ID, "save-targets"), "saving the targets")
    check("Targets saved" in driver.find_element(By.TAG_NAME, "main").text, "the targets are saved")


def quick_add(driver: webdriver.Chrome, url: str, out: Path) -> None:
    print(f"\nGET {url}/food", flush=True)
    driver.get(url + "/food")
    check(day_energy(driver) == 0, "a new journal's day starts at 0 kcal")
    check(bar(driver, "protein") == 0, "the protein bar starts empty")
    driver.get(url + "/food/search?meal=lunch")
    details = driver.find_element(By.ID, "quick-add")
    details.find_element(By.TAG_NAME, "summary").click()
    form = details.find_element(By.TAG_NAME, "form")
    for name, value in (("energy", "500"), ("protein_g", "30"), ("carbohydrate_g", "40"), ("fat_g", "20"), ("name", "Lunch out")):
        form.find_element(By.NAME, name).send_keys(value)
    screenshot(driver, out, "food-quick-add.png")
    submit(driver, form.find_element(By.CSS_SELECTOR, 'button[type="submit"]'), "the day after the quick add")
    check(day_energy(driver) == 500, f"the quick add counts 500 kcal (got {day_energy(driver)!r})")
    check(protein(driver) == 30, f"and 30 g of protein (got {protein(driver)})")
    check(bar(driver, "protein") == 50, f"the protein bar moves to 30 of 60 g (got {bar(driver, 'protein')} %)")
    check(bar(driver, "fat") == 28, f"the fat bar to 20 of 70 g (got {bar(driver, 'fat')} %)")
    lunch = driver.find_element(By.CSS_SELECTOR, 'section.meal[data-meal="lunch"]').text
    check("Lunch out" in lunch, f"it is in lunch (got {lunch!r})")
    screenshot(driver, out, "food-day-quick.png")


def add_ingredient(driver: webdriver.Chrome, query: str, name: str) -> None:
    form = driver.find_element(By.ID, "recipe-form")
    field = form.find_element(By.NAME, "q")
    field.clear()
    field.send_keys(query)
    search_button = [b for b in form.find_elements(By.TAG_NAME, "button") if b.text == "Search"][0]
    submit(driver, search_button, f"the ingredient search for {query!r}")
    buttons = [b for b in driver.find_elements(By.CSS_SELECTOR, 'button[name="add"]') if b.text.replace("Add", "", 1).strip() == name]
    check(len(buttons) == 1, f"the search offers {name!r} to add")
    submit(driver, buttons[0], f"adding {name!r}")


def recipe(driver: webdriver.Chrome, url: str, out: Path) -> None:
    print(f"\nGET {url}/food/recipes", flush=True)
    driver.get(url + "/food/recipes")
    check("No recipes yet" in driver.find_element(By.TAG_NAME, "main").text, "a new journal has no recipes and says what one is")
    submit(driver, driver.find_element(By.ID, "new-recipe"), "the recipe editor")
    form = driver.find_element(By.ID, "recipe-form")
    form.find_element(By.NAME, "name").send_keys("Banana oats")
    servings = form.find_element(By.NAME, "servings")
    servings.clear()
    servings.send_keys("2")
    add_ingredient(driver, "oats rolled", "Oats, whole grain, rolled, old fashioned")
    amount = driver.find_element(By.NAME, "servings.0")
    amount.clear()
    amount.send_keys("80")
    driver.find_element(By.CSS_SELECTOR, 'select[name="serving.0"] option[value="1 g"]').click()
    add_ingredient(driver, "banana", "Bananas, raw")
    check(driver.find_element(By.NAME, "servings.0").get_attribute("value") == "80", "the first ingredient's amount travels with the draft")
    totals = driver.find_element(By.ID, "recipe-totals").text
    # 80 g of oats at 379 kcal/100 g (303.2) and one medium banana, 118 g at 89 kcal/100 g (105.02): 408 kcal.
    check(totals == "Whole recipe: 408 kcal", f"the editor sums the ingredients (got {totals!r})")
    # Typing another amount updates the totals at once (recipe-totals.js), without a trip to the server.
    bananas = driver.find_element(By.NAME, "servings.1")
    bananas.clear()
    bananas.send_keys("2")
    totals = driver.find_element(By.ID, "recipe-totals").text
    check(totals == "Whole recipe: 513 kcal", f"two bananas: 303.2 + 210.04 kcal, as typed (got {totals!r})")
    one = driver.find_element(By.ID, "recipe-per-serving").text
    check(one.startswith("One serving: 257 kcal"), f"and one of the 2 servings (got {one!r})")
    screenshot(driver, out, "food-recipe-editor.png")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    screenshot(driver, out, "food-recipe-editor-dark.png")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": [{"name": "prefers-color-scheme", "value": "light"}]})
    submit(driver, driver.find_element(By.ID, "save-recipe"), "saving the recipe")
    check("/food/foods/" in driver.current_url, f"saving shows the recipe's food page (got {driver.current_url})")
    ingredients = driver.find_element(By.ID, "recipe-ingredients").text
    check("80 × 1 g Oats" in ingredients and "Bananas, raw" in ingredients, f"the page lists the ingredients (got {ingredients!r})")
    screenshot(driver, out, "food-recipe.png")

    before_kcal, before_protein = 500, 30.0
    submit(driver, driver.find_element(By.ID, "log-it"), "the log form")
    submit(driver, driver.find_element(By.ID, "log-submit"), "the day after logging a serving")
    # One serving is half: 256.6 kcal; protein 80 g × 13.15 % + 236 g × 1.09 % = 13.09 g, half 6.5 g.
    energy = day_energy(driver)
    check(energy is not None and abs(energy - (before_kcal + 257)) <= 1, f"a serving adds about 257 kcal (got {energy!r})")
    gained = protein(driver) - before_protein
    check(6 <= gained <= 7, f"and about 6.5 g of protein (the day's protein moved by {gained:.1f} g)")
    check(60 <= bar(driver, "protein") <= 62, f"the protein bar moves again, to about 37 of 60 g (got {bar(driver, 'protein')} %)")
    screenshot(driver, out, "food-day-recipe.png")
    driver.get(url + "/food/recipes")
    check("Banana oats" in driver.find_element(By.TAG_NAME, "main").text, "the recipes page lists it")
    screenshot(driver, out, "food-recipes.png")


def weight_side(driver: webdriver.Chrome, url: str, out: Path, downloads: Path) -> None:
    """Weigh-ins through the API, then the trend chart read by a tap, its PNG, the log with trend and changes, and a month."""
    print("\nfive weigh-ins through POST /api/v1/weigh-ins", flush=True)
    today = dt.date.today()
    for offset, weight in enumerate([81.0, 80.6, 80.9, 80.2, 80.4]):
        day = (today - dt.timedelta(days=8 - 2 * offset)).isoformat()
        request = urllib.request.Request(url + "/api/v1/weigh-ins", method="POST", headers={"Content-Type": "application/json"},
                                         data=json.dumps({"weight": weight, "unit": "kg", "date": day}).encode())
        with urllib.request.urlopen(request, timeout=PAGE_TIMEOUT) as response:
            check(response.status == 201, f"the weigh-in of {day} is saved")
    driver.get(url + "/")
    if driver.find_elements(By.ID, "skip-welcome"):
        submit(driver, driver.find_element(By.ID, "skip-welcome"), "skipping the welcome")
        driver.get(url + "/")
    chart = driver.find_element(By.ID, "trend-chart")
    titles = driver.execute_script("return [...document.querySelectorAll('#trend-chart circle.weigh-in:not(.interpolated) title')].map(t => t.textContent)")
    check(len(titles) == 5 and all("trend" in title for title in titles), f"every weigh-in dot has its value as a title (got {titles[:2]}…)")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", chart)
    # A tap where a weigh-in is (the middle one): the chart's width depends on whether it draws a projection.
    dots = driver.find_elements(By.CSS_SELECTOR, "#trend-chart circle.weigh-in:not(.interpolated)")
    ActionChains(driver).move_to_element(dots[len(dots) // 2]).click().perform()
    tip = driver.find_element(By.ID, "chart-tip")
    check(tip.is_displayed() and "kg, trend" in tip.text, f"a tap on the chart shows the day, weight and trend (got {tip.text!r})")
    screenshot(driver, out, "weight-chart-tap.png")
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    driver.find_element(By.ID, "download-png").click()
    picture = downloads / "cinn-trend.png"
    wait(driver, lambda d: picture.exists() and picture.stat().st_size > 1000, "no PNG was downloaded")
    check(picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", "Download chart: PNG gives a PNG drawn in the browser")

    driver.get(url + "/weigh-ins")
    rows = driver.find_elements(By.CSS_SELECTOR, "#weigh-in-log tbody tr")
    check(len(rows) == 5, f"the log lists the five weigh-ins (got {len(rows)})")
    cells = [cell.text for cell in rows[0].find_elements(By.TAG_NAME, "td")]
    check(cells[1] == "80.4" and cells[3] == "+0.2", f"the newest shows its weight and the change from the one before (got {cells})")
    screenshot(driver, out, "weigh-ins-log.png")
    submit(driver, driver.find_element(By.ID, "month-view"), "the month view")
    summary = driver.find_element(By.ID, "month-summary").text
    check(summary.startswith("The trend went from"), f"the month view says how far the trend moved (got {summary!r})")
    screenshot(driver, out, "weigh-ins-month.png")


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
    tmp = Path(tempfile.mkdtemp(prefix="cinn-food-"))
    server = None
    driver = None
    failure = None
    try:
        server = Server(cinn, tmp / "journal.sqlite", env, ["--off-url", "none"])
        url = server.wait_for_url(LISTEN_TIMEOUT)
        driver = new_driver()
        search(driver, url, out)
        barcode_without_scanner(driver, url)
        barcode_with_scanner(url)
        set_targets(driver, url, out)
        quick_add(driver, url, out)
        recipe(driver, url, out)
        downloads = tmp / "downloads"
        downloads.mkdir()
        weight_side(driver, url, out, downloads)
    except (CheckFailed, WebDriverException, OSError) as error:
        failure = str(error) if isinstance(error, CheckFailed) else f"{type(error).__name__}: {error}"
        if driver is not None:
            try:
                driver.save_screenshot(str(out / "food-failure.png"))
                (out / "food-failure.html").write_text(driver.page_source)
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
    print("\nPASS: a new journal found the built-in foods, said what an empty search lacks, looked up typed and scanned "
          "barcodes, logged a quick add and a serving of a recipe made in the editor, and the day's numbers moved", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
