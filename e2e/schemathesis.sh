#!/usr/bin/env bash
# The JSON API against its own OpenAPI document, with Schemathesis (pinned in e2e/requirements.txt), in both
# modes: `cinn serve --demo` (single-user) and `cinn serve --accounts` with a bearer token (hosted; the
# operation that revokes tokens is left out so the run keeps its own). Fails on any 5xx, any status the document
# does not list, any response that does not match its schema or content type, any request the document forbids
# that is accepted, and any it allows that is refused (except the 422s e2e/schemathesis.toml explains).
#
#     e2e/schemathesis.sh .build/debug/cinn [PYTHON]      # PYTHON: one with schemathesis (default .venv/bin/python)
#
# Each mode runs on three seeds (SCHEMATHESIS_SEEDS, "1 2 3"), every phase: the document's examples, coverage of its
# edges, fuzzing, and the stateful phase (sequences of calls, each using what an earlier one answered: an id made by
# a POST read, changed and deleted). Every server it starts is stopped by its PID; reports stay in
# artifacts/schemathesis/.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CINN="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
PYTHON="${2:-$ROOT/.venv/bin/python}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/cinn-schemathesis.XXXXXX")"
REPORTS="$ROOT/artifacts/schemathesis"
mkdir -p "$REPORTS"
SERVER=""
stop_server() {
    [[ -n $SERVER ]] || return 0
    kill "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
    SERVER=""
}
trap 'stop_server; rm -rf "$WORK"' EXIT

# Starts `cinn serve ARGS… --port 0` and sets PORT from its "Listening on" line.
start_server() {
    local log="$WORK/serve-$1.log"
    shift
    "$CINN" serve --port 0 --off-url none "$@" >"$log" 2>&1 &
    SERVER=$!
    for _ in $(seq 1 600); do
        PORT=$(sed -n 's/^Listening on http:\/\/127\.0\.0\.1:\([0-9]*\)$/\1/p' "$log")
        [[ -n $PORT ]] && return 0
        kill -0 "$SERVER" 2>/dev/null || { cat "$log" >&2; echo "cinn serve stopped" >&2; return 1; }
        sleep 0.2
    done
    echo "cinn serve did not start within 120 s" >&2
    return 1
}

SEEDS=${SCHEMATHESIS_SEEDS:-1 2 3}

run_schemathesis() {
    local name=$1
    shift
    local seed
    for seed in $SEEDS; do
        echo "-- seed $seed"
        timeout 900 "$PYTHON" -m schemathesis.cli --config-file "$ROOT/e2e/schemathesis.toml" \
            run "http://127.0.0.1:$PORT/api/openapi.yaml" --url "http://127.0.0.1:$PORT" \
            --checks not_a_server_error,status_code_conformance,response_schema_conformance,content_type_conformance,negative_data_rejection,positive_data_acceptance \
            --phases examples,coverage,fuzzing,stateful --max-examples 25 --workers 1 --request-timeout 20 --seed "$seed" --continue-on-failure \
            --report junit --report-dir "$REPORTS/$name-seed-$seed" --no-color "$@"
    done
}

echo "---- single-user mode (cinn serve --demo)"
start_server single --demo --database "$WORK/single.sqlite"
run_schemathesis single
stop_server

echo "---- hosted mode (cinn serve --accounts, a bearer token)"
printf 'schemathesis-password\n' | "$CINN" user add probe --admin --database "$WORK/hosted.sqlite" >/dev/null
start_server hosted --accounts --database "$WORK/hosted.sqlite"
TOKEN=$("$PYTHON" - "$PORT" <<'PY'
import json, sys, urllib.request
body = json.dumps({"name": "probe", "password": "schemathesis-password", "token_name": "schemathesis"}).encode()
request = urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/api/v1/login", data=body, headers={"Content-Type": "application/json"})
print(json.load(urllib.request.urlopen(request, timeout=60))["token"])
PY
)
run_schemathesis hosted -H "Authorization: Bearer $TOKEN" --exclude-name 'DELETE /api/v1/tokens/{id}'
stop_server
echo "schemathesis: both modes conform"
