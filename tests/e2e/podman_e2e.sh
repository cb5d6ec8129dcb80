#!/usr/bin/env bash
# End to end: Podman 4.3 + conmon 2.1 (Debian's) with `--runtime ctrun`, on this machine's
# cgroups (cgroupfs manager), with Podman's own storage and config (tests/e2e/podman_env.sh).
# Each case checks from outside (exit status, podman's view, the host cgroup) and from
# inside (what the process sees), then that nothing is left behind.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
. "$here/busybox_image.sh"
. "$here/podman_env.sh"
: "${CTRUN:?set CTRUN to the ctrun binary}" "${CTRUN_SRC:?set CTRUN_SRC to the source tree}"

e2e_enter_private_mount_ns "$0" "$@"

e2e_require_tools podman podman conmon

E2E_DIR=$(mktemp -d /tmp/ctrun-podman-e2e.XXXXXX)
cleanup_all() {
	pm rm -af -t 0 >/dev/null 2>&1
	pm pod rm -af -t 0 >/dev/null 2>&1
	pm rmi -af >/dev/null 2>&1
	cd / || return
	# the storage's own mounts die with this mount namespace; detach them so rm can go on
	grep -oF " $E2E_DIR/" /proc/self/mountinfo >/dev/null &&
		awk -v d="$E2E_DIR/" 'index($5, d) == 1 { print $5 }' /proc/self/mountinfo |
		sort -r | xargs -r -n1 umount -l 2>/dev/null
	umount /run/ctrun 2>/dev/null
	remove_podman_parent_cgroups
	rm -rf "$E2E_DIR"
}
trap cleanup_all EXIT
if ! podman_env_setup; then
	echo "podman e2e: setting up Podman's private storage and image failed" >&2
	exit 1
fi

# ---- what "nothing left behind" means ----------------------------------------------------

assert_no_containers() {
	local left
	left=$(pm ps -aq)
	[ -z "$left" ] || e2e_fail "containers left: $left"
	left=$(pm pod ps -q)
	[ -z "$left" ] || e2e_fail "pods left: $left"
}

# No entry at all, dot entries too: Podman reads each one as a container (ctrun keeps its
# compiled filters in /run/ctrun-cache).
assert_no_ctrun_state() {
	local left
	left=$(ls -A /run/ctrun)
	[ -z "$left" ] || e2e_fail "ctrun state dirs left in /run/ctrun: $left"
}

# Podman keeps conmon in <parent>/conmon for all containers; it must be empty between
# cases. Only Podman's names count (libpod-<64 hex> for a container, <64 hex> for a pod):
# other test suites on this machine may use the same parent with ids of their own.
assert_no_container_cgroups() {
	local left busy
	left=$(find /sys/fs/cgroup -maxdepth 4 -path "*/$PODMAN_CGROUP_PARENT/*" -type d \
		-regextype egrep -regex '.*/(libpod-)?[0-9a-f]{64}' 2>/dev/null)
	[ -z "$left" ] || e2e_fail "cgroups left: $left
	  (ctrun and podman processes then: $(runtime_processes))" || return 1
	busy=$(cat /sys/fs/cgroup/*/"$PODMAN_CGROUP_PARENT"/conmon/cgroup.procs 2>/dev/null)
	[ -z "$busy" ] || e2e_fail "processes left in conmon's cgroup: $busy"
}

# For a failure message: what of this suite's ctrun and Podman still runs.
runtime_processes() {
	local p cmd
	for p in /proc/[0-9]*; do
		cmd=$(tr '\0' ' ' 2>/dev/null <"$p/cmdline")
		case "$cmd" in "$CTRUN "* | *"$E2E_DIR/"*) echo "${p#/proc/}: ${cmd:0:160}" ;; esac
	done
}

# Podman 4.3 removes a pod's cgroup in the v1 controllers only; the name=systemd and
# unified ones stay behind with runc too. The containers' own cgroups inside them are
# checked by assert_no_container_cgroups.
remove_pod_cgroups_podman_leaves() { # POD-ID
	local d
	for d in /sys/fs/cgroup/systemd /sys/fs/cgroup/unified; do
		[ ! -d "$d/$PODMAN_CGROUP_PARENT/$1" ] || rmdir "$d/$PODMAN_CGROUP_PARENT/$1" ||
			e2e_fail "the pod's cgroup $d/$PODMAN_CGROUP_PARENT/$1 is not empty" || return 1
	done
}

# Removes the (empty) parent cgroups Podman made for this run: not a parent that was
# there before (another suite's), and rmdir leaves a busy one alone.
PARENTS_BEFORE=$(ls -d /sys/fs/cgroup/*/"$PODMAN_CGROUP_PARENT" 2>/dev/null)
remove_podman_parent_cgroups() {
	local d
	for d in /sys/fs/cgroup/*/"$PODMAN_CGROUP_PARENT"; do
		[ -d "$d" ] || continue
		rmdir "$d/conmon" 2>/dev/null
		case "$PARENTS_BEFORE" in *"$d"*) continue ;; esac
		rmdir "$d" 2>/dev/null
	done
}

assert_no_container_mounts() {
	local left
	left=$(grep -F "$E2E_DIR" /proc/self/mountinfo | grep -E '/merged |/userdata/shm |/netns/')
	[ -z "$left" ] || e2e_fail "mounts left: $left"
}

# conmon names the test dir on its command line, and Podman puts container=podman in
# every container's environment (this suite is the machine's only Podman user); either one
# still alive is a leak.
assert_no_container_processes() {
	local p left=
	for p in /proc/[0-9]*; do
		[ "${p#/proc/}" != $$ ] || continue
		tr '\0' '\n' 2>/dev/null <"$p/environ" | grep -qx container=podman ||
			tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -qF "$E2E_DIR/" || continue
		left="$left ${p#/proc/}:$(tr '\0' ' ' 2>/dev/null <"$p/cmdline" | head -c 80)"
	done
	[ -z "$left" ] || e2e_fail "processes left:$left"
}

# conmon runs Podman's exit command (`podman container cleanup`, ctrun delete among what
# it does) when a container exits, and Podman does not wait for it; on a loaded machine it
# and conmon can still be at work when `podman rm` returns. The leak checks wait for every
# process naming the test dir to end (bounded); one that does not is then a leak.
wait_for_podman_processes() {
	local p
	for p in /proc/[0-9]*; do
		[ "${p#/proc/}" != $$ ] || continue
		case "$(tr '\0' ' ' 2>/dev/null <"$p/cmdline")" in
		*"$E2E_DIR/"*) timeout 60 tail --pid="${p#/proc/}" -f /dev/null ;;
		esac
	done
}

assert_nothing_left() {
	wait_for_podman_processes
	assert_no_containers && assert_no_ctrun_state && assert_no_container_cgroups &&
		assert_no_container_mounts && assert_no_container_processes
}

# A case runs its function, then the leak checks; a failed case is cleaned up so it cannot
# take the next ones down with it.
CASE_FN=
run_case() { "$CASE_FN" && assert_nothing_left; }
# E2E_CASES="exec pods" runs only the named cases (while working on them).
pcase() {
	case " ${E2E_CASES:-$1} " in *" $1 "*) ;; *) return 0 ;; esac
	CASE_FN=$2
	e2e_test "$1" run_case
	pm rm -af -t 0 >/dev/null 2>&1
	pm pod rm -af -t 0 >/dev/null 2>&1
}

# ---- small helpers -----------------------------------------------------------------------

# Runs a detached container and prints its id.
run_detached() { pm run -d "$@"; }

container_pid() { pm inspect --format '{{.State.Pid}}' "$1"; }

host_cgroup_dir() { # CONTROLLER ID
	echo "/sys/fs/cgroup/$1/$PODMAN_CGROUP_PARENT/libpod-$2"
}

# Follows podman ARGS (logs -f, events) until a line holds TEXT (bounded).
wait_for_podman_line() { # TEXT ARGS...
	local text=$1
	shift
	e2e_wait_for_line "$text" podman --runtime ctrun "$@"
}

wait_for_log() { wait_for_podman_line "$2" logs -f "$1"; }

# ---- cases ---------------------------------------------------------------------------------

case_run_rm() {
	local out id
	out=$(pm run --rm --name e2e-rm "$E2E_IMAGE" sh -c 'echo pid=$$; hostname; cat /proc/self/cgroup') ||
		return 1
	assert_contains "$out" "pid=1" "the command is pid 1 in its pid namespace" &&
		assert_contains "$out" "/$PODMAN_CGROUP_PARENT/libpod-" "its memory cgroup is podman's" &&
		assert_eq "" "$(pm ps -aq --filter name=e2e-rm)" "--rm removed the container"
}

case_exit_codes() {
	local code status
	for code in 0 3 42; do
		pm run --rm "$E2E_IMAGE" sh -c "exit $code"
		status=$?
		assert_eq "$code" "$status" "podman run exit status of 'exit $code'" || return 1
	done
	# SIGKILL from outside: 128+9, seen by podman run (attached) and podman wait.
	id=$(run_detached "$E2E_IMAGE" sleep 1000) || return 1
	pm kill -s KILL "$id" >/dev/null || return 1
	assert_eq 137 "$(pm wait "$id")" "exit status after podman kill -s KILL" || return 1
	pm rm "$id" >/dev/null || return 1
	# SIGTERM is ignored by a pid 1 without a handler; with --init, catatonit forwards it to
	# the child and exits with the child's 128+15.
	id=$(run_detached --init "$E2E_IMAGE" sleep 1000) || return 1
	pm kill -s TERM "$id" >/dev/null || return 1
	assert_eq 143 "$(pm wait "$id")" "exit status after SIGTERM through catatonit" || return 1
	pm rm "$id" >/dev/null
}

case_missing_command() {
	local err status
	err=$(pm run --rm "$E2E_IMAGE" /no/such/binary 2>&1)
	status=$?
	assert_eq 127 "$status" "podman run of a missing path" || return 1
	assert_contains "$err" "no such file or directory" "the error names the cause" || return 1
	err=$(pm run --rm "$E2E_IMAGE" nosuchcommand 2>&1)
	status=$?
	assert_eq 127 "$status" "podman run of a command not in \$PATH" || return 1
	assert_contains "$err" "executable file not found in \$PATH" "the error names the cause" || return 1
	err=$(pm run --rm "$E2E_IMAGE" /etc/passwd 2>&1)
	status=$?
	assert_eq 126 "$status" "podman run of a non-executable file" || return 1
	assert_contains "$err" "permission denied" "the error names the cause"
}

# A pid 1 with a handler gets the signal; one without ignores TERM and podman stop falls
# back to SIGKILL after --time.
case_signals_and_stop() {
	local id out
	id=$(start_trapper_sent_usr1 pm) || return 1
	pm stop -t 30 "$id" >/dev/null || return 1
	assert_eq 7 "$(pm inspect --format '{{.State.ExitCode}}' "$id")" "exit status of the TERM handler" ||
		return 1
	out=$(pm logs "$id")
	assert_contains "$out" got-term "the handler saw podman stop's SIGTERM" || return 1
	pm rm "$id" >/dev/null || return 1
	id=$(run_detached --stop-timeout 1 "$E2E_IMAGE" sleep 1000) || return 1
	pm stop "$id" >/dev/null || return 1
	assert_eq 137 "$(pm inspect --format '{{.State.ExitCode}}' "$id")" \
		"a pid 1 ignoring SIGTERM is killed after the stop timeout" || return 1
	pm rm "$id" >/dev/null
}

case_rm_force_running() {
	local id pid
	id=$(run_detached "$E2E_IMAGE" sleep 1000) || return 1
	pid=$(container_pid "$id")
	[ -d "/proc/$pid" ] || e2e_fail "container process $pid not running" || return 1
	[ -d "/run/ctrun/$id" ] || e2e_fail "no ctrun state for $id" || return 1
	pm_rm_force "$id" || return 1
	[ ! -d "/proc/$pid" ] || e2e_fail "process $pid survived rm -f" || return 1
	assert_eq "" "$(pm ps -aq)" "podman ps after rm -f"
}

case_stdin_and_tty() {
	local out status
	out=$(printf 'line1\nline2\n' | pm run --rm -i "$E2E_IMAGE" sh -c '[ -t 0 ] && echo tty; wc -l')
	assert_eq 2 "$(echo "$out" | tr -d ' ')" "piped stdin reaches the container, no tty" || return 1
	# script(1) gives podman a terminal, as a user at a shell has.
	out=$(timeout 60 script -qec "podman --runtime ctrun run --rm -t $E2E_IMAGE sh -c 'tty; [ -t 1 ] && echo out-is-tty; stty size'" /dev/null </dev/null)
	assert_contains "$out" /dev/pts/0 "the tty is the container's own pts" &&
		assert_contains "$out" out-is-tty "stdout is the terminal" || return 1
	# -it: what is typed at the terminal reaches the shell, its exit status comes back.
	out=$(printf 'echo typed-$((6*7))\nexit 5\n' |
		timeout 60 script -qec "podman --runtime ctrun run --rm -it $E2E_IMAGE sh" /dev/null)
	status=$?
	assert_eq 5 "$status" "exit status of the interactive shell" &&
		assert_contains "$out" typed-42 "the shell ran the typed line"
}

case_exec() {
	local id out status
	id=$(run_detached "$E2E_IMAGE" sleep 1000) || return 1
	assert_eq "uid=1000(user) gid=1000(user)" "$(pm exec --user 1000:1000 "$id" id | cut -d' ' -f1-2)" \
		"exec --user" || return 1
	assert_eq /tmp "$(pm exec -w /tmp "$id" pwd)" "exec --workdir" || return 1
	assert_eq bar "$(pm exec -e FOO=bar "$id" sh -c 'echo $FOO')" "exec --env" || return 1
	out=$(timeout 60 script -qec "podman --runtime ctrun exec -t $id tty" /dev/null </dev/null)
	assert_contains "$out" /dev/pts/ "exec -t gets a terminal" || return 1
	pm exec "$id" sh -c 'exit 5'
	assert_eq 5 $? "exec exit status" || return 1
	assert_root_holds_only_containers /run/ctrun || return 1
	pm exec -d "$id" sh -c 'echo detached > /tmp/d' || return 1
	pm exec "$id" sh -c 'while [ ! -s /tmp/d ]; do sleep 0.05; done; cat /tmp/d' >/dev/null || return 1
	out=$(pm exec "$id" nosuchcommand 2>&1)
	status=$?
	assert_eq 127 "$status" "exec of a missing command" || return 1
	assert_contains "$out" "executable file not found" "exec error" || return 1
	out=$(pm exec "$id" sh -c 'echo $$; cat /proc/1/cmdline | tr "\0" " "')
	assert_contains "$out" "sleep 1000" "exec joins the container's pid namespace" || return 1
	pm_rm_force "$id"
}

case_pause_unpause() {
	local id freezer
	id=$(run_detached "$E2E_IMAGE" sleep 1000) || return 1
	pm pause "$id" >/dev/null || return 1
	assert_eq paused "$(pm inspect --format '{{.State.Status}}' "$id")" "podman inspect after pause" ||
		return 1
	freezer=$(host_cgroup_dir freezer "$id")/freezer.state
	assert_eq FROZEN "$(cat "$freezer")" "the container's freezer" || return 1
	pm unpause "$id" >/dev/null || return 1
	assert_eq running "$(pm inspect --format '{{.State.Status}}' "$id")" "after unpause" || return 1
	assert_eq THAWED "$(cat "$freezer")" "the freezer after unpause" || return 1
	assert_eq ok "$(pm exec "$id" echo ok)" "exec after unpause" || return 1
	pm_rm_force "$id"
}

case_stats() {
	local id out
	id=$(run_detached --memory 64m "$E2E_IMAGE" sleep 1000) || return 1
	out=$(pm stats --no-stream --format '{{.ID}} {{.PIDs}} {{.MemUsage}}' "$id") || return 1
	assert_contains "$out" "${id:0:12} 1 " "stats: one process" &&
		assert_contains "$out" "/ 67.11MB" "stats: the memory limit" &&
		pm_rm_force "$id"
}

case_update() {
	local id
	id=$(run_detached --memory 64m --cpu-shares 512 "$E2E_IMAGE" sleep 1000) || return 1
	pm update --memory 96m --cpu-shares 256 "$id" >/dev/null || return 1
	assert_eq $((96 << 20)) "$(cat "$(host_cgroup_dir memory "$id")/memory.limit_in_bytes")" \
		"memory limit after update (host)" || return 1
	assert_eq 256 "$(cat "$(host_cgroup_dir cpu "$id")/cpu.shares")" "cpu shares after update" ||
		return 1
	assert_eq $((96 << 20)) "$(pm exec "$id" cat /sys/fs/cgroup/memory/memory.limit_in_bytes)" \
		"memory limit seen inside" || return 1
	pm_rm_force "$id"
}

case_restart() {
	local id pid1 pid2
	id=$(run_detached "$E2E_IMAGE" sh -c 'echo started >> /tmp/count; exec sleep 1000') || return 1
	pid1=$(container_pid "$id")
	pm restart -t 0 "$id" >/dev/null || return 1
	pid2=$(container_pid "$id")
	[ "$pid1" != "$pid2" ] && [ -d "/proc/$pid2" ] ||
		e2e_fail "restart: pid $pid1 -> $pid2" || return 1
	[ ! -d "/proc/$pid1" ] || e2e_fail "the first process $pid1 still runs" || return 1
	assert_eq 2 "$(pm exec "$id" wc -l /tmp/count | cut -d' ' -f1)" "the command ran twice" || return 1
	pm_rm_force "$id"
}

case_readonly_root() {
	local vol="$E2E_DIR/vol-rw" ro="$E2E_DIR/vol-ro" out
	mkdir -p "$vol" "$ro" && echo host-data >"$ro/file"
	# /etc: a tmpfs that starts with the image's files (tmpcopyup), Podman's /etc/hosts
	# bound on top of it.
	out=$(pm run --rm --read-only --tmpfs /scratch:size=1m -v "$vol:/data" -v "$ro:/ro:ro" \
		--mount type=tmpfs,destination=/etc,tmpcopyup "$E2E_IMAGE" sh -c '
		touch /rootfile 2>/dev/null && echo root-writable
		echo s > /scratch/f && echo scratch-ok
		echo from-container > /data/out && echo data-ok
		touch /ro/x 2>/dev/null && echo ro-writable
		cat /ro/file
		grep " /scratch " /proc/self/mountinfo
		touch /tmp/t && echo tmp-ok
		grep "^user:" /etc/passwd && echo new > /etc/new && echo etc-writable
		grep -c " /etc/hosts " /proc/self/mountinfo') || return 1
	assert_not_contains "$out" root-writable "--read-only root" &&
		assert_contains "$out" scratch-ok "--tmpfs is writable" &&
		assert_contains "$out" "size=1024k" "the tmpfs has its size" &&
		assert_contains "$out" data-ok "the rw bind is writable" &&
		assert_eq from-container "$(cat "$vol/out")" "the write landed in the host dir" &&
		assert_not_contains "$out" ro-writable "the :ro bind" &&
		assert_contains "$out" host-data "the ro bind shows the host file" &&
		assert_contains "$out" tmp-ok "podman's /tmp tmpfs on a read-only root" &&
		assert_contains "$out" "user:x:1000:1000" "tmpcopyup brought the image's /etc/passwd" &&
		assert_contains "$out" "etc-writable
1" "the /etc tmpfs is writable, /etc/hosts bound on it"
}

case_capabilities() {
	local out
	out=$(pm run --rm --cap-drop all --cap-add NET_ADMIN --cap-add CHOWN "$E2E_IMAGE" \
		sh -c 'grep -E "^Cap(Eff|Bnd|Prm)" /proc/self/status; chown 1000 /tmp && echo chown-ok;
		       mknod /tmp/n c 1 3 2>/dev/null && echo mknod-ok; true') || return 1
	# NET_ADMIN is bit 12, CHOWN bit 0.
	assert_contains "$out" "CapEff:	0000000000001001" "effective set" &&
		assert_contains "$out" "CapBnd:	0000000000001001" "bounding set" &&
		assert_contains "$out" chown-ok "CAP_CHOWN works" &&
		assert_not_contains "$out" mknod-ok "CAP_MKNOD was dropped"
}

case_seccomp_and_nnp() {
	local out
	assert_no_mkdir_profile_applies pm run --rm || return 1
	# Podman's default profile (defaultErrnoRet 38, hundreds of rules with argument
	# conditions) loads and leaves ordinary work alone.
	out=$(pm run --rm "$E2E_IMAGE" sh -c 'grep "^Seccomp:" /proc/self/status; mkdir /tmp/d && echo made') ||
		return 1
	assert_contains "$out" "Seccomp:	2" "default profile installed" &&
		assert_contains "$out" made "mkdir under the default profile" || return 1
	assert_unconfined_has_no_filter pm run --rm
}

case_pids_and_memory_limits() {
	local id
	id=$(run_detached --pids-limit 8 --memory 48m "$E2E_IMAGE" sleep 1000) || return 1
	assert_pids_and_memory_limits "$id" pm exec || return 1
	pm_rm_force "$id"
}

case_ulimits_and_umask() {
	local out
	# A --ulimit replaces default_ulimits, and Podman then asks for 1048576 processes
	# unless nproc is given too: it is, at the most Podman's children may have.
	out=$(pm run --rm --ulimit nofile=100:200 --ulimit "nproc=$(podman_nproc):$(podman_nproc)" \
		--umask 0027 "$E2E_IMAGE" \
		sh -c 'ulimit -Sn; ulimit -Hn; umask; touch /tmp/f; stat -c %a /tmp/f') || return 1
	assert_eq "100
200
0027
640" "$out" "soft/hard nofile, umask and a new file's mode"
}

case_init() {
	local id
	assert_init_is_pid_1 /run/podman-init pm run --rm || return 1
	id=$(run_detached --init "$E2E_IMAGE" sleep 1000) || return 1
	pm stop -t 30 "$id" >/dev/null || return 1
	assert_eq 143 "$(pm inspect --format '{{.State.ExitCode}}' "$id")" \
		"catatonit forwarded stop's SIGTERM" || return 1
	pm rm "$id" >/dev/null
}

case_oom() {
	local out status
	# A 16 MiB container: a child shell asks to hold a 64 MiB string and is killed (its
	# oom_score_adj makes it the OOM killer's first choice over pid 1), the container sees
	# the kill in its memory cgroup, then its own pid 1 does the same.
	out=$(pm run --name e2e-oom --memory 16m --memory-swap 16m "$E2E_IMAGE" sh -c '
		hog() { x=$(head -c 67108864 /dev/zero | tr "\0" a); }
		(echo 1000 > /proc/self/oom_score_adj; hog); echo child=$?
		grep "^oom_kill " /sys/fs/cgroup/memory/memory.oom_control | grep -q "oom_kill [1-9]" &&
			echo oom-killed
		hog; echo survived')
	status=$?
	assert_eq 137 "$status" "exit status of the OOM-killed container" &&
		assert_contains "$out" "child=137" "the child was SIGKILLed" &&
		assert_contains "$out" oom-killed "by the OOM killer of the container's cgroup" &&
		assert_not_contains "$out" survived "pid 1 was killed too" || return 1
	# Not checked: podman inspect's OOMKilled. conmon 2.1.6 writes its "oom" marker into
	# its working directory (Podman's, see podman_env_setup), not the bundle where Podman
	# looks, so it stays false here with runc too.
	pm rm e2e-oom >/dev/null
}

# Podman reads OCI hook definitions from hooks_dir. The prestart hook gets the state on
# stdin and leaves a file in the container's rootfs (the process sees it); Podman runs the
# poststop hook itself after the container is gone.
write_hook() { # STAGE
	cat >"$E2E_DIR/hooks/e2e-$1.json" <<-JSON
	{"version": "1.0.0",
	 "hook": {"path": "$E2E_DIR/hook.py", "args": ["hook.py", "$1"]},
	 "when": {"annotations": {"^e2e\\\\.hook\$": "^yes\$"}},
	 "stages": ["$1"]}
	JSON
}

case_hooks() {
	local out id
	cat >"$E2E_DIR/hook.py" <<-PY
	#!/usr/bin/python3
	import json, os, sys
	state = json.load(sys.stdin)
	stage = sys.argv[1]
	with open("$E2E_DIR/hook-%s.out" % stage, "w") as f:
	    f.write("%s %s %s\n" % (state["id"], state["status"], state.get("pid", 0) > 0))
	if stage == "prestart":
	    with open(os.path.join(state["bundle"], "config.json")) as f:
	        root = json.load(f)["root"]["path"]
	    with open(os.path.join(root, "tmp", "hooked"), "w") as f:
	        f.write("prestart saw %s\n" % state["id"])
	PY
	chmod +x "$E2E_DIR/hook.py"
	write_hook prestart && write_hook poststop
	id=$(pm create --annotation e2e.hook=yes "$E2E_IMAGE" cat /tmp/hooked) || return 1
	out=$(pm start -a "$id") || return 1
	assert_eq "prestart saw $id" "$out" "the process sees the prestart hook's file" &&
		assert_eq "$id creating True" "$(cat "$E2E_DIR/hook-prestart.out")" "prestart state" ||
		return 1
	pm rm "$id" >/dev/null || return 1
	assert_contains "$(cat "$E2E_DIR/hook-poststop.out" 2>&1)" "$id stopped" "poststop ran" || return 1
	rm -f "$E2E_DIR"/hooks/e2e-*.json "$E2E_DIR"/hook-*.out
	# Without the annotation no hook runs.
	pm run --rm "$E2E_IMAGE" true || return 1
	[ ! -e "$E2E_DIR/hook-prestart.out" ] || e2e_fail "a hook ran without its annotation"
}

case_healthcheck() {
	local id status
	id=$(run_detached --health-cmd 'test -e /tmp/ok' --health-interval disable --health-retries 1 \
		"$E2E_IMAGE" sleep 1000) || return 1
	pm healthcheck run "$id" >/dev/null 2>&1
	status=$?
	assert_eq 1 "$status" "healthcheck before /tmp/ok exists" &&
		assert_eq unhealthy "$(pm inspect --format '{{.State.Health.Status}}' "$id")" "health status" ||
		return 1
	pm exec "$id" touch /tmp/ok || return 1
	pm healthcheck run "$id" >/dev/null || return 1
	assert_eq healthy "$(pm inspect --format '{{.State.Health.Status}}' "$id")" "health status" || return 1
	pm_rm_force "$id"
}

# Containers of a pod join the infra container's namespaces by /proc/PID/ns paths.
case_pods() {
	local a out_a out_b ns='for n in ipc uts net; do readlink /proc/self/ns/$n; done; hostname'
	local pod
	pod=$(pm pod create --name e2e-pod) || return 1
	a=$(run_detached --pod e2e-pod "$E2E_IMAGE" sleep 1000) || return 1
	out_a=$(pm exec "$a" sh -c "$ns") || return 1
	out_b=$(pm run --rm --pod e2e-pod "$E2E_IMAGE" sh -c "$ns") || return 1
	assert_eq "$out_a" "$out_b" "two containers of a pod share ipc, uts and net" || return 1
	[ "$(readlink /proc/self/ns/net)" != "$(echo "$out_a" | sed -n 3p)" ] ||
		e2e_fail "the pod's net namespace is the host's" || return 1
	pm pod rm -f -t 0 e2e-pod >/dev/null || return 1
	remove_pod_cgroups_podman_leaves "$pod"
}

case_privileged() {
	local out
	out=$(pm run --rm --privileged "$E2E_IMAGE" sh -c '
		grep -E "^(CapEff|Seccomp):" /proc/self/status
		[ -c /dev/kmsg ] && echo has-dev-kmsg
		mkdir /tmp/m && mount -t tmpfs e2e /tmp/m && echo mounted
		echo 1 > /proc/sys/kernel/printk_ratelimit_burst 2>/dev/null && echo procsys-rw') || return 1
	assert_contains "$out" "CapEff:	$(sed -n 's/^CapBnd:\t//p' /proc/self/status)" \
		"every capability this host has" &&
		assert_contains "$out" "Seccomp:	0" "no seccomp filter" &&
		assert_contains "$out" has-dev-kmsg "the host's devices" &&
		assert_contains "$out" mounted "mount works"
}

case_user_namespace() {
	local id pid out
	id=$(run_detached --uidmap 0:200000:65536 --gidmap 0:200000:65536 "$E2E_IMAGE" sleep 1000) ||
		return 1
	pid=$(container_pid "$id")
	assert_eq "200000" "$(stat -c %u "/proc/$pid")" "the container's root is uid 200000 on the host" ||
		return 1
	out=$(pm exec "$id" sh -c 'cat /proc/self/uid_map /proc/self/gid_map; id -u; touch /tmp/f; stat -c %u /tmp/f') ||
		return 1
	assert_eq "0 200000 65536 0 200000 65536 0 0" "$(echo $out)" "maps, uid and file owner inside" ||
		return 1
	pm_rm_force "$id"
}

# With --pid host the command is not pid 1, so podman stop's SIGTERM kills it (143).
case_pid_host_stop() {
	local id
	id=$(run_detached --pid host "$E2E_IMAGE" sleep 1000) || return 1
	assert_eq "$(readlink /proc/self/ns/pid)" "$(pm exec "$id" readlink /proc/self/ns/pid)" \
		"the host's pid namespace" || return 1
	pm stop -t 60 "$id" >/dev/null || return 1
	assert_eq 143 "$(pm inspect --format '{{.State.ExitCode}}' "$id")" "stopped by SIGTERM" || return 1
	pm rm "$id" >/dev/null || return 1
	# A command that ignores SIGTERM, with children of its own: after the stop timeout
	# Podman sends SIGKILL to all of the container's processes (ctrun kill --all), which
	# without a pid namespace of its own is the only way the children go too.
	id=$(run_detached --pid host "$E2E_IMAGE" sh -c \
		'trap "" TERM; sleep 1000 & sleep 1000 & echo started; wait') || return 1
	wait_for_log "$id" started || return 1
	assert_eq 3 "$(wc -l <"$(host_cgroup_dir pids "$id")/cgroup.procs")" "sh and two sleeps" ||
		return 1
	pm stop -t 1 "$id" >/dev/null || return 1
	assert_eq 137 "$(pm inspect --format '{{.State.ExitCode}}' "$id")" "killed after the timeout" ||
		return 1
	pm rm "$id" >/dev/null
}

case_preserve_fds() {
	local out
	echo three >"$E2E_DIR/fd3" && echo four >"$E2E_DIR/fd4"
	out=$(pm run --rm --preserve-fds 2 "$E2E_IMAGE" sh -c 'cat <&3; cat <&4; ls /proc/self/fd | tr "\n" " "' \
		3<"$E2E_DIR/fd3" 4<"$E2E_DIR/fd4" 5</dev/null) || return 1
	assert_eq "three
four
0 1 2 3 4 5 " "$out" "fds 3 and 4 are passed, 5 (ls's own) is the only other"
}

# --device with an access mode: the node is made and the container's devices cgroup (a
# deny-all rule, the standard list, the device) allows just that access.
case_devices() {
	local id out
	id=$(run_detached --device /dev/null:/dev/e2enull:rw --device /dev/kmsg:/dev/e2ekmsg:r \
		"$E2E_IMAGE" sleep 1000) || return 1
	out=$(cat "$(host_cgroup_dir devices "$id")/devices.list")
	assert_contains "$out" "c 1:3 rw" "/dev/null allowed rw in the devices cgroup" &&
		assert_contains "$out" "c 1:11 r
" "/dev/kmsg allowed r (mknod of any node is a standard rule)" &&
		assert_not_contains "$out" "a *:* rwm" "not everything allowed" || return 1
	out=$(pm exec "$id" sh -c 'grep ":devices:" /proc/self/cgroup
		stat -c "%F %t:%T" /dev/e2enull; echo x > /dev/e2enull && echo write-ok
		echo x > /dev/e2ekmsg; head -c 3 /dev/zero | wc -c' 2>&1)
	assert_contains "$out" ":devices:/$PODMAN_CGROUP_PARENT/libpod-$id" \
		"the exec'd process is in the container's devices cgroup" &&
		assert_contains "$out" "character special file 1:3" "the device node" &&
		assert_contains "$out" write-ok "the rw device is writable" &&
		assert_contains "$out" "/dev/e2ekmsg: Operation not permitted" "writing the r device is refused" &&
		assert_contains "$out" "
3" "the standard /dev/zero works" || return 1
	pm_rm_force "$id"
}

case_masked_paths() {
	local out
	out=$(pm run --rm "$E2E_IMAGE" sh -c '
		wc -c < /proc/timer_list; ls /sys/firmware | wc -l
		echo 1 > /proc/sys/kernel/printk_ratelimit_burst 2>/dev/null && echo procsys-rw
		grep -c " /proc/sys " /proc/self/mountinfo') || return 1
	assert_eq "0 0 1" "$(echo $out)" "timer_list masked, /sys/firmware empty, /proc/sys read-only" ||
		return 1
	[ "$(head -c 1 /proc/timer_list | wc -c)" = 1 ] || e2e_fail "the host's /proc/timer_list reads empty"
}

case_fd_hygiene() {
	local id out
	out=$(pm run --rm "$E2E_IMAGE" sh -c 'ls /proc/self/fd | tr "\n" " "; env | grep -c "^_OCI"') ||
		true
	assert_eq "0 1 2 3 0" "$(echo $out)" "run: fds 0-2 (and ls's own), no _OCI_ variables" || return 1
	id=$(run_detached "$E2E_IMAGE" sleep 1000) || return 1
	out=$(pm exec "$id" sh -c 'ls /proc/self/fd | tr "\n" " "; env | grep -c "^_OCI"') || true
	assert_eq "0 1 2 3 0" "$(echo $out)" "exec: fds 0-2 (and ls's own), no _OCI_ variables" || return 1
	out=$(ls "/proc/$(container_pid "$id")/fd" | tr '\n' ' ')
	assert_eq "0 1 2 " "$out" "the container's pid 1 from outside" || return 1
	pm_rm_force "$id"
}

case_personality() {
	assert_eq i686 "$(pm run --rm --personality LINUX32 "$E2E_IMAGE" uname -m)" "LINUX32" &&
		assert_eq "$(uname -m)" "$(pm run --rm "$E2E_IMAGE" uname -m)" "without a personality"
}

case_sysctl() {
	local out host
	host=$(cat /proc/sys/kernel/msgmax)
	out=$(pm run --rm --sysctl kernel.msgmax=4242 --sysctl net.ipv4.ip_local_port_range="40000 40100" \
		"$E2E_IMAGE" sh -c 'cat /proc/sys/kernel/msgmax /proc/sys/net/ipv4/ip_local_port_range') ||
		return 1
	assert_eq "4242 40000 40100" "$(echo $out)" "the sysctls inside" &&
		assert_eq "$host" "$(cat /proc/sys/kernel/msgmax)" "the host's value is untouched"
}

# Without a cgroup the deny-all device rule Podman sends cannot be enforced: ctrun refuses it
# while CAP_MKNOD stays (Podman's built-in default set, which this suite's containers.conf
# keeps; Debian's /usr/share/containers/containers.conf has none) and runs it without.
case_cgroups_disabled() {
	local id out
	out=$(pm run --rm --cgroups=disabled "$E2E_IMAGE" true 2>&1) &&
		e2e_fail "ran with CAP_MKNOD and no device filter" && return 1
	assert_contains "$out" ".linux.resources.devices: --cgroup-manager disabled cannot enforce device rules while the process keeps CAP_MKNOD" \
		"refused with CAP_MKNOD" || return 1
	id=$(run_detached --cgroups=disabled --cap-drop MKNOD "$E2E_IMAGE" sleep 1000) || return 1
	out=$(pm exec "$id" mknod /dev/host-mem c 1 1 2>&1) && e2e_fail "mknod worked inside" && return 1
	assert_contains "$out" "Operation not permitted" "mknod inside" || return 1
	out=$(pm exec "$id" cat /proc/self/cgroup) || return 1
	out=$(pm exec "$id" cat /proc/self/cgroup) || return 1
	assert_not_contains "$out" "libpod-" "no cgroup of its own" || return 1
	[ ! -e "$(host_cgroup_dir memory "$id")" ] || e2e_fail "a cgroup was made" || return 1
	assert_eq "$(grep ':memory:' "/proc/$(pm inspect --format '{{.State.ConmonPid}}' "$id")/cgroup")" \
		"$(echo "$out" | grep ':memory:')" "it stays in conmon's cgroup" || return 1
	pm_rm_force "$id"
}

# --restart on-failure:2: conmon runs Podman's exit command, which restarts the container
# through ctrun twice; the last exit is followed by Podman's cleanup event.
case_restart_policy() {
	local id vol="$E2E_DIR/vol-restart"
	mkdir -p "$vol"
	id=$(run_detached --restart on-failure:2 -v "$vol:/v" "$E2E_IMAGE" \
		sh -c 'echo "run in $(hostname)" >> /v/count; exit 1') || return 1
	wait_for_podman_line " container cleanup $id" events --filter "container=$id" || return 1
	assert_eq "exited 2 1" "$(pm inspect --format '{{.State.Status}} {{.RestartCount}} {{.State.ExitCode}}' "$id")" \
		"status, restarts, exit code" || return 1
	assert_eq 3 "$(grep -c "run in ${id:0:12}" "$vol/count")" "the command ran three times" || return 1
	pm rm "$id" >/dev/null
}

# Podman probes `ctrun checkpoint --help`, then checkpoints through ctrun and criu. Debian's
# criu 3.17 cannot dump on this kernel (vDSO bounds; the vm suite runs it on Linux 6.1): the
# failure reaches the user with criu's reason, and the container runs on, usable.
case_checkpoint_reaches_criu() {
	local id err status
	id=$(run_detached "$E2E_IMAGE" sleep 1000) || return 1
	err=$(pm container checkpoint "$id" 2>&1)
	status=$?
	if [ "$status" = 0 ]; then
		assert_eq exited "$(pm inspect --format '{{.State.Status}}' "$id")" "checkpointed" ||
			return 1
	else
		assert_contains "$err" "criu failed" "the reason" &&
			assert_eq running "$(pm inspect --format '{{.State.Status}}' "$id")" "still running" &&
			assert_eq ok "$(pm exec "$id" echo ok)" "and usable" || return 1
	fi
	pm_rm_force "$id"
}

# --network ns:PATH: the container joins a network namespace the test made and bound to
# a file (the way a CNI-less setup hands one over), by path.
case_network_namespace_path() {
	local ns="$E2E_DIR/netns-e2e" want out
	touch "$ns" && unshare --net="$ns" true || return 1
	want=$(nsenter --net="$ns" readlink /proc/self/ns/net)
	nsenter --net="$ns" ip link set lo up || return 1
	out=$(pm run --rm --network "ns:$ns" "$E2E_IMAGE" sh -c 'readlink /proc/self/ns/net; ip -o link show lo')
	umount "$ns" && rm -f "$ns"
	assert_contains "$out" "$want" "the namespace bound at $ns" &&
		assert_contains "$out" "LOOPBACK,UP" "its loopback, set up from outside" &&
		[ "$want" != "$(readlink /proc/self/ns/net)" ]
}

# A bind with rslave propagation (Podman then asks for rootfsPropagation "rslave"): a
# mount made on the host under the shared source later shows up inside.
case_bind_propagation() {
	local src="$E2E_DIR/shared-src" id out
	mkdir -p "$src/sub" && mount --bind "$src" "$src" && mount --make-shared "$src" || return 1
	id=$(run_detached --mount "type=bind,src=$src,dst=/y,bind-propagation=rslave" \
		"$E2E_IMAGE" sleep 1000) || return 1
	mount -t tmpfs e2e-late "$src/sub" || return 1
	out=$(pm exec "$id" grep -E " /y(/sub)? " /proc/self/mountinfo)
	umount "$src/sub" && umount "$src"
	assert_contains "$out" " /y/sub " "the host's later mount propagated in" &&
		assert_contains "$out" "master:" "the bind is a slave" || return 1
	pm_rm_force "$id"
}

pcase run-rm case_run_rm
pcase exit-codes case_exit_codes
pcase missing-command case_missing_command
pcase signals-and-stop case_signals_and_stop
pcase rm-force-running case_rm_force_running
pcase stdin-and-tty case_stdin_and_tty
pcase exec case_exec
pcase pause-unpause case_pause_unpause
pcase stats case_stats
pcase update case_update
pcase restart case_restart
pcase restart-policy case_restart_policy
pcase checkpoint case_checkpoint_reaches_criu
pcase readonly-root case_readonly_root
pcase bind-propagation case_bind_propagation
pcase capabilities case_capabilities
pcase seccomp-and-nnp case_seccomp_and_nnp
pcase pids-and-memory-limits case_pids_and_memory_limits
pcase ulimits-and-umask case_ulimits_and_umask
pcase init case_init
pcase oom case_oom
pcase hooks case_hooks
pcase healthcheck case_healthcheck
pcase pods case_pods
pcase network-namespace-path case_network_namespace_path
pcase privileged case_privileged
pcase user-namespace case_user_namespace
pcase pid-host-stop case_pid_host_stop
pcase preserve-fds case_preserve_fds
pcase devices case_devices
pcase masked-paths case_masked_paths
pcase fd-hygiene case_fd_hygiene
pcase personality case_personality
pcase sysctl case_sysctl
pcase cgroups-disabled case_cgroups_disabled

e2e_summary podman
