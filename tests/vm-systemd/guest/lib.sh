# shellcheck shell=bash disable=SC2034 # sourced by main.sh, which uses what it sets
# The systemd suite's helpers (sourced by main.sh in the guest). A case is a function
# `case_NAME`; it runs in a shell of its own and records each broken expectation with fail();
# the runner prints one `@sd result RUNTIME NAME pass|fail|skip|xfail` line per case (xfail:
# cases.sh's KNOWN_<runtime>), and the case's log as `@sd log RUNTIME NAME LINE` when it did
# not pass.

ROOTFS=/var/lib/ctrt/rootfs # busybox, shared read-only by the bundles
BASE_CONFIG=/var/lib/ctrt/base.json
CG=/sys/fs/cgroup
CASE_TIMEOUT=300

# RT (the runtime's binary), RT_NAME (runc or ctrun, part of every id and unit name) and
# CASE_DIR (a fresh directory per case) are set by the runner.
rt() {
	"$RT" --root "/run/ctrt-$RT_NAME" "$@"
}
sd() {
	rt --systemd-cgroup "$@"
}

fail() {
	echo "FAIL: $*" >>"$CASE_DIR/log"
}
note() {
	echo "$*" >>"$CASE_DIR/log"
}
skip_case() {
	echo "$*" >"$CASE_DIR/skip"
}

expect_eq() { # WHAT GOT WANT
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}
expect_match() { # WHAT GOT ERE
	printf '%s\n' "$2" | grep -Eq -- "$3" || fail "$1: got '$2', want a match of /$3/"
}
expect_ne() { # WHAT GOT UNWANTED
	[ "$2" != "$3" ] || fail "$1: got '$2'"
}

# run_rc WHAT WANT_RC CMD...: runs CMD with its output in $CASE_DIR/out and err (kept in
# the log), and fails (returning 1: a case may stop there) unless it exits WANT_RC
# ("nonzero" for any failure).
run_rc() {
	local what=$1 want=$2 rc=0
	shift 2
	"$@" </dev/null >"$CASE_DIR/out" 2>"$CASE_DIR/err" || rc=$?
	{
		echo "\$ $* -> $rc"
		sed 's/^/  out: /' "$CASE_DIR/out"
		sed 's/^/  err: /' "$CASE_DIR/err"
	} >>"$CASE_DIR/log"
	if [ "$want" = nonzero ]; then
		[ $rc != 0 ] || { fail "$what: exit 0, want a failure" && return 1; }
	else
		[ $rc = "$want" ] || { fail "$what: exit $rc, want $want" && return 1; }
	fi
}
out() {
	cat "$CASE_DIR/out"
}
err() {
	cat "$CASE_DIR/err"
}

# wait_until WHAT CMD...: polls CMD until it succeeds, for up to WAIT_LIMIT seconds (an upper
# bound for a slow emulated guest, never a measure); fails the case when it never does.
WAIT_LIMIT=120
wait_until() {
	local what=$1 end=$((SECONDS + WAIT_LIMIT))
	shift
	while ! "$@" >/dev/null 2>&1; do
		if [ $SECONDS -ge $end ]; then
			fail "never happened within $WAIT_LIMIT s: $what"
			return 1
		fi
		sleep 0.1
	done
}

status_of() {
	rt state "$1" 2>/dev/null | jq -r .status
}
pid_of() {
	rt state "$1" 2>/dev/null | jq -r .pid
}
status_is() { # ID STATUS
	[ "$(status_of "$1")" = "$2" ]
}
unit_prop() { # UNIT PROPERTY
	systemctl show -P "$2" "$1"
}
unit_state_is() { # UNIT ACTIVE_STATE
	[ "$(unit_prop "$1" ActiveState)" = "$2" ]
}
unit_loaded() {
	[ "$(unit_prop "$1" LoadState)" = loaded ]
}
unit_gone() {
	[ "$(unit_prop "$1" LoadState)" = not-found ]
}
cgroup_of_pid() {
	sed -n 's/^0:://p' "/proc/$1/cgroup"
}
pid_gone() { # gone, or a zombie nobody reaped yet
	[ ! -e "/proc/$1" ] || grep -q '^State:[[:space:]]*Z' "/proc/$1/status"
}

# bundle NAME CGROUPS_PATH ARGS_JSON [JQ_FILTER]: a bundle in $CASE_DIR/NAME on the shared
# busybox root; prints its directory.
bundle() {
	local dir=$CASE_DIR/$1
	mkdir -p "$dir"
	jq --arg cg "$2" --argjson args "$3" --arg root "$ROOTFS" \
		".linux.cgroupsPath = \$cg | .process.args = \$args | .root.path = \$root | ${4:-.}" \
		"$BASE_CONFIG" >"$dir/config.json"
	echo "$dir"
}
# The filters bundle() takes: a cgroup namespace (the container's cgroup files at
# /sys/fs/cgroup inside) and resources.
WITH_CGROUPNS='.linux.namespaces |= map(select(.type != "cgroup")) + [{"type": "cgroup"}]'

# create_started ID DIR: create then start, both checked.
create_started() {
	run_rc "create $1" 0 sd create --bundle "$2" "$1" &&
		run_rc "start $1" 0 sd start "$1" &&
		wait_until "$1 running" status_is "$1" running
}

# inside ID CMD...: the output of CMD run in the container by exec.
inside() {
	local id=$1
	shift
	sd exec "$id" "$@" 2>>"$CASE_DIR/log" </dev/null
}

# The runtime's containers and the suite's units, whatever a case left.
cleanup_all() {
	local id
	for id in $(rt list -q 2>/dev/null); do
		sd delete --force "$id" >/dev/null 2>&1
	done
	systemctl stop 'ctrt-*.scope' '*ctrtx*.slice' >/dev/null 2>&1
	systemctl reset-failed >/dev/null 2>&1
	return 0
}

run_case() {
	local name=$1 start
	CASE_DIR=/tmp/ctrt-cases/$RT_NAME/$name
	rm -rf "$CASE_DIR"
	mkdir -p "$CASE_DIR"
	: >"$CASE_DIR/log"
	start=$(date +%s%N)
	# A case that hangs fails alone (the cases are re-read in a shell of its own).
	local rc=0
	RT=$RT RT_NAME=$RT_NAME CASE_DIR=$CASE_DIR timeout -k 10 "$CASE_TIMEOUT" \
		bash -c '. "$0/lib.sh" && . "$0/cases.sh" && "case_$1"' "$SUITE_DIR" "$name" || rc=$?
	case $rc in
	124 | 137) fail "the case did not end within $CASE_TIMEOUT s" ;;
	esac
	cleanup_all
	local verdict=pass
	if [ -e "$CASE_DIR/skip" ]; then
		verdict=skip
		note "skipped: $(cat "$CASE_DIR/skip")"
	elif grep -q '^FAIL: ' "$CASE_DIR/log"; then
		verdict=fail
	fi
	local known=KNOWN_$RT_NAME
	if [[ " ${!known:-} " == *" $name "* ]]; then
		case $verdict in
		fail) verdict=xfail ;;
		pass) verdict=fail && note "FAIL: passes against $RT_NAME, yet $known lists it" ;;
		esac
	fi
	echo "@sd result $RT_NAME $name $verdict $((($(date +%s%N) - start) / 1000000))ms"
	if [ $verdict != pass ]; then
		sed "s/^/@sd log $RT_NAME $name /" "$CASE_DIR/log"
	fi
}
