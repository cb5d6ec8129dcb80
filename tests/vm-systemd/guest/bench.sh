# shellcheck shell=bash disable=SC2034 # sourced by main.sh, which uses what it sets
# Side by side timings of `run` in the guest (sourced by main.sh): the systemd driver against
# the cgroupfs driver, ctrun against runc. Each variant runs BENCH_N times (set by main.sh),
# interleaved with the others; `@sd bench VARIANT MEDIAN_US` per variant. Figures only:
# nothing is asserted.


# bench_once RUNTIME DRIVER I: one timed `run` of `true` in a bundle made beforehand; prints
# microseconds, or "fail".
bench_once() {
	local rt=$1 driver=$2 i=$3 name dir cg flag=
	name=bench-${rt##*/}-$driver-$i
	dir=/tmp/ctrt-bench/$name
	mkdir -p "$dir"
	if [ "$driver" = systemd ]; then
		cg=system.slice:ctrtb:$name flag=--systemd-cgroup
	else
		cg=/ctrtbench/$name
	fi
	jq --arg cg "$cg" --arg root "$ROOTFS" \
		'.linux.cgroupsPath = $cg | .process.args = ["true"] | .root.path = $root' \
		"$BASE_CONFIG" >"$dir/config.json"
	local t0 t1
	t0=$(date +%s%N)
	if "$rt" --root /run/ctrt-bench $flag run --bundle "$dir" "$name" </dev/null >/dev/null 2>&1; then
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000))
	else
		echo fail
	fi
}

median() {
	sort -n | awk '{v[NR] = $1} END {print (NR ? v[int((NR + 1) / 2)] : "none")}'
}

bench_all() { # CTRUN (empty: runc only)
	local variants="runc:systemd runc:cgroupfs" v i t
	[ -n "$1" ] && variants="$1:systemd $1:cgroupfs $variants"
	rm -rf /tmp/ctrt-bench
	mkdir -p /tmp/ctrt-bench/times
	for v in $variants; do # a warm-up each, not counted
		bench_once "$(bench_rt "$v")" "${v##*:}" warm >/dev/null
	done
	for i in $(seq "$BENCH_N"); do
		for v in $variants; do
			t=$(bench_once "$(bench_rt "$v")" "${v##*:}" "$i")
			echo "$t" >>"/tmp/ctrt-bench/times/${v//[:\/]/_}"
		done
	done
	for v in $variants; do
		local f=/tmp/ctrt-bench/times/${v//[:\/]/_} fails
		fails=$(grep -c fail "$f")
		echo "@sd bench $(bench_label "$v") $(grep -v fail "$f" | median)us n=$BENCH_N failed=$fails"
	done
	rmdir /sys/fs/cgroup/ctrtbench 2>/dev/null
	return 0
}
bench_rt() {
	case ${1%:*} in
	runc) echo /usr/sbin/runc ;;
	*) echo "${1%:*}" ;;
	esac
}
bench_label() { # runc:systemd -> runc-systemd, /payload/bin/ctrun:cgroupfs -> ctrun-cgroupfs
	local rt=${1%:*}
	echo "${rt##*/}-${1##*:}"
}
