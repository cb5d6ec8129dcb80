# An established TCP connection over the container's loopback: its client sends the count
# (one number a line) to its server, which writes what it gets to /log. criu refuses to
# dump it without --tcp-established, saying so, and the container runs on; with it, the
# connection is dumped and restored (repair mode), and carries the count on, unbroken.
echo run rc $(piped $R run -d --bundle $b $n)
wait_for '[ "$(last)" -gt 3 ]'
$R checkpoint --image-path $img.refused $n 2>/tmp/$n.err
echo checkpoint rc $?
sed 's/ (see .*//' /tmp/$n.err
echo status $(status $n)
moves
$R checkpoint --tcp-established --image-path $img $n
echo checkpoint rc $?
gone $n
echo restore rc $(piped $R restore -d --tcp-established --image-path $img --bundle $b $n)
echo status $(status $n)
moves
unbroken
finish $n
gone $n
