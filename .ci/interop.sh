#!/usr/bin/env bash
# make interop: relavium against pinned real peers from npm (.ci/peers.sh),
# one row per peer and verb, and a failure of any row fails the run.
#   - relavium as a client: the TypeScript SDK 1.32.2 example servers
#     (stateless, JSON response, SSE polling, elicitation, output schema,
#     tasks, standalone GET, --oauth with its demo authorization server and
#     a $BROWSER script), an authorization server built with the SDK's
#     mcpAuthRouter that issues refresh tokens, the reference servers (stdio);
#   - relavium as a server: inspector-cli 1.0.3 and Inspector v2 (2.12
#     --cli) as clients of `relavium mcp serve`, `relavium demo-server` and
#     `relavium replay FILE`.
# The SDK's example servers listen on fixed loopback ports (3000, 3001,
# 8000): they run one at a time, each stopped (by its pid) before the next.
#
# Usage: RELAVIUM_BIN=bin/relavium RELAVIUM_PEERS=.peers .ci/interop.sh
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${RELAVIUM_BIN:-$ROOT/bin/relavium}
P=${RELAVIUM_PEERS:-$ROOT/.peers}
NODE=$P/node22/node_modules/.bin/node
SDK=$P/node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server
INSPECTOR_CLI=$P/node_modules/.bin/mcp-inspector-cli
INSPECTOR2=$P/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js
MODS=$P/node_modules

for f in "$BIN" "$NODE" "$SDK/simpleStreamableHttp.js" "$INSPECTOR_CLI" "$INSPECTOR2"; do
	[ -e "$f" ] || { echo "interop: $f is missing (make build peers)" >&2; exit 1; }
done

W=$(mktemp -d)
export RELAVIUM_HOME=$W/home
PROJECT=$W/project
mkdir -p "$RELAVIUM_HOME" "$PROJECT/.relavium" "$W/logs"
SERVER_PID=""
cleanup() {
	stop_server
	rm -rf "$W"
}
trap cleanup EXIT

ROWS=()
FAILED=0
N=0
# row PEER VERB EXPECT CMD...: runs CMD (its output in a log), passes when
# it exits 0 and its stdout holds EXPECT.
row() {
	local peer=$1 verb=$2 expect=$3
	shift 3
	N=$((N + 1))
	local log=$W/logs/$N.log
	local out
	out=$("$@" 2>"$log.err")
	local rc=$?
	printf '%s\n' "$out" >"$log"
	if [ $rc -eq 0 ] && grep -qF -- "$expect" "$log"; then
		ROWS+=("$peer|$verb|ok|")
	else
		FAILED=$((FAILED + 1))
		ROWS+=("$peer|$verb|FAIL|exit $rc; wanted ${expect@Q}")
		{
			echo "--- $peer $verb: exit $rc; stdout and stderr:"
			head -c 2000 "$log"
			head -c 2000 "$log.err"
			echo
		} >&2
	fi
}

# refused PEER VERB EXPECT CMD...: passes when CMD fails and its stderr
# holds EXPECT (an error relavium must name).
refused() {
	local peer=$1 verb=$2 expect=$3
	shift 3
	N=$((N + 1))
	local log=$W/logs/$N.log
	"$@" >"$log" 2>"$log.err"
	local rc=$?
	if [ $rc -ne 0 ] && grep -qF -- "$expect" "$log.err"; then
		ROWS+=("$peer|$verb|ok|")
	else
		FAILED=$((FAILED + 1))
		ROWS+=("$peer|$verb|FAIL|exit $rc; wanted ${expect@Q} on stderr")
		{
			echo "--- $peer $verb: exit $rc; stderr:"
			head -c 2000 "$log.err"
			echo
		} >&2
	fi
}

# start_server NAME PORT SCRIPT ARGS...: an SDK example server, up when its
# port answers.
start_server() {
	local port=$2 script=$3
	shift 3
	(cd "$P/w" && exec env PORT="$port" "$NODE" "$SDK/$script" "$@" >"$W/logs/server-$script.log" 2>&1) &
	SERVER_PID=$!
	for _ in $(seq 100); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			return 0
		fi
		sleep 0.1
	done
	echo "interop: $script did not listen on $port" >&2
	return 1
}
stop_server() {
	if [ -n "$SERVER_PID" ]; then
		kill "$SERVER_PID" 2>/dev/null
		wait "$SERVER_PID" 2>/dev/null
		SERVER_PID=""
	fi
}

# Every command of a row runs under a deadline (rl and the clients below).
rl() { timeout 120 "$BIN" --project "$PROJECT" "$@"; }
# digest CMDLINE: the consent digest of an ad-hoc --stdio server.
digest() {
	rl mcp ls --json --stdio "$1" 2>/dev/null | sed -n 's/.*"digest":"\(v1:[0-9a-f]*\)".*/\1/p' | head -n1
}
adhoc() {
	local cmd=$1
	shift
	rl "$@" --stdio "$cmd" --allow-mcp-stdio "$(digest "$cmd")"
}
url() {
	local u=$1
	shift
	rl "$@" --url "$u" --allow-local-endpoint
}

# --- relavium as a client: the TypeScript SDK's example servers ---------
if start_server stateless 3000 simpleStatelessStreamableHttp.js; then
	row "sdk stateless" "mcp ls" "start-notification-stream" url http://localhost:3000/mcp mcp ls
	row "sdk stateless" "mcp call" "Started sending periodic notifications" url http://localhost:3000/mcp mcp call mcp_adhoc_start-notification-stream interval=10 count=2 --yes
	row "sdk stateless" "mcp prompts" "greeting-template" url http://localhost:3000/mcp mcp prompts
	row "sdk stateless" "mcp resources" "greeting-resource" url http://localhost:3000/mcp mcp resources
fi
stop_server
if start_server json 3000 jsonResponseStreamableHttp.js; then
	row "sdk JSON response" "mcp ls" "greet" url http://localhost:3000/mcp mcp ls
	row "sdk JSON response" "mcp call" "Hello, interop" url http://localhost:3000/mcp mcp call mcp_adhoc_greet name=interop --yes
fi
stop_server
if start_server polling 3001 ssePollingExample.js; then
	row "sdk SSE polling" "mcp ls" "long-task" url http://localhost:3001/mcp mcp ls
	row "sdk SSE polling" "mcp call" "completed" url http://localhost:3001/mcp mcp call mcp_adhoc_long-task --yes
fi
stop_server
if start_server elicitation 3000 elicitationFormExample.js; then
	row "sdk elicitation" "mcp ls" "register_user" url http://localhost:3000/mcp mcp ls
	row "sdk elicitation" "mcp call --elicit decline" "cancel" url http://localhost:3000/mcp mcp call mcp_adhoc_register_user --yes --elicit decline
fi
stop_server
row "sdk output schema" "mcp ls" "get_weather" adhoc "$NODE $SDK/mcpServerOutputSchema.js" mcp ls
row "sdk output schema" "mcp call" "temperature" adhoc "$NODE $SDK/mcpServerOutputSchema.js" mcp call mcp_adhoc_get_weather city=Paris country=France --yes
if start_server tasks 8000 simpleTaskInteractive.js; then
	row "sdk tasks" "mcp ls" "confirm_delete" url http://localhost:8000/mcp mcp ls
fi
stop_server
if start_server standalone 3000 standaloneSseWithGetStreamableHttp.js; then
	row "sdk standalone GET" "mcp ls" "adhoc" url http://localhost:3000/mcp mcp ls
	row "sdk standalone GET" "mcp resources" "RESOURCES" url http://localhost:3000/mcp mcp resources
fi
stop_server

# --oauth: sign in with the demo authorization server through a $BROWSER
# script that follows the authorization url to relavium's loopback callback.
cat >"$W/browser.sh" <<SH
#!/bin/sh
exec "$NODE" -e 'fetch(process.argv[1], {redirect: "follow", signal: AbortSignal.timeout(30000)}).then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "\$1"
SH
chmod +x "$W/browser.sh"
cat >"$PROJECT/.relavium/config.toml" <<'TOML'
[[mcp_servers]]
name = "oauthdemo"
transport = "http"
url = "http://localhost:3000/mcp"
allow_local_endpoint = true
oauth = { allow_local_auth = ["localhost:3001"] }
TOML
if start_server oauth 3000 simpleStreamableHttp.js --oauth; then
	for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/3001) 2>/dev/null && break; sleep 0.1; done
	refused "sdk --oauth" "mcp ls, signed out: E850" "run: relavium auth login oauthdemo" rl mcp ls
	row "sdk --oauth" "auth login (\$BROWSER)" "signed in to oauthdemo" env BROWSER="$W/browser.sh" timeout 120 "$BIN" --project "$PROJECT" auth login oauthdemo
	row "sdk --oauth" "mcp ls" "mcp_oauthdemo_greet" rl mcp ls
	row "sdk --oauth" "mcp call" "Hello, interop" rl mcp call mcp_oauthdemo_greet name=interop --yes
fi
stop_server
rm -f "$PROJECT/.relavium/config.toml"

# mcpAuthRouter: an authorization server built with the SDK's own auth router
# (authrouter.mjs, below) that issues 2 s access tokens and refresh tokens,
# refusing a refresh without the resource (RFC 8707). Signed in through the
# $BROWSER script; a call after the access token died must refresh (with the
# resource: the refused count stays 0) instead of asking to sign in again.
cat >"$W/authrouter.mjs" <<'JS'
// An authorization server built with the TypeScript SDK's mcpAuthRouter and
// an in-memory OAuthServerProvider (dynamic registration, an authorize step
// that redirects straight back with a code, PKCE checked by the router,
// access tokens that live 2 s, refresh tokens issued and honoured — only
// with the RFC 8707 resource), and on the same origin an MCP server behind
// requireBearerAuth whose one tool, refreshes, answers how many refreshes
// were honoured and refused. It listens on a free loopback port and writes
// the port to the file named by PORT_FILE.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
const sdk = process.env.SDK_ESM;
const { mcpAuthRouter, getOAuthProtectedResourceMetadataUrl } = await import(`${sdk}/server/auth/router.js`);
const { requireBearerAuth } = await import(`${sdk}/server/auth/middleware/bearerAuth.js`);
const { InvalidGrantError, InvalidTargetError, InvalidRequestError, InvalidTokenError } = await import(`${sdk}/server/auth/errors.js`);
const { createMcpExpressApp } = await import(`${sdk}/server/express.js`);
const { McpServer } = await import(`${sdk}/server/mcp.js`);
const { StreamableHTTPServerTransport } = await import(`${sdk}/server/streamableHttp.js`);

const LIFE = 2; // seconds an access token lives
const http = createServer();
await new Promise(ok => http.listen(0, '127.0.0.1', ok));
const port = http.address().port;
const issuer = new URL(`http://localhost:${port}/`);
const mcpUrl = new URL(`http://localhost:${port}/mcp`);
const same = (r, u) => r !== undefined && new URL(r).href === u.href;

const clients = new Map();
const codes = new Map();
const access = new Map();
const refresh = new Map();
let refreshes = 0;
let refused = 0;
const issue = (clientId, scopes, resource) => {
	const token = randomUUID();
	const rt = randomUUID();
	access.set(token, { clientId, scopes, resource, expiresAt: Date.now() + LIFE * 1000 });
	refresh.set(rt, { clientId, scopes, resource });
	return { access_token: token, token_type: 'bearer', expires_in: LIFE, refresh_token: rt, scope: scopes.join(' ') };
};
const provider = {
	clientsStore: {
		getClient: id => clients.get(id),
		registerClient: c => {
			const full = { ...c, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) };
			clients.set(full.client_id, full);
			return full;
		}
	},
	async authorize(client, params, res) {
		if (!client.redirect_uris.includes(params.redirectUri)) throw new InvalidRequestError('unregistered redirect_uri');
		const code = randomUUID();
		codes.set(code, { clientId: client.client_id, params });
		const to = new URL(params.redirectUri);
		to.searchParams.set('code', code);
		if (params.state !== undefined) to.searchParams.set('state', params.state);
		res.redirect(to.href);
	},
	async challengeForAuthorizationCode(_client, code) {
		const c = codes.get(code);
		if (!c) throw new InvalidGrantError('unknown authorization code');
		return c.params.codeChallenge;
	},
	async exchangeAuthorizationCode(client, code, _verifier, _redirectUri, resource) {
		const c = codes.get(code);
		if (!c || c.clientId !== client.client_id) throw new InvalidGrantError('unknown authorization code');
		codes.delete(code);
		if (!same(resource?.href, mcpUrl)) throw new InvalidTargetError(`resource must be ${mcpUrl.href}`);
		return issue(client.client_id, c.params.scopes || [], mcpUrl.href);
	},
	async exchangeRefreshToken(client, token, scopes, resource) {
		const r = refresh.get(token);
		if (!r || r.clientId !== client.client_id) throw new InvalidGrantError('unknown refresh token');
		if (!same(resource?.href, mcpUrl)) {
			refused++;
			console.error(`refresh refused: resource ${resource?.href ?? '(none)'}`);
			throw new InvalidTargetError(`a refresh must name the resource ${mcpUrl.href} (RFC 8707)`);
		}
		refresh.delete(token);
		refreshes++;
		console.error(`refresh honoured: resource ${resource.href}`);
		return issue(client.client_id, scopes || r.scopes, r.resource);
	},
	async verifyAccessToken(token) {
		const t = access.get(token);
		if (!t) throw new InvalidTokenError('unknown access token');
		return { token, clientId: t.clientId, scopes: t.scopes, expiresAt: Math.floor(t.expiresAt / 1000), resource: new URL(t.resource) };
	}
};

const app = createMcpExpressApp();
app.use(mcpAuthRouter({ provider, issuerUrl: issuer, resourceServerUrl: mcpUrl, resourceName: 'authrouter interop' }));
const auth = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl), expectedResource: mcpUrl });
app.post('/mcp', auth, async (req, res) => {
	const server = new McpServer({ name: 'authrouter-interop', version: '1.0.0' });
	server.registerTool('refreshes', { description: 'How many refreshes the authorization server honoured and refused' }, async () => ({
		content: [{ type: 'text', text: `refreshes=${refreshes} refused=${refused}` }]
	}));
	const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
	res.on('close', () => {
		transport.close();
		server.close();
	});
	await server.connect(transport);
	await transport.handleRequest(req, res, req.body);
});
app.all('/mcp', (_req, res) => res.status(405).set('Allow', 'POST').end());
http.on('request', app);
writeFileSync(process.env.PORT_FILE, String(port));
JS
# refreshed_since N: a call whose answer shows more refreshes than N and none
# refused.
refreshed_since() {
	local out n
	out=$(rl mcp call mcp_authrouter_refreshes --yes) || return 1
	printf '%s\n' "$out"
	n=$(printf '%s\n' "$out" | sed -n 's/.*refreshes=\([0-9]*\) refused=0.*/\1/p' | head -n1)
	[ -n "$n" ] && [ "$n" -gt "$1" ] && echo "refreshes rose from $1 to $n"
}
(cd "$P/w" && exec env SDK_ESM="$MODS/@modelcontextprotocol/sdk/dist/esm" PORT_FILE="$W/authrouter.port" "$NODE" "$W/authrouter.mjs" >"$W/logs/server-authrouter.log" 2>&1) &
SERVER_PID=$!
for _ in $(seq 100); do [ -s "$W/authrouter.port" ] && break; sleep 0.1; done
if [ -s "$W/authrouter.port" ]; then
	AR=$(cat "$W/authrouter.port")
	printf '[[mcp_servers]]\nname = "authrouter"\ntransport = "http"\nurl = "http://localhost:%s/mcp"\nallow_local_endpoint = true\noauth = { allow_local_auth = ["localhost:%s"] }\n' "$AR" "$AR" >"$PROJECT/.relavium/config.toml"
	row "sdk mcpAuthRouter" "auth login (\$BROWSER)" "signed in to authrouter" env BROWSER="$W/browser.sh" timeout 120 "$BIN" --project "$PROJECT" auth login authrouter
	row "sdk mcpAuthRouter" "mcp call" "refused=0" rl mcp call mcp_authrouter_refreshes --yes
	BEFORE=$(sed -n 's/.*refreshes=\([0-9]*\).*/\1/p' "$W/logs/$N.log" | head -n1)
	sleep 3 # past the access token's 2 s life
	row "sdk mcpAuthRouter" "mcp call, token expired" "refreshes rose" refreshed_since "${BEFORE:-0}"
else
	echo "interop: authrouter.mjs did not start" >&2
	FAILED=$((FAILED + 1))
	ROWS+=("sdk mcpAuthRouter|start|FAIL|see server-authrouter.log")
fi
stop_server
rm -f "$PROJECT/.relavium/config.toml"

# --- relavium as a client: the reference servers (stdio) ----------------
EVERY="$NODE $MODS/@modelcontextprotocol/server-everything/dist/index.js stdio"
row "server-everything" "mcp ls" "mcp_adhoc_echo" adhoc "$EVERY" mcp ls
row "server-everything" "mcp call" "Echo: interop" adhoc "$EVERY" mcp call mcp_adhoc_echo message=interop --yes
row "server-everything" "mcp prompts" "simple-prompt" adhoc "$EVERY" mcp prompts
row "server-everything" "mcp prompt" "[user]" adhoc "$EVERY" mcp prompt simple-prompt
row "server-everything" "mcp resources" "TEMPLATES" adhoc "$EVERY" mcp resources
FS="$NODE $MODS/@modelcontextprotocol/server-filesystem/dist/index.js $PROJECT"
row "server-filesystem" "mcp ls" "mcp_adhoc_read_text_file" adhoc "$FS" mcp ls
row "server-filesystem" "mcp call" ".relavium" adhoc "$FS" mcp call mcp_adhoc_list_directory path="$PROJECT" --yes
row "server-memory" "mcp ls" "mcp_adhoc_create_entities" adhoc "$NODE $MODS/@modelcontextprotocol/server-memory/dist/index.js" mcp ls
row "server-sequential-thinking" "mcp ls" "mcp_adhoc_sequentialthinking" adhoc "$NODE $MODS/@modelcontextprotocol/server-sequential-thinking/dist/index.js" mcp ls

# --- relavium as a server: the Inspectors as clients ---------------------
printf '[[mcp_servers]]\nname = "demo"\ntransport = "stdio"\ncommand = "%s"\nargs = ["demo-server"]\n' "$BIN" >"$PROJECT/.relavium/config.toml"
rl consent grant demo --yes >/dev/null 2>&1
REC=$W/demo.ndjson
rl --record "$REC" mcp call mcp_demo_add_numbers a=1 b=2 --yes >/dev/null 2>&1
inspector_cli() { (cd "$P/w" && timeout 120 "$INSPECTOR_CLI" --cli "$@"); }
inspector2() { (cd "$P/w" && timeout 120 "$NODE" "$INSPECTOR2" --cli "$@"); }
for client in inspector-cli inspector2; do
	name="inspector-cli 1.0.3"
	run=inspector_cli
	if [ $client = inspector2 ]; then
		name="Inspector 2.12 --cli"
		run=inspector2
	fi
	row "$name → demo-server" "tools/list" '"add_numbers"' $run "$BIN" demo-server --method tools/list
	row "$name → demo-server" "tools/call" "The sum of 1 and 2 is 3." $run "$BIN" demo-server --method tools/call --tool-name add_numbers --tool-arg a=1 --tool-arg b=2
	row "$name → demo-server" "resources/list" "test://static-text" $run "$BIN" demo-server --method resources/list
	row "$name → demo-server" "prompts/list" "test_simple_prompt" $run "$BIN" demo-server --method prompts/list
	row "$name → replay" "tools/list" '"add_numbers"' $run "$BIN" replay "$REC" --method tools/list
	row "$name → replay" "tools/call" "The sum of 1 and 2 is 3." $run "$BIN" replay "$REC" --method tools/call --tool-name add_numbers --tool-arg a=1 --tool-arg b=2
	# The Inspectors pass a stdio server a default environment only: the
	# home that holds the demo's consent is given with -e.
	row "$name → mcp serve" "tools/list" "relavium-mcp-ls" $run -e RELAVIUM_HOME="$RELAVIUM_HOME" "$BIN" --project "$PROJECT" mcp serve --method tools/list
	row "$name → mcp serve" "tools/call" '"state": "ready"' $run -e RELAVIUM_HOME="$RELAVIUM_HOME" "$BIN" --project "$PROJECT" mcp serve --method tools/call --tool-name relavium-mcp-ls
done

# --- the table ------------------------------------------------------------
printf '\n%-34s %-28s %s\n' PEER VERB RESULT
for r in "${ROWS[@]}"; do
	IFS='|' read -r peer verb res why <<<"$r"
	printf '%-34s %-28s %s %s\n' "$peer" "$verb" "$res" "$why"
done
echo
echo "interop: $((N - FAILED)) passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
