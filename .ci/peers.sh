#!/usr/bin/env bash
# Installs the third-party MCP peers relavium's tests run against into
# <repo>/.peers (gitignored):
#   - node 22 from the npm registry (npm install node@22) into .peers/node22
#     (conformance >= 0.1.14 will not start on node 20);
#   - @modelcontextprotocol/conformance (0.1.16, and 0.2.0-alpha.12 as
#     conformance02), server-everything, server-filesystem
#     and inspector-cli, pinned, into .peers/node_modules;
#   - the interop peers (make interop, the lint calibration and the Go tests
#     against real servers): the TypeScript SDK (its example servers and its
#     demo authorization server), Inspector v2 (its --cli), and popular npm
#     MCP servers, pinned, into the same node_modules.
# Cached: when every package is already present at its pinned version the
# script installs nothing. It prints the paths tests use.
#
# Usage: .ci/peers.sh [PEERS_DIR]   (default <repo>/.peers; RELAVIUM_PEERS also honoured)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
P=${1:-${RELAVIUM_PEERS:-$ROOT/.peers}}

# Pinned versions. Bump deliberately; the cache check compares them.
CONFORMANCE=0.1.16
# The 2026-07-28 suite, a prerelease, installed beside 0.1.16 under an alias.
CONFORMANCE02=0.2.0-alpha.12
EVERYTHING=2026.8.31
FILESYSTEM=2026.8.31
INSPECTOR_CLI=1.0.3
NODE_MAJOR=22

# The interop peers, NAME@VERSION each (make interop; the lint calibration).
INTEROP_PEERS=(
	@modelcontextprotocol/sdk@1.32.2
	@modelcontextprotocol/inspector@2.12.0
	@modelcontextprotocol/server-memory@2026.8.31
	@modelcontextprotocol/server-sequential-thinking@2026.8.31
	@modelcontextprotocol/server-github@2025.4.8
	@modelcontextprotocol/server-slack@2025.4.25
	@modelcontextprotocol/server-brave-search@0.6.2
	@modelcontextprotocol/server-google-maps@0.6.2
	@modelcontextprotocol/server-gitlab@2025.4.25
	@upstash/context7-mcp@4.1.1
	@playwright/mcp@0.0.83
	@notionhq/notion-mcp-server@2.5.2
	chrome-devtools-mcp@1.11.0
	@circleci/mcp-server-circleci@0.20.0
)

log() { printf 'peers: %s\n' "$*" >&2; }

. "$ROOT/.ci/retry.sh"

need_npm() {
	if command -v npm >/dev/null 2>&1; then
		return
	fi
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		log "npm missing: installing nodejs and npm with apt-get"
		export DEBIAN_FRONTEND=noninteractive
		retry apt-get update -qq >/dev/null
		retry apt-get install -y -qq nodejs npm >/dev/null
		return
	fi
	log "npm is not installed and cannot be installed here (need root and apt-get)"
	exit 1
}

# installed_version DIR PKG: the version field of DIR/node_modules/PKG/package.json, or "".
installed_version() {
	local f="$1/node_modules/$2/package.json"
	[ -f "$f" ] || return 0
	sed -n 's/^[[:space:]]*"version":[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | head -n1
}

interop_ok() {
	local spec
	for spec in "${INTEROP_PEERS[@]}"; do
		[ "$(installed_version "$P" "${spec%@*}")" = "${spec##*@}" ] || return 1
	done
}

peers_ok() {
	interop_ok &&
		[ "$(installed_version "$P" @modelcontextprotocol/conformance)" = "$CONFORMANCE" ] &&
		[ "$(installed_version "$P" conformance02)" = "$CONFORMANCE02" ] &&
		[ "$(installed_version "$P" @modelcontextprotocol/server-everything)" = "$EVERYTHING" ] &&
		[ "$(installed_version "$P" @modelcontextprotocol/server-filesystem)" = "$FILESYSTEM" ] &&
		[ "$(installed_version "$P" @modelcontextprotocol/inspector-cli)" = "$INSPECTOR_CLI" ]
}

node22_ok() {
	local n="$P/node22/node_modules/.bin/node"
	[ -x "$n" ] || return 1
	case "$("$n" --version 2>/dev/null)" in
	v"$NODE_MAJOR".*) return 0 ;;
	*) return 1 ;;
	esac
}

mkdir -p "$P"
if peers_ok; then
	log "npm peers cached in $P"
else
	need_npm
	log "installing npm peers into $P"
	(
		cd "$P"
		[ -f package.json ] || printf '{"name":"relavium-peers","private":true}\n' >package.json
		retry npm install --no-audit --no-fund --loglevel=error \
			"@modelcontextprotocol/conformance@$CONFORMANCE" \
			"conformance02@npm:@modelcontextprotocol/conformance@$CONFORMANCE02" \
			"@modelcontextprotocol/server-everything@$EVERYTHING" \
			"@modelcontextprotocol/server-filesystem@$FILESYSTEM" \
			"@modelcontextprotocol/inspector-cli@$INSPECTOR_CLI" \
			"${INTEROP_PEERS[@]}" >&2
	)
	peers_ok || { log "npm peers did not install at the pinned versions"; exit 1; }
fi

if node22_ok; then
	log "node $NODE_MAJOR cached in $P/node22"
else
	need_npm
	log "installing node@$NODE_MAJOR into $P/node22"
	mkdir -p "$P/node22"
	(
		cd "$P/node22"
		[ -f package.json ] || printf '{"name":"relavium-node22","private":true}\n' >package.json
		retry npm install --no-audit --no-fund --loglevel=error "node@$NODE_MAJOR" >&2
	)
	node22_ok || { log "node $NODE_MAJOR did not install"; exit 1; }
fi

# inspector-cli 1.0.3 needs a CWD whose parent holds a package.json
# (it resolves its own version from ../package.json and fails without one).
mkdir -p "$P/w"

NODE=$(command -v node)
cat <<EOF
RELAVIUM_PEERS=$P
NODE=$NODE
NODE22=$P/node22/node_modules/.bin/node
CONFORMANCE=$P/node_modules/@modelcontextprotocol/conformance/dist/index.js
CONFORMANCE02=$P/node_modules/conformance02/dist/index.js
SERVER_EVERYTHING=$P/node_modules/@modelcontextprotocol/server-everything/dist/index.js
SERVER_FILESYSTEM=$P/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js
INSPECTOR_CLI=$P/node_modules/.bin/mcp-inspector-cli
INSPECTOR_CWD=$P/w
SDK=$P/node_modules/@modelcontextprotocol/sdk
INSPECTOR=$P/node_modules/@modelcontextprotocol/inspector
EOF
