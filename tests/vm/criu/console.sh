# A terminal container, its pty master taken by a console socket's receiver (conmon's part,
# console_receiver): dumped, its terminal goes; restored with --console-socket, a new
# receiver gets the restored terminal's master and reads what the counter writes there.
recv() { # NAME: a receiver on /tmp/$n.NAME.sock, its output in /tmp/$n.NAME
	console_receiver --timeout 60 /tmp/$n.$1.sock >/tmp/$n.$1 2>&1 &
	wait_for "grep -qs ready /tmp/$n.$1" # -s: the file may not be made yet
}
# the last number the receiver NAME printed, 0 before the first (a test on "" is no number)
printed() {
	p=$(sed -n 's/^\([0-9][0-9]*\)\r*$/\1/p' /tmp/$n.$1 2>/dev/null | tail -n 1)
	echo "${p:-0}"
}
recv run
echo run rc $(piped $R run -d --console-socket /tmp/$n.run.sock --bundle $b $n)
wait_for '[ "$(printed run)" -gt 3 ]' && echo counting on the terminal
$R checkpoint --image-path $img $n
echo checkpoint rc $?
wait
echo receiver of run ended
recv restore
echo restore rc $(piped $R restore -d --console-socket /tmp/$n.restore.sock --image-path $img --bundle $b $n)
c=$(last)
wait_for '[ "$(printed restore)" -gt "$c" ]' && echo counting on the restored terminal
unbroken
finish $n
wait
echo receiver of restore ended
