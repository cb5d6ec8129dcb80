#!/usr/bin/env bash
# The containerd end-to-end suite's own containerd: contrib/containerd/config.toml with its
# own root, state, sockets and plugin dirs under E2E_DIR, ctrun as BinaryName, a namespace
# of its own (so its runc root /run/containerd/runc/<ns> and its cgroups /<ns>/<id> are the
# suite's alone), and the busybox image imported. Sourced; needs E2E_DIR, CTRUN, CTRUN_SRC.

E2E_TIMEOUT=60
E2E_IMAGE=docker.io/library/busybox:e2e
NS=ctrun-e2e-$$
SOCK=$E2E_DIR/containerd.sock
CTRD_STATE=$E2E_DIR/state
CTRD_PID=
EVENTS_PID=
RUN_DIR_MOUNTED=
MADE_RUN_DIR=
# What a suite adds: TOML put before contrib's tables, a command containerd runs under
# (e.g. unshare -n), and the cgroup its containers go under (removed when the daemon stops).
CTRD_EXTRA_CONFIG=
CTRD_WRAPPER=
CTRD_CGROUP=$NS

# The project's config with this run's paths: a private daemon, ctrun as built.
write_containerd_config() { # OUT
	{
		printf 'version = 2\nroot = "%s/root"\nstate = "%s"\n' "$E2E_DIR" "$CTRD_STATE"
		printf '[grpc]\n  address = "%s"\n[ttrpc]\n  address = "%s.ttrpc"\n' "$SOCK" "$SOCK"
		printf '[debug]\n  address = ""\n[metrics]\n  address = ""\n'
		printf '[plugins."io.containerd.internal.v1.opt"]\n  path = "%s/opt"\n' "$E2E_DIR"
		[ -z "$CTRD_EXTRA_CONFIG" ] || printf '%s\n' "$CTRD_EXTRA_CONFIG"
		sed -n '/^\[plugins/,$p' "$CTRUN_SRC/contrib/containerd/config.toml" |
			sed "s#^\( *BinaryName = \).*#\1\"$CTRUN\"#"
	} >"$1"
}

# A runc option of the ctrun runtime in the config (what ctr passes as --runc-binary/-root).
config_option() { # CONFIG NAME
	sed -n '/runtimes\.ctrun\.options\]/,/^\[/s/^ *'"$2"' = "\(.*\)"$/\1/p' "$1"
}

# Every client call is bounded, so a hang fails the case instead of blocking CI.
ctrd() { timeout -k 5 "$E2E_TIMEOUT" ctr -a "$SOCK" -n "$NS" "$@"; }

# ctr run with the shim's runc options taken from the config: the shim runs ctrun.
ct_run() { ctrd run --runc-binary "$RUNC_BINARY" --runc-root "$RUNC_ROOT" "$@"; }

# Waits (bounded) for a process that is not our child to exit.
wait_pid_gone() { # PID
	timeout 20 tail --pid="$1" -s 0.05 -f /dev/null
}

# The shims keep their sockets in /run/containerd/s and ctrun's state goes to
# /run/containerd/runc: a tmpfs there, in this private mount namespace, keeps both the
# suite's own (a containerd of the host is left alone). Refused unless this shell got a
# mount namespace of its own (`unshare -m` execs it: its parent is still outside).
private_run_dir() {
	local parent
	parent=$(readlink /proc/$PPID/ns/mnt)
	[ -n "$parent" ] && [ "$(readlink /proc/self/ns/mnt)" != "$parent" ] ||
		{ e2e_log "run in a private mount namespace (tests/e2e/run-all.sh does)"; return 1; }
	[ -d /run/containerd ] || { mkdir /run/containerd && MADE_RUN_DIR=1; } || return 1
	mount -t tmpfs -o mode=0711 ctrun-e2e-containerd /run/containerd && RUN_DIR_MOUNTED=1
}

# Undoes private_run_dir (its tmpfs would go with the namespace; the directory would not).
release_run_dir() {
	[ -z "$RUN_DIR_MOUNTED" ] || umount /run/containerd
	[ -z "$MADE_RUN_DIR" ] || rmdir /run/containerd
	RUN_DIR_MOUNTED= MADE_RUN_DIR=
}

containerd_start() {
	private_run_dir || return 1
	write_containerd_config "$E2E_DIR/config.toml" || return 1
	RUNC_BINARY=$(config_option "$E2E_DIR/config.toml" BinaryName)
	RUNC_ROOT=$(config_option "$E2E_DIR/config.toml" Root)
	[ "$RUNC_BINARY" = "$CTRUN" ] || { e2e_log "BinaryName not found in the config"; return 1; }
	$CTRD_WRAPPER containerd --config "$E2E_DIR/config.toml" >"$E2E_DIR/containerd.log" 2>&1 &
	CTRD_PID=$!
	e2e_wait_daemon "$CTRD_PID" "$E2E_DIR/containerd.log" ctr -a "$SOCK" version
}

# Everything the daemon publishes, in E2E_DIR/events, for cases to wait on (await_event).
# The subscription is live once an event made after it arrives.
events_start() {
	ctr -a "$SOCK" events >"$E2E_DIR/events" 2>&1 &
	EVENTS_PID=$!
	ctrd containers create "$E2E_IMAGE" events-probe >/dev/null &&
		await_event '/containers/create .*"events-probe"' &&
		ctrd containers rm events-probe
}

# Waits (bounded) for an event line matching the extended regex PATTERN.
await_event() { # PATTERN
	timeout 20 grep -q -m1 -E -e "$1" <(tail -n +1 -f "$E2E_DIR/events")
}

import_busybox() {
	e2e_busybox_rootfs "$E2E_DIR/rootfs" &&
		mkdir -p "$E2E_DIR/image" &&
		e2e_busybox_oci_archive "$E2E_DIR/rootfs" "$E2E_DIR/image" "$E2E_DIR/busybox.tar" \
			"$E2E_IMAGE" &&
		ctrd images import "$E2E_DIR/busybox.tar" >/dev/null
}

# The shims serving this suite's namespace (or only container ID), found by command line:
# containerd-shim-runc-v2 -namespace NS -id ID -address SOCK.
shim_pids() { # [ID]
	e2e_pids_by_cmdline "-namespace $NS -id ${1:-[^ ]*} "
}

# Removes whatever a failed case left in the namespace, then the namespace and image.
containerd_forget_all() {
	local c
	for c in $(ctrd containers ls -q 2>/dev/null); do
		ctrd tasks rm -f "$c" >/dev/null 2>&1
		ctrd containers rm "$c" >/dev/null 2>&1
	done
	ctrd images rm "$E2E_IMAGE" >/dev/null 2>&1
	ctr -a "$SOCK" namespaces rm "$NS" >/dev/null 2>&1
}

# Stops the daemon by its pid (and any shim it left, by theirs); unmounts and removes the
# suite's directories and its cgroups. Runs from the EXIT trap, so also after a failure.
containerd_stop() {
	[ -n "$CTRD_PID" ] || return 0
	kill -0 "$CTRD_PID" 2>/dev/null && containerd_forget_all
	local pid
	kill "$EVENTS_PID" 2>/dev/null
	for pid in $(shim_pids) $CTRD_PID; do
		kill "$pid" 2>/dev/null && wait_pid_gone "$pid" || kill -9 "$pid" 2>/dev/null
	done
	wait "$CTRD_PID" 2>/dev/null
	CTRD_PID=
	grep -o " $E2E_DIR/[^ ]*" /proc/self/mountinfo | sort -r | xargs -r -n1 umount -l
	rmdir /sys/fs/cgroup/"$CTRD_CGROUP" /sys/fs/cgroup/*/"$CTRD_CGROUP" 2>/dev/null
	return 0
}
