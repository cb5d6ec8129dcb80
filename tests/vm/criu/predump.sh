# --pre-dump, then the dump with --parent-path: the container runs on after the pre-dump,
# and the final image restores.
echo run rc $(piped $R run -d --bundle $b $n)
wait_for '[ "$(last)" -gt 3 ]'
$R checkpoint --pre-dump --image-path /tmp/$n.pre $n
echo pre-dump rc $?
echo status $(status $n)
moves
$R checkpoint --parent-path ../$n.pre --image-path $img $n
echo checkpoint rc $?
gone $n
echo restore rc $(piped $R restore -d --image-path $img --bundle $b $n)
moves
unbroken
finish $n
