"""The load test's mix (locust, FastHttpUser): many people, each with their own journal and token, using Cinn as
they do in a day. Run by Benchmarks/hosted/run.py, which seeds the journals and writes their tokens to the file named by
CINN_LOAD_USERS (a JSON list of {"name", "token"}); each simulated person takes the next token.

Weights (per 100 requests): the dashboard 12, the trend API 14, a food day page 10, food search 12, logging food 6,
a weigh-in 5, the glucose page 8, the glucose report 8, a sync pull 10, a sync push 5, the glance 10.
Every write answered 2xx is appended to CINN_LOAD_WRITES (one "kind id" a line), so run.py can check afterwards that
each one is in the database. CINN_LOAD_WAIT: seconds between a person's requests, "0" (as fast as answered) or
"0.5-1.5" (a steady, moderate load).
"""
import datetime as dt
import itertools
import json
import os
import random
import threading
import uuid

from locust import FastHttpUser, between, constant, events, task

USERS = json.load(open(os.environ["CINN_LOAD_USERS"]))
NEXT = itertools.count()
WRITES_LOCK = threading.Lock()
WRITES = open(os.environ["CINN_LOAD_WRITES"], "a") if os.environ.get("CINN_LOAD_WRITES") else None
SEARCHES = ["apple", "greek yog", "chicken brea", "oat", "banana", "rice", "egg", "milk", "bread", "cheese", "salmon", "pasta"]
WAIT = os.environ.get("CINN_LOAD_WAIT", "0")


def wait_time_from(text: str):
    if "-" in text:
        low, high = text.split("-")
        return between(float(low), float(high))
    return constant(float(text))


def record(kind: str, identifier: str) -> None:
    if WRITES is None:
        return
    with WRITES_LOCK:
        WRITES.write(f"{kind} {identifier}\n")
        WRITES.flush()


class Person(FastHttpUser):
    wait_time = wait_time_from(WAIT)
    # nginx's certificate is self-signed in the test.
    insecure = True

    def on_start(self) -> None:
        user = USERS[next(NEXT) % len(USERS)]
        self.name = user["name"]
        self.auth = {"Authorization": "Bearer " + user["token"]}
        self.cursor = None

    def day(self) -> str:
        return (dt.date.today() - dt.timedelta(days=random.randrange(0, 60))).isoformat()

    @task(12)
    def dashboard(self) -> None:
        self.client.get("/", headers=self.auth, name="GET / (dashboard)")

    @task(14)
    def trend(self) -> None:
        self.client.get("/api/v1/trend?range=quarter", headers=self.auth, name="GET /api/v1/trend")

    @task(10)
    def food_day(self) -> None:
        self.client.get(f"/food/{self.day()}", headers=self.auth, name="GET /food/{date}")

    @task(12)
    def food_search(self) -> None:
        self.client.get("/api/v1/foods/search?q=" + random.choice(SEARCHES).replace(" ", "+"), headers=self.auth,
                        name="GET /api/v1/foods/search")

    @task(6)
    def log_food(self) -> None:
        entry = {"id": str(uuid.uuid4()), "name": "Lunch out", "energy_kcal": random.randint(200, 900),
                 "protein_g": random.randint(5, 40), "meal": "lunch"}
        with self.client.post("/api/v1/food-entries", json={"entries": [entry]}, headers=self.auth,
                              name="POST /api/v1/food-entries", catch_response=True) as answer:
            if answer.status_code == 201:
                record("food_entry", entry["id"])
                answer.success()
            else:
                answer.failure(f"HTTP {answer.status_code}")

    @task(5)
    def weigh_in(self) -> None:
        identifier = str(uuid.uuid4())
        body = {"id": identifier, "weight": round(random.uniform(70, 90), 1), "confirm": True}
        with self.client.post("/api/v1/weigh-ins", json=body, headers=self.auth, name="POST /api/v1/weigh-ins",
                              catch_response=True) as answer:
            if answer.status_code == 201:
                record("weigh_in", identifier)
                answer.success()
            else:
                answer.failure(f"HTTP {answer.status_code}")

    @task(8)
    def glucose_page(self) -> None:
        self.client.get("/glucose", headers=self.auth, name="GET /glucose")

    @task(8)
    def glucose_report(self) -> None:
        self.client.get("/api/v1/glucose/report?days=14", headers=self.auth, name="GET /api/v1/glucose/report")

    @task(10)
    def sync_pull(self) -> None:
        query = "?limit=500" + (f"&after={self.cursor}" if self.cursor else "")
        with self.client.get("/api/v1/sync/changes" + query, headers=self.auth, name="GET /api/v1/sync/changes",
                             catch_response=True) as answer:
            if answer.status_code == 200:
                self.cursor = answer.json().get("next") or self.cursor
                answer.success()
            else:
                answer.failure(f"HTTP {answer.status_code}")

    @task(5)
    def sync_push(self) -> None:
        identifier = str(uuid.uuid4())
        now = dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
        change = {"type": "glucose_reading", "id": identifier, "changed_at": now,
                  "fields": {"measured_at": now, "mg_dl": random.randint(70, 180)}}
        with self.client.post("/api/v1/sync/push", json={"changes": [change]}, headers=self.auth, name="POST /api/v1/sync/push",
                              catch_response=True) as answer:
            if answer.status_code == 200 and answer.json()["results"][0]["status"] == "applied":
                record("glucose_reading", identifier)
                answer.success()
            else:
                answer.failure(f"HTTP {answer.status_code}: {answer.text[:200]}")

    @task(10)
    def glance(self) -> None:
        self.client.get("/api/v1/glance", headers=self.auth, name="GET /api/v1/glance")


@events.quitting.add_listener
def close_writes(environment, **kwargs) -> None:
    if WRITES is not None:
        WRITES.close()
