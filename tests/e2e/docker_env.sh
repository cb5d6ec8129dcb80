#!/usr/bin/env bash
# The Docker end-to-end suite's own dockerd (Debian's docker.io 20.10): its own data root,
# exec root, pidfile, socket, daemon.json and cgroup parent under E2E_DIR, ctrun registered
# with --add-runtime, no iptables and no bridge, and a busybox image loaded offline from a
# docker-archive tarball. A dockerd of the host (and its socket) is never touched. Sourced;
# needs E2E_DIR, CTRUN, CTRUN_SRC; run in a private mount namespace. DOCKER_DAEMON_JSON, when
# set, is the daemon.json (other runtimes, experimental); DOCKERD_EXTRA_ARGS more flags.

E2E_TIMEOUT=90
E2E_IMAGE=busybox:e2e
DOCKER_SOCK=$E2E_DIR/docker.sock
DOCKER_EXEC_ROOT=$E2E_DIR/exec
DOCKER_PIDFILE=$E2E_DIR/dockerd.pid
# Containers' cgroups: <controller>/$DOCKER_CGROUP_PARENT/<id>, the suite's alone.
DOCKER_CGROUP_PARENT=ctrun-e2e-docker-$$
# Where the shim tells ctrun to keep its state: dockerd 20.10 gives every runtime the root
# <exec-root>/runtime-runc, and the shim adds containerd's namespace.
CTRUN_STATE_ROOT=$DOCKER_EXEC_ROOT/runtime-runc/moby
DOCKERD_PID=

export DOCKER_HOST=unix://$DOCKER_SOCK
# The client's config (and anything it would write) stays in the test dir.
export DOCKER_CONFIG=$E2E_DIR/client

# Every client call is bounded, so a hang fails the case instead of blocking CI.
dk() { timeout -k 5 "$E2E_TIMEOUT" docker "$@"; }

# The daemon's flags: every path of its own, the networking it would set up on the host off
# (no iptables rules, no docker0 bridge, no forwarding sysctl), its oom_score_adj left as
# it is (lowering it needs CAP_SYS_RESOURCE, which this machine's bounding set lacks).
dockerd_args() {
	printf '%s\n' --config-file "$E2E_DIR/daemon.json" \
		--data-root "$E2E_DIR/data" --exec-root "$DOCKER_EXEC_ROOT" \
		--pidfile "$DOCKER_PIDFILE" -H "unix://$DOCKER_SOCK" \
		--iptables=false --ip6tables=false --ip-forward=false --ip-masq=false --bridge=none \
		--userland-proxy=false --oom-score-adjust=0 \
		--exec-opt native.cgroupdriver=cgroupfs --cgroup-parent "/$DOCKER_CGROUP_PARENT" \
		--storage-driver overlay2 --add-runtime "ctrun=$CTRUN" ${DOCKERD_EXTRA_ARGS:-}
}

# dockerd uses a containerd of the host if /run/containerd/containerd.sock exists, the
# shims keep their sockets in /run/containerd/s, dockerd its plugin sockets in
# /run/docker/plugins and its trust key in /etc/docker. A tmpfs over each, in this private
# mount namespace, keeps all of it the suite's own (dockerd then starts a containerd of its
# own under the exec root); a directory made for it is removed at the end.
PRIVATE_DIRS="/run/containerd /run/docker /etc/docker"
MADE_DIRS=
private_host_dirs() {
	local parent d
	parent=$(readlink /proc/$PPID/ns/mnt)
	[ -n "$parent" ] && [ "$(readlink /proc/self/ns/mnt)" != "$parent" ] ||
		{ e2e_log "run in a private mount namespace (tests/e2e/run-all.sh does)"; return 1; }
	for d in $PRIVATE_DIRS; do
		[ -d "$d" ] || { mkdir "$d" && MADE_DIRS+=" $d"; } || return 1
		mount -t tmpfs -o mode=0711 ctrun-e2e-docker "$d" || return 1
	done
}

release_host_dirs() {
	local d
	for d in $PRIVATE_DIRS; do
		! mountpoint -q "$d" || umount "$d"
	done
	for d in $MADE_DIRS; do [ ! -d "$d" ] || rmdir "$d"; done
	MADE_DIRS=
}

dockerd_start() {
	private_host_dirs || return 1
	mkdir -p "$DOCKER_CONFIG" && echo "${DOCKER_DAEMON_JSON:-"{}"}" >"$E2E_DIR/daemon.json" || return 1
	mapfile -t args < <(dockerd_args)
	dockerd "${args[@]}" >"$E2E_DIR/dockerd.log" 2>&1 &
	DOCKERD_PID=$!
	e2e_wait_daemon "$DOCKERD_PID" "$E2E_DIR/dockerd.log" docker version
}

load_busybox() {
	e2e_busybox_rootfs "$E2E_DIR/rootfs" &&
		mkdir -p "$E2E_DIR/image" &&
		e2e_busybox_docker_archive "$E2E_DIR/rootfs" "$E2E_DIR/image" "$E2E_DIR/busybox.tar" \
			"$E2E_IMAGE" &&
		dk load -i "$E2E_DIR/busybox.tar" >/dev/null
}

# Stops the daemon by its pid (it stops its containers, shims and containerd), then
# whatever it left: mounts under E2E_DIR, the suite's cgroups, the tmpfs mounts. Runs from
# the EXIT trap, so also after a failure.
dockerd_stop() {
	if [ -n "$DOCKERD_PID" ] && kill -0 "$DOCKERD_PID" 2>/dev/null; then
		dk rm -f $(dk ps -aq) >/dev/null 2>&1
		dk rmi -f "$E2E_IMAGE" >/dev/null 2>&1
		kill "$DOCKERD_PID"
		timeout 60 tail --pid="$DOCKERD_PID" -f /dev/null || kill -9 "$DOCKERD_PID"
	fi
	[ -z "$DOCKERD_PID" ] || wait "$DOCKERD_PID" 2>/dev/null
	DOCKERD_PID=
	grep -o " $E2E_DIR/[^ ]*" /proc/self/mountinfo | sort -r | xargs -r -n1 umount -l
	rmdir /sys/fs/cgroup/*/"$DOCKER_CGROUP_PARENT" /sys/fs/cgroup/"$DOCKER_CGROUP_PARENT" 2>/dev/null
	release_host_dirs
	return 0
}

# The EXIT trap of a suite using this daemon: it, what it left, the suite's directory.
docker_cleanup_all() {
	cd / || return
	dockerd_stop
	rm -rf "$E2E_DIR"
}
