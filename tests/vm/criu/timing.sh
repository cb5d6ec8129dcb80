# The time of a checkpoint and of a restore of the counter under ctrun and under runc
# (Debian's runc 1.1.5, which drives the same criu), one after the other in this guest, and
# the ratio ctrun/runc: figures to read in the console, not judged.
ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# cycle NAME RUNTIME...: runs the counter, dumps and restores it, prints the two times.
cycle() {
	name=$1
	shift
	echo $name run rc $(piped "$@" run -d --bundle $b $n)
	wait_for '[ "$(last)" -gt 3 ]'
	t0=$(ms)
	"$@" checkpoint --image-path $img.$name $n
	rc=$?
	t1=$(ms)
	echo $name checkpoint rc $rc
	echo $name restore rc $(piped "$@" restore -d --image-path $img.$name --bundle $b $n)
	t2=$(ms)
	moves >/dev/null && echo $name moves
	"$@" delete --force $n
	echo $name delete rc $?
	eval ${name}_dump=$((t1 - t0)) ${name}_restore=$((t2 - t1))
	echo "$name checkpoint $((t1 - t0)) ms, restore $((t2 - t1)) ms" >&2
}

if ! command -v runc >/dev/null; then
	echo "skip: no runc on the host for the guest (apt-get install runc)"
	exit 0
fi
cycle ctrun $R
cycle runc runc --root /run/runc
awk -v cd=$ctrun_dump -v rd=$runc_dump -v cr=$ctrun_restore -v rr=$runc_restore \
	'BEGIN { printf "ctrun/runc: checkpoint %.2f, restore %.2f\n", cd / rd, cr / rr }' >&2
