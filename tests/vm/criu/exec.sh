# A process `ctrun exec --detach` started with its stdio on the guest's /dev/null, as conmon
# gives `podman exec -d`'s, that leaves a daemon behind with that stdio. The exec'd process's
# parent is outside the container, so criu never sees it; the daemon, adopted by the init once
# it has exited, is dumped with the container, fds and all. criu dumps an fd by its mount,
# and the guest's /dev is none of the container's: the stdio must be the container's
# /dev/null. The daemon's stdin is dup'ed past sh's /dev/null for a background job.
exited() { # PID: gone or a zombie
	s=$(sed -n 's/^State:\t\(.\).*/\1/p' /proc/$1/status 2>/dev/null)
	[ -z "$s" ] || [ "$s" = Z ]
}
echo run rc $(piped $R run -d --bundle $b $n)
wait_for '[ "$(last)" -gt 3 ]'
$R exec --detach --pid-file /tmp/$n.exec.pid $n sh -c \
	'exec 3<&0; sleep 1000 <&3 3<&- & echo $! > /daemon.pid' </dev/null >/dev/null 2>&1
echo exec rc $?
wait_for '[ -s $r/daemon.pid ] && exited $(cat /tmp/$n.exec.pid)'
$R checkpoint --image-path $img $n
echo checkpoint rc $?
gone $n
echo restore rc $(piped $R restore -d --image-path $img --bundle $b $n)
$R exec $n sh -c 'p=$(cat /daemon.pid); echo back $(tr "\0" " " < /proc/$p/cmdline)
echo parent $(sed -n "s/^PPid:\t//p" /proc/$p/status)
echo stdio $(for f in 0 1 2; do readlink /proc/$p/fd/$f; done)'
moves
unbroken
finish $n
gone $n
