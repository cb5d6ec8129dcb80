# A checkpoint that cannot run criu: one line saying why, the container runs on as it was.
echo run rc $(piped $R run -d --bundle $b $n)
wait_for '[ "$(last)" -gt 3 ]'
CTRUN_CRIU=/nonexistent/criu $R checkpoint --image-path $img $n
echo checkpoint rc $?
echo status $(status $n)
moves
finish $n
