# The command lines Podman 4.3 (conmon) sends for `podman container checkpoint` and
# `restore`, captured with a logging wrapper around the runtime on a host (U is the
# container's userdata directory, the bundle there):
#   create --bundle U --pid-file P ID; start ID
#   checkpoint --image-path U/checkpoint --work-path U ID
#   delete --force ID
#   restore --bundle U --pid-file P --detach --image-path U/checkpoint --work-path U ID
#   kill ID 15; kill ID 9; delete --force ID
u=/tmp/$n.userdata
mkdir -p $u
echo create rc $(piped $R create --bundle $b --pid-file $u/pidfile $n)
$R start $n
echo start rc $?
wait_for '[ "$(last)" -gt 3 ]'
$R checkpoint --image-path $u/checkpoint --work-path $u $n
echo checkpoint rc $?
[ -s $u/dump.log ] && echo log in the work path
$R delete --force $n
echo delete rc $?
echo restore rc $(piped $R restore --bundle $b --pid-file $u/pidfile --detach --image-path $u/checkpoint --work-path $u $n)
pid=$($R state $n | sed -n 's/.*"pid": \([0-9]*\).*/\1/p')
[ "$(cat $u/pidfile)" = "$pid" ] && echo pid file matches
moves
unbroken
$R kill $n 15
wait_for '[ "$(status '$n')" = stopped ]' || $R kill $n 9
$R delete --force $n
echo delete rc $?
gone $n
