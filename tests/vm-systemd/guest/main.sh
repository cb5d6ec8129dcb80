#!/bin/bash
# The systemd VM's suite (run by ctrun-suite.service once the guest has booted; see
# tests/vm-systemd/run.sh). Prints `@sd` lines on the serial console: the boot time, one
# result per case and runtime (lib.sh), each round's time, the timings of bench.sh, and
# `@sd end` last. Debian's runc (--systemd-cgroup) goes first: it is the anchor the cases
# are checked on; ctrun from the payload disk second.
set -u
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
SUITE_DIR=$(cd "$(dirname "$0")" && pwd)
. "$SUITE_DIR/lib.sh"
. "$SUITE_DIR/cases.sh"
. "$SUITE_DIR/bench.sh"

echo "@sd boot $(cut -d' ' -f1 /proc/uptime)s $(systemd-analyze time 2>/dev/null | head -n1)"
echo "@sd versions kernel $(uname -r), $(systemctl --version | head -n1), runc $(runc --version | sed -n 's/^runc version //p'), criu $(criu --version 2>/dev/null | sed -n 's/^Version: //p')"
echo "@sd cgroup $(stat -f -c %T /sys/fs/cgroup)"

# The busybox root the bundles share, the runtime's default configs, the rootless user.
prepare() {
	local applet
	mkdir -p "$ROOTFS"/{bin,proc,sys,dev,etc,tmp,run}
	cp /bin/busybox "$ROOTFS/bin/busybox"
	for applet in $(/bin/busybox --list); do
		[ -e "$ROOTFS/bin/$applet" ] || ln -s busybox "$ROOTFS/bin/$applet"
	done
	(cd /var/lib/ctrt && runc spec && jq '.process.terminal = false | .root.readonly = true |
		.linux.namespaces = [{"type": "pid"}, {"type": "ipc"}, {"type": "uts"},
		{"type": "mount"}, {"type": "network"}]' config.json >base.json &&
		rm config.json && runc spec --rootless && mv config.json rootless.json)
	useradd -m -u 1000 "$RL_USER"
	echo "$RL_USER:100000:65536" >>/etc/subuid
	echo "$RL_USER:100000:65536" >>/etc/subgid
	loginctl enable-linger "$RL_USER"
	local i=0
	while [ ! -S /run/user/1000/bus ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	echo "@sd prepare user bus $([ -S /run/user/1000/bus ] && echo up || echo missing)"
}

round() { # RT RT_NAME
	RT=$1 RT_NAME=$2
	local start name
	start=$(date +%s%N)
	for name in ${CASES_FILTER:-$CASES}; do
		run_case "$name"
	done
	echo "@sd round $RT_NAME $((($(date +%s%N) - start) / 1000000))ms"
}

CASES_FILTER=$(cat /payload/cases-filter)
BENCH_N=$(cat /payload/bench-n)
prepare
round /usr/sbin/runc runc
ctrun=/payload/bin/ctrun
if "$ctrun" features | jq -e '.linux.cgroup.systemd == true' >/dev/null; then
	round "$ctrun" ctrun
else
	echo "@sd skip-round ctrun: its features say linux.cgroup.systemd is false (no systemd driver)"
	ctrun=
fi
[ "$BENCH_N" -gt 0 ] && bench_all "$ctrun"
echo "@sd end"
