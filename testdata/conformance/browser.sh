#!/usr/bin/env bash
# The conformance adapter's "browser" ($BROWSER): relavium runs it with the
# authorization url as its last argument, exactly as it would run a real
# browser. The suite's authorization server answers at once with a redirect
# to relavium's loopback callback; this script fetches the url without
# following the redirect, then delivers the redirect to the callback, as a
# browser would after the person approved.
set -euo pipefail
url=${!#}
loc=$(curl -sS -o /dev/null -w '%{redirect_url}' --max-time 20 "$url")
[ -n "$loc" ] || {
	echo "browser.sh: the authorization url answered no redirect" >&2
	exit 1
}
curl -sS -o /dev/null --max-time 20 "$loc"
