# restore without --detach: it stays, as run does, until the restored container exits (its
# counter stops at /stop, with status 3), exits with its status and leaves nothing.
echo run rc $(piped $R run -d --bundle $b $n)
wait_for '[ "$(last)" -gt 3 ]'
$R checkpoint --image-path $img $n
echo checkpoint rc $?
rm -f /tmp/$n.rc
(true | { $R restore --image-path $img --bundle $b $n; echo $? >/tmp/$n.rc; } 2>&1 | cat >/tmp/$n.err) >/dev/null 2>&1 &
wait_for '[ "$(status '$n' 2>/dev/null)" = running ]' && echo status running
moves
[ -e /tmp/$n.rc ] || echo restore waits
touch $r/stop
wait_for '[ -s /tmp/$n.rc ]'
echo restore rc $(cat /tmp/$n.rc) $(cat /tmp/$n.err)
unbroken
gone $n
