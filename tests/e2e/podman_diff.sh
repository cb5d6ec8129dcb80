#!/usr/bin/env bash
# Side by side: the same Podman invocations with `--runtime` ctrun, runc and crun, what the
# container printed (tests/e2e/podman_probe.sh as /bin/probe), the exit status and Podman's
# own view afterwards (inspect, ps, logs, top, stats, events), normalised for what
# legitimately differs (ids, times, the runtime's name), then a diff per invocation:
# ctrun against runc on this machine's hybrid cgroups, ctrun against crun with cgroup2
# hidden (crun 1.8.1 refuses the hybrid layout: an empty tmpfs over
# /sys/fs/cgroup/unified, for ctrun's run too).
#
#   tests/e2e/podman_diff.sh                   every case, every runtime
#   PDIFF_CASES="run-plain exec-user" ...      only those cases
#   PDIFF_VARIANTS="ctrun runc" ...            only those runs (ctrun runc ctrun-v1 crun-v1)
#   PDIFF_OUT=DIR ...                          keep each run's normalised output in DIR
#
# Exit status: 0 when ctrun showed what the other runtimes showed in every case but for the
# differences ACCEPTED lists (each naming its row of docs/differences-from-runc.md).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
. "$here/busybox_image.sh"
. "$here/podman_env.sh"
. "$here/sweep_common.sh"
. "$here/sweep_cases.sh"
: "${CTRUN:?set CTRUN to the ctrun binary}" "${CTRUN_SRC:?set CTRUN_SRC to the source tree}"

e2e_enter_private_mount_ns "$0" "$@"

e2e_require_tools podman-diff podman conmon runc script

E2E_DIR=$(mktemp -d /tmp/ctrun-podman-diff.XXXXXX)
PDIFF_OUT=${PDIFF_OUT:-$E2E_DIR/out}
SWEEP_OUT=$PDIFF_OUT
SWEEP_NAME="podman diff"
PDIFF_IMAGE=localhost/busybox:pdiff

cleanup_all() {
	pm rm -af -t 0 >/dev/null 2>&1
	pm rmi -af >/dev/null 2>&1
	cd / || return
	awk -v d="$E2E_DIR/" 'index($5, d) == 1 { print $5 }' /proc/self/mountinfo |
		sort -r | xargs -r -n1 umount -l 2>/dev/null
	umount /run/ctrun /run/runc /run/crun 2>/dev/null
	rm -rf "$E2E_DIR"
}
trap cleanup_all EXIT

# The state roots of runc and crun (Podman calls them without --root) stay in this mount
# namespace, as podman_env_setup keeps ctrun's.
private_state_roots() {
	local d
	for d in /run/runc /run/crun; do
		mkdir -p "$d" && mount -t tmpfs -o mode=0700 pdiff-state "$d" || return 1
	done
}

# crun 1.8.1 fchowns its stdio, the container's root's in a user namespace, and conmon hands
# it /dev/null: a null device of the sweep's own stands in for the host's in this namespace.
private_dev_null() {
	mkdir -p "$E2E_DIR/null" && mount -t tmpfs -o mode=0755 pdiff-null "$E2E_DIR/null" &&
		mknod -m 0666 "$E2E_DIR/null/null" c 1 3 && mount --bind "$E2E_DIR/null/null" /dev/null
}

# The image of podman_env_setup with the probe in it.
import_probe_image() {
	install -m 0755 "$here/podman_probe.sh" "$E2E_DIR/rootfs/bin/probe" &&
		printf 'A=from-file\nB=two words\n' >"$E2E_DIR/env-file" &&
		e2e_tar "$E2E_DIR/rootfs" "$E2E_DIR/probe.tar" &&
		pm import --change 'CMD ["sh"]' "$E2E_DIR/probe.tar" "$PDIFF_IMAGE" >/dev/null 2>&1
}

if ! private_dev_null || ! podman_env_setup || ! private_state_roots || ! import_probe_image; then
	echo "podman diff: setting up Podman's private storage and image failed" >&2
	exit 1
fi
mkdir -p "$PDIFF_OUT"

# ---- the runs -------------------------------------------------------------------------------

# VARIANT -> the runtime Podman is given; the -v1 runs hide cgroup2.
variant_runtime() { echo "${1%-v1}"; }

# tty_step (sweep_cases.sh) runs podman so, with the run's runtime
tty_client() { echo "podman --runtime $PODMAN_RUNTIME"; }

STATE_FORMAT='{{.State.Status}} exit={{.State.ExitCode}} oom={{.State.OOMKilled}} running={{.State.Running}} paused={{.State.Paused}} restarts={{.RestartCount}} error={{.State.Error}}'
inspect_state() { step "inspect $1" pm inspect --format "$STATE_FORMAT" "$1"; }
ps_all() { step "ps -a" pm ps -a --format '{{.Names}} {{.Status}} {{.Command}}'; }
# Which events Podman recorded for the container: their order and number race with
# conmon's exit command, and whether a restart or stop records "stop" and "cleanup" races
# with the container's exit (seen under each runtime).
events_of() {
	local id
	id=$(pm inspect --format '{{.Id}}' "$1") || return 1
	step "events $1" sh -c "podman --runtime $PODMAN_RUNTIME events --stream=false --filter container=$id --format '{{.Status}}' | grep -vxE 'stop|cleanup' | sort -u"
}
# The number of processes and the memory limit, not the usage.
stats_of() {
	step "stats $1" sh -c "podman --runtime $PODMAN_RUNTIME stats --no-stream --format '{{.Name}} {{.PIDs}} {{.MemUsage}}' $1 | sed 's#[0-9.]*[kMG]*B / #<usage> / #'"
}

# Runs detached as NAME; returns once the command printed LINE.
start_named() { # NAME LINE RUN-ARGS...
	local name=$1 line=$2
	shift 2
	pm run -d --name "$name" "$@" >/dev/null || return 1
	e2e_wait_for_line "$line" podman --runtime "$PODMAN_RUNTIME" logs -f "$name"
}

# ---- the cases --------------------------------------------------------------------------------
# Each prints what the run showed; the same function runs under every runtime.

I=$PDIFF_IMAGE
ALL='id status hostname env cwd limits cgroup ns mounts dev fds'

case_run_plain() { step run pm run --rm "$I" probe $ALL cglimits oom sysctl writes; }
case_run_tty() {
	tty_step "run -t" '' "run --rm -t $I probe tty id"
	tty_step "run -it" 'echo typed-$((6*7))\nexit 5\n' "run --rm -it $I sh"
}
case_run_stdin() {
	echo "-- run -i, piped"
	printf 'a\nb\n' | pm run --rm -i "$I" sh -c '[ -t 0 ] && echo tty; wc -l'
	echo "status: $?"
}
case_rm() {
	step "run --rm" pm run --rm --name pd-rm "$I" true
	ps_all
	step "run" pm run --name pd-kept "$I" sh -c 'echo kept; exit 4'
	ps_all
	inspect_state pd-kept
	step logs pm logs pd-kept
	events_of pd-kept
	step rm pm rm pd-kept
}
case_lifecycle() {
	start_named pd-life ready "$I" sh -c \
		'echo ready; echo to-stderr >&2; trap "echo got-term; exit 3" TERM; while :; do sleep 0.1; done' ||
		return 1
	ps_all
	inspect_state pd-life
	step top pm top pd-life user group comm args
	stats_of pd-life
	step stop pm stop -t 30 pd-life
	inspect_state pd-life
	step logs pm logs pd-life
	ps_all
	events_of pd-life
}
case_kill_signals() {
	start_named pd-sig ready "$I" sh -c \
		'trap "echo got-usr1" USR1; trap "echo got-hup" HUP; echo ready; while :; do sleep 0.1; done' ||
		return 1
	step "kill USR1" pm kill -s USR1 pd-sig
	e2e_wait_for_line got-usr1 podman --runtime "$PODMAN_RUNTIME" logs -f pd-sig
	step "kill HUP" pm kill -s HUP pd-sig
	e2e_wait_for_line got-hup podman --runtime "$PODMAN_RUNTIME" logs -f pd-sig
	kill_unhandled_steps pd-sig
	events_of pd-sig
}
case_wait_restart() {
	start_named pd-rs started "$I" sh -c 'echo started >> /tmp/count; echo started; exec sleep 1000' ||
		return 1
	restart_steps pd-rs
	step "kill, wait" sh -c "podman --runtime $PODMAN_RUNTIME kill pd-rs >/dev/null; podman --runtime $PODMAN_RUNTIME wait pd-rs"
	events_of pd-rs
}
case_init() {
	step "run --init" pm run --rm --init "$I" probe procs status
	start_named pd-init ready --init "$I" sh -c 'echo ready; exec sleep 1000' || return 1
	step "stop through the init" pm stop -t 30 pd-init
	inspect_state pd-init
}
case_exit_codes() {
	local c
	for c in 0 1 3 255; do step "exit $c" pm run --rm "$I" sh -c "exit $c"; done
	step "killed by itself" pm run --rm "$I" sh -c 'kill -9 $$'
	step "missing command" pm run --rm "$I" nosuchcommand
	step "missing path" pm run --rm "$I" /no/such/file
	step "not executable" pm run --rm "$I" /etc/passwd
	step "a directory" pm run --rm "$I" /tmp
	step "bad workdir is made" pm run --rm -w /no/such/dir "$I" pwd
	step "workdir a file" pm run --rm -w /etc/passwd "$I" pwd
	step "bad user" pm run --rm --user nosuchuser "$I" id
}

# sweep_cases.sh's steps go through pm; its exec cases run in pd-x.
SWEEP_CLIENT=pm
SWEEP_X=pd-x
exec_target() { start_named pd-x ready "$@" "$I" sh -c 'echo ready; exec sleep 1000'; }
case_exec_plain() {
	exec_target || return 1
	exec_plain_steps
}
case_exec_detach() {
	exec_target || return 1
	exec_detach_steps
	step top pm top pd-x user comm args
}
case_exec_privileged() {
	exec_target --cap-drop all || return 1
	exec_privileged_steps
	step "exec --cap-add" pm exec --cap-add NET_ADMIN pd-x probe status 2>/dev/null
}
case_user() {
	step "--user 1000:1000" pm run --rm --user 1000:1000 "$I" probe id status env writes
	step "--user user" pm run --rm --user user "$I" probe id env
	step "--user 4242" pm run --rm --user 4242 "$I" probe id env cwd
}
case_group_add() {
	step "--group-add" pm run --rm --group-add 10 --group-add 2000 --group-add user "$I" probe id status
	step "--user --group-add" pm run --rm --user 1000 --group-add 20 "$I" probe id status
}
case_caps() {
	step "--cap-drop ALL" pm run --rm --cap-drop ALL "$I" probe id status
	step "--cap-add" pm run --rm --cap-add SYS_ADMIN --cap-add NET_ADMIN "$I" probe status
	step "--cap-drop all --cap-add CHOWN" pm run --rm --cap-drop all --cap-add CHOWN "$I" sh -c \
		'probe status; chown 1000 /tmp && echo chown-ok; mknod /tmp/n c 1 3 || echo no-mknod'
	step "--user --cap-add" pm run --rm --user 1000 --cap-add NET_BIND_SERVICE "$I" probe status
}
case_security_opts() {
	step no-new-privileges pm run --rm --security-opt no-new-privileges "$I" probe status
	step seccomp=unconfined pm run --rm --security-opt seccomp=unconfined "$I" probe status
	step label=disable pm run --rm --security-opt label=disable "$I" probe status mounts
	step "unmask=ALL" pm run --rm --security-opt unmask=ALL "$I" probe mounts
	step "mask=/etc/passwd:/tmp" pm run --rm --security-opt mask=/etc/passwd:/tmp "$I" sh -c \
		'probe mounts; cat /etc/passwd; ls -A /tmp; touch /tmp/x'
}
case_privileged() {
	step --privileged pm run --rm --privileged "$I" probe status mounts cglimits writes
}
case_read_only() {
	step --read-only pm run --rm --read-only "$I" probe mounts writes
	step "--read-only-tmpfs=false" pm run --rm --read-only --read-only-tmpfs=false "$I" probe mounts writes
}
case_tmpfs() {
	step --tmpfs pm run --rm --tmpfs /scratch:size=1m,mode=0700 --tmpfs /run "$I" sh -c \
		'probe mounts writes; stat -c "%a %u:%g" /scratch'
	step "--mount type=tmpfs" pm run --rm --mount type=tmpfs,destination=/scratch,tmpfs-size=2m,tmpfs-mode=1777 \
		"$I" sh -c 'probe mounts; stat -c "%a" /scratch'
}
case_volumes() {
	mkdir -p "$E2E_DIR/vol-rw" "$E2E_DIR/vol-ro" && echo host >"$E2E_DIR/vol-ro/f"
	step volumes pm run --rm -v "$E2E_DIR/vol-rw:/data" -v "$E2E_DIR/vol-ro:/ro:ro" "$I" sh -c \
		'probe mounts writes; cat /ro/f; echo c > /data/c; stat -c "%u:%g %a" /data/c'
	rm -rf "$E2E_DIR/vol-rw"/* && mkdir -p "$E2E_DIR/vol-rw/x"
	step "named volume" pm run --rm -v pdvol:/vol "$I" sh -c 'probe mounts; ls -la /vol | wc -l'
	pm volume rm -f pdvol >/dev/null 2>&1
	step "volume over image dir" pm run --rm -v "$E2E_DIR/vol-rw:/data" "$I" ls /data
}
case_devices() {
	step --device pm run --rm --device /dev/kmsg:/dev/k:r --device /dev/null:/dev/n "$I" sh -c \
		'probe dev cglimits; echo x > /dev/k; echo x > /dev/n && echo n-ok'
	step "--device-cgroup-rule" pm run --rm --device-cgroup-rule 'c 1:11 r' "$I" probe cglimits
}
case_memory() {
	step memory pm run --rm --memory 64m --memory-swap 128m --memory-reservation 32m \
		--memory-swappiness 10 "$I" probe cglimits
	start_named pd-mem ready --memory 64m "$I" sh -c 'echo ready; exec sleep 1000' || return 1
	stats_of pd-mem
}
case_cpu() {
	step cpu pm run --rm --cpus 1.5 --cpu-shares 512 --cpuset-cpus 0 --blkio-weight 300 "$I" probe cglimits
	step "cpu-period/quota" pm run --rm --cpu-period 50000 --cpu-quota 25000 "$I" probe cglimits
}
case_pids() { step --pids-limit pm run --rm --pids-limit 10 "$I" probe cglimits; }
case_ulimit() {
	step --ulimit pm run --rm --ulimit nofile=100:200 --ulimit "nproc=$(podman_nproc):$(podman_nproc)" \
		--ulimit core=0:0 --ulimit stack=8388608:16777216 "$I" probe limits
	step "--umask" pm run --rm --umask 0027 "$I" sh -c 'umask; touch /tmp/f; stat -c %a /tmp/f'
}
case_namespaces() {
	step --pid=host pm run --rm --pid=host "$I" sh -c 'probe ns; [ "$$" = 1 ] && echo pid-1'
	step "--ipc=host --uts=host" pm run --rm --ipc=host --uts=host "$I" probe ns hostname mounts
	step --network=none pm run --rm --network=none "$I" sh -c 'probe ns; ip -o link | cut -d" " -f2'
	step "--network=host" pm run --rm --network=host "$I" probe ns mounts
	step --cgroupns=private pm run --rm --cgroupns=private "$I" probe ns cgroup mounts
	step --cgroupns=host pm run --rm --cgroupns=host "$I" probe ns cgroup mounts
}
case_hostname() {
	step --hostname pm run --rm --hostname pd-host "$I" probe hostname env
	step --domainname pm run --rm --hostname pd-host --domainname example.org "$I" sh -c 'probe hostname sysctl; domainname'
}
case_sysctl() {
	step --sysctl pm run --rm --sysctl kernel.msgmax=4242 --sysctl net.ipv4.ip_forward=1 \
		--sysctl kernel.shmmax=1048576 "$I" probe sysctl
	step "--sysctl with --ipc=host" pm run --rm --ipc=host --sysctl kernel.msgmax=4242 "$I" true
}
case_shm_size() {
	step --shm-size pm run --rm --shm-size 1m "$I" sh -c 'probe mounts; df -k /dev/shm | tail -n1'
}
case_userns() {
	step "--uidmap" pm run --rm --uidmap 0:100000:65536 --gidmap 0:100000:65536 "$I" sh -c \
		'probe id status mounts dev writes; cat /proc/self/uid_map /proc/self/gid_map'
	step "--userns=keep-id" pm run --rm --userns=keep-id "$I" sh -c 'probe id; cat /proc/self/uid_map'
	step "--userns=auto" pm run --rm --userns=auto "$I" sh -c 'probe id; cat /proc/self/uid_map'
}
case_oom_score_adj() {
	step --oom-score-adj pm run --rm --oom-score-adj 100 "$I" probe oom
	step "--oom-score-adj -100" pm run --rm --oom-score-adj -100 "$I" probe oom
}
case_personality() { step --personality pm run --rm --personality LINUX32 "$I" probe arch; }
case_env() {
	step --env-file pm run --rm --env-file "$E2E_DIR/env-file" -e C=three -e PATH=/bin "$I" probe env
	step "--env-host" pm run --rm --env HOME=/elsewhere --env TERM=dumb "$I" probe env
	step --workdir pm run --rm --workdir /tmp "$I" probe cwd
}
case_oom_kill() {
	step "oom" pm run --name pd-oom --memory 16m --memory-swap 16m "$I" sh -c \
		'x=$(head -c 67108864 /dev/zero | tr "\0" a); echo survived'
	inspect_state pd-oom
	events_of pd-oom
}
case_pause() {
	exec_target || return 1
	step pause pm pause pd-x
	inspect_state pd-x
	ps_all
	step "exec while paused" pm exec pd-x true
	step "freezer inside" pm unpause pd-x
	step "after unpause" pm exec pd-x cat /sys/fs/cgroup/freezer/freezer.state
	inspect_state pd-x
	events_of pd-x
}
case_update() {
	exec_target --memory 64m --cpu-shares 512 --pids-limit 20 || return 1
	step update pm update --memory 96m --memory-swap 192m --cpu-shares 256 --pids-limit 30 \
		--cpus 0.5 pd-x
	step "after update" pm exec pd-x probe cglimits
	step "update of a stopped container" sh -c "podman --runtime $PODMAN_RUNTIME stop -t 0 pd-x >/dev/null; podman --runtime $PODMAN_RUNTIME update --memory 80m pd-x"
}
case_top_stats() {
	start_named pd-top ready --memory 32m "$I" sh -c 'sleep 1000 & echo ready; exec sleep 999' ||
		return 1
	step top pm top pd-top user group comm args
	step "top ps args" pm top pd-top -o comm,args
	stats_of pd-top
}
case_restart_policy() {
	pm run -d --name pd-rp --restart on-failure:2 "$I" sh -c 'echo ran; exit 1' >/dev/null
	step "restarted twice, then exited" wait_restarts pd-rp 2
	inspect_state pd-rp
	step logs pm logs pd-rp
}

CASES=(run-plain run-tty run-stdin rm lifecycle kill-signals wait-restart init exit-codes
	exec-plain exec-user exec-workdir-env exec-tty exec-detach exec-privileged
	user group-add caps security-opts privileged read-only tmpfs volumes devices
	memory cpu pids ulimit namespaces hostname sysctl shm-size userns oom-score-adj
	personality env oom-kill pause update top-stats restart-policy)

# ---- accepted differences -------------------------------------------------------------------
# As sweep_common.sh's accepted_key reads them.
RT_WORDS='^[-+]stderr: .*(<rt>|<runtime>|level=error)'
ACCEPTED=(
	"${SWEEP_RUNTIME_ACCEPTED[@]}"
	"*;runc;$RT_WORDS;error-wording"
	"*;crun;$RT_WORDS;error-wording"
)

# ---- the sweep --------------------------------------------------------------------------------

# The case's output and status in raw, and no container left behind; always 0.
sweep_case_raw() { # FN
	"$1" >"$E2E_DIR/raw" 2>&1
	echo "case status: $?" >>"$E2E_DIR/raw"
	pm rm -af -t 0 >/dev/null 2>&1
	return 0
}

sweep_select_runtime() { # VARIANT
	export PODMAN_RUNTIME
	PODMAN_RUNTIME=$(variant_runtime "$1")
}

check_accepted_keys || exit 1
sweep_all "${PDIFF_CASES:-}" "${PDIFF_VARIANTS:-ctrun runc ctrun-v1 crun-v1}"
