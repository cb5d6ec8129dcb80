# The command lines containerd 1.6's runc shim (containerd-shim-runc-v2) sends for `ctr tasks
# checkpoint` (and `ctr containers checkpoint --task`) and for `ctr containers restore --live`
# then `ctr tasks start`, captured with a logging wrapper around the runtime on a host, each
# after `--root ROOT --log B/log.json --log-format json` (B the task's bundle; I a temporary
# directory of containerd's; B2 the restored task's bundle):
#   create --bundle B --pid-file B/init.pid ID; start ID
#   pause ID
#   checkpoint --image-path I --work-path B/work/criu-work --file-locks --leave-running ID
#   resume ID; kill --all ID 9; delete ID; delete --force ID
#   restore --image-path I --work-path B2/work --detach --pid-file B2/init.pid
#           -no-subreaper --bundle B2 ID2
#   kill --all ID2 9; delete ID2; delete --force ID2
# B2 is a copy of the bundle made while the task is paused after its dump, as its rootfs
# was then: the restored count goes on from there, unbroken.
C="$R --log $b/log.json --log-format json"
b2=/tmp/$n.b2
echo create rc $(piped $C create --bundle $b --pid-file $b/init.pid $n)
$C start $n
echo start rc $?
wait_for '[ "$(last)" -gt 3 ]'
$C pause $n
mkdir -p $b/work
$C checkpoint --image-path $img --work-path $b/work/criu-work --file-locks --leave-running $n
echo checkpoint rc $?
[ -s $b/work/criu-work/dump.log ] && echo log in the work path
cp -a $b $b2
$C resume $n
moves
$C kill --all $n 9
wait_for '[ "$(status '$n')" = stopped ]' && echo killed
$C delete $n
echo delete rc $?
$C delete --force $n
mkdir -p $b2/work
echo restore rc $(piped $C restore --image-path $img --work-path $b2/work --detach --pid-file $b2/init.pid -no-subreaper --bundle $b2 $n-2)
pid=$($R state $n-2 | sed -n 's/.*"pid": \([0-9]*\).*/\1/p')
[ "$(cat $b2/init.pid)" = "$pid" ] && echo pid file matches
moves $b2/rootfs
unbroken $b2/rootfs
$C kill --all $n-2 9
wait_for '[ "$(status '$n-2')" = stopped ]' && echo killed
$C delete $n-2
echo delete rc $?
$C delete --force $n-2
gone $n-2
