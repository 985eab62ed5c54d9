# Sourced by .ci/run and .ci/peers.sh.
# retry CMD...: runs CMD up to 3 times, 5 s then 10 s apart, so a package
# mirror or registry that hiccups once does not fail CI.
retry() {
	local n
	for n in 1 2 3; do
		"$@" && return 0
		printf 'ci: attempt %s of 3 failed: %s\n' "$n" "$*" >&2
		[ "$n" -lt 3 ] && sleep $((n * 5))
	done
	return 1
}
