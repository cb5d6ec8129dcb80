# A bind mount from the host: external to criu, bound again at restore; the container
# writes through it before and after.
mkdir -p /tmp/$n.data
echo run rc $(piped $R run -d --bundle $b $n)
wait_for '[ "$(last)" -gt 3 ]'
wait_for '[ -s /tmp/$n.data/log ]' && echo written through the bind
$R checkpoint --image-path $img $n
echo checkpoint rc $?
c=$(last /tmp/$n.data)
echo restore rc $(piped $R restore -d --image-path $img --bundle $b $n)
wait_for '[ "$(last /tmp/$n.data)" -gt "$c" ]' && echo written after restore
$R exec $n grep -c ' /data ' /proc/self/mountinfo
finish $n
