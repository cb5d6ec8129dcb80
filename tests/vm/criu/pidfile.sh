# restore --detach --pid-file: the file names the restored init, as state does; the prestart
# and createRuntime hooks ran once its namespaces were there, given its pid, "creating".
echo run rc $(piped $R run -d --bundle $b $n)
wait_for '[ "$(last)" -gt 3 ]'
$R checkpoint --image-path $img $n
echo checkpoint rc $?
rm -f /tmp/$n.prestart /tmp/$n.createRuntime
echo restore rc $(piped $R restore --detach --pid-file /tmp/$n.pid --image-path $img --bundle $b $n)
pid=$($R state $n | sed -n 's/.*"pid": \([0-9]*\).*/\1/p')
[ "$(cat /tmp/$n.pid)" = "$pid" ] && echo pid file matches
[ -d /proc/$pid ] && echo init lives
for hook in prestart createRuntime; do
	grep -q "\"pid\": *$pid[,}]" /tmp/$n.$hook && grep -q '"status": *"creating"' /tmp/$n.$hook &&
		echo $hook hook saw it creating
done
moves
finish $n
