#!/usr/bin/env python3
"""Every page of the web app fits a phone: a layout test in headless Chromium.

Visits every page listed in e2e/pages.txt (PageListTests keeps that list equal to the router's pages) with
Chromium's mobile emulation at 320 and 390 px, in four journals:

  empty    a fresh journal: the onboarding, then every page with nothing in it
  demo     `cinn serve --demo`: 18 months of weigh-ins, food, glucose and workouts
  import   the demo journal after importing a weight file with a long name (and saving a preset)
  hosted   `cinn serve --accounts --signup open`: log-in, sign-up and the account page

It finds the pages by following the links of the pages it visits (one page per route template and journal, from a
few starting points) and fails when a page of pages.txt was reached in none of the journals. On each page and
width it fails when
  - the document is wider than the device (`document.scrollingElement.scrollWidth` against the emulated width:
    with mobile emulation the layout viewport grows to fit wide content, so `innerWidth` would grow too);
  - the tab bar is not inside the screen, or a tab's label takes more than one line;
  - the page has no `<h1>` or no skip link to `#main`;
  - a control is shorter than 44 px: buttons, `<summary>`, inputs and selects, and links that stand alone (a link
    that is all of its line, or is laid out as a block) — links inside a sentence are exempt.
In the demo journal it also asks Chromium itself whether Cinn installs as an app (DevTools'
`Page.getInstallabilityErrors` and `Page.getAppManifest`: no errors).
It saves a full-page screenshot of every page it visits (OUT/layout/JOURNAL-WIDTH-PAGE.png). With --review it
also saves each page at 1280 px, light and dark, and at 390 px dark, without checking them.

    python e2e/test_layout.py --cinn .build/debug/cinn [--out artifacts] [--review]
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import json
import os
import re
import shutil
import sys
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path

from selenium.common.exceptions import WebDriverException

from test_dashboard import LISTEN_TIMEOUT, CheckFailed, Server, check, new_driver, onboard
from test_hosted import sign_up

PHONES = ((320, 568), (390, 844))
REVIEW = ((1280, 800, "light"), (1280, 800, "dark"), (390, 844, "dark"))
LONG_NAME = "weights-exported-from-the-old-bathroom-scale-app-on-my-previous-phone-before-the-move-2019-2024.csv"

# Where the crawl starts in each journal, besides "/": pages only a form or a script leads to.
SEEDS = ["/food/search?q=a", "/food/search?q=oat", "/food/barcode?code=4006381333931", "/food/history",
         "/workouts", "/glucose/meals", "/more-data", "/profile", "/welcome"]

LAYOUT_SCRIPT = """
const [W, H] = arguments;
const problems = [];
const describe = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
  (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '') +
  ' "' + (e.innerText || e.value || '').trim().replace(/\\s+/g, ' ').slice(0, 40) + '"';
const visible = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && !e.closest('details:not([open]) > :not(summary)'); };
const width = document.scrollingElement.scrollWidth;
if (width > W) {
  const wide = [...document.querySelectorAll('main *, nav *')].filter(e => visible(e) && e.getBoundingClientRect().right > W + 1);
  const outermost = wide.filter(e => !wide.includes(e.parentElement)).slice(0, 4).map(e => describe(e) + ' to ' + Math.round(e.getBoundingClientRect().right) + ' px');
  problems.push(`the page is ${width} px wide on a ${W} px screen: ${outermost.join('; ')}`);
}
const tabs = document.querySelector('nav.tabs');
if (tabs) {
  const r = tabs.getBoundingClientRect();
  if (r.left < 0 || r.right > W + 1 || r.top < 0 || r.bottom > H + 1)
    problems.push(`the tab bar (${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}) is not inside the ${W}x${H} screen`);
  for (const label of tabs.querySelectorAll('.label')) {
    if (label.getClientRects().length > 1) problems.push(`the tab label "${label.innerText}" takes ${label.getClientRects().length} lines`);
  }
}
if (!document.querySelector('h1')) problems.push('no <h1>');
if (!document.querySelector('a.skip[href="#main"]') || !document.getElementById('main')) problems.push('no skip link to #main');
const controls = [...document.querySelectorAll('button, summary, select, textarea, input:not([type=hidden]):not([type=checkbox]):not([type=radio]), a[href]')];
for (const e of controls) {
  if (!visible(e) || e.matches('a.skip')) continue;
  if (e.tagName === 'A') {
    const display = getComputedStyle(e).display;
    const block = e.parentElement;
    const alone = block && block.innerText.trim() === e.innerText.trim() && getComputedStyle(block).display !== 'inline';
    if (display === 'inline' && !alone) continue;
  }
  const h = e.getBoundingClientRect().height;
  if (h < 43.5) problems.push(`${describe(e)} is ${Math.round(h)} px high, under 44 px`);
}
return problems;
"""


def emulate(driver, width: int, height: int, scheme: str = "light") -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 900})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "media": "", "features": [{"name": "prefers-color-scheme", "value": scheme}]})


def full_page(driver, path: Path) -> None:
    """A screenshot of the whole page, not only the screen."""
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
    path.write_bytes(base64.b64decode(shot["data"]))


class Pages:
    """The route templates of e2e/pages.txt, and which were visited."""

    def __init__(self, listing: Path):
        self.pages: list[tuple[str, re.Pattern[str]]] = []
        for line in listing.read_text().splitlines():
            line = line.strip()
            if not line or line.startswith("#") or line.startswith("- "):
                continue
            pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(line)) + "$")
            self.pages.append((line, pattern))
        # Fixed paths win over templates, as in the router (/food/search is not /food/{date}).
        self.pages.sort(key=lambda page: "{" in page[0])
        self.reached: set[str] = set()

    def template(self, path: str) -> str | None:
        return next((template for template, pattern in self.pages if pattern.match(path)), None)

    def missing(self) -> list[str]:
        return [template for template, _ in self.pages if template not in self.reached]


def slug(template: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", template.lower()).strip("-") or "home"


def visit_all(driver, url: str, journal: str, pages: Pages, out: Path, review: bool, seeds: list[str]) -> list[str]:
    """Crawls from `seeds`, one page per route template; returns the problems found."""
    problems: list[str] = []
    queue = list(seeds)
    seen: set[str] = set()
    while queue:
        target = queue.pop(0)
        template = pages.template(urllib.parse.urlsplit(target).path)
        if template is None or template in seen:
            continue
        seen.add(template)
        pages.reached.add(template)
        name = slug(template)
        links: list[str] = []
        for width, height in PHONES:
            emulate(driver, width, height)
            driver.get(url + target)
            if urllib.parse.urlsplit(driver.current_url).path != urllib.parse.urlsplit(target).path:
                # A redirect (the onboarding, a log-in): the page it went to is checked on its own.
                break
            found = driver.execute_script(LAYOUT_SCRIPT, width, height)
            problems += [f"{journal} {width} px {target}: {problem}" for problem in found]
            full_page(driver, out / f"{journal}-{width}-{name}.png")
            links = driver.execute_script(
                "return [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))")
        else:
            if review:
                for width, height, scheme in REVIEW:
                    emulate(driver, width, height, scheme)
                    driver.get(url + target)
                    full_page(driver, out / f"{journal}-{width}-{scheme}-{name}.png")
        print(f"  {journal}: {target} ({template}) {'ok' if not problems else ''}", flush=True)
        for href in links:
            parts = urllib.parse.urlsplit(urllib.parse.urljoin(url + target, href))
            if parts.netloc == urllib.parse.urlsplit(url).netloc and not parts.path.startswith(("/api/", "/static/")):
                queue.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return problems


def import_long_named(url: str) -> None:
    """A weight file with a long name, through the JSON API as a script would send it."""
    rows = "date,weight\n" + "".join(f"2019-01-{day:02d},{80 + day / 10:.1f}\n" for day in range(1, 29))
    query = urllib.parse.urlencode({"unit": "kg", "file_name": LONG_NAME})
    request = urllib.request.Request(f"{url}/api/v1/imports?{query}", data=rows.encode(), method="POST",
                                     headers={"Content-Type": "application/octet-stream"})
    with urllib.request.urlopen(request, timeout=60) as response:
        check(response.status == 201, f"the long-named file is imported (got {response.status})")


def save_preset(url: str) -> None:
    """A saved meal (presets have pages of their own): yesterday's breakfast in the demo journal."""
    yesterday = (dt.datetime.now(dt.timezone.utc).date() - dt.timedelta(days=1)).isoformat()
    body = json.dumps({"name": "My usual breakfast", "meal": "breakfast", "from_date": yesterday}).encode()
    request = urllib.request.Request(f"{url}/api/v1/presets", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        check(response.status == 201, f"yesterday's breakfast is saved as a preset (got {response.status})")


def installable(driver, url: str) -> None:
    """Chromium's own verdict on installing Cinn: the manifest parses without errors and nothing stops the install."""
    print(f"\nGET {url}/: is it installable?", flush=True)
    driver.get(url + "/")
    manifest = driver.execute_cdp_cmd("Page.getAppManifest", {})
    check(manifest.get("url", "").startswith(url + "/static/manifest.webmanifest"), f"the page links the manifest ({manifest.get('url')})")
    check(not manifest.get("errors"), f"the manifest parses without errors ({manifest.get('errors')})")
    errors = driver.execute_cdp_cmd("Page.getInstallabilityErrors", {}).get("installabilityErrors", [])
    check(not errors, f"Chromium finds nothing that stops installing it ({errors})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cinn", required=True, help="the built cinn binary")
    parser.add_argument("--out", default="artifacts", help="directory for screenshots (default: artifacts/)")
    parser.add_argument("--review", action="store_true", help="also save every page at 1280 px light and dark, 390 px dark")
    args = parser.parse_args()
    cinn = os.path.abspath(args.cinn)
    out = Path(args.out).resolve() / "layout"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    env = dict(os.environ, TZ="UTC")
    env.pop("CINN_DATABASE", None)
    pages = Pages(Path(__file__).with_name("pages.txt"))

    tmp = Path(tempfile.mkdtemp(prefix="cinn-layout-"))
    servers: list[Server] = []
    driver = None
    problems: list[str] = []
    failure = None
    try:
        driver = new_driver()

        print("\nAn empty journal", flush=True)
        server = Server(cinn, tmp / "empty.sqlite", env)
        servers.append(server)
        url = server.wait_for_url(LISTEN_TIMEOUT)
        emulate(driver, *PHONES[1])
        problems += visit_all(driver, url, "empty", pages, out, args.review, ["/welcome"])
        onboard(driver, url, out)
        problems += visit_all(driver, url, "empty", pages, out, args.review, ["/"] + SEEDS)

        print("\nThe demo journal", flush=True)
        server = Server(cinn, tmp / "demo.sqlite", env, ["--demo"])
        servers.append(server)
        url = server.wait_for_url(LISTEN_TIMEOUT)
        problems += visit_all(driver, url, "demo", pages, out, args.review, ["/"] + SEEDS)
        installable(driver, url)

        print("\nThe demo journal after a long-named import", flush=True)
        import_long_named(url)
        save_preset(url)
        problems += visit_all(driver, url, "import", pages, out, args.review, ["/import", "/"] + SEEDS)

        print("\nHosted mode", flush=True)
        server = Server(cinn, tmp / "hosted.sqlite", env, ["--accounts", "--signup", "open"])
        servers.append(server)
        url = server.wait_for_url(LISTEN_TIMEOUT)
        problems += visit_all(driver, url, "hosted", pages, out, args.review, ["/login", "/signup"])
        emulate(driver, *PHONES[1])
        sign_up(driver, url, "anna", "anna-password-1")
        problems += visit_all(driver, url, "hosted", pages, out, args.review, ["/account"])

        missing = pages.missing()
        check(not missing, f"every page of pages.txt reached (missing: {', '.join(missing) or 'none'})")
        for problem in problems:
            print(f"  FAIL {problem}", flush=True)
        check(not problems, f"every page fits at {' and '.join(f'{w} px' for w, _ in PHONES)} ({len(problems)} problems)")
        print(f"\nscreenshots in {out}", flush=True)
    except (CheckFailed, WebDriverException, OSError) as error:
        failure = str(error) if isinstance(error, CheckFailed) else f"{type(error).__name__}: {error}"
    finally:
        if driver is not None:
            driver.quit()
        for server in servers:
            server.stop()
        if failure:
            for server in servers:
                print("\n".join(server.lines[-20:]), flush=True)
        shutil.rmtree(tmp, ignore_errors=True)
    if failure:
        print(f"\nFAILED: {failure}", flush=True)
        return 1
    print("\nPASSED", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
