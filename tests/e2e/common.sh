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

# Runs the suite again (SCRIPT ARGS...) in a private mount namespace of its own, once: its
# state root and storage mounts must stay there.
e2e_enter_private_mount_ns() { # SCRIPT ARGS...
	[ -z "${CTRUN_E2E_UNSHARED:-}" ] || return 0
	CTRUN_E2E_UNSHARED=1 exec unshare -m --propagation private bash "$@"
}

# Whether this machine has the hybrid cgroup layout: cgroup2 at /sys/fs/cgroup/unified
# beside the v1 hierarchies.
e2e_hybrid_cgroups() { [ "$(stat -f -c %T /sys/fs/cgroup/unified 2>/dev/null)" = cgroup2fs ]; }

# crun 1.8.1 refuses the hybrid layout: CMD... runs with an empty writable tmpfs over
# /sys/fs/cgroup/unified, taken away again after it. Only in a mount namespace of the
# suite's own. Returns CMD's status, or 1 (CMD not run) when the tmpfs cannot be mounted.
e2e_without_cgroup2() { # CMD...
	local status
	e2e_hybrid_cgroups || { "$@"; return; }
	mount -t tmpfs -o mode=0755 e2e-cgroup2-hidden /sys/fs/cgroup/unified || return 1
	"$@"
	status=$?
	umount /sys/fs/cgroup/unified
	return $status
}

# Exits the suite as skipped (status 0) when one of TOOLS is not installed.
e2e_require_tools() { # SUITE TOOLS...
	local suite=$1 tool
	shift
	for tool in "$@"; do
		command -v "$tool" >/dev/null && continue
		echo "skip $suite e2e: $tool is not installed (make deps-e2e)"
		exit 0
	done
}

# The pids of the processes whose command line (arguments joined by spaces) matches the
# extended regex PATTERN.
e2e_pids_by_cmdline() { # PATTERN
	local f
	for f in /proc/[0-9]*/cmdline; do
		tr '\0' ' ' 2>/dev/null <"$f" | grep -qE -- "$1" && basename "$(dirname "$f")"
	done
}

# Follows the output of CMD... (logs -f, events) until a line holds TEXT (bounded by the
# timeout), then stops the follower: it would only notice the closed pipe at its next line.
e2e_wait_for_line() { # TEXT CMD...
	local status text=$1
	shift
	coproc FOLLOW { exec timeout -k 5 60 "$@" 2>&1; }
	grep -m1 -qF "$text" <&"${FOLLOW[0]}"
	status=$?
	kill "$FOLLOW_PID" 2>/dev/null
	wait "$FOLLOW_PID" 2>/dev/null
	[ "$status" = 0 ] || e2e_fail "\"$text\" never appeared in $*"
}

# Waits (bounded) until CMD... succeeds, i.e. the daemon PID started from answers on its
# socket (readiness has no event to wait for); if it dies or never answers, shows its LOG.
e2e_wait_daemon() { # PID LOG CMD...
	local pid=$1 log=$2 tries
	shift 2
	for tries in $(seq 300); do
		"$@" >/dev/null 2>&1 && return 0
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	e2e_log "$(basename "$1") found no daemon to answer it (pid $pid):"
	tail -n 20 "$log" >&2
	return 1
}

# ---- checks the Docker and Podman suites share ---------------------------------------------
# RUN... is the client's `run --rm` (or a wrapper of it) up to the image; the suite defines
# host_cgroup_dir CONTROLLER ID.

# A custom seccomp profile that refuses mkdir, with no-new-privileges: the filter is
# installed, NoNewPrivs is set and mkdir is refused.
assert_no_mkdir_profile_applies() { # RUN...
	local out profile="$E2E_DIR/no-mkdir.json"
	cat >"$profile" <<-'JSON'
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1}]}
	JSON
	out=$("$@" --security-opt seccomp="$profile" --security-opt no-new-privileges \
		"$E2E_IMAGE" sh -c 'grep -E "^(Seccomp|NoNewPrivs):" /proc/self/status; mkdir /tmp/d 2>&1; ls -d /tmp/d 2>/dev/null; true') ||
		return 1
	assert_contains "$out" "Seccomp:	2" "a filter is installed" &&
		assert_contains "$out" "NoNewPrivs:	1" "no-new-privileges" &&
		assert_contains "$out" "Operation not permitted" "mkdir is refused by the profile" &&
		assert_not_contains "$out" "/tmp/d" "the directory was not made"
}

# seccomp=unconfined: no filter at all.
assert_unconfined_has_no_filter() { # RUN...
	local out
	out=$("$@" --security-opt seccomp=unconfined "$E2E_IMAGE" grep "^Seccomp:" /proc/self/status)
	assert_eq "Seccomp:	0" "$out" "seccomp=unconfined"
}

# A detached container whose pid 1 handles USR1 (logs got-usr1) and TERM (logs got-term,
# exits 7), sent USR1 with CLIENT kill once it is ready; the log shows the handler ran.
# Prints the id. CLIENT is dk or pm; the suite defines run_detached and wait_for_log.
start_trapper_sent_usr1() { # CLIENT
	local client=$1 id
	id=$(run_detached "$E2E_IMAGE" sh -c \
		'trap "echo got-usr1" USR1; trap "echo got-term; exit 7" TERM; echo ready; while :; do sleep 0.1; done') ||
		return 1
	wait_for_log "$id" ready || return 1
	"$client" kill -s USR1 "$id" >/dev/null || return 1
	wait_for_log "$id" got-usr1 || return 1
	echo "$id"
}

# --init: pid 1 is INIT (the client's, bound in) running the command, which is not pid 1.
assert_init_is_pid_1() { # INIT RUN...
	local init=$1 out
	shift
	out=$("$@" --init "$E2E_IMAGE" sh -c 'cat /proc/1/cmdline | tr "\0" " "; echo; echo $$') ||
		return 1
	assert_contains "$out" "$init -- sh" "pid 1 is $init, bound in by the client" &&
		assert_not_contains "$out" "
1" "the command is not pid 1"
}

# Container ID was run with --pids-limit 8 --memory 48m: the host's cgroup files say so and
# forks inside stop at the limit. EXEC... is the client's exec.
assert_pids_and_memory_limits() { # ID EXEC...
	local id=$1 out
	shift
	assert_eq 8 "$(cat "$(host_cgroup_dir pids "$id")/pids.max")" "pids.max on the host" &&
		assert_eq $((48 << 20)) "$(cat "$(host_cgroup_dir memory "$id")/memory.limit_in_bytes")" \
			"memory limit on the host" || return 1
	out=$("$@" "$id" sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do sleep 100 & done 2>&1; kill $(jobs -p) 2>/dev/null' 2>&1)
	assert_contains "$out" "can't fork" "the pids limit stops forks inside"
}

e2e_summary() {
	local suite=$1
	printf 'e2e %s: %d passed, %d failed, %d skipped\n' "$suite" \
		"$E2E_PASSED" "$E2E_FAILED" "$E2E_SKIPPED"
	[ "$E2E_FAILED" = 0 ]
}
