#!/usr/bin/env bash
# The private Podman world of podman_e2e.sh: its own storage, containers.conf (contrib's
# ctrun.conf plus what this machine needs), ctrun state root, hooks dir and a busybox image
# imported offline from Debian's busybox-static. Sourced; needs E2E_DIR, CTRUN, CTRUN_SRC.

# Podman 4.3 lowers its own RLIMIT_NPROC to 32768 when it starts, so that is the most any
# container it runs can ask for (without CAP_SYS_RESOURCE nothing can be raised).
PODMAN_NPROC_CAP=32768
E2E_IMAGE=localhost/busybox:e2e
# Podman's cgroupfs manager puts containers under this parent (libpod's default).
PODMAN_CGROUP_PARENT=libpod_parent

# What nproc a container may ask for here: the hard limit, capped as Podman caps itself.
podman_nproc() { smaller "$(ulimit -Hu)" "$PODMAN_NPROC_CAP"; }

smaller() { if [ "$1" = unlimited ] || { [ "$2" != unlimited ] && [ "$1" -gt "$2" ]; }; then echo "$2"; else echo "$1"; fi; }

# The test's containers.conf: CONTAINERS_CONF makes Podman read this file only, and
# containers.conf has no include, so contrib's drop-in is copied in with the test's [engine]
# keys added under its [engine] table and its ctrun entry pointed at the built binary.
write_containers_conf() {
	local conf=$1 nofile nproc
	nofile=$(ulimit -Hn)
	nproc=$(podman_nproc)
	{
		printf '[containers]\n'
		printf 'default_ulimits = ["nofile=%s:%s", "nproc=%s:%s"]\n' \
			"$nofile" "$nofile" "$nproc" "$nproc"
		printf 'netns = "none"\n\n'
		sed -e "/^\[engine\]/a\\
cgroup_manager = \"cgroupfs\"\\
events_logger = \"file\"\\
events_logfile_path = \"$E2E_DIR/events.log\"\\
tmp_dir = \"$E2E_DIR/libpod-tmp\"\\
volume_path = \"$E2E_DIR/volumes\"\\
hooks_dir = [\"$E2E_DIR/hooks\"]\\
conmon_env_vars = [\"PATH=/usr/sbin:/usr/bin:/sbin:/bin\", \"CONTAINERS_CONF=$conf\", \"CONTAINERS_STORAGE_CONF=$E2E_DIR/storage.conf\"]" \
			-e "/^ctrun = \[/,/^\]/c\\
ctrun = [\"$CTRUN\"]" \
			"$CTRUN_SRC/contrib/podman/containers.conf.d/ctrun.conf"
		printf '\n[network]\nnetwork_config_dir = "%s/net"\n' "$E2E_DIR"
	} >"$conf"
}

write_storage_conf() {
	printf '[storage]\ndriver = "overlay"\nrunroot = "%s/runroot"\ngraphroot = "%s/graph"\n' \
		"$E2E_DIR" "$E2E_DIR" >"$1"
}

# Sets up everything and exports the environment Podman reads.
podman_env_setup() {
	mkdir -p "$E2E_DIR/hooks" "$E2E_DIR/net" /run/ctrun
	# conmon inherits the working directory and leaves files there (its "oom" marker).
	cd "$E2E_DIR" || return 1
	# Podman calls ctrun without --root: the default state root, private to this namespace.
	mount -t tmpfs -o mode=0700 ctrun-e2e-state /run/ctrun || return 1
	write_storage_conf "$E2E_DIR/storage.conf"
	write_containers_conf "$E2E_DIR/containers.conf"
	export CONTAINERS_CONF="$E2E_DIR/containers.conf"
	export CONTAINERS_STORAGE_CONF="$E2E_DIR/storage.conf"
	export CONTAINERS_REGISTRIES_CONF="$E2E_DIR/registries.conf"
	: >"$CONTAINERS_REGISTRIES_CONF"
	e2e_busybox_rootfs "$E2E_DIR/rootfs" || return 1
	e2e_tar "$E2E_DIR/rootfs" "$E2E_DIR/rootfs.tar" || return 1
	pm import --change 'CMD ["sh"]' "$E2E_DIR/rootfs.tar" "$E2E_IMAGE" >/dev/null 2>&1
}

# Every Podman call is bounded, so a hang fails the case instead of blocking CI.
# PODMAN_RUNTIME names another runtime Podman knows (tests/e2e/podman_diff.sh sets it).
pm() { timeout -k 5 90 podman --runtime "${PODMAN_RUNTIME:-ctrun}" "$@"; }

# rm -f of a running container. Podman 4.3 sometimes fails its own clean-up of a container
# just killed: unlinkat of userdata/shm gives EBUSY while its unmount has not settled (seen
# about once in 12 user-namespace runs). Only that error is tried
# again, a few times; any other failure is the case's.
pm_rm_force() {
	local err try
	for try in 1 2 3 4 5; do
		err=$(pm rm -f -t 0 "$@" 2>&1 >/dev/null) && return 0
		case "$err" in *"device or resource busy"*) ;; *) echo "$err" >&2; return 1 ;; esac
		sleep 0.2
	done
	echo "$err" >&2
	return 1
}
