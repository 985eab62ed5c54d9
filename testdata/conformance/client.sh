#!/usr/bin/env bash
# The conformance suite's CLIENT adapter. The suite runs
#   bash testdata/conformance/client.sh <server url>
# with MCP_CONFORMANCE_SCENARIO set (the url is always the last argument);
# this maps each scenario to the real relavium binary ($RELAVIUM_BIN).
# A non-zero exit, a timeout or a warning fails the scenario.
set -euo pipefail

url=${!#}
BIN=${RELAVIUM_BIN:?RELAVIUM_BIN must name the relavium binary}
scenario=${MCP_CONFORMANCE_SCENARIO:?MCP_CONFORMANCE_SCENARIO is unset}

# A throwaway relavium home: the adapter leaves nothing behind.
RELAVIUM_HOME=$(mktemp -d)
export RELAVIUM_HOME
trap 'rm -rf "$RELAVIUM_HOME"' EXIT

target=(--url "$url" --allow-local-endpoint --json)
# RELAVIUM_PROTOCOL (set by .ci/conformance.sh) is the protocol era asked for.
if [ -n "${RELAVIUM_PROTOCOL:-}" ]; then
	target+=(--protocol "$RELAVIUM_PROTOCOL")
fi
case "$scenario" in
initialize)
	# connect, initialize, list tools
	"$BIN" mcp ls "${target[@]}"
	;;
tools_call)
	"$BIN" mcp call add_numbers a=2 b=3 --yes "${target[@]}"
	;;
elicitation-sep1034-client-defaults)
	# accept the server's form with every schema default filled in
	"$BIN" mcp call test_client_elicitation_defaults --elicit defaults --yes "${target[@]}"
	;;
sse-retry)
	# the POST stream closes after a priming event; relavium must resume
	# with GET + Last-Event-ID after the server's retry interval
	"$BIN" mcp call test_reconnection --yes "${target[@]}"
	;;
*)
	echo "client.sh: no relavium mapping for scenario $scenario" >&2
	exit 2
	;;
esac
