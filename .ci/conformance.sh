#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance,
# run on node 22: 0.1.14 and later will not start on node 20) against relavium.
#
#   .ci/conformance.sh server   the SERVER suites against `relavium demo-server
#                               --transport http --port 0`: 0.1.16's default
#                               suite (all 30 scenarios must pass, then the
#                               demo server must shut down cleanly on SIGINT),
#                               then 0.2.0-alpha.12 `--requirements
#                               2026-07-28` against a fresh demo server:
#                               every scored scenario must pass; the
#                               extension and pending ones (tasks, header
#                               validation, 2020-12) are run and printed
#   .ci/conformance.sh client   the CLIENT scenarios of 0.1.16: initialize,
#                               tools_call, elicitation-sep1034-client-defaults
#                               and sse-retry, with relavium as the client
#                               (testdata/conformance/client.sh), once per
#                               protocol era that suite runs them in
#                               (CLIENT_PROTOCOLS: the 2025-11-25 default and
#                               auto), then every OAuth scenario (auth/…)
#                               once; then 0.2.0-alpha.12 `client
#                               --requirements 2026-07-28` through the same
#                               adapter, which runs each scenario in the era
#                               the suite asks for: every scored scenario must
#                               pass; the extension ones (client credentials,
#                               enterprise-managed, DPoP, workload identity)
#                               are run and printed
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
CONF02=$RELAVIUM_PEERS/node_modules/conformance02/dist/index.js
REQUIREMENTS=2026-07-28
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
if [ ! -x "$NODE22" ] || [ ! -f "$CONF" ] || [ ! -f "$CONF02" ]; then
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

# scored KIND: the scenarios the 0.2 suite scores for $REQUIREMENTS, one a
# line (KIND is Server or Client: the section of `list --requirements`
# before "Run and reported, but never scored").
scored() {
	"$NODE22" "$CONF02" list --requirements "$REQUIREMENTS" |
		sed -n "/^$1 scenarios/,/^\$/p" | sed -n 's/^  - //p'
}

# judge02 DIR SCORED_FILE PREFIX: prints "<passed> <total>" of the scored
# scenarios of a 0.2 results folder (a scenario's folder is
# [PREFIX]<name>-<timestamp>, auth ones under auth/), lists on stderr every
# failing check of a scored scenario, and prints every unscored
# scenario's result. A scored scenario with no results counts as failed.
judge02() {
	"$NODE22" -e '
		const fs = require("fs"), path = require("path");
		const [dir, scoredFile, prefix] = process.argv.slice(1);
		const scored = fs.readFileSync(scoredFile, "utf8").split("\n").filter(Boolean);
		const seen = new Map();
		const walk = (d, rel) => {
			for (const e of fs.readdirSync(d, { withFileTypes: true })) {
				if (!e.isDirectory()) continue;
				const f = path.join(d, e.name, "checks.json");
				if (!fs.existsSync(f)) { walk(path.join(d, e.name), rel + e.name + "/"); continue; }
				let name = rel + e.name.replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, "");
				if (prefix && name.startsWith(prefix)) name = name.slice(prefix.length);
				seen.set(name, JSON.parse(fs.readFileSync(f, "utf8")));
			}
		};
		walk(dir, "");
		let ok = 0;
		for (const s of scored) {
			const checks = seen.get(s);
			if (!checks) { console.error(`  ${s}: no result`); continue; }
			const bad = checks.filter(c => c.status !== "SUCCESS" && c.status !== "INFO" && c.status !== "SKIPPED");
			if (bad.length === 0) { ok++; continue; }
			for (const c of bad) console.error(`  ${s}: ${c.id} ${c.status} ${c.errorMessage || ""}`);
		}
		for (const [name, checks] of [...seen].sort()) {
			if (scored.includes(name)) continue;
			const bad = checks.filter(c => c.status !== "SUCCESS" && c.status !== "INFO" && c.status !== "SKIPPED").length;
			console.error(`  not scored: ${name}: ${bad === 0 ? "pass" : bad + " failing check(s)"}`);
		}
		console.log(`${ok} ${scored.length}`);
	' "$1" "$2" "$3"
}

run_server02() {
	: >"$WORK/demo02.err"
	"$BIN" demo-server --transport http --host 127.0.0.1 --port 0 2>"$WORK/demo02.err" &
	local demo=$!
	GROUPS_STARTED+=("$demo")
	local url="" i
	for i in $(seq 100); do
		url=$(sed -n 's/^relavium demo-server: listening on //p' "$WORK/demo02.err")
		[ -n "$url" ] && break
		kill -0 "$demo" 2>/dev/null || die "demo-server exited: $(cat "$WORK/demo02.err")"
		sleep 0.1
	done
	[ -n "$url" ] || die "demo-server printed no url within 10 s"
	echo "conformance: 0.2 server suite --requirements $REQUIREMENTS against $url"
	scored Server >"$WORK/scored-server"
	"$NODE22" "$CONF02" server --url "$url" --requirements "$REQUIREMENTS" -o "$WORK/server02" >"$WORK/server02.out" 2>&1 &
	local suite=$!
	GROUPS_STARTED+=("$suite")
	wait "$suite" || true
	local verdict passed total
	verdict=$(judge02 "$WORK/server02" "$WORK/scored-server" server-)
	read -r passed total <<<"$verdict"
	kill -INT "$demo"
	local drc=0
	wait "$demo" || drc=$?
	echo "conformance: 0.2 server $passed/$total scored scenarios passed (demo-server exit $drc)"
	if [ "$total" -lt 30 ] || [ "$passed" -ne "$total" ] || [ "$drc" -ne 0 ]; then
		tail -n 40 "$WORK/server02.out"
		die "0.2 server suite failed"
	fi
}

run_client02() {
	export RELAVIUM_BIN="$BIN"
	unset RELAVIUM_PROTOCOL # the adapter takes the era from the suite
	echo "conformance: 0.2 client suite --requirements $REQUIREMENTS"
	scored Client >"$WORK/scored-client"
	"$NODE22" "$CONF02" client --command "bash $ROOT/testdata/conformance/client.sh" \
		--requirements "$REQUIREMENTS" --timeout 30000 -o "$WORK/client02" >"$WORK/client02.out" 2>&1 &
	local suite=$!
	GROUPS_STARTED+=("$suite")
	wait "$suite" || true
	local verdict passed total
	verdict=$(judge02 "$WORK/client02" "$WORK/scored-client" "")
	read -r passed total <<<"$verdict"
	echo "conformance: 0.2 client $passed/$total scored scenarios passed"
	if [ "$total" -lt 30 ] || [ "$passed" -ne "$total" ]; then
		grep -E '^(✗|✓)' "$WORK/client02.out" || tail -n 40 "$WORK/client02.out"
		die "0.2 client suite failed"
	fi
}

"run_$MODE"
"run_${MODE}02"
