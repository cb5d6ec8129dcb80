# The container's own pid, mount, uts and ipc namespaces come back as its own (not the
# guest's): its init is pid 1 inside, its hostname is there.
echo run rc $(piped $R run -d --bundle $b $n)
wait_for '[ "$(last)" -gt 3 ]'
$R checkpoint --image-path $img $n
echo checkpoint rc $?
echo restore rc $(piped $R restore -d --image-path $img --bundle $b $n)
$R exec $n sh -c 'echo hostname $(hostname); echo init $(cat /proc/1/cmdline | tr "\0" " ")'
pid=$($R state $n | sed -n 's/.*"pid": \([0-9]*\).*/\1/p')
for ns in pid mnt uts ipc; do
	[ "$(readlink /proc/$pid/ns/$ns)" != "$(readlink /proc/self/ns/$ns)" ] && echo own $ns
done
finish $n
