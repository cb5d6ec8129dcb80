#!/usr/bin/env bash
# The verdict of a systemd VM run (tests/vm-systemd/run.sh) from its console: the guest's
# `@sd` lines, then per runtime the cases passed, failed and skipped, and the ratios of the
# `run` timings, and last the logs of the cases that failed (a CI report may keep only the
# tail of the output). Exit 1 when a case failed or the guest did not reach its end.
set -euo pipefail
console=$1
# A line may start with what systemd wrote to the console before it.
lines=$(grep -ao '@sd .*' "$console" || true)
printf '%s\n' "$lines"
echo "---"
printf '%s\n' "$lines" | awk '
/^@sd result / { n[$3 " " $5]++; if ($5 == "fail") { failed[$3] = failed[$3] " " $4; why[$3 " " $4] = "" } rts[$3] = 1 }
/^@sd log / { logs[$3 " " $4] = logs[$3 " " $4] "\n" $0 }
/^@sd bench / { sub(/us$/, "", $4); us[$3] = $4 }
/^@sd round / { took[$3] = $4 }
/^@sd skip-round / { print "vm-systemd: " substr($0, 16) }
/^@sd end$/ { ended = 1 }
function ratio(a, b) {
	if ((a in us) && (b in us) && us[b] > 0) printf "vm-systemd: run %s / %s = %.2f (%.1f ms / %.1f ms)\n", a, b, us[a] / us[b], us[a] / 1000, us[b] / 1000
}
END {
	for (rt in rts) {
		printf "vm-systemd: %s: %d passed, %d failed, %d skipped, %d known differences (%s)%s\n", rt, n[rt " pass"], n[rt " fail"], n[rt " skip"], n[rt " xfail"], took[rt], (rt in failed) ? ", failed:" failed[rt] : ""
		bad += n[rt " fail"]
	}
	ratio("ctrun-systemd", "ctrun-cgroupfs"); ratio("ctrun-systemd", "runc-systemd")
	ratio("runc-systemd", "runc-cgroupfs"); ratio("ctrun-cgroupfs", "runc-cgroupfs")
	for (c in why) printf "vm-systemd: why %s failed:%s\n", c, logs[c]
	if (!ended) { print "vm-systemd: the guest did not reach its end"; exit 1 }
	if (!length(rts)) { print "vm-systemd: no case ran"; exit 1 }
	exit bad ? 1 : 0
}'
