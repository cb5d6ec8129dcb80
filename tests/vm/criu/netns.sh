# A container with a network namespace of its own (loopback only, the default of `ctrun
# spec` and of Podman's containers): dumped with its namespace (links, addresses, routes,
# rules, sysctls, conntrack) and restored into a new one, where lo is up again and serves.
echo run rc $(piped $R run -d --bundle $b $n)
wait_for '[ "$(last)" -gt 3 ]'
$R checkpoint --image-path $img $n
echo checkpoint rc $?
gone $n
echo restore rc $(piped $R restore -d --image-path $img --bundle $b $n)
pid=$($R state $n | sed -n 's/.*"pid": \([0-9]*\).*/\1/p')
[ "$(readlink /proc/$pid/ns/net)" != "$(readlink /proc/self/ns/net)" ] && echo own net
$R exec $n sh -c 'echo lo flags $(cat /sys/class/net/lo/flags)
echo served | nc -l -p 4242 & i=0
until nc 127.0.0.1 4242 </dev/null 2>/dev/null || [ $i -gt 200 ]; do sleep 0.05; i=$((i+1)); done'
moves
unbroken
finish $n
gone $n
