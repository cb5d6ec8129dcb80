# criu's configuration file, as runc reads it: the one the org.criu.config annotation names,
# else /etc/criu/runc.conf; an empty annotation names none. Each here names criu's log file,
# which shows which one criu read (its log is dump.log without one).
echo "log-file annotated.log" >/tmp/$n.conf
echo run rc $(piped $R run -d --bundle $b $n)
wait_for '[ "$(last)" -gt 3 ]'
logs() { echo $1 $(cd $2 && ls *.log); }
$R checkpoint --leave-running --image-path $img.1 $n
echo checkpoint rc $?
logs annotation $img.1
mkdir -p /etc/criu
echo "log-file default.log" >/etc/criu/runc.conf
sed -i 's/"org\.criu\.config"/"org.criu.unused"/' $b/config.json
$R checkpoint --leave-running --image-path $img.2 $n
echo checkpoint rc $?
logs runc.conf $img.2
sed -i 's/"org\.criu\.unused": *"[^"]*"/"org.criu.config": ""/' $b/config.json
$R checkpoint --leave-running --image-path $img.3 $n
echo checkpoint rc $?
logs empty $img.3
rm /etc/criu/runc.conf
moves
finish $n
