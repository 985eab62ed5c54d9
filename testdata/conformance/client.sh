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
# The protocol era: the one the suite runs the scenario at
# (MCP_CONFORMANCE_PROTOCOL_VERSION, set by conformance 0.2 and later: a
# scenario of the 2026-07-28 requirements asks for 2026-07-28), unless
# RELAVIUM_PROTOCOL names one (.ci/conformance.sh's auto pass of 0.1.16,
# which sets no version).
protocol=${RELAVIUM_PROTOCOL:-${MCP_CONFORMANCE_PROTOCOL_VERSION:-}}
if [ -n "$protocol" ]; then
	target+=(--protocol "$protocol")
fi

# auth_scenario URL: the suite's OAuth scenarios, run the way a person runs
# relavium against a protected server. The server is declared in the
# throwaway home's config.toml (oauth pre-registered client details from
# the suite's context, MCP_CONFORMANCE_CONTEXT, become its oauth table, the
# secret through RELAVIUM_SECRET_CONFORMANCE_CLIENT); the suite's
# authorization server answers the browser step with an immediate
# redirect, so $BROWSER is browser.sh, which delivers that redirect to
# relavium's loopback callback. Then:
#   1. relavium auth login conf — when the guard refuses the suite's local
#      authorization server (E560: it sits on another localhost port than
#      the declared server), its address is added to oauth.allow_local_auth,
#      as the refusal's remedy says, and the login is run again;
#   2. relavium mcp call test-tool — headless, with the stored token; when
#      it answers E851 (the server asks for more scopes: a step-up), the
#      login is run once more, as the error says, and the call again.
auth_scenario() {
	local server=$1 local_auth=() out code ctx id secret i
	ctx=${MCP_CONFORMANCE_CONTEXT:-"{}"}
	id=$(jq -r '.client_id // empty' <<<"$ctx")
	secret=$(jq -r '.client_secret // empty' <<<"$ctx")
	key=$(jq -r '.private_key_pem // empty' <<<"$ctx")
	# The client-credentials scenarios: a machine signs in (no browser),
	# with its secret or its private key from the secret stores.
	grant=""
	assertion=$(jq -r '.valid_jwt // empty' <<<"$ctx")
	case "$scenario" in
	auth/client-credentials-*) grant=client_credentials ;;
	auth/wif-jwt-bearer) grant=jwt_bearer ;; # the workload's identity token
	esac
	export BROWSER="bash $(dirname "$0")/browser.sh"
	write_config() {
		{
			echo '[[mcp_servers]]'
			echo 'name = "conf"'
			echo 'transport = "http"'
			echo "url = \"$server\""
			echo 'allow_local_endpoint = true'
			[ -n "$protocol" ] && echo "protocol = \"$protocol\""
			if [ -n "$grant" ]; then
				printf 'oauth = { grant = "%s", client_id = "%s"' "$grant" "$id"
				[ -n "$secret" ] && printf ', client_secret = "{{secrets.conformance_client}}"'
				[ -n "$key" ] && printf ', private_key = "{{secrets.conformance_key}}"'
				[ "$grant" = jwt_bearer ] && printf ', assertion = "{{secrets.conformance_workload}}"'
			else
				printf 'oauth = { client_metadata_url = "https://conformance-test.local/client-metadata.json"'
				if [ -n "$id" ]; then
					printf ', client_id = "%s"' "$id"
					[ -n "$secret" ] && printf ', client_secret = "{{secrets.conformance_client}}"'
				fi
			fi
			if [ ${#local_auth[@]} -gt 0 ]; then
				printf ', allow_local_auth = [%s]' "$(printf '"%s",' "${local_auth[@]}" | sed 's/,$//')"
			fi
			echo ' }'
		} >"$RELAVIUM_HOME/config.toml"
	}
	[ -n "$secret" ] && export RELAVIUM_SECRET_CONFORMANCE_CLIENT=$secret
	[ -n "$key" ] && export RELAVIUM_SECRET_CONFORMANCE_KEY=$key
	[ -n "$assertion" ] && export RELAVIUM_SECRET_CONFORMANCE_WORKLOAD=$assertion
	login() {
		for i in 1 2 3; do
			write_config
			out=$("$BIN" auth login conf --json) && return 0
			code=$(jq -r '.error.code // empty' <<<"$out")
			if [ "$code" = E500 ]; then code=$(jq -r '.data.servers[0].error_code // empty' <<<"$out"); fi
			addr=$(jq -r '[.. | objects | select(.reason? == "private-address") | .url][0] // empty' <<<"$out")
			if [ "$code" = E560 ] && [ -n "$addr" ]; then
				local hp=${addr#*://}
				local_auth+=("${hp%%/*}")
				continue
			fi
			echo "$out" >&2
			return 1
		done
		return 1
	}
	login
	out=$("$BIN" mcp call mcp_conf_test-tool --yes --json) && return 0
	code=$(jq -r '[.. | objects | .code? // .error_code? | select(. != null)] | map(select(. == "E851")) | .[0] // empty' <<<"$out")
	if [ "$code" = E851 ]; then
		login
		"$BIN" mcp call mcp_conf_test-tool --yes --json
		return
	fi
	echo "$out" >&2
	return 1
}
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
request-metadata | json-schema-ref-no-deref)
	# discover (2026-07-28) and list the tools: every request carries the
	# era's header and _meta; a network $ref in a schema is never fetched
	"$BIN" mcp ls "${target[@]}"
	;;
json-schema-2020-12-preservation)
	# the server declared in a throwaway project; mcp lock writes every
	# definition as relavium holds it; json_schema_2020_12_tool's input
	# schema from there goes back to json_schema_echo
	mkdir -p "$RELAVIUM_HOME/p/.relavium"
	printf '[[mcp_servers]]\nname = "conf"\ntransport = "http"\nurl = "%s"\nallow_local_endpoint = true\nprotocol = "%s"\n' \
		"$url" "${protocol:-2025-11-25}" >"$RELAVIUM_HOME/config.toml"
	"$BIN" mcp lock --project "$RELAVIUM_HOME/p" --json >/dev/null
	schema=$(jq -c '[.servers[].tools[] | select(.name == "json_schema_2020_12_tool") | .definition.inputSchema][0]' "$RELAVIUM_HOME/p/.relavium/mcp-lock.json")
	"$BIN" mcp call json_schema_echo --args "$(jq -cn --argjson s "$schema" '{schema: $s}')" --yes "${target[@]}"
	;;
http-standard-headers)
	# every kind of request, each with its Mcp-Method (and Mcp-Name) header
	"$BIN" mcp call test_headers --yes "${target[@]}"
	"$BIN" mcp call my-hyphenated-tool --yes "${target[@]}"
	;;
http-custom-headers)
	# the suite's tool calls (MCP_CONFORMANCE_CONTEXT.toolCalls), each
	# argument marked x-mcp-header mirrored into its Mcp-Param-* header; a
	# null argument is left out (the schema types it boolean: null is no
	# value), so its header is omitted
	jq -c '.toolCalls[]' <<<"${MCP_CONFORMANCE_CONTEXT:-"{}"}" | while read -r c; do
		"$BIN" mcp call "$(jq -r .name <<<"$c")" --args "$(jq -c '.arguments | with_entries(select(.value != null))' <<<"$c")" --yes "${target[@]}"
	done
	;;
http-invalid-tool-headers)
	# a tool whose x-mcp-header is invalid is skipped; the others still work
	"$BIN" mcp call valid_tool region=us-west1 --yes "${target[@]}"
	;;
sep-2322-client-request-state)
	# input-required results: the answers and the server's requestState
	# (echoed unchanged, or left out when none was sent) go back on a
	# retry, a new request; a result without resultType is complete
	for t in test_mrtr_echo_state test_mrtr_unrelated test_mrtr_no_state test_mrtr_no_result_type; do
		"$BIN" mcp call "$t" --elicit defaults --yes "${target[@]}"
	done
	;;
auth/*)
	auth_scenario "$url"
	;;
*)
	echo "client.sh: no relavium mapping for scenario $scenario" >&2
	exit 2
	;;
esac
