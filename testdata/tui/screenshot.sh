#!/usr/bin/env bash
# Renders the README screenshot: runs `relavium demo` in a real terminal
# (tmux, 120x32, a temp RELAVIUM_HOME), approves the demo server, calls the
# progress tool (answering "this call" to its confirmation), captures the pane WITH its colours (capture-pane -e) as
# testdata/tui/screenshot.ansi, and turns it into testdata/tui/screenshot.png
# with charmbracelet/freeze from the module proxy. Usage: screenshot.sh BIN
#
# The consent modal and the servers pane show the demo server's command, the
# absolute path of BIN on the machine that ran this. The picture is for every
# reader, so that path is shown as an installed binary's, /usr/local/bin/relavium,
# padded to the same width so no column moves (the digest stays the real one).
set -euo pipefail
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
sock="relavium-shot-$$"
cleanup() { tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

wait_for() { # wait_for TEXT: poll the pane until it shows TEXT (20 s)
	for _ in $(seq 200); do
		if tmux -L "$sock" capture-pane -p -t shot | grep -qF -- "$1"; then return 0; fi
		sleep 0.1
	done
	echo "screenshot: timed out waiting for: $1" >&2
	tmux -L "$sock" capture-pane -p -t shot >&2
	exit 1
}
keys() { for k in "$@"; do tmux -L "$sock" send-keys -t shot "$k"; sleep 0.08; done; }

tmux -L "$sock" new-session -d -s shot -x 120 -y 32 -c "$work" \
	"env -u CI -u NO_COLOR RELAVIUM_HOME=$work/home TERM=xterm-256color COLORTERM=truecolor $bin demo --theme dark; sleep 60"
wait_for "Start a local program?"
sleep 0.7 # a dialog takes keys only after it has been on screen a moment
keys o
wait_for "● demo"
keys Tab /
tmux -L "$sock" send-keys -t shot -l long_operation
keys Enter Enter C-u
tmux -L "$sock" send-keys -t shot -l 8
keys Down C-u
tmux -L "$sock" send-keys -t shot -l 8000
keys C-s
wait_for "Call mcp_demo_long_operation?" # annotations never skip the question
sleep 0.7
keys y
wait_for "step 5 of 8"
shown=/usr/local/bin/relavium
while [ ${#shown} -lt ${#bin} ]; do shown="$shown "; done
tmux -L "$sock" capture-pane -e -p -t shot | BIN="$bin" SHOWN="$shown" \
	perl -pe 'BEGIN { $b = quotemeta $ENV{BIN}; $s = $ENV{SHOWN} } s/$b/$s/g' > "$here/screenshot.ansi"
keys q

go run github.com/charmbracelet/freeze@v0.2.2 --language ansi --window --padding 20 --margin 0 \
	--background "#15151A" --font.size 14 --line-height 1.2 \
	-o "$here/screenshot.png" "$here/screenshot.ansi"

chmod 644 "$here/screenshot.png"
echo "screenshot: wrote $here/screenshot.png"
