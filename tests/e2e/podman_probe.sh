#!/bin/sh
# Installed as /bin/probe in podman_diff.sh's image: prints what a container sees, one
# section per argument, in a form that the same container under another runtime prints
# the same (mount ids, timestamps and inode numbers left out).
section() {
	case $1 in
	id) id ;;
	status) grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs|Seccomp|Seccomp_filters|Groups|Umask):' /proc/self/status ;;
	# root, mount point, options, optional fields, type, source, super options; in the
	# order of the mount points (Podman orders some binds differently from run to run), the
	# mounts on one point in the order they were made
	mounts) awk '{ s = $4 " " $5 " " $6; for (i = 7; $i != "-"; i++) s = s " " $i;
		print s " - " $(i + 1) " " $(i + 2) " " $(i + 3) }' /proc/self/mountinfo |
		sort -s -k2,2 ;;
	limits) ulimit -a ;;
	cgroup) cat /proc/self/cgroup ;;
	hostname) hostname; cat /etc/hostname 2>&1 ;;
	env) env | sort ;;
	files) for f in /etc/hosts /etc/resolv.conf /etc/hostname; do echo "-- $f"; cat "$f"; done ;;
	shm) df -k /dev/shm | tail -n 1 | awk '{ print "shm " $2 " KiB" }' ;;
	cwd) pwd ;;
	dev) find /dev -xdev | sort | while read -r f; do
		stat -c '%N %A %u:%g %t:%T' "$f"; done ;;
	ns) for n in cgroup ipc mnt net pid pid_for_children time user uts; do
		echo "$n $(readlink /proc/self/ns/$n)"; done ;;
	cglimits) for f in memory/memory.limit_in_bytes memory/memory.memsw.limit_in_bytes \
		memory/memory.soft_limit_in_bytes memory/memory.swappiness memory/memory.oom_control \
		cpu/cpu.shares cpu/cpu.cfs_quota_us cpu/cpu.cfs_period_us cpuset/cpuset.cpus \
		cpuset/cpuset.mems pids/pids.max blkio/blkio.weight devices/devices.list; do
		echo "$f: $(sort </sys/fs/cgroup/$f 2>&1 | tr '\n' ' ')"; done ;;
	oom) echo "oom_score_adj $(cat /proc/self/oom_score_adj)" ;;
	fds) echo "fds $(ls /proc/self/fd | tr '\n' ' ')"
		for fd in 0 1 2; do echo "$fd $(readlink /proc/self/fd/$fd)"; done ;;
	procs) ps -o user,group,comm,args ;;
	tty) tty; [ -t 0 ] && echo stdin-tty; [ -t 1 ] && echo stdout-tty; stty size 2>&1 ;;
	arch) uname -m ;;
	sysctl) for f in kernel/msgmax kernel/shmmax net/ipv4/ip_forward kernel/domainname; do
		echo "$f $(cat /proc/sys/$f 2>&1)"; done ;;
	writes) for d in / /tmp /run /dev/shm /etc /data /ro /scratch /var/tmp; do
		[ -d "$d" ] || continue
		if touch "$d/.w" 2>/dev/null; then echo "$d writable"; rm -f "$d/.w"
		else echo "$d read-only"; fi; done ;;
	*) echo "probe: no section $1" ;;
	esac
}
for s in "$@"; do
	echo "[$s]"
	section "$s" 2>&1
done
