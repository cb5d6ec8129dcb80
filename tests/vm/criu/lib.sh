# What every checkpoint case of the vm suite starts with (tests/integration/test_vm.c puts
# it before the case's own script): `sh script BUNDLE ID` in the guest, whose container
# counts in /log (one number a line: 1, 2, 3, ... unbroken while it is the same process).
b=$1 n=$2 r=$1/rootfs
R='ctrun --root /run/ctrun'
img=/tmp/$n.img

# wait_for COND: until the shell condition holds (at most 10 s), then its status.
wait_for() {
	i=0
	while ! eval "$1" && [ $i -lt 500 ]; do
		sleep 0.02
		i=$((i + 1))
	done
	eval "$1"
}

# piped CMD...: CMD with its stdio on pipes, as conmon and containerd's shim give it (criu
# gives a restored process pipes again, not files of the host); prints CMD's exit code, and
# its stderr when that is not 0. The pipes stay open behind it, as its caller's would.
piped() {
	rm -f /tmp/piped.rc /tmp/piped.err
	(true | { "$@"; echo $? >/tmp/piped.rc; } 2>&1 | cat >/tmp/piped.err) >/dev/null 2>&1 &
	wait_for '[ -s /tmp/piped.rc ]'
	cat /tmp/piped.rc
	[ "$(cat /tmp/piped.rc)" = 0 ] || { wait_for '[ -s /tmp/piped.err ]' && cat /tmp/piped.err; }
}

# last [ROOT]: the count so far (0 before the first).
last() {
	l=$(tail -n 1 "${1:-$r}/log" 2>/dev/null)
	echo "${l:-0}"
}

# unbroken [ROOT]: the log is 1..N with no gap and no restart.
unbroken() {
	awk 'NR != $1 { bad = 1 } END { if (bad || NR < 2) exit 1 }' "${1:-$r}/log" && echo unbroken
}

# stopped [ROOT]: the count does not move.
stopped() {
	c=$(last "$1")
	sleep 0.3
	[ "$(last "$1")" = "$c" ] && echo stopped
}

# moves [ROOT]: the count goes on.
moves() {
	c=$(last "$1")
	wait_for '[ "$(last '"${1:-$r}"')" -gt "$c" ]' && echo moves
}

status() { $R state "$1" | sed -n 's/.*"status": "\(.*\)".*/\1/p'; }

# gone ID: no container, no cgroup, no criu-root mount left.
gone() {
	$R state "$1" >/dev/null 2>&1 || echo "no $1"
	[ -e "/sys/fs/cgroup/ctrun/$1" ] && echo "cgroup of $1 left"
	grep -q criu-root /proc/self/mountinfo && echo "criu-root left mounted"
	return 0
}

# finish ID: killed and deleted.
finish() {
	$R delete --force "$1"
	echo delete rc $?
}
