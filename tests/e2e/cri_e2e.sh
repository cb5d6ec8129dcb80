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
pod_json() { # NAME [NET] [PID] [PRIV]
	printf '{"metadata":{"name":"%s","uid":"uid-%s","namespace":"e2e"},"hostname":"%s","log_directory":"%s","linux":{"cgroup_parent":"/%s/%s","security_context":{"privileged":%s,"namespace_options":{"network":"%s","pid":"%s","ipc":"POD"}}}}' \
		"$1" "$1" "$1" "$E2E_DIR/logs/$1" "$CTRD_CGROUP" "$1" "${4:-false}" "${2:-POD}" "${3:-CONTAINER}"
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

# StopPodSandbox + RemovePodSandbox (what a kubelet does when a pod is deleted), then
# nothing of the pod or its containers remains: no sandbox or container in the CRI or in
# containerd, no task, no runtime state, no cgroup, mount, process or shim.
remove_pod_checked() {
	local ids id left= dir pid
	ids="$POD $(cri call ListContainers "{\"filter\":{\"pod_sandbox_id\":\"$POD\"}}" containers |
		/usr/bin/python3 -c 'import json,sys; print(" ".join(c["id"] for c in json.load(sys.stdin)))')"
	local shims
	shims=$(shim_pids "$POD")
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
		assert_eq 0 "$(cat /proc/"$pid"/oom_score_adj)" "oom_score_adj, restricted to ours" ||
		return 1
	state=$(runtime_state "$POD") || e2e_fail "$HANDLER state: $state" || return 1
	assert_eq running "$(json_field "$state" status)" "$HANDLER state" &&
		assert_eq "$pid" "$(json_field "$state" pid)" "$HANDLER's pid = the task's" &&
		remove_pod_checked
}

# ---- main ----------------------------------------------------------------------------

missing_tools() {
	local t
	for t in containerd ctr runc nsenter ip cc /bin/busybox /usr/bin/python3 /usr/lib/cni/bridge; do
		command -v "$t" >/dev/null || echo "$t"
	done
	/usr/bin/python3 -c 'import grpc, grpc_tools' 2>/dev/null || echo python3-grpcio python3-grpc-tools
}

cleanup() {
	cri_stop
	rm -rf "$E2E_DIR"
}
trap cleanup EXIT

if [ -n "$(missing_tools)" ]; then
	no_tools() { e2e_skip_case "missing: $(missing_tools | tr '\n' ' ')(make deps-e2e)"; }
	e2e_test cri no_tools
	e2e_summary cri
	exit
fi
cri_start || { e2e_log "setup failed"; tail -n 20 "$E2E_DIR/containerd.log" >&2; exit 1; }

e2e_test daemon case_daemon
for HANDLER in ctrun runc; do
	for c in run_pod_sandbox; do
		e2e_test "$c[$HANDLER]" "case_$c"
	done
done
e2e_summary cri
