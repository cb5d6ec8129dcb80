# cgroup v1, as root: create makes the cgroup in two parts (the rest after the clone);
# restore makes it whole before criu runs. The case runs before the guest enables its
# controllers on cgroup2 (its stage, cgroup-v1): pids, freezer and devices are mounted as v1
# hierarchies in a mount namespace of the case's own, where it runs again. (Once cgroup2
# cgroups held a controller, their removed ones, kept by the files they charged in the
# guest's tmpfs, would keep it from v1.)
V1_CONTROLLERS="pids freezer devices"
if [ -z "$IN_V1" ]; then
	IN_V1=1 unshare -m --propagation private sh "$0" "$@"
	# the hierarchies go with the namespace and their last cgroup: pids is cgroup2's again
	wait_for 'grep -qw pids /sys/fs/cgroup/cgroup.controllers' || echo pids not back on cgroup2
	exit 0
fi
umount /sys/fs/cgroup || exit 1
mount -t tmpfs -o mode=0755 cgroup /sys/fs/cgroup
for c in $V1_CONTROLLERS; do
	mkdir /sys/fs/cgroup/$c && mount -t cgroup -o $c cgroup /sys/fs/cgroup/$c || exit 1
done
# the v1 limit of the container, and the init's place in the v1 hierarchies
v1_limits() {
	echo $1 pids.max $(cat /sys/fs/cgroup/pids/ctrun/$n/pids.max)
	pid=$($R state $n | sed -n 's/.*"pid": \([0-9]*\).*/\1/p')
	grep -E ':(pids|freezer|devices):' /proc/$pid/cgroup | cut -d: -f2- | sort
}
echo run rc $(piped $R run -d --bundle $b $n)
wait_for '[ "$(last)" -gt 3 ]'
v1_limits run
$R checkpoint --image-path $img $n
echo checkpoint rc $?
[ -e /sys/fs/cgroup/pids/ctrun/$n ] && echo cgroup left
echo restore rc $(piped $R restore -d --image-path $img --bundle $b $n)
v1_limits restored
moves
unbroken
$R exec $n cat /proc/self/cgroup | grep -E ':(pids|freezer|devices):' | cut -d: -f2- | sort
finish $n
for c in $V1_CONTROLLERS; do
	[ -e /sys/fs/cgroup/$c/ctrun/$n ] && echo $c cgroup left
done
gone $n
