#!/usr/bin/env bash
# Runs every BenchmarkRatio* benchmark (each measures its subject and its
# named baseline in the same run and reports the result as a metric beside
# a target: "ratio" + "target", or "<unit>" + "target-<unit>", e.g. ms and
# target-ms) and prints one line per benchmark:
#   package  benchmark  measured  target  PASS|OVER
# OVER does not fail the run: benchmarks on a shared 2-core box are noisy.
# A benchmark that fails to build or run does.
#
# Environment: BENCHTIME (go test -benchtime, default 1s), BENCH (regexp,
# default Ratio), PKGS (default ./...).
set -euo pipefail
cd "$(dirname "$0")/.."

BENCHTIME=${BENCHTIME:-1s}
BENCH=${BENCH:-Ratio}
PKGS=${PKGS:-./...}
out=$(mktemp)
trap 'rm -f "$out"' EXIT

rc=0
go test -run '^$' -bench "$BENCH" -benchtime="$BENCHTIME" -count=1 -timeout 30m $PKGS >"$out" 2>&1 || rc=$?

awk '
	/^pkg: / { pkg = $2; sub(/^github.com\/relavium\/relavium\/?/, "", pkg); if (pkg == "") pkg = "."; next }
	/^BenchmarkRatio/ {
		name = $1; sub(/-[0-9]+$/, "", name)
		delete m
		for (i = 3; i < NF; i += 2) m[$(i+1)] = $i
		unit = ""
		if (("ratio" in m) && ("target" in m)) unit = "ratio"
		else for (u in m) if (("target-" u) in m) unit = u
		if (unit == "") { printf "%-22s %-34s %12s %12s  %s\n", pkg, name, "-", "-", "NO-TARGET"; n++; next }
		t = (unit == "ratio") ? m["target"] : m["target-" unit]
		verdict = (m[unit] + 0 <= t + 0) ? "PASS" : "OVER"
		if (verdict == "OVER") over++
		printf "%-22s %-34s %12s %12s  %s\n", pkg, name, m[unit] " " unit, t " " unit, verdict
		n++
	}
	END {
		printf "bench: %d ratio benchmark(s), %d over target\n", n, over
	}
' "$out" | {
	printf "%-22s %-34s %12s %12s  %s\n" package benchmark measured target verdict
	cat
}

if [ "$rc" -ne 0 ]; then
	echo "bench: go test failed (exit $rc):" >&2
	grep -v '^Benchmark' "$out" | grep -Ev '^(goos|goarch|pkg|cpu): ' | tail -n 40 >&2
	exit "$rc"
fi
