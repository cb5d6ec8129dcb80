#!/usr/bin/env bash
# The Buildah end-to-end suite's private world: storage (--root/--runroot), containers.conf,
# registries.conf and signature policy under E2E_DIR, ctrun's state root and log there too,
# and the busybox image pulled offline from an OCI archive. Sourced; needs E2E_DIR, CTRUN.

E2E_TIMEOUT=120
E2E_IMAGE=localhost/busybox:e2e
CTRUN_STATE_ROOT=$E2E_DIR/ctrun-state
# ctrun's debug log: one "init ... spawned" record per container it starts.
CTRUN_LOG=$E2E_DIR/ctrun.log
# Buildah keeps RUN --mount=type=cache directories (and its temporary files) in $TMPDIR.
export TMPDIR=$E2E_DIR/tmp

# Every call is bounded, so a hang fails the case instead of blocking CI.
bh() {
	timeout -k 5 "$E2E_TIMEOUT" buildah --root "$E2E_DIR/root" --runroot "$E2E_DIR/runroot" \
		--storage-driver overlay "$@"
}

# How buildah runs ctrun (bud's RUN steps and buildah run alike): OCI isolation, the built
# binary, no network; the state root (and ctrun's log) passed as the runtime's global flags.
# runc and crun, run for comparison, get a state root of their own here too.
RUNTIME_ARGS=()
buildah_runtime_args() { # RUNTIME
	RUNTIME_ARGS=(--isolation oci --runtime "$1" --network none
		--runtime-flag "root=$(state_root "$1")")
	[ "$1" != "$CTRUN" ] || RUNTIME_ARGS+=(--runtime-flag "log=$CTRUN_LOG" --runtime-flag debug)
}

state_root() { # RUNTIME
	if [ "$1" = "$CTRUN" ]; then echo "$CTRUN_STATE_ROOT"; else echo "$E2E_DIR/$(basename "$1")-state"; fi
}

# No systemd here: cgroupfs. Nothing is looked up in a registry, and the local archive is
# accepted unsigned.
buildah_env_setup() {
	# A user namespace's root (--userns-uid-map) walks down to the storage as "other".
	chmod 0711 "$E2E_DIR" || return 1
	mkdir -p "$CTRUN_STATE_ROOT" "$E2E_DIR/runc-state" "$E2E_DIR/crun-state" "$TMPDIR" || return 1
	printf '[engine]\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\n' >"$E2E_DIR/containers.conf"
	: >"$E2E_DIR/registries.conf"
	echo '{"default": [{"type": "insecureAcceptAnything"}]}' >"$E2E_DIR/policy.json"
	export CONTAINERS_CONF=$E2E_DIR/containers.conf
	export CONTAINERS_REGISTRIES_CONF=$E2E_DIR/registries.conf
	e2e_busybox_rootfs "$E2E_DIR/rootfs" && mkdir -p "$E2E_DIR/image" &&
		e2e_busybox_oci_archive "$E2E_DIR/rootfs" "$E2E_DIR/image" "$E2E_DIR/busybox.tar" \
			"$E2E_IMAGE" &&
		bh pull --quiet --signature-policy "$E2E_DIR/policy.json" "oci-archive:$E2E_DIR/busybox.tar" >/dev/null
}

# A container whose buildah was killed (a failed case's timeout) is deleted through its
# runtime: nobody else would.
delete_runtime_containers() {
	local rt id
	for rt in "$CTRUN" runc crun; do
		for id in $("$rt" --root "$(state_root "$rt")" list -q 2>/dev/null); do
			runtime_delete "$rt" "$id"
		done
	done
}

# crun 1.8.1 refuses the hybrid cgroup layout: cgroup2 hidden while it deletes.
runtime_delete() { # RUNTIME ID
	local hide=
	[ "$1" != crun ] || hide=e2e_without_cgroup2
	$hide "$1" --root "$(state_root "$1")" delete --force "$2"
}

# Removes every container and image, then the storage's own mounts.
buildah_env_teardown() {
	delete_runtime_containers
	bh rm -a >/dev/null 2>&1
	bh rmi -af >/dev/null 2>&1
	grep -o " $E2E_DIR/[^ ]*" /proc/self/mountinfo | sort -r | xargs -r -n1 umount -l
	return 0
}
