#!/usr/bin/env python3
"""Sign-in through an OpenID Connect provider, in real headless Chromium at 390x844, against a real provider:
oidc-provider-mock (PyPI), which signs its ID tokens with its own key and publishes its discovery document and JWKS.

Between Cinn and the provider sits a pass-through proxy of this test's (the provider takes its issuer from the Host
header, which the proxy keeps, so the proxy's address is the issuer). It changes nothing unless told to flip one
character of the next ID token's signature: a token tampered with on its way.

`cinn serve --accounts --signup open --oidc-issuer ...` over a fresh SQLite journal:
  1. the log-in page offers "Sign in with Mock"; signing in at the provider makes an account named after the
     subject's email and logs in; the Account page says it signs in with Mock and has no password section;
  2. logging out ends the session; signing in again with the same subject is the same account, not a new one;
  3. a tampered ID token is refused (its signature does not verify) and logs no one in;
  4. an expired ID token (signed by the provider, its exp in the past) is refused; so is one for another client;
  5. with `--no-passwords --signup closed` (a second server): no password form, password log-in answers 403, and
     a subject no account is linked to is refused.
Screenshots go to --out (oidc-*.png). Exit status 0 when every check passes.

    python3 e2e/test_oidc.py --cinn .build/debug/cinn [--out artifacts]
"""
import argparse
import http.client
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

from selenium.webdriver.common.by import By

from test_dashboard import LISTEN_TIMEOUT, CheckFailed, Server, check, new_driver, screenshot, wait_for_new_page
from test_multi_instance import free_port


class TamperingProxy(http.server.ThreadingHTTPServer):
    """Forwards every request to the provider as it is (Host included); when `tamper_next` is set, flips one character
    of the signature of the next ID token the token endpoint sends."""

    def __init__(self, port: int, upstream: int):
        self.upstream = upstream
        self.tamper_next = False
        self.tampered = 0
        super().__init__(("127.0.0.1", port), ProxyHandler)


class ProxyHandler(http.server.BaseHTTPRequestHandler):
    server: TamperingProxy

    def log_message(self, *args) -> None:
        pass

    def forward(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        connection = http.client.HTTPConnection("127.0.0.1", self.server.upstream, timeout=30)
        headers = {name: value for name, value in self.headers.items() if name.lower() not in ("connection", "content-length")}
        try:
            connection.request(self.command, self.path, body=body, headers=headers)
            answer = connection.getresponse()
        except OSError:
            self.send_error(502, "the provider is not answering")
            return
        data = answer.read()
        if self.path.startswith("/oauth2/token") and self.server.tamper_next and answer.status == 200:
            tokens = json.loads(data)
            header, payload, signature = tokens["id_token"].split(".")
            flipped = ("A" if signature[10] != "A" else "B")
            tokens["id_token"] = ".".join([header, payload, signature[:10] + flipped + signature[11:]])
            data = json.dumps(tokens).encode()
            self.server.tamper_next = False
            self.server.tampered += 1
        self.send_response(answer.status)
        for name, value in answer.getheaders():
            if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        connection.close()

    do_GET = forward
    do_POST = forward
    do_PUT = forward


def sign_in_at_provider(driver, cinn_url: str, subject: str, what: str) -> None:
    """From Cinn's log-in page: the provider's button, then the provider's form with `subject`."""
    driver.get(cinn_url + "/login")
    html = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.LINK_TEXT, "Sign in with Mock").click()
    wait_for_new_page(driver, html, f"the provider's form ({what})")
    check("Authorize Client" in driver.page_source, f"the provider asks who signs in ({what})")
    driver.find_element(By.NAME, "sub").send_keys(subject)
    html = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.XPATH, "//button[normalize-space()='Authorize']").click()
    wait_for_new_page(driver, html, f"the way back to Cinn ({what})")


def logged_in_name(driver, cinn_url: str) -> str | None:
    driver.get(cinn_url + "/more")
    if not driver.current_url.startswith(cinn_url + "/more"):
        return None
    names = driver.find_elements(By.CSS_SELECTOR, "main .card b")
    return names[0].text if names else None


def put_claims(provider: str, subject: str, claims: dict) -> None:
    request = urllib.request.Request(f"{provider}/users/{urllib.parse.quote(subject)}", data=json.dumps(claims).encode(),
                                     method="PUT", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        check(answer.status == 204, f"the provider keeps {subject}'s claims")


def error_shown(driver) -> str:
    errors = driver.find_elements(By.CSS_SELECTOR, "p.error")
    return errors[0].text if errors else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cinn", required=True)
    parser.add_argument("--out", default="artifacts")
    parser.add_argument("--provider", default=str(Path(sys.executable).with_name("oidc-provider-mock")))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="cinn-oidc-"))
    env = dict(os.environ, TZ="UTC")
    provider_port, proxy_port, cinn_port = free_port(), free_port(), free_port()
    issuer = f"http://127.0.0.1:{proxy_port}"
    provider = subprocess.Popen([args.provider, "--port", str(provider_port), "--require-nonce", "true"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    proxy = TamperingProxy(proxy_port, provider_port)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    servers: list[Server] = []
    driver = None
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(issuer + "/.well-known/openid-configuration", timeout=2) as answer:
                    discovery = json.loads(answer.read())
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise CheckFailed("the provider did not start within 30 s")
                time.sleep(0.2)
        check(discovery["issuer"] == issuer, "the provider, through the proxy, names the proxy as its issuer")

        common = ["--accounts", "--oidc-issuer", issuer, "--oidc-client-id", "cinn-test", "--oidc-client-secret", "cinn-test-secret",
                  "--oidc-name", "Mock", "--public-url", f"http://127.0.0.1:{cinn_port}", "--port", str(cinn_port)]
        server = Server(args.cinn, work / "cinn.sqlite", env, ["--signup", "open", *common])
        servers.append(server)
        url = server.wait_for_url(LISTEN_TIMEOUT)
        driver = new_driver()

        print("\n1. Sign in through the provider", flush=True)
        driver.get(url + "/login")
        check(driver.find_elements(By.LINK_TEXT, "Sign in with Mock") != [], "the log-in page offers Sign in with Mock")
        screenshot(driver, out, "oidc-login.png")
        sign_in_at_provider(driver, url, "alice@example.com", "first sign-in")
        check(logged_in_name(driver, url) == "alice", "signed in as a new account named alice")
        driver.get(url + "/account")
        page = driver.page_source
        check("Your account signs in with Mock." in page and "Change password" not in page,
              "the Account page says it signs in with Mock, with no password to change")
        screenshot(driver, out, "oidc-account.png")

        print("\n2. Log out, and in again", flush=True)
        driver.get(url + "/more")
        html = driver.find_element(By.TAG_NAME, "html")
        driver.execute_script("arguments[0].requestSubmit()", driver.find_element(By.CSS_SELECTOR, "form[action='/logout']"))
        wait_for_new_page(driver, html, "logging out")
        check(driver.current_url.startswith(url + "/login"), "logging out leads to the log-in page")
        check(logged_in_name(driver, url) is None, "after logging out, pages ask to log in")
        sign_in_at_provider(driver, url, "alice@example.com", "second sign-in")
        check(logged_in_name(driver, url) == "alice", "the same subject is the same account (not alice-2)")
        driver.delete_all_cookies()

        print("\n3. A tampered ID token", flush=True)
        proxy.tamper_next = True
        sign_in_at_provider(driver, url, "mallory@example.com", "tampered token")
        check(proxy.tampered == 1, "the proxy flipped a character of the token's signature")
        check("signature does not verify" in error_shown(driver), f"Cinn refuses it (shown: {error_shown(driver)!r})")
        screenshot(driver, out, "oidc-refused.png")
        check(logged_in_name(driver, url) is None, "nobody is logged in")

        print("\n4. An expired ID token, and one for another client", flush=True)
        put_claims(issuer, "carol@example.com", {"email": "carol@example.com", "exp": int(time.time()) - 3600})
        sign_in_at_provider(driver, url, "carol@example.com", "expired token")
        check("it has expired" in error_shown(driver), f"Cinn refuses the expired token (shown: {error_shown(driver)!r})")
        check(logged_in_name(driver, url) is None, "nobody is logged in")
        put_claims(issuer, "dave@example.com", {"email": "dave@example.com", "aud": "another-client"})
        sign_in_at_provider(driver, url, "dave@example.com", "another client's token")
        check("another application" in error_shown(driver), f"Cinn refuses a token for another client (shown: {error_shown(driver)!r})")
        check(logged_in_name(driver, url) is None, "nobody is logged in")
        server.stop()

        print("\n5. Passwords off, sign-up closed", flush=True)
        closed = Server(args.cinn, work / "cinn.sqlite", env, ["--signup", "closed", "--no-passwords", *common])
        servers.append(closed)
        url = closed.wait_for_url(LISTEN_TIMEOUT)
        driver.get(url + "/login")
        check(driver.find_elements(By.ID, "password") == [] and driver.find_elements(By.LINK_TEXT, "Sign in with Mock") != [],
              "the log-in page has no password form, only the provider")
        request = urllib.request.Request(url + "/api/v1/login", method="POST", headers={"Content-Type": "application/json"},
                                         data=json.dumps({"name": "alice", "password": "whatever-password"}).encode())
        try:
            urllib.request.urlopen(request, timeout=10)
            status = 200
        except urllib.error.HTTPError as error:
            status = error.code
        check(status == 403, f"a password log-in is refused with 403 (got {status})")
        sign_in_at_provider(driver, url, "alice@example.com", "alice with passwords off")
        check(logged_in_name(driver, url) == "alice", "alice, linked before, still signs in")
        driver.delete_all_cookies()
        sign_in_at_provider(driver, url, "erin@example.com", "a stranger on a closed server")
        check("sign-up is closed" in error_shown(driver), f"a subject with no account is refused (shown: {error_shown(driver)!r})")
        print("\nall checks passed", flush=True)
        return 0
    except CheckFailed as failure:
        print(f"\nFAILED: {failure}", file=sys.stderr, flush=True)
        if driver is not None:
            screenshot(driver, out, "oidc-failure.png")
        for server in servers:
            print("\n".join(line for line in server.lines[-30:] if "msg=request" in line or "refused" in line), file=sys.stderr)
        return 1
    finally:
        if driver is not None:
            driver.quit()
        for server in servers:
            server.stop()
        proxy.shutdown()
        provider.terminate()
        provider.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
