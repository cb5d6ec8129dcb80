# containerd's shim pauses a task around its checkpoint: a paused container is dumped (criu
# stops its tasks through the container's freezer and leaves the cgroup as it found it), stays
# paused with --leave-running, and once dumped for good is restored and counts on.
echo run rc $(piped $R run -d --bundle $b $n)
wait_for '[ "$(last)" -gt 3 ]'
$R pause $n
echo pause rc $?
$R checkpoint --leave-running --image-path $img.1 $n
echo checkpoint rc $?
echo status $(status $n)
stopped
$R resume $n
moves
$R pause $n
echo pause rc $?
$R checkpoint --image-path $img $n
echo checkpoint rc $?
gone $n
echo restore rc $(piped $R restore -d --image-path $img --bundle $b $n)
echo status $(status $n)
moves
unbroken
finish $n
