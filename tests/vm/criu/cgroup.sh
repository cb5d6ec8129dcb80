# cgroup limits are back after restore under each --manage-cgroups-mode: create makes the
# container's cgroup with config.json's limits, criu restores into it. strict, which wants
# to make the cgroups itself, is refused at restore in one line, leaving nothing. Last,
# ignore: criu leaves the cgroups alone, so the limits are create's (the restored cgroup
# namespace is then not the container's: no look from inside).
echo run rc $(piped $R run -d --bundle $b $n)
for mode in soft full strict ignore; do
	wait_for '[ "$(last)" -gt 0 ]'
	$R checkpoint --manage-cgroups-mode $mode --image-path $img.$mode $n
	echo checkpoint $mode rc $?
	rst=$mode
	if [ $mode = strict ]; then
		echo restore strict rc $(piped $R restore -d --manage-cgroups-mode strict --image-path $img.$mode --bundle $b $n)
		gone $n
		rst=full
	fi
	echo restore $rst rc $(piped $R restore -d --manage-cgroups-mode $rst --image-path $img.$mode --bundle $b $n)
	echo $mode memory.max $(cat /sys/fs/cgroup/ctrun/$n/memory.max) pids.max $(cat /sys/fs/cgroup/ctrun/$n/pids.max)
	[ $mode = ignore ] || $R exec $n cat /sys/fs/cgroup/memory.max
done
moves
unbroken
finish $n
