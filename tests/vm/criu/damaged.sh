# A restore from a damaged image (its inventory cut short) fails in one line and leaves
# nothing: no container, no cgroup, no mount. (An image with its pages cut short hangs criu
# 3.17's restore instead.)
echo run rc $(piped $R run -d --bundle $b $n)
wait_for '[ "$(last)" -gt 3 ]'
$R checkpoint --image-path $img $n
echo checkpoint rc $?
head -c 10 $img/inventory.img >$img/cut && mv $img/cut $img/inventory.img
piped $R restore -d --image-path $img --bundle $b $n
gone $n
$R delete --force $n 2>/dev/null # when the checkpoint failed; gone said so
