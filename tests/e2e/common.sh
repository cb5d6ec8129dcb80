#!/usr/bin/env bash
# Shared by the end-to-end suites (tests/e2e/*.sh): a tiny TAP-like harness. A suite calls
# e2e_test NAME FUNCTION for each case; FUNCTION fails by returning non-zero (or through
# e2e_fail), skips with e2e_skip REASON. e2e_summary prints the counts and sets the status.
set -uo pipefail

E2E_PASSED=0
E2E_FAILED=0
E2E_SKIPPED=0
E2E_SKIP_REASON=
E2E_FAILURES=()

e2e_log() { printf 'e2e: %s\n' "$*" >&2; }

# Marks the running case as skipped; the case function must return right after.
e2e_skip() { E2E_SKIP_REASON="$*"; }

e2e_fail() {
	e2e_log "  FAIL: $*"
	return 1
}

e2e_test() {
	local name=$1 fn=$2
	E2E_SKIP_REASON=
	local out status
	out=$(mktemp)
	("$fn") >"$out" 2>&1
	status=$?
	if [ -n "$E2E_SKIP_REASON" ] || grep -q '^e2e-skip: ' "$out"; then
		local why=${E2E_SKIP_REASON:-$(sed -n 's/^e2e-skip: //p' "$out" | head -n1)}
		E2E_SKIPPED=$((E2E_SKIPPED + 1))
		printf 'skip %s: %s\n' "$name" "$why"
	elif [ "$status" = 0 ]; then
		E2E_PASSED=$((E2E_PASSED + 1))
		printf 'ok   %s\n' "$name"
	else
		E2E_FAILED=$((E2E_FAILED + 1))
		E2E_FAILURES+=("$name")
		printf 'FAIL %s (status %s)\n' "$name" "$status"
		sed 's/^/     | /' "$out" | tail -n 40
	fi
	rm -f "$out"
}

# A case runs in a subshell, so a skip is reported through its output.
e2e_skip_case() {
	echo "e2e-skip: $*"
}

# containerd (/run/containerd/runc/<ns>) and Podman (/run/ctrun) read every entry of
# ctrun's state root as a container: only directories, each with its state.json, and no
# file or dot entry of ctrun's own (its seccomp programs are in /run/ctrun-cache).
assert_root_holds_only_containers() { # ROOT
	local root=$1 e bad=
	for e in $(ls -A "$root" 2>/dev/null); do
		[ -d "$root/$e" ] && [ ! -L "$root/$e" ] && [ -f "$root/$e/state.json" ] || bad+=" $e"
	done
	[ -z "$bad" ] || e2e_fail "not a container's directory in $root:$bad"
}

assert_eq() { # expected actual what
	[ "$1" = "$2" ] || e2e_fail "$3: expected [$1], got [$2]"
}

assert_contains() { # haystack needle what
	case "$1" in *"$2"*) return 0 ;; esac
	e2e_fail "$3: [$1] does not contain [$2]"
}

assert_not_contains() { # haystack needle what
	case "$1" in *"$2"*) e2e_fail "$3: [$1] contains [$2]" ;; esac
	return 0
}

# A suite that lacks a tool reports one skipped case naming what is missing, and exits.
e2e_skip_suite_if_missing() { # SUITE MISSING
	[ -n "$2" ] || return 0
	E2E_MISSING=$2
	no_tools() { e2e_skip_case "missing: $(echo $E2E_MISSING) (make deps-e2e)"; }
	e2e_test "$1" no_tools
	e2e_summary "$1"
	exit
}

e2e_summary() {
	local suite=$1
	printf 'e2e %s: %d passed, %d failed, %d skipped\n' "$suite" \
		"$E2E_PASSED" "$E2E_FAILED" "$E2E_SKIPPED"
	[ "$E2E_FAILED" = 0 ]
}
