# A POSIX lock held by a process of the container (lock_holder on /lockfile): a checkpoint
# without --file-locks is refused by criu in one line and the container runs on; with it,
# the restored holder holds the lock again (/proc/locks, from outside).
held_by() { # PID: the lock on /lockfile, in /proc/locks, is PID's
	ino=$(stat -c %i $r/lockfile)
	grep " $1 [0-9a-f]*:[0-9a-f]*:$ino " /proc/locks >/dev/null
}
holder() { for p in $(pidof lock_holder); do [ "$(readlink /proc/$p/root)" = "$(readlink /proc/$1/root)" ] && echo $p; done; }
echo run rc $(piped $R run -d --bundle $b $n)
wait_for '[ "$(last)" -gt 3 ]'
pid=$($R state $n | sed -n 's/.*"pid": \([0-9]*\).*/\1/p')
wait_for 'held_by $(holder $pid)' && echo locked
$R checkpoint --image-path $img.refused $n 2>/tmp/$n.err
echo checkpoint rc $?
grep -c 'criu failed' /tmp/$n.err
echo status $(status $n)
$R checkpoint --file-locks --image-path $img $n
echo checkpoint rc $?
gone $n
echo restore rc $(piped $R restore -d --file-locks --image-path $img --bundle $b $n)
pid=$($R state $n | sed -n 's/.*"pid": \([0-9]*\).*/\1/p')
held_by $(holder $pid) && echo locked by the restored holder
moves
finish $n
