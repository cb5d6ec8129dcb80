#!/usr/bin/env bash
# Docker 20.10 end to end (Debian's docker.io): a private dockerd (tests/e2e/docker_env.sh)
# with ctrun added as a runtime, driven with `docker ... --runtime ctrun` through the
# everyday workflows. Each case checks from outside (exit status, docker's view, the host
# cgroup), from inside (what the process sees), where it means something that runc gives
# the same, and then that nothing is left behind. Needs CTRUN, CTRUN_SRC; run as root in a
# private mount namespace (tests/e2e/run-all.sh does).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
. "$here/busybox_image.sh"
: "${CTRUN:?set CTRUN to the ctrun binary}" "${CTRUN_SRC:?set CTRUN_SRC to the source tree}"

e2e_require_tools docker dockerd docker script capsh

E2E_DIR=$(mktemp -d /tmp/ctrun-docker-e2e.XXXXXX)
. "$here/docker_env.sh"
trap docker_cleanup_all EXIT
if ! dockerd_start || ! load_busybox; then
	echo "docker e2e: starting the private dockerd or loading the busybox image failed" >&2
	exit 1
fi

# ---- what "nothing left behind" means ----------------------------------------------------

# The container's shim (containerd-shim-runc-v2 -namespace moby -id ID) ends after docker
# rm returns; the checks wait for it (bounded), one still alive then is a leak.
shim_pids() {
	e2e_pids_by_cmdline "-namespace moby -id [0-9a-f]+ -address $DOCKER_EXEC_ROOT/"
}

# Processes in any of the suite's container cgroups (every hierarchy).
container_processes() {
	grep -l ":/$DOCKER_CGROUP_PARENT/" /proc/[0-9]*/cgroup 2>/dev/null | cut -d/ -f3
}

assert_nothing_left() {
	local left= pid dir
	[ -z "$(dk ps -aq)" ] || left+=" container($(dk ps -aq | tr '\n' ' '))"
	[ -z "$(ls -A "$CTRUN_STATE_ROOT" 2>/dev/null)" ] ||
		left+=" ctrun-state($(ls -A "$CTRUN_STATE_ROOT" | tr '\n' ' '))"
	for dir in /sys/fs/cgroup/*/"$DOCKER_CGROUP_PARENT"/*/ /sys/fs/cgroup/"$DOCKER_CGROUP_PARENT"/*/; do
		[ -d "$dir" ] && left+=" cgroup($dir)"
	done
	grep -E " $E2E_DIR/data/(overlay2/[^ ]*/merged|containers/[^ ]*/mounts/shm) " \
		/proc/self/mountinfo >/dev/null && left+=" mount"
	for pid in $(shim_pids); do
		timeout 20 tail --pid="$pid" -f /dev/null || left+=" shim($pid)"
	done
	pid=$(container_processes)
	[ -z "$pid" ] || left+=" process($pid)"
	[ -z "$left" ] || e2e_fail "left behind:$left"
}

CASE_FN=
run_case() { "$CASE_FN" && { [ "$CASE_FN" = case_daemon_stop ] || assert_nothing_left; }; }
# E2E_CASES="exec oom" runs only the named cases (while working on them).
dcase() {
	case " ${E2E_CASES:-$1} " in *" $1 "*) ;; *) return 0 ;; esac
	CASE_FN=$2
	e2e_test "$1" run_case
	dk rm -f $(dk ps -aq 2>/dev/null) >/dev/null 2>&1
}

# ---- small helpers -----------------------------------------------------------------------

# docker run with ctrun (and no network unless a case asks: the daemon has no bridge).
drun() { dk run --runtime ctrun --network none "$@"; }

# Runs a detached container and prints its id.
run_detached() { drun -d "$@"; }

inspect() { dk inspect --format "$1" "$2"; }

host_cgroup_dir() { # CONTROLLER ID
	echo "/sys/fs/cgroup/$1/$DOCKER_CGROUP_PARENT/$2"
}

# docker run --rm ARGS with ctrun, then with runc: the output and exit status must be the
# same. Prints ctrun's output and returns its status.
same_as_runc() { # RUN-ARGS...
	local out_ctrun out_runc st_ctrun st_runc
	out_ctrun=$(dk run --rm --network none --runtime ctrun "$@" 2>&1)
	st_ctrun=$?
	out_runc=$(dk run --rm --network none --runtime runc "$@" 2>&1)
	st_runc=$?
	assert_eq "$st_runc: $out_runc" "$st_ctrun: $out_ctrun" "ctrun against runc for docker run $*" ||
		return 1
	printf '%s\n' "$out_ctrun"
	return "$st_ctrun"
}

# Follows `docker logs -f ID` until a line holds TEXT (bounded).
wait_for_log() { e2e_wait_for_line "$2" docker logs -f "$1"; } # ID TEXT

# script(1) gives docker a terminal, as a user at a shell has; stdin is what is typed.
in_terminal() { # COMMAND-LINE
	timeout -k 5 "$E2E_TIMEOUT" script -qec "$1" /dev/null
}

# ---- cases ---------------------------------------------------------------------------------

case_run_rm() {
	local out id
	out=$(drun --rm --name e2e-rm "$E2E_IMAGE" sh -c 'echo pid=$$; cat /proc/self/cgroup') || return 1
	assert_contains "$out" "pid=1" "the command is pid 1 in its pid namespace" &&
		assert_contains "$out" ":memory:/$DOCKER_CGROUP_PARENT/" "its memory cgroup is under the daemon's parent" &&
		assert_eq "" "$(dk ps -aq --filter name=e2e-rm)" "--rm removed the container" || return 1
	assert_eq "same" "$(same_as_runc "$E2E_IMAGE" sh -c 'echo same')" "runc's output" || return 1
	# The container is ctrun's: its state root lists it, running, with docker's pid.
	id=$(run_detached "$E2E_IMAGE" sleep 1000) || return 1
	assert_eq "running $(inspect '{{.State.Pid}}' "$id")" \
		"$("$CTRUN" --root "$CTRUN_STATE_ROOT" list | awk -v id="$id" '$1 == id { print $3, $2 }')" \
		"ctrun list of the shim's state root" || return 1
	dk rm -f "$id" >/dev/null
}

case_exit_codes() {
	local code status id err
	for code in 0 3 42; do
		same_as_runc "$E2E_IMAGE" sh -c "exit $code" >/dev/null
		status=$?
		assert_eq "$code" "$status" "docker run exit status of 'exit $code'" || return 1
	done
	err=$(drun --rm "$E2E_IMAGE" /no/such/binary 2>&1)
	status=$?
	assert_eq 127 "$status" "docker run of a missing path" &&
		assert_contains "$err" "no such file or directory" "the error names the cause" || return 1
	err=$(drun --rm "$E2E_IMAGE" /etc/passwd 2>&1)
	status=$?
	assert_eq 126 "$status" "docker run of a non-executable file" &&
		assert_contains "$err" "permission denied" "the error names the cause" || return 1
	id=$(run_detached "$E2E_IMAGE" sleep 1000) || return 1
	dk kill "$id" >/dev/null || return 1
	assert_eq 137 "$(dk wait "$id")" "exit status after docker kill" || return 1
	dk rm "$id" >/dev/null
}

case_interactive() {
	local out status
	out=$(printf 'line1\nline2\n' | drun --rm -i "$E2E_IMAGE" sh -c '[ -t 0 ] && echo tty; wc -l')
	assert_eq 2 "$(echo "$out" | tr -d ' ')" "piped stdin reaches the container, no tty" || return 1
	out=$(in_terminal "docker run --rm -t --runtime ctrun --network none $E2E_IMAGE sh -c 'tty; [ -t 1 ] && echo out-is-tty'" </dev/null)
	assert_contains "$out" /dev/pts/0 "the tty is the container's own pts" &&
		assert_contains "$out" out-is-tty "stdout is the terminal" || return 1
	# -it: what is typed at the terminal reaches the shell, its exit status comes back.
	out=$(printf 'echo typed-$((6*7))\nexit 5\n' |
		in_terminal "docker run --rm -it --runtime ctrun --network none $E2E_IMAGE sh")
	status=$?
	assert_eq 5 "$status" "exit status of the interactive shell" &&
		assert_contains "$out" typed-42 "the shell ran the typed line"
}

case_exec() {
	local id out status runc_id
	id=$(run_detached "$E2E_IMAGE" sleep 1000) || return 1
	assert_eq "uid=1000(user) gid=1000(user)" "$(dk exec --user 1000:1000 "$id" id | cut -d' ' -f1-2)" \
		"exec --user" &&
		assert_eq "uid=1000(user)" "$(dk exec --user user "$id" id -un | sed 's/^/uid=1000(/;s/$/)/')" \
			"exec --user by name" &&
		assert_eq /tmp "$(dk exec -w /tmp "$id" pwd)" "exec --workdir" &&
		assert_eq bar "$(dk exec -e FOO=bar "$id" sh -c 'echo $FOO')" "exec --env" || return 1
	out=$(in_terminal "docker exec -t $id sh -c 'tty; [ -t 1 ] && echo out-is-tty'" </dev/null)
	assert_contains "$out" /dev/pts/ "exec -t gets a terminal" &&
		assert_contains "$out" out-is-tty "exec -t: stdout is the terminal" || return 1
	out=$(printf 'echo typed-in-exec\nexit 4\n' | in_terminal "docker exec -it $id sh")
	status=$?
	assert_eq 4 "$status" "exec -it exit status" &&
		assert_contains "$out" typed-in-exec "exec -it ran the typed line" || return 1
	dk exec "$id" sh -c 'exit 5'
	assert_eq 5 $? "exec exit status" || return 1
	# Docker 20.10 reports a runtime's failed exec as 126, whatever the cause (runc too).
	out=$(dk exec "$id" nosuchcommand 2>&1)
	status=$?
	assert_eq 126 "$status" "exec of a missing command" &&
		assert_contains "$out" "executable file not found" "exec error" || return 1
	runc_id=$(dk run -d --runtime runc --network none "$E2E_IMAGE" sleep 1000) || return 1
	dk exec "$runc_id" nosuchcommand >/dev/null 2>&1
	assert_eq "$status" $? "runc's exit status for the same exec" || return 1
	dk rm -f "$runc_id" >/dev/null || return 1
	out=$(dk exec "$id" sh -c 'cat /proc/1/cmdline | tr "\0" " "')
	assert_contains "$out" "sleep 1000" "exec joins the container's pid namespace" || return 1
	assert_root_holds_only_containers "$CTRUN_STATE_ROOT" || return 1
	dk rm -f "$id" >/dev/null
}

# A pid 1 with a handler gets docker kill's signal and stop's SIGTERM; one without a
# handler ignores SIGTERM and docker stop falls back to SIGKILL after -t.
case_stop_and_kill() {
	local id
	id=$(start_trapper_sent_usr1 dk) || return 1
	assert_eq true "$(inspect '{{.State.Running}}' "$id")" "still running after USR1" || return 1
	dk stop -t 60 "$id" >/dev/null || return 1
	assert_eq 7 "$(inspect '{{.State.ExitCode}}' "$id")" "exit status of the TERM handler" &&
		assert_contains "$(dk logs "$id")" got-term "the handler saw docker stop's SIGTERM" || return 1
	dk rm "$id" >/dev/null || return 1
	id=$(run_detached "$E2E_IMAGE" sleep 1000) || return 1
	dk stop -t 1 "$id" >/dev/null || return 1
	assert_eq 137 "$(inspect '{{.State.ExitCode}}' "$id")" \
		"a pid 1 ignoring SIGTERM is killed after the grace time" || return 1
	dk rm "$id" >/dev/null || return 1
	# --stop-signal: docker stop sends the container's own signal.
	id=$(run_detached --stop-signal USR2 "$E2E_IMAGE" sh -c \
		'trap "exit 9" USR2; echo ready; while :; do sleep 0.1; done') || return 1
	wait_for_log "$id" ready || return 1
	dk stop -t 60 "$id" >/dev/null || return 1
	assert_eq 9 "$(inspect '{{.State.ExitCode}}' "$id")" "the stop signal was USR2" || return 1
	dk rm "$id" >/dev/null
}

# --restart on-failure:2: dockerd restarts the container through ctrun twice. The third
# "die" event is the last; docker restart gives a new pid 1 that ran the command again.
case_restart_policy() {
	local id vol="$E2E_DIR/vol-restart" since pid1 pid2
	mkdir -p "$vol"
	since=$(date +%s)
	id=$(run_detached --restart on-failure:2 -v "$vol:/v" "$E2E_IMAGE" \
		sh -c 'echo run >> /v/count; exit 1') || return 1
	timeout 60 docker events --since "$since" --filter "container=$id" --filter event=die |
		head -n 3 >/dev/null
	dk wait "$id" >/dev/null
	assert_eq "exited 2 1" "$(inspect '{{.State.Status}} {{.RestartCount}} {{.State.ExitCode}}' "$id")" \
		"status, restarts, exit code" &&
		assert_eq 3 "$(wc -l <"$vol/count")" "the command ran three times" || return 1
	dk rm "$id" >/dev/null || return 1
	id=$(run_detached "$E2E_IMAGE" sh -c 'echo started >> /tmp/count; exec sleep 1000') || return 1
	pid1=$(inspect '{{.State.Pid}}' "$id")
	dk restart -t 0 "$id" >/dev/null || return 1
	pid2=$(inspect '{{.State.Pid}}' "$id")
	[ "$pid1" != "$pid2" ] && [ -d "/proc/$pid2" ] && [ ! -d "/proc/$pid1" ] ||
		e2e_fail "docker restart: pid $pid1 -> $pid2" || return 1
	assert_eq 2 "$(dk exec "$id" wc -l /tmp/count | cut -d' ' -f1)" "the command ran twice" || return 1
	dk rm -f "$id" >/dev/null
}

case_readonly_root() {
	local vol="$E2E_DIR/vol-rw" ro="$E2E_DIR/vol-ro" out
	mkdir -p "$vol" "$ro" && echo host-data >"$ro/file"
	out=$(same_as_runc --read-only --tmpfs /scratch:size=1m -v "$vol:/data" -v "$ro:/ro:ro" \
		"$E2E_IMAGE" sh -c '
		touch /rootfile 2>/dev/null && echo root-writable
		echo s > /scratch/f && echo scratch-ok
		echo from-container >> /data/out && echo data-ok
		touch /ro/x 2>/dev/null && echo ro-writable
		cat /ro/file
		grep " /scratch " /proc/self/mountinfo | grep -o "size=[0-9]*k"
		echo x > /dev/shm/x && echo shm-ok') || return 1
	assert_not_contains "$out" root-writable "--read-only root" &&
		assert_contains "$out" scratch-ok "--tmpfs is writable" &&
		assert_contains "$out" "size=1024k" "the tmpfs has its size" &&
		assert_contains "$out" data-ok "the rw bind is writable" &&
		assert_eq "from-container
from-container" "$(cat "$vol/out")" "the writes (ctrun's, runc's) landed in the host dir" &&
		assert_not_contains "$out" ro-writable "the :ro bind" &&
		assert_contains "$out" host-data "the ro bind shows the host file" &&
		assert_contains "$out" shm-ok "docker's /dev/shm stays writable"
}

case_capabilities() {
	local out
	out=$(same_as_runc --cap-drop all --cap-add NET_ADMIN --cap-add CHOWN "$E2E_IMAGE" \
		sh -c 'grep -E "^Cap(Eff|Bnd|Prm)" /proc/self/status; chown 1000 /tmp && echo chown-ok;
		       mknod /tmp/n c 1 3 2>/dev/null && echo mknod-ok; true') || return 1
	# NET_ADMIN is bit 12, CHOWN bit 0.
	assert_contains "$out" "CapEff:	0000000000001001" "effective set" &&
		assert_contains "$out" "CapBnd:	0000000000001001" "bounding set" &&
		assert_contains "$out" chown-ok "CAP_CHOWN works" &&
		assert_not_contains "$out" mknod-ok "CAP_MKNOD was dropped" || return 1
	out=$(same_as_runc --cap-drop NET_RAW --cap-add SYS_ADMIN "$E2E_IMAGE" \
		sh -c 'mkdir /tmp/m && mount -t tmpfs e2e /tmp/m && echo mounted; grep ^CapEff /proc/self/status') ||
		return 1
	assert_contains "$out" mounted "CAP_SYS_ADMIN added: mount works"
}

# The capabilities this machine's bounding set lacks, as docker names them (SYS_RESOURCE).
missing_capabilities() {
	local bnd last all missing
	bnd=$((16#$(sed -n 's/^CapBnd:\t//p' /proc/self/status)))
	last=$(cat /proc/sys/kernel/cap_last_cap)
	all=$(((1 << (last + 1)) - 1))
	missing=$((all & ~bnd))
	[ "$missing" = 0 ] && return 0
	capsh --decode="$(printf '%x' "$missing")" | sed 's/^.*=//; s/,/\n/g' |
		sed 's/^cap_//' | tr a-z A-Z
}

# Docker's --privileged asks for every capability the kernel knows; this machine's
# bounding set lacks CAP_SYS_RESOURCE, so runc fails it here as ctrun does. Privileged
# mode is tested as --cap-add ALL minus what the machine lacks, with no seccomp filter and
# no AppArmor: every capability the host has (of those Docker 20.10 knows: its list ends at
# CAP_AUDIT_READ, 37), mount and network administration work.
DOCKER_LAST_CAP=37
case_privileged_caps() {
	local out drop=() cap want
	for cap in $(missing_capabilities); do drop+=(--cap-drop "$cap"); done
	want=$(printf '%016x' $((16#$(sed -n 's/^CapBnd:\t//p' /proc/self/status) & ((1 << (DOCKER_LAST_CAP + 1)) - 1))))
	out=$(same_as_runc --cap-add ALL "${drop[@]}" --security-opt seccomp=unconfined \
		--security-opt apparmor=unconfined "$E2E_IMAGE" sh -c '
		grep -E "^(CapEff|CapBnd|Seccomp):" /proc/self/status
		mkdir /tmp/m && mount -t tmpfs e2e /tmp/m && echo mounted
		ip addr add 192.0.2.1/32 dev lo && echo netadmin') || return 1
	assert_contains "$out" "CapEff:	$want" "every capability this host has" &&
		assert_contains "$out" "CapBnd:	$want" "the bounding set" &&
		assert_contains "$out" "Seccomp:	0" "no seccomp filter" &&
		assert_contains "$out" mounted "CAP_SYS_ADMIN: mount works" &&
		assert_contains "$out" netadmin "CAP_NET_ADMIN: an address is added" || return 1
	if [ ${#drop[@]} -gt 0 ]; then
		out=$(same_as_runc --privileged "$E2E_IMAGE" true)
		[ $? != 0 ] || e2e_fail "--privileged ran on a machine without ${drop[*]}" || return 1
	fi
}

case_seccomp_and_nnp() {
	local out
	assert_no_mkdir_profile_applies same_as_runc || return 1
	# Docker's default profile loads and leaves ordinary work alone; what it refuses
	# (unshare of a user namespace... here: keyctl) is refused.
	out=$(same_as_runc "$E2E_IMAGE" sh -c 'grep -E "^(Seccomp|NoNewPrivs):" /proc/self/status; mkdir /tmp/d && echo made; unshare -U true 2>/dev/null && echo unshared; true') ||
		return 1
	assert_contains "$out" "Seccomp:	2" "default profile installed" &&
		assert_contains "$out" "NoNewPrivs:	0" "no-new-privileges is off by default" &&
		assert_contains "$out" made "mkdir under the default profile" &&
		assert_not_contains "$out" unshared "the default profile refuses unshare" || return 1
	assert_unconfined_has_no_filter same_as_runc
}

case_limits_and_update() {
	local id out
	id=$(run_detached --pids-limit 8 --memory 48m "$E2E_IMAGE" sleep 1000) || return 1
	assert_pids_and_memory_limits "$id" dk exec &&
		assert_eq $((48 << 20)) "$(dk exec "$id" cat /sys/fs/cgroup/memory/memory.limit_in_bytes)" \
			"memory limit seen inside" || return 1
	dk update --memory 64m --pids-limit 32 --cpu-shares 256 "$id" >/dev/null || return 1
	assert_eq $((64 << 20)) "$(cat "$(host_cgroup_dir memory "$id")/memory.limit_in_bytes")" \
		"memory limit after docker update (host)" &&
		assert_eq $((64 << 20)) "$(dk exec "$id" cat /sys/fs/cgroup/memory/memory.limit_in_bytes)" \
			"memory limit after docker update (inside)" &&
		assert_eq 32 "$(dk exec "$id" cat /sys/fs/cgroup/pids/pids.max)" "pids.max after update" &&
		assert_eq 256 "$(cat "$(host_cgroup_dir cpu "$id")/cpu.shares")" "cpu shares after update" &&
		assert_eq "$((64 << 20)) 32" "$(inspect '{{.HostConfig.Memory}} {{.HostConfig.PidsLimit}}' "$id")" \
			"docker inspect after update" || return 1
	dk rm -f "$id" >/dev/null
}

case_user() {
	local out
	out=$(same_as_runc --user 1000:1000 "$E2E_IMAGE" sh -c 'id; touch /tmp/f; stat -c %u:%g /tmp/f') ||
		return 1
	assert_eq "uid=1000(user) gid=1000(user) groups=1000(user)
1000:1000" "$out" "--user 1000:1000" || return 1
	out=$(same_as_runc --user user --group-add 10 "$E2E_IMAGE" id) || return 1
	assert_eq "uid=1000(user) gid=1000(user) groups=10,1000(user)" "$out" "--user by name, --group-add" ||
		return 1
	out=$(same_as_runc --user 4242 "$E2E_IMAGE" sh -c 'id -u; id -g; echo $HOME') || return 1
	assert_eq "4242 0 /" "$(echo $out)" "a uid the image does not know: gid 0, HOME /"
}

case_init() {
	local id
	assert_init_is_pid_1 /sbin/docker-init drun --rm || return 1
	id=$(run_detached --init "$E2E_IMAGE" sleep 1000) || return 1
	dk stop -t 60 "$id" >/dev/null || return 1
	assert_eq 143 "$(inspect '{{.State.ExitCode}}' "$id")" "docker-init forwarded stop's SIGTERM" || return 1
	dk rm "$id" >/dev/null
}

case_pause_unpause() {
	local id freezer
	id=$(run_detached "$E2E_IMAGE" sleep 1000) || return 1
	dk pause "$id" >/dev/null || return 1
	freezer=$(host_cgroup_dir freezer "$id")/freezer.state
	assert_eq paused "$(inspect '{{.State.Status}}' "$id")" "docker inspect after pause" &&
		assert_eq FROZEN "$(cat "$freezer")" "the container's freezer" || return 1
	dk unpause "$id" >/dev/null || return 1
	assert_eq running "$(inspect '{{.State.Status}}' "$id")" "after unpause" &&
		assert_eq THAWED "$(cat "$freezer")" "the freezer after unpause" &&
		assert_eq ok "$(dk exec "$id" echo ok)" "exec after unpause" || return 1
	# A paused container is stopped by docker stop too (thawed, then killed).
	dk pause "$id" >/dev/null && dk stop -t 1 "$id" >/dev/null || return 1
	assert_eq exited "$(inspect '{{.State.Status}}' "$id")" "stopped while paused" || return 1
	dk rm "$id" >/dev/null
}

case_top() {
	local id out pid
	id=$(run_detached "$E2E_IMAGE" sh -c 'sleep 1000 & echo ready; wait') || return 1
	wait_for_log "$id" ready || return 1
	pid=$(inspect '{{.State.Pid}}' "$id")
	out=$(dk top "$id" -o pid,args) || return 1
	assert_contains "$out" "$pid" "docker top lists pid 1 by its host pid" &&
		assert_contains "$out" "sleep 1000" "and its child" &&
		assert_eq 3 "$(echo "$out" | wc -l)" "a header and two processes" || return 1
	dk rm -f "$id" >/dev/null
}

case_stats() {
	local id out
	id=$(run_detached --memory 64m "$E2E_IMAGE" sh -c 'sleep 1000 & sleep 1000 & echo ready; wait') ||
		return 1
	wait_for_log "$id" ready || return 1
	out=$(dk stats --no-stream --format '{{.ID}} {{.PIDs}} {{.MemUsage}}' "$id") || return 1
	assert_contains "$out" "${id:0:12} 3 " "stats: three processes" &&
		assert_contains "$out" "/ 64MiB" "stats: the memory limit" || return 1
	dk rm -f "$id" >/dev/null
}

case_oom() {
	local out status
	# A 16 MiB container whose pid 1 asks to hold a 64 MiB string: the OOM killer of its
	# memory cgroup kills it, and docker (told by containerd's OOM event) says so.
	out=$(drun --name e2e-oom --memory 16m --memory-swap 16m "$E2E_IMAGE" sh -c '
		x=$(head -c 67108864 /dev/zero | tr "\0" a); echo survived')
	status=$?
	assert_eq 137 "$status" "exit status of the OOM-killed container" &&
		assert_not_contains "$out" survived "the hog was killed" &&
		assert_eq "true 137" "$(inspect '{{.State.OOMKilled}} {{.State.ExitCode}}' e2e-oom)" \
			"docker inspect: OOMKilled" || return 1
	dk rm e2e-oom >/dev/null
}

case_network_none() {
	local out
	out=$(same_as_runc -e "HOST_NET=$(readlink /proc/self/ns/net)" "$E2E_IMAGE" sh -c \
		'ls /sys/class/net; [ "$(readlink /proc/self/ns/net)" = "$HOST_NET" ] || echo own-netns') ||
		return 1
	assert_eq "lo
own-netns" "$out" "only the loopback interface, in a network namespace of its own"
}

# Last: dockerd stops by its pid with a container running (one that would be restarted):
# it stops the container through ctrun, then its containerd; no process naming the test
# dir, container mount, ctrun state or container cgroup stays.
case_daemon_stop() {
	local left
	run_detached --restart always --stop-timeout 1 "$E2E_IMAGE" sleep 1000 >/dev/null || return 1
	kill "$DOCKERD_PID" && timeout 60 tail --pid="$DOCKERD_PID" -f /dev/null ||
		e2e_fail "dockerd $DOCKERD_PID did not stop" || return 1
	left=$(e2e_pids_by_cmdline "$E2E_DIR/"; container_processes
		grep -E " $E2E_DIR/data/(overlay2/[^ ]*/merged|containers/[^ ]*/mounts/shm) " /proc/self/mountinfo
		ls -A "$CTRUN_STATE_ROOT" 2>/dev/null
		ls -d /sys/fs/cgroup/*/"$DOCKER_CGROUP_PARENT"/*/ /sys/fs/cgroup/"$DOCKER_CGROUP_PARENT"/*/ 2>/dev/null)
	assert_eq "" "$left" "left after dockerd stopped"
}

dcase run-rm case_run_rm
dcase exit-codes case_exit_codes
dcase interactive case_interactive
dcase exec case_exec
dcase stop-and-kill case_stop_and_kill
dcase restart-policy case_restart_policy
dcase readonly-root case_readonly_root
dcase capabilities case_capabilities
dcase privileged-caps case_privileged_caps
dcase seccomp-and-nnp case_seccomp_and_nnp
dcase limits-and-update case_limits_and_update
dcase user case_user
dcase init case_init
dcase pause-unpause case_pause_unpause
dcase top case_top
dcase stats case_stats
dcase oom case_oom
dcase network-none case_network_none
dcase daemon-stop case_daemon_stop

e2e_summary docker
