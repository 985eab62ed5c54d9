#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance,
# run on node 22: 0.1.14 and later will not start on node 20) against relavium.
#
#   .ci/conformance.sh server   the SERVER suite against `relavium demo-server
#                               --transport http --port 0`; all 30 scenarios
#                               of the default suite must pass, and the demo
#                               server must then shut down cleanly on SIGINT
#   .ci/conformance.sh client   the CLIENT scenarios initialize, tools_call,
#                               elicitation-sep1034-client-defaults and
#                               sse-retry, with relavium as the client
#                               (testdata/conformance/client.sh), once per
#                               protocol era the suite has scenarios for
#                               (CLIENT_PROTOCOLS: the 2025-11-25 default and
#                               auto; the suite has none for 2026-07-28); all
#                               must pass; then every OAuth scenario (auth/…:
#                               the 2025-11-25, 2025-06-18 and 2025-03-26 ones
#                               and the draft ones) once, through the same
#                               adapter
#
# Environment: RELAVIUM_BIN (default <repo>/bin/relavium), RELAVIUM_PEERS
# (default <repo>/.peers; .ci/peers.sh installs it when incomplete).
# Every process this script starts is killed, with its children, on any exit.
set -euo pipefail
set -m # job control: each background job leads its own process group

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${RELAVIUM_BIN:-$ROOT/bin/relavium}
export RELAVIUM_PEERS=${RELAVIUM_PEERS:-$ROOT/.peers}
NODE22=$RELAVIUM_PEERS/node22/node_modules/.bin/node
CONF=$RELAVIUM_PEERS/node_modules/@modelcontextprotocol/conformance/dist/index.js
SERVER_SCENARIOS=30
CLIENT_SCENARIOS=(initialize tools_call elicitation-sep1034-client-defaults sse-retry)
CLIENT_PROTOCOLS=(2025-11-25 auto)
AUTH_SCENARIOS=(
	auth/metadata-default auth/metadata-var1 auth/metadata-var2 auth/metadata-var3
	auth/basic-cimd auth/scope-from-www-authenticate auth/scope-from-scopes-supported
	auth/scope-omitted-when-undefined auth/scope-step-up auth/scope-retry-limit
	auth/token-endpoint-auth-basic auth/token-endpoint-auth-post auth/token-endpoint-auth-none
	auth/pre-registration auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback
	auth/resource-mismatch auth/offline-access-scope auth/offline-access-not-supported)

die() {
	printf 'conformance: %s\n' "$*" >&2
	exit 1
}

MODE=${1:-server}
case "$MODE" in server | client) ;; *) die "usage: $0 server|client" ;; esac
[ -x "$BIN" ] || die "no relavium binary at $BIN (run make build)"
if [ ! -x "$NODE22" ] || [ ! -f "$CONF" ]; then
	"$ROOT/.ci/peers.sh" "$RELAVIUM_PEERS" >/dev/null
fi

WORK=$(mktemp -d)
GROUPS_STARTED=()

# cleanup kills every process group this script started (TERM, then KILL
# after 5 s) and removes the work folder.
cleanup() {
	local rc=$? g i
	for g in "${GROUPS_STARTED[@]}"; do
		kill -TERM -- "-$g" 2>/dev/null || true
	done
	for g in "${GROUPS_STARTED[@]}"; do
		for i in $(seq 50); do
			kill -0 -- "-$g" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL -- "-$g" 2>/dev/null || true
	done
	rm -rf "$WORK"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# judge DIR: prints "<passed> <total>" scenarios of a results folder and
# lists, on stderr, every check that is neither SUCCESS nor INFO.
judge() {
	"$NODE22" -e '
		const fs = require("fs"), path = require("path");
		const dir = process.argv[1];
		let ok = 0, total = 0;
		for (const e of fs.readdirSync(dir)) {
			const f = path.join(dir, e, "checks.json");
			if (!fs.existsSync(f)) continue;
			total++;
			const bad = JSON.parse(fs.readFileSync(f, "utf8")).filter(c => c.status !== "SUCCESS" && c.status !== "INFO");
			if (bad.length === 0) { ok++; continue; }
			for (const c of bad) console.error(`  ${e}: ${c.id} ${c.status} ${c.errorMessage || ""}`);
		}
		console.log(`${ok} ${total}`);
	' "$1"
}

run_server() {
	# The file exists before the job starts: the job opens it for its stderr
	# only once it runs, and a poll that came first would fail on no file.
	: >"$WORK/demo.err"
	"$BIN" demo-server --transport http --host 127.0.0.1 --port 0 2>"$WORK/demo.err" &
	local demo=$!
	GROUPS_STARTED+=("$demo")
	local url="" i
	for i in $(seq 100); do
		url=$(sed -n 's/^relavium demo-server: listening on //p' "$WORK/demo.err")
		[ -n "$url" ] && break
		kill -0 "$demo" 2>/dev/null || die "demo-server exited: $(cat "$WORK/demo.err")"
		sleep 0.1
	done
	[ -n "$url" ] || die "demo-server printed no url within 10 s"
	echo "conformance: server suite against $url"

	"$NODE22" "$CONF" server --url "$url" -o "$WORK/server" >"$WORK/server.out" 2>&1 &
	local suite=$!
	GROUPS_STARTED+=("$suite")
	local rc=0
	wait "$suite" || rc=$?
	sed -n '/=== SUMMARY ===/,$p' "$WORK/server.out"
	local verdict passed total
	verdict=$(judge "$WORK/server")
	read -r passed total <<<"$verdict"

	# The demo server must stop cleanly (exit 0) on SIGINT.
	kill -INT "$demo"
	local drc=0
	wait "$demo" || drc=$?
	[ -s "$WORK/demo.err" ] && sed 's/^/  demo-server: /' "$WORK/demo.err"

	echo "conformance: server $passed/$SERVER_SCENARIOS scenarios passed (suite exit $rc, demo-server exit $drc)"
	if [ "$rc" -ne 0 ] || [ "$passed" -ne "$SERVER_SCENARIOS" ] || [ "$total" -ne "$SERVER_SCENARIOS" ] || [ "$drc" -ne 0 ]; then
		[ "$rc" -ne 0 ] && tail -n 40 "$WORK/server.out"
		die "server suite failed"
	fi
}

# client_one SCENARIO LABEL: runs one client scenario through the adapter
# and counts it in passed/failed.
client_one() {
	local s=$1 label=$2 rc=0 out
	out="$WORK/client-${label//[^A-Za-z0-9_.-]/-}"
	"$NODE22" "$CONF" client --command "bash $ROOT/testdata/conformance/client.sh" \
		--scenario "$s" --timeout 30000 -o "$out" >"$out.out" 2>&1 &
	local pid=$!
	GROUPS_STARTED+=("$pid")
	wait "$pid" || rc=$?
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1))
		echo "conformance: client $label PASS"
	else
		failed=$((failed + 1))
		echo "conformance: client $label FAIL (exit $rc)"
		tail -n 25 "$out.out" | sed 's/^/  /'
		find "$out" -name 'stderr.txt' -exec sed 's/^/  relavium stderr: /' {} \; 2>/dev/null | tail -n 10
	fi
}

run_client() {
	local s p failed=0 passed=0
	export RELAVIUM_BIN="$BIN"
	for p in "${CLIENT_PROTOCOLS[@]}"; do
		export RELAVIUM_PROTOCOL="$p"
		for s in "${CLIENT_SCENARIOS[@]}"; do
			client_one "$s" "$s (protocol $p)"
		done
	done
	# The OAuth scenarios declare their server in config (the adapter's
	# auth_scenario): run once, at the default protocol.
	unset RELAVIUM_PROTOCOL
	for s in "${AUTH_SCENARIOS[@]}"; do
		client_one "$s" "$s"
	done
	local total=$((${#CLIENT_SCENARIOS[@]} * ${#CLIENT_PROTOCOLS[@]} + ${#AUTH_SCENARIOS[@]}))
	echo "conformance: client $passed/$total scenarios passed"
	[ "$failed" -eq 0 ] || die "client scenarios failed"
}

"run_$MODE"
