# The core: a counter dumped (its processes stop, the container goes) and restored under the
# same id from the same bundle, where it counts on; state, exec, kill and delete work on it.
echo run rc $(piped $R run -d --bundle $b $n)
wait_for '[ "$(last)" -gt 3 ]'
$R checkpoint --image-path $img $n
echo checkpoint rc $?
gone $n
stopped
echo restore rc $(piped $R restore -d --image-path $img --bundle $b $n)
echo status $(status $n)
moves
unbroken
$R exec $n sh -c 'echo exec in $(hostname)'
$R kill $n KILL
wait_for '[ "$(status '$n')" = stopped ]' && echo killed
$R delete $n
echo delete rc $?
gone $n
