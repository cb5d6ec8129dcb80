#!/usr/bin/env bash
# The CRI end-to-end suite's containerd: containerd_env.sh's private daemon (contrib's config:
# the ctrun handler, default, and a runc handler) with its CRI plugin set as a node that
# cannot lower oom_score_adj (restrict_oom_score_adj: this machine's bounding set lacks
# CAP_SYS_RESOURCE, and pod sandboxes ask for -998), in a network namespace of its own with
# a bridge CNI network, a pause image and the busybox image imported into k8s.io. Sourced;
# needs E2E_DIR, CTRUN, CTRUN_SRC.
. "$here/containerd_env.sh"

NS=k8s.io
E2E_IMAGE=localhost/ctrun-e2e/busybox:e2e
PAUSE_IMAGE=localhost/ctrun-e2e/pause:e2e
# Every pod's cgroup parent is /$CTRD_CGROUP/<pod> (a kubelet's /kubepods/.../pod<uid>).
CTRD_CGROUP=ctrun-cri-e2e-$$
CTRD_WRAPPER="unshare -n"
CRI_STUBS=$E2E_DIR/stubs
CRI_API_PROTO=${CRI_API_PROTO:-$CTRUN_SRC/../shared/cri-api/api.proto}
CNI_DIR_MOUNTED=
MADE_CNI_DIR=
CTRD_EXTRA_CONFIG="[plugins.\"io.containerd.grpc.v1.cri\"]
  sandbox_image = \"$PAUSE_IMAGE\"
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true
[plugins.\"io.containerd.grpc.v1.cri\".cni]
  bin_dir = \"/usr/lib/cni\"
  conf_dir = \"$E2E_DIR/cni\""

# Every CRI call is bounded, so a hang fails the case instead of blocking CI.
cri() { CRI_STUBS=$CRI_STUBS timeout -k 5 90 /usr/bin/python3 "$here/cri_client.py" "$SOCK" "$@"; }

# The pods' network: a bridge with host-local addresses, in containerd's own network
# namespace, so it lives and dies with the daemon.
write_cni_config() {
	mkdir -p "$E2E_DIR/cni" "$E2E_DIR/ipam" || return 1
	cat >"$E2E_DIR/cni/10-ctrun-e2e.conflist" <<EOF
{"cniVersion": "0.4.0", "name": "ctrun-e2e", "plugins": [
  {"type": "bridge", "bridge": "cni0", "isGateway": true, "ipMasq": false,
   "ipam": {"type": "host-local", "dataDir": "$E2E_DIR/ipam",
            "ranges": [[{"subnet": "10.88.0.0/24"}]], "routes": [{"dst": "0.0.0.0/0"}]}},
  {"type": "loopback"}]}
EOF
}

# libcni caches each attachment in /var/lib/cni: a tmpfs there in this mount namespace.
private_cni_dir() {
	[ -d /var/lib/cni ] || { mkdir /var/lib/cni && MADE_CNI_DIR=1; } || return 1
	mount -t tmpfs -o mode=0700 ctrun-e2e-cni /var/lib/cni && CNI_DIR_MOUNTED=1
}

release_cni_dir() {
	[ -z "$CNI_DIR_MOUNTED" ] || umount /var/lib/cni
	[ -z "$MADE_CNI_DIR" ] || rmdir /var/lib/cni
	CNI_DIR_MOUNTED= MADE_CNI_DIR=
}

compile_cri_stubs() {
	[ -r "$CRI_API_PROTO" ] || { e2e_log "no CRI api.proto at $CRI_API_PROTO"; return 1; }
	mkdir -p "$CRI_STUBS" &&
		/usr/bin/python3 -m grpc_tools.protoc -I "$(dirname "$CRI_API_PROTO")" \
			--python_out="$CRI_STUBS" --grpc_python_out="$CRI_STUBS" "$CRI_API_PROTO"
}

# The pause image: a static binary (pause.c) and the directories its mounts go on.
import_pause() {
	local r=$E2E_DIR/pause-rootfs
	mkdir -p "$r/etc" "$r/proc" "$r/sys" "$r/dev" "$E2E_DIR/pause-image" &&
		cc -O2 -static -o "$r/pause" "$here/pause.c" &&
		e2e_busybox_oci_archive "$r" "$E2E_DIR/pause-image" "$E2E_DIR/pause.tar" \
			"$PAUSE_IMAGE" '{"Entrypoint":["/pause"]}' &&
		ctrd images import "$E2E_DIR/pause.tar" >/dev/null
}

cri_start() {
	private_cni_dir && write_cni_config && compile_cri_stubs || return 1
	containerd_start || return 1
	# the host-network pods' loopback (the CNI sets up the others' own)
	nsenter -t "$CTRD_PID" -n ip link set lo up || return 1
	import_busybox && import_pause || return 1
	assert_eq true "$(cri call Status '{}' status.conditions.1.status)" "NetworkReady"
}

# The pod cgroups are the kubelet's to make and remove: the runtime removes only the
# containers' own.
remove_pod_cgroups() {
	local dir
	for dir in /sys/fs/cgroup/"$CTRD_CGROUP" /sys/fs/cgroup/*/"$CTRD_CGROUP"; do
		[ -d "$dir" ] && find "$dir" -depth -type d -exec rmdir {} + 2>/dev/null
	done
	return 0
}

cri_stop() {
	local pod
	if [ -n "$CTRD_PID" ] && kill -0 "$CTRD_PID" 2>/dev/null; then
		for pod in $(cri call ListPodSandbox '{}' items 2>/dev/null |
			/usr/bin/python3 -c 'import json,sys; [print(p["id"]) for p in json.load(sys.stdin)]'); do
			cri call StopPodSandbox "{\"pod_sandbox_id\":\"$pod\"}" >/dev/null 2>&1
			cri call RemovePodSandbox "{\"pod_sandbox_id\":\"$pod\"}" >/dev/null 2>&1
		done
	fi
	containerd_stop
	remove_pod_cgroups
	release_cni_dir
	release_run_dir
}
