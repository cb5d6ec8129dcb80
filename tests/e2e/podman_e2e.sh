#!/usr/bin/env bash
# End to end: Podman 4.3 + conmon 2.1 (Debian's) with `--runtime ctrun`, on this machine's
# cgroups (cgroupfs manager), with Podman's own storage and config (tests/e2e/podman_env.sh).
# Each case checks from outside (exit status, podman's view, the host cgroup) and from
# inside (what the process sees), then that nothing is left behind.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
. "$here/podman_env.sh"
: "${CTRUN:?set CTRUN to the ctrun binary}" "${CTRUN_SRC:?set CTRUN_SRC to the source tree}"

if [ -z "${CTRUN_E2E_UNSHARED:-}" ]; then
	# The state root and storage mounts must stay in a private mount namespace.
	CTRUN_E2E_UNSHARED=1 exec unshare -m --propagation private bash "$0" "$@"
fi

for tool in podman conmon; do
	if ! command -v $tool >/dev/null; then
		echo "skip podman e2e: $tool is not installed (make deps-e2e)"
		exit 0
	fi
done

E2E_DIR=$(mktemp -d /tmp/ctrun-podman-e2e.XXXXXX)
cleanup_all() {
	pm rm -af -t 0 >/dev/null 2>&1
	pm pod rm -af -t 0 >/dev/null 2>&1
	pm system reset -f >/dev/null 2>&1 # unmounts the storage it mounted
	umount /run/ctrun 2>/dev/null
	remove_podman_parent_cgroups
	rm -rf "$E2E_DIR"
}
trap cleanup_all EXIT
if ! podman_env_setup; then
	echo "podman e2e: setting up Podman's private storage and image failed" >&2
	exit 1
fi

# ---- what "nothing left behind" means ----------------------------------------------------

assert_no_containers() {
	local left
	left=$(pm ps -aq)
	[ -z "$left" ] || e2e_fail "containers left: $left"
	left=$(pm pod ps -q)
	[ -z "$left" ] || e2e_fail "pods left: $left"
}

assert_no_ctrun_state() {
	local left
	left=$(ls -A /run/ctrun)
	[ -z "$left" ] || e2e_fail "ctrun state dirs left in /run/ctrun: $left"
}

# Podman keeps conmon in <parent>/conmon for all containers; it must be empty between cases.
assert_no_container_cgroups() {
	local left busy
	left=$(find /sys/fs/cgroup -maxdepth 3 -path "*/$PODMAN_CGROUP_PARENT/*" -type d \
		! -name conmon 2>/dev/null)
	[ -z "$left" ] || e2e_fail "cgroups left: $left" || return 1
	busy=$(cat /sys/fs/cgroup/*/"$PODMAN_CGROUP_PARENT"/conmon/cgroup.procs 2>/dev/null)
	[ -z "$busy" ] || e2e_fail "processes left in conmon's cgroup: $busy"
}

# Removes the (empty) parent cgroups Podman made for this run; rmdir leaves busy ones alone.
remove_podman_parent_cgroups() {
	local d
	for d in /sys/fs/cgroup/*/"$PODMAN_CGROUP_PARENT"; do
		[ -d "$d" ] || continue
		rmdir "$d/conmon" 2>/dev/null
		rmdir "$d" 2>/dev/null
	done
}

assert_no_container_mounts() {
	local left
	left=$(grep -F "$E2E_DIR" /proc/self/mountinfo | grep -E '/merged |/userdata/shm |/netns/')
	[ -z "$left" ] || e2e_fail "mounts left: $left"
}

# conmon and containers are children of init (reparented); any process still naming the
# test dir or a removed container's bundle is a leak.
assert_no_container_processes() {
	local p left=
	for p in /proc/[0-9]*; do
		tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -qF "$E2E_DIR/" || continue
		[ "${p#/proc/}" = $$ ] || left="$left ${p#/proc/}:$(tr '\0' ' ' <"$p/cmdline" | head -c 80)"
	done
	[ -z "$left" ] || e2e_fail "processes left:$left"
}

assert_nothing_left() {
	assert_no_containers && assert_no_ctrun_state && assert_no_container_cgroups &&
		assert_no_container_mounts && assert_no_container_processes
}

# A case runs its function, then the leak checks; a failed case is cleaned up so it cannot
# take the next ones down with it.
CASE_FN=
run_case() { "$CASE_FN" && assert_nothing_left; }
pcase() {
	CASE_FN=$2
	e2e_test "$1" run_case
	pm rm -af -t 0 >/dev/null 2>&1
	pm pod rm -af -t 0 >/dev/null 2>&1
}

# ---- small helpers -----------------------------------------------------------------------

# Runs a detached container and prints its id.
run_detached() { pm run -d "$@"; }

# Waits (bounded) until the container reports the status; podman wait is event driven.
wait_status() { # ID STATUS
	pm wait --condition "$2" "$1" >/dev/null
}

container_pid() { pm inspect --format '{{.State.Pid}}' "$1"; }

host_cgroup_dir() { # CONTROLLER ID
	echo "/sys/fs/cgroup/$1/$PODMAN_CGROUP_PARENT/libpod-$2"
}

# ---- cases ---------------------------------------------------------------------------------

case_run_rm() {
	local out id
	out=$(pm run --rm --name e2e-rm "$E2E_IMAGE" sh -c 'echo pid=$$; hostname; cat /proc/self/cgroup') ||
		return 1
	assert_contains "$out" "pid=1" "the command is pid 1 in its pid namespace" &&
		assert_contains "$out" "/$PODMAN_CGROUP_PARENT/libpod-" "its memory cgroup is podman's" &&
		assert_eq "" "$(pm ps -aq --filter name=e2e-rm)" "--rm removed the container"
}

case_exit_codes() {
	local code status
	for code in 0 3 42; do
		pm run --rm "$E2E_IMAGE" sh -c "exit $code"
		status=$?
		assert_eq "$code" "$status" "podman run exit status of 'exit $code'" || return 1
	done
	# SIGKILL from outside: 128+9, seen by podman run (attached) and podman wait.
	id=$(run_detached "$E2E_IMAGE" sleep 1000) || return 1
	pm kill -s KILL "$id" >/dev/null || return 1
	assert_eq 137 "$(pm wait "$id")" "exit status after podman kill -s KILL" || return 1
	pm rm "$id" >/dev/null || return 1
	# SIGTERM is ignored by a pid 1 without a handler; with --init, catatonit forwards it to
	# the child and exits with the child's 128+15.
	id=$(run_detached --init "$E2E_IMAGE" sleep 1000) || return 1
	pm kill -s TERM "$id" >/dev/null || return 1
	assert_eq 143 "$(pm wait "$id")" "exit status after SIGTERM through catatonit" || return 1
	pm rm "$id" >/dev/null
}

case_missing_command() {
	local err status
	err=$(pm run --rm "$E2E_IMAGE" /no/such/binary 2>&1)
	status=$?
	assert_eq 127 "$status" "podman run of a missing path" || return 1
	assert_contains "$err" "no such file or directory" "the error names the cause" || return 1
	err=$(pm run --rm "$E2E_IMAGE" nosuchcommand 2>&1)
	status=$?
	assert_eq 127 "$status" "podman run of a command not in \$PATH" || return 1
	assert_contains "$err" "executable file not found in \$PATH" "the error names the cause" || return 1
	err=$(pm run --rm "$E2E_IMAGE" /etc/passwd 2>&1)
	status=$?
	assert_eq 126 "$status" "podman run of a non-executable file" || return 1
	assert_contains "$err" "permission denied" "the error names the cause"
}

pcase run-rm case_run_rm
pcase exit-codes case_exit_codes
pcase missing-command case_missing_command

e2e_summary podman
