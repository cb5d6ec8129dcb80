# A restore from a damaged image (its inventory cut short) fails in one line and leaves
# nothing: no container, no cgroup, no mount. (An image with its pages cut short hangs criu
# 3.17's restore instead.) A criu config file's log-file moves criu's log: the line names
# that one, which criu wrote.
echo run rc $(piped $R run -d --bundle $b $n)
wait_for '[ "$(last)" -gt 3 ]'
$R checkpoint --image-path $img $n
echo checkpoint rc $?
head -c 10 $img/inventory.img >$img/cut && mv $img/cut $img/inventory.img
piped $R restore -d --image-path $img --bundle $b $n
gone $n
mkdir -p /etc/criu
echo "log-file moved.log" >/etc/criu/runc.conf
piped $R restore -d --image-path $img --bundle $b $n
rm /etc/criu/runc.conf
[ -s $img/moved.log ] && echo "moved.log written"
gone $n
$R delete --force $n 2>/dev/null # when the checkpoint failed; gone said so
