# cgroup v1, as root: create makes the cgroup in two parts (the rest after the clone);
# restore makes it whole before criu runs. The controllers only v1 has, freezer and devices,
# are mounted as v1 hierarchies in a mount namespace of the case's own, where it runs again.
# Last of the guest's cases (its stage, cgroup-v1): a v1 hierarchy may outlive its mounts a
# while, and criu tries to mount every controller it sees in /proc/self/cgroup.
V1_CONTROLLERS="freezer devices"
if [ -z "$IN_V1" ]; then
	exec env IN_V1=1 unshare -m --propagation private sh "$0" "$@"
fi
umount /sys/fs/cgroup || exit 1
mount -t tmpfs -o mode=0755 cgroup /sys/fs/cgroup
for c in $V1_CONTROLLERS; do
	mkdir /sys/fs/cgroup/$c && mount -t cgroup -o $c cgroup /sys/fs/cgroup/$c || exit 1
done
# the device rules of the container, and the init's place in the v1 hierarchies
rules() { cat /sys/fs/cgroup/devices/ctrun/$n/devices.list; }
places() {
	pid=$($R state $n | sed -n 's/.*"pid": \([0-9]*\).*/\1/p')
	grep -E ':(freezer|devices):' /proc/$pid/cgroup | cut -d: -f2- | sort
}
echo run rc $(piped $R run -d --bundle $b $n)
wait_for '[ "$(last)" -gt 3 ]'
rules >/tmp/$n.rules
grep -qx 'a \*:\* rwm' /tmp/$n.rules || echo device rules made
places
$R checkpoint --image-path $img $n
echo checkpoint rc $?
[ -e /sys/fs/cgroup/devices/ctrun/$n ] && echo cgroup left
echo restore rc $(piped $R restore -d --image-path $img --bundle $b $n)
rules | cmp -s - /tmp/$n.rules && echo device rules back
places
moves
unbroken
$R exec $n cat /proc/self/cgroup | grep -E ':(freezer|devices):' | cut -d: -f2- | sort
finish $n
for c in $V1_CONTROLLERS; do
	[ -e /sys/fs/cgroup/$c/ctrun/$n ] && echo $c cgroup left
	# a hierarchy outlives its mounts while it has a cgroup: ctrun's parent goes too
	rmdir /sys/fs/cgroup/$c/ctrun 2>/dev/null
	umount /sys/fs/cgroup/$c
done
gone $n
