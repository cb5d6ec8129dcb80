#!/usr/bin/env bash
# Side by side: the same Docker invocations with `--runtime` ctrun, runc and crun on a private
# dockerd (tests/e2e/docker_env.sh, crun added in its daemon.json, experimental on for
# checkpoint), what the container printed (tests/e2e/podman_probe.sh as /bin/probe), the
# exit status and Docker's own view afterwards (inspect's State, ps, logs, top, stats),
# normalised for what legitimately differs (ids, times, the runtime's name), then a diff per
# invocation: ctrun against runc on this machine's hybrid cgroups, ctrun against crun with
# cgroup2 hidden (crun 1.8.1 refuses the hybrid layout: an empty tmpfs over
# /sys/fs/cgroup/unified while the case runs, for ctrun's run too).
#
#   tests/e2e/docker_diff.sh                   every case, every runtime
#   DDIFF_CASES="run-plain exec-user" ...      only those cases
#   DDIFF_VARIANTS="ctrun runc" ...            only those runs (ctrun runc ctrun-v1 crun-v1)
#   DDIFF_OUT=DIR ...                          keep each run's normalised output in DIR
#   DDIFF_USERNS=1 ...                         dockerd with --userns-remap (every container
#                                              in a user namespace)
#
# Exit status: 0 when ctrun showed what the other runtimes showed in every case but for the
# differences ACCEPTED lists (each naming its row of docs/differences-from-runc.md).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
. "$here/busybox_image.sh"
. "$here/sweep_common.sh"
. "$here/sweep_cases.sh"
: "${CTRUN:?set CTRUN to the ctrun binary}" "${CTRUN_SRC:?set CTRUN_SRC to the source tree}"

e2e_enter_private_mount_ns "$0" "$@"

e2e_require_tools docker-diff docker dockerd runc script

E2E_DIR=$(mktemp -d /tmp/ctrun-docker-diff.XXXXXX)
SWEEP_OUT=${DDIFF_OUT:-$E2E_DIR/out}
SWEEP_NAME="docker diff"
DDIFF_IMAGE=busybox:ddiff
DOCKER_DAEMON_JSON='{"experimental": true, "runtimes": {"crun": {"path": "/usr/bin/crun"}}}'
# A user of /etc/subuid and /etc/subgid for the remapped run.
# dockerd wants the data root's parents searchable by the remapped root.
if [ -n "${DDIFF_USERNS:-}" ]; then
	DOCKERD_EXTRA_ARGS="--userns-remap=${DDIFF_USERNS_USER:-ctrun-rootless}"
	chmod 0711 "$E2E_DIR"
fi
. "$here/docker_env.sh"

trap docker_cleanup_all EXIT

# The suite's busybox image with the probe in it, and the env file the cases read.
load_probe_image() {
	e2e_busybox_rootfs "$E2E_DIR/rootfs" &&
		install -m 0755 "$here/podman_probe.sh" "$E2E_DIR/rootfs/bin/probe" &&
		printf 'A=from-file\nB=two words\n' >"$E2E_DIR/env-file" &&
		mkdir -p "$E2E_DIR/image" &&
		e2e_busybox_docker_archive "$E2E_DIR/rootfs" "$E2E_DIR/image" "$E2E_DIR/busybox.tar" \
			"$DDIFF_IMAGE" &&
		dk load -i "$E2E_DIR/busybox.tar" >/dev/null
}

if ! dockerd_start || ! load_probe_image; then
	echo "docker diff: starting the private dockerd or loading the probe image failed" >&2
	exit 1
fi
mkdir -p "$SWEEP_OUT"

# ---- the runs -------------------------------------------------------------------------------

sweep_select_runtime() { DOCKER_RUNTIME=${1%-v1}; }

# docker run with the variant's runtime; the daemon has no bridge, so a case names its
# network (R: the everyday --rm run, without one).
dr() { dk run --runtime "$DOCKER_RUNTIME" "$@"; }
R() { dr --rm --network none "$@"; }

# tty_step (sweep_cases.sh) runs docker so
tty_client() { echo docker; }

STATE_FORMAT='{{.State.Status}} exit={{.State.ExitCode}} oom={{.State.OOMKilled}} running={{.State.Running}} paused={{.State.Paused}} restarting={{.State.Restarting}} restarts={{.RestartCount}} error={{.State.Error}}'
inspect_state() { step "inspect $1" dk inspect --format "$STATE_FORMAT" "$1"; }
ps_all() { step "ps -a" dk ps -a --format '{{.Names}} {{.Status}} {{.Command}}'; }
# docker top with ps's -o COLUMNS (dockerd needs a pid column: the host's pids, left out).
top_of() { # NAME COLUMNS
	step "top $2" sh -c "docker top $1 -o pid,$2 | awk '{ \$1 = \"\"; print }'"
}
# The number of processes and the memory limit, not the usage.
stats_of() {
	step "stats $1" sh -c "docker stats --no-stream --format '{{.Name}} {{.PIDs}} {{.MemUsage}}' $1 | sed 's#[0-9.]*[kKMG]*i\?B / #<usage> / #'"
}

# Runs detached as NAME; returns once the command printed LINE.
start_named() { # NAME LINE RUN-ARGS...
	local name=$1 line=$2
	shift 2
	dr -d --name "$name" "$@" >/dev/null || return 1
	e2e_wait_for_line "$line" docker logs -f "$name"
}

# ---- the cases --------------------------------------------------------------------------------

I=$DDIFF_IMAGE
ALL='id status hostname env cwd limits cgroup ns mounts dev fds'

case_run_plain() { step run R "$I" probe $ALL cglimits oom sysctl writes; }
case_run_tty() {
	tty_step "run -t" '' "run --runtime $DOCKER_RUNTIME --rm --network none -t $I probe tty id"
	tty_step "run -it" 'echo typed-$((6*7))\nexit 5\n' "run --runtime $DOCKER_RUNTIME --rm --network none -it $I sh"
}
case_run_stdin() {
	echo "-- run -i, piped"
	printf 'a\nb\n' | R -i "$I" sh -c '[ -t 0 ] && echo tty; wc -l'
	echo "status: $?"
}
case_rm() {
	step "run --rm" R --name dd-rm "$I" true
	ps_all
	step "run" dr --network none --name dd-kept "$I" sh -c 'echo kept; exit 4'
	ps_all
	inspect_state dd-kept
	step logs dk logs dd-kept
	step rm dk rm dd-kept
}
case_lifecycle() {
	start_named dd-life ready --network none "$I" sh -c \
		'echo ready; echo to-stderr >&2; trap "echo got-term; exit 3" TERM; sleep 1000 & wait' ||
		return 1
	ps_all
	inspect_state dd-life
	top_of dd-life user,group,comm,args
	stats_of dd-life
	step stop dk stop -t 30 dd-life
	inspect_state dd-life
	step logs dk logs dd-life
	ps_all
}
case_kill_signals() {
	start_named dd-sig ready --network none "$I" sh -c \
		'trap "echo got-usr1" USR1; trap "echo got-hup" HUP; echo ready; while :; do sleep 0.1; done' ||
		return 1
	step "kill USR1" dk kill -s USR1 dd-sig
	e2e_wait_for_line got-usr1 docker logs -f dd-sig
	step "kill HUP" dk kill -s HUP dd-sig
	e2e_wait_for_line got-hup docker logs -f dd-sig
	kill_unhandled_steps dd-sig
}
case_wait_restart() {
	start_named dd-rs started --network none "$I" sh -c 'echo started >> /tmp/count; echo started; exec sleep 1000' ||
		return 1
	restart_steps dd-rs
	step "kill, wait" sh -c "docker kill dd-rs >/dev/null; docker wait dd-rs"
	inspect_state dd-rs
}
case_init() {
	step "run --init" R --init "$I" probe procs status
	start_named dd-init ready --network none --init "$I" sh -c 'echo ready; exec sleep 1000' || return 1
	step "stop through the init" dk stop -t 30 dd-init
	inspect_state dd-init
}
case_exit_codes() {
	local c
	for c in 0 1 3 255; do step "exit $c" R "$I" sh -c "exit $c"; done
	step "killed by itself" R "$I" sh -c 'kill -9 $$'
	step "missing command" R "$I" nosuchcommand
	step "missing path" R "$I" /no/such/file
	step "not executable" R "$I" /etc/passwd
	step "a directory" R "$I" /tmp
	step "bad workdir is made" R -w /no/such/dir "$I" pwd
	step "workdir a file" R -w /etc/passwd "$I" pwd
	step "bad user" R --user nosuchuser "$I" id
	step "bad uid:gid" R --user 4242:4343 "$I" id
}

# sweep_cases.sh's steps go through dk; its exec cases run in dd-x.
SWEEP_CLIENT=dk
SWEEP_X=dd-x
exec_target() { start_named dd-x ready --network none "$@" "$I" sh -c 'echo ready; exec sleep 1000'; }
case_exec_plain() {
	exec_target || return 1
	exec_plain_steps
	step "exec -i, piped" sh -c "printf 'a\nb\n' | docker exec -i dd-x wc -l"
}
case_exec_detach() {
	exec_target || return 1
	exec_detach_steps
	top_of dd-x user,comm,args
}
case_exec_privileged() {
	exec_target --cap-drop all || return 1
	exec_privileged_steps
}
case_user() {
	step "--user 1000:1000" R --user 1000:1000 "$I" probe id status env writes
	step "--user user" R --user user "$I" probe id env
	step "--user 4242" R --user 4242 "$I" probe id env cwd
}
case_group_add() {
	step "--group-add" R --group-add 10 --group-add 2000 --group-add user "$I" probe id status
	step "--user --group-add" R --user 1000 --group-add 20 "$I" probe id status
}
case_caps() {
	step "--cap-drop ALL" R --cap-drop ALL "$I" probe id status
	step "--cap-add" R --cap-add SYS_ADMIN --cap-add NET_ADMIN "$I" probe status
	step "--cap-drop all --cap-add CHOWN" R --cap-drop all --cap-add CHOWN "$I" sh -c \
		'probe status; chown 1000 /tmp && echo chown-ok; mknod /tmp/n c 1 3 || echo no-mknod'
	step "--cap-drop CHOWN" R --cap-drop CHOWN "$I" sh -c 'probe status; chown 1000 /tmp || echo no-chown'
	step "--user --cap-add" R --user 1000 --cap-add NET_BIND_SERVICE "$I" probe status
}
case_security_opts() {
	step no-new-privileges R --security-opt no-new-privileges "$I" probe status
	step seccomp=unconfined R --security-opt seccomp=unconfined "$I" probe status
	step systempaths=unconfined R --security-opt systempaths=unconfined "$I" probe mounts writes
}
case_privileged() {
	step --privileged R --privileged "$I" probe status mounts cglimits writes
}
case_read_only() {
	step --read-only R --read-only "$I" probe mounts writes
	step "--read-only --tmpfs" R --read-only --tmpfs /run --tmpfs /tmp "$I" probe mounts writes
}
case_tmpfs() {
	step --tmpfs R --tmpfs /scratch:size=1m,mode=0700 --tmpfs /run "$I" sh -c \
		'probe mounts writes; stat -c "%a %u:%g" /scratch'
	step "--mount type=tmpfs" R --mount type=tmpfs,destination=/scratch,tmpfs-size=2m,tmpfs-mode=1777 \
		"$I" sh -c 'probe mounts; stat -c "%a" /scratch'
}
case_volumes() {
	mkdir -p "$E2E_DIR/vol-rw" "$E2E_DIR/vol-ro" && echo host >"$E2E_DIR/vol-ro/f"
	step volumes R -v "$E2E_DIR/vol-rw:/data" -v "$E2E_DIR/vol-ro:/ro:ro" "$I" sh -c \
		'probe mounts writes; cat /ro/f; echo c > /data/c; stat -c "%u:%g %a" /data/c'
	rm -rf "$E2E_DIR/vol-rw"/*
	step "named volume" R -v ddvol:/vol "$I" sh -c 'probe mounts; ls -la /vol | wc -l'
	dk volume rm -f ddvol >/dev/null 2>&1
}
case_devices() {
	step --device R --device /dev/kmsg:/dev/k:r --device /dev/null:/dev/n "$I" sh -c \
		'probe dev cglimits; echo x > /dev/k; echo x > /dev/n && echo n-ok'
	step "--device-cgroup-rule" R --device-cgroup-rule 'c 1:11 r' "$I" probe cglimits
}
case_memory() {
	step memory R --memory 64m --memory-swap 128m --memory-reservation 32m \
		--memory-swappiness 10 "$I" probe cglimits
	step "--memory-swap -1" R --memory 64m --memory-swap -1 "$I" probe cglimits
	start_named dd-mem ready --network none --memory 64m "$I" sh -c 'echo ready; exec sleep 1000' || return 1
	stats_of dd-mem
}
case_cpu() {
	step cpu R --cpus 1.5 --cpu-shares 512 --cpuset-cpus 0 --blkio-weight 300 "$I" probe cglimits
	step "cpu-period/quota" R --cpu-period 50000 --cpu-quota 25000 "$I" probe cglimits
}
case_pids() { step --pids-limit R --pids-limit 10 "$I" probe cglimits; }
case_ulimit() {
	step --ulimit R --ulimit nofile=100:200 --ulimit nproc=500:600 \
		--ulimit core=0:0 --ulimit stack=8388608:16777216 "$I" probe limits
}
case_namespaces() {
	step "--pid host" R --pid host "$I" sh -c 'probe ns; [ "$$" = 1 ] && echo pid-1'
	step "--ipc host --uts host" R --ipc host --uts host "$I" probe ns hostname mounts
	step "--ipc private" R --ipc private "$I" probe ns mounts
	step "--network host" dr --rm --network host "$I" probe ns mounts hostname
	step "--network none" R "$I" sh -c 'ip -o link | cut -d" " -f2'
	step "--cgroupns private" R --cgroupns private "$I" probe ns cgroup mounts
	step "--cgroupns host" R --cgroupns host "$I" probe ns cgroup mounts
}
# Namespaces of another container: its ipc (shareable), pid and network.
case_namespaces_shared() {
	start_named dd-ns ready --network none --ipc shareable "$I" sh -c 'echo ready; exec sleep 1000' ||
		return 1
	local ns
	ns=$(dk exec dd-ns probe ns)
	echo "-- the target's"
	echo "$ns" | normalise
	step "--ipc container:" R --ipc container:dd-ns "$I" sh -c 'probe ns mounts' 
	step "--pid container:" R --pid container:dd-ns "$I" sh -c 'probe ns; ps -o comm,args'
	step "--network container:" dr --rm --network container:dd-ns "$I" probe ns hostname
}
case_hostname() {
	step --hostname R --hostname dd-host "$I" probe hostname env
	step --domainname R --hostname dd-host --domainname example.org "$I" sh -c 'probe hostname sysctl; domainname'
}
case_dns() {
	step "--dns" dr --rm --network host --dns 192.0.2.1 --dns-search example.org --dns-option ndots:2 \
		--add-host dd-peer:192.0.2.7 "$I" sh -c 'cat /etc/resolv.conf; grep dd-peer /etc/hosts'
}
case_sysctl() {
	step --sysctl R --sysctl kernel.msgmax=4242 --sysctl net.ipv4.ip_forward=1 \
		--sysctl kernel.shmmax=1048576 "$I" probe sysctl
	step "--sysctl with --ipc host" R --ipc host --sysctl kernel.msgmax=4242 "$I" true
	# The host's own value: a runtime that writes it (crun does) changes nothing.
	step "--sysctl with --network host" dr --rm --network host \
		--sysctl "net.ipv4.ip_forward=$(cat /proc/sys/net/ipv4/ip_forward)" "$I" true
}
case_shm_size() {
	step --shm-size R --shm-size 1m "$I" sh -c 'probe mounts; df -k /dev/shm | tail -n1'
}
case_oom_score_adj() {
	step --oom-score-adj R --oom-score-adj 100 "$I" probe oom
	step "--oom-score-adj -100" R --oom-score-adj -100 "$I" probe oom
}
case_env() {
	step --env-file R --env-file "$E2E_DIR/env-file" -e C=three -e PATH=/bin "$I" probe env
	step "-e HOME TERM" R -e HOME=/elsewhere -e TERM=dumb "$I" probe env
	step -w R -w /tmp "$I" probe cwd
}
case_oom_kill() {
	step "oom" dr --network none --name dd-oom --memory 16m --memory-swap 16m "$I" sh -c \
		'x=$(head -c 67108864 /dev/zero | tr "\0" a); echo survived'
	inspect_state dd-oom
}
case_pause() {
	exec_target || return 1
	step pause dk pause dd-x
	inspect_state dd-x
	ps_all
	step "exec while paused" dk exec dd-x true
	step unpause dk unpause dd-x
	step "after unpause" dk exec dd-x cat /sys/fs/cgroup/freezer/freezer.state
	inspect_state dd-x
}
case_update() {
	exec_target --memory 64m --cpu-shares 512 --pids-limit 20 || return 1
	step update dk update --memory 96m --memory-swap 192m --cpu-shares 256 --pids-limit 30 \
		--cpus 0.5 --cpuset-cpus 0 dd-x
	step "after update" dk exec dd-x probe cglimits
	stats_of dd-x
	step "update --restart" dk update --restart on-failure:3 dd-x
	step "update of a stopped container" sh -c "docker stop -t 0 dd-x >/dev/null; docker update --memory 80m --memory-swap 160m dd-x"
	step "started again" sh -c "docker start dd-x >/dev/null && docker exec dd-x probe cglimits"
}
case_top_stats() {
	start_named dd-top ready --network none --memory 32m "$I" sh -c 'sleep 1000 & echo ready; exec sleep 999' ||
		return 1
	top_of dd-top user,group,comm,args
	step "top default" sh -c "docker top dd-top | awk '{ print \$1, \$8, \$9, \$10 }'"
	stats_of dd-top
}
case_restart_policy() {
	dr -d --network none --name dd-rp --restart on-failure:2 "$I" sh -c 'echo ran; exit 1' >/dev/null
	step "restarted twice, then exited" wait_restarts dd-rp 2
	inspect_state dd-rp
	step logs dk logs dd-rp
}
case_checkpoint() {
	start_named dd-cp ready --network none --security-opt seccomp=unconfined "$I" sh -c \
		'i=0; echo ready; while :; do i=$((i+1)); echo $i > /tmp/n; sleep 0.1; done' || return 1
	step checkpoint dk checkpoint create dd-cp cp1
	inspect_state dd-cp
	step "checkpoint ls" dk checkpoint ls dd-cp
	step restore dk start --checkpoint cp1 dd-cp
	inspect_state dd-cp
	step "counting again" dk exec dd-cp sh -c 'a=$(cat /tmp/n); while [ "$(cat /tmp/n)" = "$a" ]; do sleep 0.05; done; echo counting'
}

CASES=(run-plain run-tty run-stdin rm lifecycle kill-signals wait-restart init exit-codes
	exec-plain exec-user exec-workdir-env exec-tty exec-detach exec-privileged
	user group-add caps security-opts privileged read-only tmpfs volumes devices
	memory cpu pids ulimit namespaces namespaces-shared hostname dns sysctl shm-size
	oom-score-adj env oom-kill pause update top-stats restart-policy checkpoint)

# ---- accepted differences -------------------------------------------------------------------
# As sweep_common.sh's accepted_key reads them.
# What dockerd passes on of a runtime's error: the shim's "OCI runtime create failed:" and
# the runtime's words (docker exec prints them on stdout).
RT_WORDS='^[-+](stderr: )?(docker: Error response from daemon: .*)?OCI runtime [a-z]+ failed: '
ACCEPTED=(
	"${SWEEP_RUNTIME_ACCEPTED[@]}"
	"*;runc;$RT_WORDS;error-wording"
	"*;crun;$RT_WORDS;error-wording"
	"checkpoint;runc;^[-+]stderr: Error response from daemon: Cannot checkpoint container .* did not terminate successfully: ;error-wording"
	'devices;runc;^[-+]status: 12[57]$;docker-status-from-words'
	'hostname;runc;^[-+]status: 12[56]$;docker-status-from-words'
	'*;crun;^[-+][^ ]+ /[^ ]* r[ow],relatime( master:[0-9]+)? - (overlay|ext4) ;crun-rootfs-propagation'
	'*;crun;^[-+]oom_score_adj [01]$;crun-oom-score-adj-zero'
	'exit-codes;crun;^[-+]status: 12[567]$;crun-exec-error-status'
	'namespaces-shared;crun;^[-+]/ /dev/shm rw,(nosuid,nodev,noexec,)?relatime - tmpfs shm ;crun-bind-source-flags'
	'sysctl;crun;^[-+](status: (0|125)|stderr: (Run .docker run --help. for more information)?)$;crun-sysctl-host-netns'
	'update;crun;^[-+]memory/memory.soft_limit_in_bytes: (0|9223372036854771712) $;crun-update-resources'
	'update;crun;^-stderr: (Error response from daemon: Cannot update container .*|: unknown)$;crun-update-resources'
	'update;crun;^([-+]status: [01]|\+dd-x)$;crun-update-resources'
	'checkpoint;crun;^[-+]stderr: Error response from daemon: Cannot checkpoint container ;crun-no-checkpoint'
)

# ---- the sweep --------------------------------------------------------------------------------

# The case's output and status in raw, and no container left behind; always 0.
sweep_case_raw() { # FN
	"$1" >"$E2E_DIR/raw" 2>&1
	echo "case status: $?" >>"$E2E_DIR/raw"
	dk rm -f $(dk ps -aq) >/dev/null 2>&1
	return 0
}

check_accepted_keys || exit 1
sweep_all "${DDIFF_CASES:-}" "${DDIFF_VARIANTS:-ctrun runc ctrun-v1 crun-v1}"
