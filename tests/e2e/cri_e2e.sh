#!/usr/bin/env bash
# Kubernetes through the CRI: a private containerd 1.6 (cri_env.sh) whose CRI plugin runs
# pods with the ctrun handler, driven by the project's CRI client (cri_client.py) as a
# kubelet drives it. Each case runs with the ctrun handler and, where the comparison means
# something, with the runc handler too (the same checks: the behaviour matches); each checks
# from outside (CRI status, host state), from inside (ExecSync) and that StopPodSandbox +
# RemovePodSandbox leave nothing behind. Ends with the start latency of both handlers,
# alternated. Needs CTRUN, CTRUN_SRC; run as root in a private mount namespace
# (tests/e2e/run-all.sh does).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
. "$here/busybox_image.sh"
: "${CTRUN:?}" "${CTRUN_SRC:?}"
e2e_require_tools cri containerd ctr runc nsenter ip cc /bin/busybox /usr/bin/python3 \
	/usr/lib/cni/bridge /usr/lib/cni/host-local /usr/lib/cni/loopback
/usr/bin/python3 -c 'import grpc, grpc_tools' 2>/dev/null || {
	echo "skip cri e2e: python3-grpcio or python3-grpc-tools is not installed (make deps-e2e)"
	exit 0
}
E2E_DIR=$(mktemp -d /tmp/ctrun-e2e-cri.XXXXXX)
chmod 0755 "$E2E_DIR"
. "$here/cri_env.sh"

BENCH_ROUNDS=${CRI_BENCH_ROUNDS:-10}
HANDLER=ctrun
# What a kubelet masks and makes read-only in every container that is not privileged.
MASKED='"/proc/acpi","/proc/kcore","/proc/keys","/proc/latency_stats","/proc/timer_list","/proc/timer_stats","/proc/sched_debug","/proc/scsi","/sys/firmware"'
READONLY='"/proc/asound","/proc/bus","/proc/fs","/proc/irq","/proc/sys","/proc/sysrq-trigger"'

# ---- pods and containers, as a kubelet asks for them ----------------------------------

# A pod's config; NET is POD or NODE, PID is CONTAINER or NODE; PRIV makes it privileged.
# A host-network pod has the node's hostname: a kubelet gives it none.
pod_json() { # NAME [NET] [PID] [PRIV]
	local hostname=$1
	[ "${2:-POD}" = POD ] || hostname=
	printf '{"metadata":{"name":"%s","uid":"uid-%s","namespace":"e2e"},"hostname":"%s","log_directory":"%s","linux":{"cgroup_parent":"/%s/%s","security_context":{"privileged":%s,"namespace_options":{"network":"%s","pid":"%s","ipc":"POD"}}}}' \
		"$1" "$1" "$hostname" "$E2E_DIR/logs/$1" "$CTRD_CGROUP" "$1" "${4:-false}" "${2:-POD}" "${3:-CONTAINER}"
}

# Runs a pod with this case's handler: POD its id, POD_NAME, POD_JSON its config.
run_pod() { # NAME [NET] [PID] [PRIV]
	POD_NAME=$1-$HANDLER
	POD_JSON=$(pod_json "$POD_NAME" "${@:2}")
	mkdir -p "$E2E_DIR/logs/$POD_NAME"
	POD=$(cri call RunPodSandbox "{\"config\":$POD_JSON,\"runtime_handler\":\"$HANDLER\"}" \
		pod_sandbox_id) && [ -n "$POD" ]
}

# A container's config: CMD a JSON array, SEC more fields of its security context, RES
# its resources.
ctr_json() { # NAME CMD [SEC] [RES] [ATTEMPT]
	local ns
	ns=$(/usr/bin/python3 -c 'import json,sys; print(json.dumps(json.loads(sys.argv[1])["linux"]["security_context"]["namespace_options"]))' "$POD_JSON")
	printf '{"metadata":{"name":"%s","attempt":%s},"image":{"image":"%s"},"command":%s,"log_path":"%s_%s.log","linux":{"resources":{%s},"security_context":{"namespace_options":%s,"masked_paths":[%s],"readonly_paths":[%s]%s}}}' \
		"$1" "${5:-0}" "$E2E_IMAGE" "$2" "$1" "${5:-0}" "${4:-}" "$ns" "$MASKED" "$READONLY" "${3:+,$3}"
}

# Creates and starts a container in POD: CID its id.
start_container() { # NAME CMD [SEC] [RES] [ATTEMPT]
	CID=$(cri call CreateContainer "{\"pod_sandbox_id\":\"$POD\",\"config\":$(ctr_json "$@"),\"sandbox_config\":$POD_JSON}" \
		container_id) && [ -n "$CID" ] &&
		cri call StartContainer "{\"container_id\":\"$CID\"}" >/dev/null
}

in_ctr() { cri exec "$1" 20 "${@:2}"; }
ctr_status() { cri call ContainerStatus "{\"container_id\":\"$1\"}" "status.$2"; }
pod_status() { cri call PodSandboxStatus "{\"pod_sandbox_id\":\"$1\"}" "status.$2"; }
exit_and_reason() { cri wait-exit "$1" 30; }
# The pid of a running container's (or the sandbox's) init, from containerd's task.
task_pid() { ctrd tasks ls | awk -v id="$1" '$1 == id { print $2 }'; }

# The handler's own view of a container: `ctrun state` or `runc state` on the shim's root.
runtime_state() { # ID
	local bin=$CTRUN
	[ "$HANDLER" = ctrun ] || bin=runc
	timeout 20 "$bin" --root "$RUNC_ROOT/$NS" state "$1"
}

json_field() { # JSON KEY
	/usr/bin/python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"
}

# Processes in a cgroup of the pod (any hierarchy).
pids_in_pod() {
	grep -l ":/$CTRD_CGROUP/$POD_NAME/" /proc/[0-9]*/cgroup 2>/dev/null | cut -d/ -f3
}

# The network namespace file the CRI plugin made for the pod (none for a host-network pod).
pod_netns() {
	cri call PodSandboxStatus "{\"pod_sandbox_id\":\"$POD\",\"verbose\":true}" info.info |
		grep -o '"path": *"[^"]*/netns/[^"]*"' | cut -d'"' -f4
}

# StopPodSandbox + RemovePodSandbox (what a kubelet does when a pod is deleted), then
# nothing of the pod or its containers remains: no sandbox or container in the CRI or in
# containerd, no task, no runtime state, no cgroup, mount, network namespace, process or
# shim.
remove_pod_checked() {
	local ids id left= dir pid shims netns
	ids="$POD $(cri call ListContainers "{\"filter\":{\"pod_sandbox_id\":\"$POD\"}}" containers |
		/usr/bin/python3 -c 'import json,sys; print(" ".join(c["id"] for c in json.load(sys.stdin)))')"
	shims=$(shim_pids "$POD")
	netns=$(pod_netns)
	[ -n "$netns" ] || grep -q '"network":"NODE"' <<<"$POD_JSON" ||
		e2e_fail "no network namespace found for the pod" || return 1
	cri call StopPodSandbox "{\"pod_sandbox_id\":\"$POD\"}" >/dev/null &&
		cri call RemovePodSandbox "{\"pod_sandbox_id\":\"$POD\"}" >/dev/null || return 1
	cri call ListPodSandbox '{}' | grep -q "$POD" && left+=" sandbox"
	[ "$(cri call ListContainers "{\"filter\":{\"pod_sandbox_id\":\"$POD\"}}" containers)" = "[]" ] ||
		left+=" cri-container"
	for id in $ids; do
		ctrd containers ls -q | grep -qx "$id" && left+=" container($id)"
		ctrd tasks ls -q | grep -qx "$id" && left+=" task($id)"
		[ -e "$RUNC_ROOT/$NS/$id" ] && left+=" runtime-state($id)"
		for dir in /sys/fs/cgroup/*/"$CTRD_CGROUP/$POD_NAME/$id"; do
			[ -e "$dir" ] && left+=" cgroup($dir)"
		done
		grep -q "$id" /proc/self/mountinfo && left+=" mount($id)"
	done
	[ -n "$netns" ] && { [ -e "$netns" ] || grep -qF " $netns " /proc/self/mountinfo; } &&
		left+=" netns($netns)"
	[ -n "$(pids_in_pod)" ] && left+=" process"
	for pid in $shims; do
		wait_pid_gone "$pid" || left+=" shim($pid)"
	done
	[ "$HANDLER" = runc ] || assert_root_holds_only_containers "$RUNC_ROOT/$NS" ||
		left+=" foreign-entry"
	[ -z "$left" ] || e2e_fail "pod $POD_NAME left behind:$left"
}

# ---- cases ---------------------------------------------------------------------------

# The CRI answers as runtime.v1, ready, with the config the suite gave it.
case_daemon() {
	local version config
	version=$(cri call Version '{}') || return 1
	assert_contains "$version" '"runtime_api_version": "v1"' "CRI version" || return 1
	assert_eq true "$(cri call Status '{}' status.conditions.0.status)" "RuntimeReady" || return 1
	config=$(cri call Status '{"verbose":true}' info.config) || return 1
	assert_contains "$config" '"defaultRuntimeName":"ctrun"' "the default handler" &&
		assert_contains "$config" "\"BinaryName\":\"$CTRUN\"" "the ctrun handler's BinaryName" &&
		assert_contains "$config" '"runc":{"runtimeType":"io.containerd.runc.v2"' "the runc handler" &&
		assert_contains "$config" '"restrictOOMScoreAdj":true' "restrict_oom_score_adj"
}

# A pod sandbox: ready, an address of the CNI network, its pause process run by the handler.
case_run_pod_sandbox() {
	run_pod sandbox || return 1
	local pid state
	assert_eq SANDBOX_READY "$(pod_status "$POD" state)" "sandbox state" &&
		assert_contains "$(pod_status "$POD" network.ip)" "10.88.0." "the pod's address" ||
		return 1
	pid=$(task_pid "$POD")
	assert_eq /pause "$(tr -d '\0' </proc/"$pid"/cmdline)" "the sandbox's process" &&
		assert_eq "$(cat /proc/"$CTRD_PID"/oom_score_adj)" "$(cat /proc/"$pid"/oom_score_adj)" \
			"the sandbox's -998 raised to containerd's own oom_score_adj" ||
		return 1
	state=$(runtime_state "$POD") || e2e_fail "$HANDLER state: $state" || return 1
	assert_eq running "$(json_field "$state" status)" "$HANDLER state" &&
		assert_eq "$pid" "$(json_field "$state" pid)" "$HANDLER's pid = the task's" &&
		remove_pod_checked
}

SLEEP='["sleep","1000"]'

# Two containers of one pod share its network, IPC and UTS namespaces (seen from inside)
# and its hostname; their pid namespaces are their own.
case_shared_namespaces() {
	run_pod shared && start_container a "$SLEEP" && local a=$CID &&
		start_container b "$SLEEP" && local b=$CID || return 1
	local ns seen_a seen_b
	ns='for n in net ipc uts pid; do echo "$n $(readlink /proc/self/ns/$n)"; done; hostname'
	seen_a=$(in_ctr "$a" sh -c "$ns") && seen_b=$(in_ctr "$b" sh -c "$ns") || return 1
	assert_eq "$(echo "$seen_a" | grep -v pid)" "$(echo "$seen_b" | grep -v pid)" \
		"net, ipc, uts and hostname of both" &&
		assert_not_contains "$seen_b" "$(echo "$seen_a" | grep pid)" "their own pid namespaces" &&
		assert_eq "$POD_NAME" "$(echo "$seen_a" | tail -n1)" "the pod's hostname" &&
		assert_not_contains "$seen_a" "$(readlink /proc/"$CTRD_PID"/ns/net)" "not the node's network" ||
		return 1
	# what one puts in the pod's shared memory the other reads; one network
	in_ctr "$a" sh -c 'echo from-a >/dev/shm/note' || return 1
	assert_eq from-a "$(in_ctr "$b" cat /dev/shm/note)" "the pod's /dev/shm" &&
		assert_eq "$(in_ctr "$a" ip -4 -o addr show eth0)" "$(in_ctr "$b" ip -4 -o addr show eth0)" \
			"one eth0" &&
		assert_contains "$(in_ctr "$b" ip -4 -o addr show eth0)" "$(pod_status "$POD" network.ip)/" \
			"the pod's address" && remove_pod_checked
}

# shareProcessNamespace: the pod's containers are in the sandbox's pid namespace, whose
# pid 1 is the pause process; it reaps what is orphaned to it.
case_shared_pid_namespace() {
	run_pod sharedpid POD POD && start_container a "$SLEEP" && local a=$CID &&
		start_container b "$SLEEP" && local b=$CID || return 1
	assert_eq /pause "$(in_ctr "$b" cat /proc/1/cmdline | tr -d '\0')" "pid 1 of the pod" &&
		assert_eq "$(in_ctr "$a" readlink /proc/self/ns/pid)" "$(in_ctr "$b" readlink /proc/self/ns/pid)" \
			"one pid namespace" &&
		assert_eq 2 "$(in_ctr "$b" pidof sleep | wc -w)" "both containers' processes seen" || return 1
	# an orphan's parent is the pause process, which reaps it once it is killed (no zombie);
	# ExecSync returns once the output is closed, so the orphan has none
	local pause orphan
	pause=$(task_pid "$POD")
	in_ctr "$a" sh -c '(sleep 1000 </dev/null >/dev/null 2>&1 &)' || return 1
	orphan=$(pgrep -P "$pause" -x sleep)
	[ -n "$orphan" ] || e2e_fail "the orphan is not pause's child" || return 1
	kill "$orphan"
	timeout 20 sh -c "while [ -n \"\$(ps -o pid= --ppid $pause)\" ]; do sleep 0.05; done" ||
		e2e_fail "pause did not reap: $(ps -o pid=,stat=,args= --ppid "$pause")" || return 1
	remove_pod_checked
}

# ExecSync: exit codes, stdout and stderr apart, and a timeout that ends the command.
case_exec_sync() {
	run_pod execs && start_container main "$SLEEP" || return 1
	local out err status
	out=$(cri exec "$CID" 20 sh -c 'echo to-out; echo to-err >&2; exit 7' 2>"$E2E_DIR/err")
	status=$?
	err=$(cat "$E2E_DIR/err")
	assert_eq 7 "$status" "exit code" && assert_eq to-out "$out" "stdout" &&
		assert_eq to-err "$err" "stderr" || return 1
	cri exec "$CID" 20 true || e2e_fail "exit code 0" || return 1
	cri exec "$CID" 20 /no/such/cmd >/dev/null 2>&1 && e2e_fail "a missing command succeeded"
	out=$(cri exec "$CID" 1 sh -c 'echo started; exec sleep 1000' 2>&1)
	status=$?
	assert_eq 2 "$status" "ExecSync past its timeout is an error" &&
		assert_contains "$out" "timeout" "the error" || return 1
	assert_eq 1 "$(in_ctr "$CID" sh -c 'pidof sleep | wc -w')" "the timed-out command is gone" &&
		remove_pod_checked
}

# ContainerStatus of an exited container: its exit code and reason, OOMKilled for one that
# went over its memory limit.
case_container_status() {
	run_pod status || return 1
	start_container done '["true"]' && local done=$CID &&
		start_container failed '["sh","-c","exit 3"]' && local failed=$CID &&
		start_container oom '["sh","-c","tail /dev/zero"]' "" '"memory_limit_in_bytes":16777216' &&
		local oom=$CID || return 1
	assert_eq "0 Completed" "$(exit_and_reason "$done")" "a container that succeeded" &&
		assert_eq "3 Error" "$(exit_and_reason "$failed")" "a container that failed" &&
		assert_eq "137 OOMKilled" "$(exit_and_reason "$oom")" "a container over its memory limit" &&
		assert_eq CONTAINER_EXITED "$(ctr_status "$done" state)" "state" &&
		remove_pod_checked
}

# ContainerStats: the container's CPU and memory use, from its cgroup.
case_container_stats() {
	run_pod stats && start_container busy '["sh","-c","i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; exec sleep 1000"]' ||
		return 1
	in_ctr "$CID" sh -c 'while [ "$(cat /proc/1/comm)" != sleep ]; do sleep 0.05; done' || return 1
	local stats cpu mem
	stats=$(cri call ContainerStats "{\"container_id\":\"$CID\"}" stats) || return 1
	cpu=$(echo "$stats" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["cpu"]["usage_core_nano_seconds"]["value"])')
	mem=$(echo "$stats" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["memory"]["working_set_bytes"]["value"])')
	assert_contains "$stats" "\"id\": \"$CID\"" "the stats' container" || return 1
	[ "$cpu" -gt 0 ] && [ "$mem" -gt 0 ] || e2e_fail "cpu $cpu ns, memory $mem bytes" || return 1
	remove_pod_checked
}

# UpdateContainerResources: the new limits reach the cgroup the container reads.
case_update_resources() {
	run_pod update && start_container main "$SLEEP" "" '"memory_limit_in_bytes":67108864' || return 1
	local limit=/sys/fs/cgroup/memory/memory.limit_in_bytes
	assert_eq 67108864 "$(in_ctr "$CID" cat $limit)" "the limit at create" || return 1
	cri call UpdateContainerResources "{\"container_id\":\"$CID\",\"linux\":{\"memory_limit_in_bytes\":100663296,\"cpu_period\":100000,\"cpu_quota\":50000}}" >/dev/null ||
		return 1
	assert_eq 100663296 "$(in_ctr "$CID" cat $limit)" "the limit after the update" &&
		assert_eq 50000 "$(in_ctr "$CID" cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us)" "the CPU quota" &&
		assert_eq 100663296 "$(ctr_status "$CID" resources.linux.memory_limit_in_bytes)" \
			"ContainerStatus' resources" && remove_pod_checked
}

# StopContainer with a grace period: SIGTERM ends one that handles it (its own exit code);
# one that ignores it is killed when the grace period is over.
case_stop_grace() {
	run_pod stop || return 1
	start_container polite '["sh","-c","trap \"echo got-term; exit 0\" TERM; echo ready; while :; do sleep 0.1; done"]' &&
		local polite=$CID &&
		start_container stubborn '["sh","-c","trap \"echo ignored-term\" TERM; echo ready; while :; do sleep 0.1; done"]' &&
		local stubborn=$CID || return 1
	await_log polite ready && await_log stubborn ready || return 1
	cri call StopContainer "{\"container_id\":\"$polite\",\"timeout\":30}" >/dev/null &&
		cri call StopContainer "{\"container_id\":\"$stubborn\",\"timeout\":1}" >/dev/null || return 1
	assert_eq "0 Completed" "$(exit_and_reason "$polite")" "SIGTERM handled" &&
		assert_eq "137 Error" "$(exit_and_reason "$stubborn")" "SIGKILL after the grace period" &&
		assert_contains "$(cat "$E2E_DIR/logs/$POD_NAME/polite_0.log")" "got-term" "the handler ran" &&
		assert_contains "$(cat "$E2E_DIR/logs/$POD_NAME/stubborn_0.log")" "ignored-term" \
			"SIGTERM came first" && remove_pod_checked
}

# Waits (bounded) for LINE in a container's CRI log.
await_log() { # NAME LINE
	timeout 20 grep -q -m1 " $2\$" <(tail -n +1 -F "$E2E_DIR/logs/$POD_NAME/$1_0.log" 2>/dev/null)
}

# The CRI log file: each line of stdout and stderr, tagged with its stream (CRI format:
# TIME STREAM TAG TEXT).
case_log_file() {
	run_pod logs && start_container talk '["sh","-c","echo line-out; echo line-err >&2; echo last-out"]' ||
		return 1
	exit_and_reason "$CID" >/dev/null || return 1
	local log=$E2E_DIR/logs/$POD_NAME/talk_0.log
	# the two streams are two pipes: only each stream's own order is kept
	assert_eq "$log" "$(ctr_status "$CID" log_path)" "ContainerStatus' log path" &&
		assert_eq "stdout F line-out
stdout F last-out" "$(grep ' stdout ' "$log" | cut -d' ' -f2-)" "stdout in the log" &&
		assert_eq "stderr F line-err" "$(grep ' stderr ' "$log" | cut -d' ' -f2-)" "stderr in the log" &&
		assert_eq 3 "$(grep -c '^20[0-9-]*T[0-9:.]*Z ' "$log")" "lines with their time" &&
		remove_pod_checked
}

# A container that exited is made again in the same sandbox (the kubelet's restart: the
# next attempt): it joins the same pod namespaces, and the sandbox lives on.
case_restart_in_sandbox() {
	run_pod restart && start_container app '["sh","-c","readlink /proc/self/ns/net; exit 1"]' ||
		return 1
	local first=$CID pause
	pause=$(task_pid "$POD")
	assert_eq "1 Error" "$(exit_and_reason "$first")" "the first attempt" || return 1
	start_container app '["sh","-c","readlink /proc/self/ns/net; exit 0"]' "" "" 1 || return 1
	assert_eq "0 Completed" "$(exit_and_reason "$CID")" "the second attempt" &&
		assert_eq "$(cut -d' ' -f4 "$E2E_DIR/logs/$POD_NAME/app_0.log")" \
			"$(cut -d' ' -f4 "$E2E_DIR/logs/$POD_NAME/app_1.log")" "the pod's network both times" &&
		assert_eq "$pause" "$(task_pid "$POD")" "the same sandbox process" &&
		assert_eq 1 "$(ctr_status "$CID" metadata.attempt)" "the attempt" &&
		remove_pod_checked
}

status_field() { # PID FIELD: a line of /proc/PID/status, value only
	awk -v f="$2:" '$1 == f { print $2 }' /proc/"$1"/status
}

# runAsUser / runAsGroup / supplementalGroups: the process's ids, seen inside and outside.
case_run_as_user() {
	run_pod user && start_container main "$SLEEP" \
		'"run_as_user":{"value":1000},"run_as_group":{"value":1000},"supplemental_groups":[2000]' ||
		return 1
	assert_eq "1000 1000 1000 2000" "$(in_ctr "$CID" sh -c 'echo $(id -u) $(id -g) $(id -G)')" \
		"ids inside (exec too)" &&
		assert_eq 1000 "$(status_field "$(task_pid "$CID")" Uid)" "the init's uid on the host" &&
		assert_eq 1000 "$(status_field "$(task_pid "$CID")" Gid)" "the init's gid on the host" &&
		remove_pod_checked
}

case_readonly_rootfs() {
	run_pod readonly && start_container main "$SLEEP" '"readonly_rootfs":true' || return 1
	local out
	out=$(in_ctr "$CID" sh -c 'touch /x 2>&1; touch /dev/shm/x && echo shm-writable; grep " / / " /proc/self/mountinfo')
	assert_contains "$out" "Read-only file system" "writing /" &&
		assert_contains "$out" "shm-writable" "the pod's /dev/shm" &&
		assert_contains "$out" " / / ro," "the root mount" && remove_pod_checked
}

# capabilities add/drop: the init's sets read from the host, and used inside.
case_capabilities() {
	run_pod caps && start_container main "$SLEEP" \
		'"capabilities":{"add_capabilities":["SYS_ADMIN"],"drop_capabilities":["CHOWN"]}' ||
		return 1
	local eff out
	eff=$(status_field "$(task_pid "$CID")" CapEff)
	(((0x$eff & 1) == 0 && (0x$eff & (1 << 21)) != 0)) ||
		e2e_fail "CapEff $eff: CAP_CHOWN (bit 0) kept or CAP_SYS_ADMIN (bit 21) missing" || return 1
	out=$(in_ctr "$CID" sh -c 'chown 1 /tmp 2>&1; echo "chown $?"; mount -t tmpfs t /run && echo mounted')
	assert_contains "$out" "chown 1" "chown without CAP_CHOWN" &&
		assert_contains "$out" "mounted" "mount with CAP_SYS_ADMIN" && remove_pod_checked
}

# A privileged container in a privileged pod: every capability containerd holds (the
# machine's bounding set, which lacks CAP_SYS_RESOURCE), the host's devices, no masked
# paths; a plain container of the same pod has none of that.
case_privileged() {
	local dev
	dev=$(ls /dev | grep -m1 -x -e kmsg -e loop-control -e fuse -e mem)
	[ -n "$dev" ] || { e2e_skip_case "no host device to look for"; return 0; }
	run_pod priv POD CONTAINER true && start_container priv "$SLEEP" '"privileged":true' &&
		local priv=$CID && start_container plain "$SLEEP" && local plain=$CID || return 1
	local probe="grep CapEff /proc/self/status; [ -e /dev/$dev ] && echo has-$dev; grep -c ' /proc/keys ' /proc/self/mountinfo"
	assert_eq "$(status_field "$CTRD_PID" CapBnd)" "$(status_field "$(task_pid "$priv")" CapEff)" \
		"every capability of the node" &&
		assert_eq "$(printf 'CapEff:\t%s\nhas-%s\n0' "$(status_field "$CTRD_PID" CapBnd)" "$dev")" \
			"$(in_ctr "$priv" sh -c "$probe")" "inside the privileged container" &&
		assert_eq "$(printf 'CapEff:\t00000000a80425fb\n1')" "$(in_ctr "$plain" sh -c "$probe")" \
			"inside the plain one (the default set, /proc/keys masked)" && remove_pod_checked
}

# A Bidirectional volume (a CSI node plugin's): what the privileged container mounts in it
# reaches the node's side of the shared host directory.
case_bidirectional_volume() {
	local host=$E2E_DIR/bidi-$HANDLER config seen
	mkdir -p "$host/sub" && mount --bind "$host" "$host" && mount --make-shared "$host" &&
		run_pod bidi POD CONTAINER true || return 1
	config=$(ctr_json bidi "$SLEEP" '"privileged":true')
	config="{\"mounts\":[{\"container_path\":\"/vol\",\"host_path\":\"$host\",\"propagation\":\"PROPAGATION_BIDIRECTIONAL\"}],${config#\{}"
	CID=$(cri call CreateContainer "{\"pod_sandbox_id\":\"$POD\",\"config\":$config,\"sandbox_config\":$POD_JSON}" \
		container_id) && cri call StartContainer "{\"container_id\":\"$CID\"}" >/dev/null &&
		in_ctr "$CID" mount -t tmpfs -o size=4k "bidi-$HANDLER" /vol/sub || return 1
	seen=$(grep -c " - tmpfs bidi-$HANDLER " /proc/self/mountinfo)
	umount -R -l "$host"
	assert_eq 1 "$seen" "the container's mount seen on the node" && remove_pod_checked
}

# seccomp RuntimeDefault (containerd's profile: unshare only with CAP_SYS_ADMIN) against
# Unconfined, and no_new_privs, in one pod.
case_seccomp_no_new_privs() {
	run_pod seccomp &&
		start_container confined "$SLEEP" '"seccomp":{"profile_type":"RuntimeDefault"},"no_new_privs":true' &&
		local confined=$CID && start_container free "$SLEEP" '"seccomp":{"profile_type":"Unconfined"}' &&
		local free=$CID || return 1
	local probe='grep -e Seccomp: -e NoNewPrivs: /proc/self/status; unshare -U true 2>&1; echo "unshare $?"'
	local with without
	with=$(in_ctr "$confined" sh -c "$probe") && without=$(in_ctr "$free" sh -c "$probe") || return 1
	assert_contains "$with" "$(printf 'NoNewPrivs:\t1')" "no_new_privs" &&
		assert_contains "$with" "$(printf 'Seccomp:\t2')" "a filter" &&
		assert_contains "$with" "Operation not permitted" "unshare under the profile" &&
		assert_contains "$with" "unshare 1" "its status" &&
		assert_contains "$without" "$(printf 'NoNewPrivs:\t0')" "without no_new_privs" &&
		assert_contains "$without" "$(printf 'Seccomp:\t0')" "Unconfined" &&
		assert_contains "$without" "unshare 0" "unshare unconfined" &&
		assert_eq 2 "$(status_field "$(task_pid "$confined")" Seccomp)" "the init's filter" &&
		remove_pod_checked
}

# The kubelet's masked paths (those this kernel has) read as empty, its read-only paths are
# read-only mounts; /proc/sys refuses a write.
case_masked_readonly_paths() {
	run_pod masked && start_container main "$SLEEP" || return 1
	local p want= seen=
	for p in $(echo "$MASKED" | tr -d '"' | tr , ' '); do
		[ -e "$p" ] || continue
		want+="$p:0 "
		seen+="$(in_ctr "$CID" sh -c "[ -d $p ] && ls -A $p | wc -l || head -c 16 $p | wc -c" |
			sed "s#^#$p:#") "
	done
	for p in $(echo "$READONLY" | tr -d '"' | tr , ' '); do
		[ -e "$p" ] || continue
		want+="$p:ro "
		seen+="$(in_ctr "$CID" awk -v p="$p" '$5 == p { split($6, o, ","); print p ":" o[1] }' \
			/proc/self/mountinfo | tail -n1) "
	done
	assert_eq "$want" "$seen" "masked and read-only paths" &&
		assert_contains "$(in_ctr "$CID" sh -c 'echo x >/proc/sys/kernel/hostname' 2>&1)" \
			"Read-only file system" "writing /proc/sys" && remove_pod_checked
}

# hostNetwork: the pod is in the node's network namespace (containerd's own here), with
# the node's links and hostname.
case_host_network() {
	run_pod hostnet NODE && start_container main "$SLEEP" || return 1
	assert_eq "$(readlink /proc/"$CTRD_PID"/ns/net)" "$(in_ctr "$CID" readlink /proc/self/ns/net)" \
		"the node's network namespace" &&
		assert_eq "$(nsenter -t "$CTRD_PID" -n ip -o link | cut -d: -f2 | sort | tr '\n' ' ')" \
			"$(in_ctr "$CID" ip -o link | cut -d: -f2 | sort | tr '\n' ' ')" "the node's links" &&
		assert_eq "$(hostname)" "$(in_ctr "$CID" hostname)" "the node's hostname" &&
		remove_pod_checked
}

# hostPID: the container sees the node's processes (containerd among them).
case_host_pid() {
	run_pod hostpid POD NODE && start_container main "$SLEEP" || return 1
	assert_eq "$(readlink /proc/self/ns/pid)" "$(in_ctr "$CID" readlink /proc/self/ns/pid)" \
		"the node's pid namespace" &&
		assert_eq containerd "$(in_ctr "$CID" cat /proc/"$CTRD_PID"/comm)" "containerd seen inside" &&
		remove_pod_checked
}

# StopPodSandbox + RemovePodSandbox of a pod whose containers still run (one ignores
# SIGTERM, one has orphaned children, one has an exec'd process running).
case_remove_running_pod() {
	run_pod busy && start_container stubborn '["sh","-c","trap \"\" TERM; while :; do sleep 0.1; done"]' &&
		start_container orphans '["sh","-c","(sleep 1000 &); (sleep 1000 &); exec sleep 1000"]' &&
		start_container execd "$SLEEP" || return 1
	(cri exec "$CID" 60 sleep 1000 >/dev/null 2>&1 &)
	timeout 20 sh -c "while [ \$(grep -l ':/$CTRD_CGROUP/$POD_NAME/' /proc/[0-9]*/cgroup 2>/dev/null | wc -l) -lt 7 ]; do sleep 0.05; done" ||
		e2e_fail "the pod's processes did not all start: $(pids_in_pod | wc -l)" || return 1
	remove_pod_checked
}

# RunPodSandbox + CreateContainer + StartContainer, and RunPodSandbox to the container's
# exit (a container running `true`), timed inside the client; the handlers alternate, each
# round in the other order. Prints the means and the ratio, no threshold; then nothing of
# the pods remains (what an earlier case left is not counted).
case_latency() {
	local i h order pods_before state_before
	: >"$E2E_DIR/bench-ctrun" && : >"$E2E_DIR/bench-runc" || return 1
	pods_before=$(cri call ListPodSandbox '{}' items)
	state_before=$(ls -A "$RUNC_ROOT/$NS")
	for i in $(seq "$BENCH_ROUNDS"); do
		order="ctrun runc"
		[ $((i % 2)) = 0 ] && order="runc ctrun"
		for h in $order; do
			HANDLER=$h POD_NAME=bench-$h-$i
			POD_JSON=$(pod_json "$POD_NAME")
			mkdir -p "$E2E_DIR/logs/$POD_NAME"
			cri bench "$h" "$POD_JSON" "$(ctr_json app '["true"]')" >>"$E2E_DIR/bench-$h" || return 1
		done
	done
	assert_eq "$pods_before" "$(cri call ListPodSandbox '{}' items)" "pods left" &&
		assert_eq "$state_before" "$(ls -A "$RUNC_ROOT/$NS")" "runtime state left" &&
		assert_eq "" "$(grep -l ":/$CTRD_CGROUP/bench-" /proc/[0-9]*/cgroup 2>/dev/null)" \
			"processes left" || return 1
	/usr/bin/python3 "$here/cri_latency.py" "$E2E_DIR/bench-ctrun" "$E2E_DIR/bench-runc" \
		>"$E2E_DIR/latency"
}

# The daemon stops: no shim, runtime state, cgroup, sandbox network namespace or mount of
# the suite's remains once the pod cgroups (the kubelet's) are gone.
case_teardown() {
	containerd_stop
	remove_pod_cgroups
	local left
	left=$(ls -A "$RUNC_ROOT/$NS" 2>/dev/null
		ls -d /sys/fs/cgroup/"$CTRD_CGROUP" /sys/fs/cgroup/*/"$CTRD_CGROUP" 2>/dev/null
		grep -F " $E2E_DIR/" /proc/self/mountinfo
		e2e_pids_by_cmdline "-address $SOCK")
	assert_eq "" "$left" "left after the daemon stopped"
}

# ---- main ----------------------------------------------------------------------------

cleanup() {
	cri_stop
	rm -rf "$E2E_DIR"
}
trap cleanup EXIT

cri_start || { e2e_log "setup failed"; exit 1; }

e2e_test daemon case_daemon
for HANDLER in ctrun runc; do
	for c in ${CRI_CASES:-run_pod_sandbox shared_namespaces shared_pid_namespace exec_sync container_status container_stats \
		update_resources stop_grace log_file restart_in_sandbox run_as_user readonly_rootfs \
		capabilities privileged bidirectional_volume seccomp_no_new_privs masked_readonly_paths host_network \
		host_pid remove_running_pod}; do
		e2e_test "$c[$HANDLER]" "case_$c"
	done
done
e2e_test latency case_latency
[ -s "$E2E_DIR/latency" ] && cat "$E2E_DIR/latency"
e2e_test teardown case_teardown
e2e_summary cri
