# --leave-running: the container runs on; its image restores as another container, under a
# new id and from a copy of the bundle (whose log the first container went on writing after
# the dump: the restored count moves on, from the dump's value).
echo run rc $(piped $R run -d --bundle $b $n)
wait_for '[ "$(last)" -gt 3 ]'
$R checkpoint --leave-running --image-path $img $n
echo checkpoint rc $?
echo status $(status $n)
moves
cp -a $b /tmp/$n.bundle
finish $n
echo restore rc $(piped $R restore -d --image-path $img --bundle /tmp/$n.bundle $n-new)
echo status $(status $n-new)
moves /tmp/$n.bundle/rootfs
finish $n-new
gone $n-new
