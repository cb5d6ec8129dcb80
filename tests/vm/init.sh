#!/bin/sh
# The guest's /init (tests/vm/run-vm.sh): runs the cases of /cases with ctrun and prints
# `@vm NAME KIND TEXT` lines on the console, then powers off. It runs twice: first on the
# initramfs root (the cases whose `stage` says "initramfs": pivot_root cannot leave that
# root), then, as `/init tmpfs`, after switch_root into a tmpfs, where pivot_root works.
/bin/busybox --install -s /bin 2>/dev/null
export PATH=/usr/sbin:/usr/bin:/bin

mount_system() {
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev
	mount -t tmpfs -o mode=0755 tmpfs /run
	mount -t cgroup2 cgroup2 /sys/fs/cgroup
	mkdir -p /dev/pts
	mount -t devpts -o newinstance,ptmxmode=0666 devpts /dev/pts
}

# What criu needs (run-vm.sh's add_criu): its modules and a loopback to probe TCP repair on.
prepare_criu() {
	[ -f /lib/criu-modules/order ] || return 0
	for m in $(cat /lib/criu-modules/order); do
		insmod "/lib/criu-modules/$m.ko" || echo "@vm criu-modules err $m"
	done
	ip link set lo up
}

# Every line of file as `@vm name kind LINE`.
emit_lines() {
	sed "s/^/@vm $1 $2 /" "$3"
}

# check NAME CMD...: runs CMD and reports its exit code and output.
check() {
	name=$1
	shift
	"$@" </dev/null >/tmp/out 2>/tmp/err
	echo "@vm $name rc $?"
	emit_lines "$name" out /tmp/out
	emit_lines "$name" err /tmp/err
}

run_case() {
	dir=$1
	name=${dir##*/}
	if [ -f "$dir/script" ]; then # several commands: the script gets the bundle and the id
		check "$name" sh "$dir/script" "$dir" "$name"
		return
	fi
	args=$(cat "$dir/ctrun-args" 2>/dev/null || echo --debug run)
	# shellcheck disable=SC2086 # the arguments are words
	check "$name" ctrun --root /run/ctrun $args --bundle "$dir" "$name"
}

# The cases of this stage, in name order.
run_cases() {
	for dir in /cases/*; do
		stage=$(cat "$dir/stage" 2>/dev/null)
		[ "${stage:-tmpfs}" = "$1" ] && run_case "$dir"
	done
}

# Copies the initramfs into a tmpfs and becomes /init there (never returns).
switch_to_tmpfs() {
	mount -t tmpfs -o size=400m tmpfs /newroot
	for entry in /*; do
		case $entry in
		/proc | /sys | /dev | /run | /newroot) mkdir -p "/newroot$entry" ;;
		*) cp -a "$entry" /newroot/ ;;
		esac
	done
	umount /sys/fs/cgroup /sys /proc /run
	umount -l /dev
	exec switch_root /newroot /init tmpfs
}

if [ "$1" = tmpfs ]; then
	mount_system
	exec >/dev/console 2>&1
	echo # the firmware's escape sequences end the line before
	check uname uname -r
	check probe kernel_probe
	check features ctrun features
	prepare_criu
	if [ -x /usr/sbin/criu ]; then check criu criu check; fi
	# the cgroup v2 cases' controllers, as a host makes them available
	for c in $(cat /sys/fs/cgroup/cgroup.controllers); do
		echo "+$c" >/sys/fs/cgroup/cgroup.subtree_control
	done
	# the cgroup v2 device filter on a cgroup of its own: deny all but the standard devices
	# (any node made, as runc allows, but not opened), then replaced by one that also lets
	# /dev/kmsg be read
	check devcg devcg_check '{"devices": [{"allow": false}]}' 'r:/dev/null w:/dev/zero r:/dev/kmsg m:b:7:0 mr:c:1:11' \
		'{"devices": [{"allow": false}, {"allow": true, "type": "c", "major": 1, "minor": 11, "access": "r"}]}' \
		'r:/dev/kmsg w:/dev/kmsg'
	run_cases tmpfs
	run_cases cgroup-v1 # last: the v1 hierarchies they mount may outlive them a while
	check cgroups-left find /sys/fs/cgroup -mindepth 1 -type d
	check left-tmpfs ctrun --root /run/ctrun list -q
	echo "@vm end"
	poweroff -f
fi

mount_system
exec >/dev/console 2>&1
echo # the firmware's escape sequences end the line before
run_cases initramfs
check left-initramfs ctrun --root /run/ctrun list -q
switch_to_tmpfs
