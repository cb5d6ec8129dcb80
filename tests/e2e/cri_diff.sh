#!/usr/bin/env bash
# Kubernetes side by side: the same pod sandboxes and containers through the CRI with the
# ctrun handler and with the runc handler of one private containerd (cri_env.sh's), what each
# container sees (tests/e2e/podman_probe.sh as /bin/probe) and what the CRI reports
# (cri_diff.py's cases), normalised (ids, pids, times, addresses) and diffed case by case.
#
#   tests/e2e/cri_diff.sh                  every case
#   CRIDIFF_CASES="plain stop" ...         only those cases
#   CRIDIFF_OUT=DIR ...                    keep each run's normalised output in DIR
#
# Exit status: 0 when ctrun showed what runc showed in every case but for the differences
# ACCEPTED lists (each naming its row of docs/differences-from-runc.md).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
. "$here/busybox_image.sh"
: "${CTRUN:?set CTRUN to the ctrun binary}" "${CTRUN_SRC:?set CTRUN_SRC to the source tree}"

e2e_enter_private_mount_ns "$0" "$@"

e2e_require_tools cri-diff containerd ctr runc nsenter ip cc /bin/busybox /usr/bin/python3 \
	/usr/lib/cni/bridge /usr/lib/cni/host-local /usr/lib/cni/loopback

E2E_DIR=$(mktemp -d /tmp/ctrun-cri-diff.XXXXXX)
chmod 0755 "$E2E_DIR"
. "$here/cri_env.sh"
CTRD_CGROUP=ctrun-cri-diff-$$
CRIDIFF_OUT=${CRIDIFF_OUT:-$E2E_DIR/out}

# cri_env.sh's image with the probe in it.
import_busybox() {
	e2e_busybox_rootfs "$E2E_DIR/rootfs" &&
		install -m 0755 "$here/podman_probe.sh" "$E2E_DIR/rootfs/bin/probe" &&
		mkdir -p "$E2E_DIR/image" &&
		e2e_busybox_oci_archive "$E2E_DIR/rootfs" "$E2E_DIR/image" "$E2E_DIR/busybox.tar" \
			"$E2E_IMAGE" &&
		ctrd images import "$E2E_DIR/busybox.tar" >/dev/null
}

cleanup() {
	# the host directories' mounts first: their peers would leave containerd_stop's list stale
	[ -z "${CRIDIFF_HOST_DIR:-}" ] || umount -R -l "$CRIDIFF_HOST_DIR" 2>/dev/null
	cri_stop
	rm -rf "$E2E_DIR"
}
trap cleanup EXIT

# Host directories for the pods' mounts, on a shared mount (what propagation needs).
CRIDIFF_HOST_DIR=$E2E_DIR/host
cri_start && mkdir -p "$CRIDIFF_HOST_DIR" && mount --bind "$CRIDIFF_HOST_DIR" "$CRIDIFF_HOST_DIR" &&
	mount --make-rshared "$CRIDIFF_HOST_DIR" ||
	{ echo "cri diff: starting containerd failed" >&2; exit 1; }
mkdir -p "$CRIDIFF_OUT"

# Differences of no interest: CASE-GLOB;REGEX (of a diff line);KEY (the row of
# docs/differences-from-runc.md).
ACCEPTED=(
	'*;^[-+]/ /sys/fs/cgroup r[ow],.* - tmpfs ;cgroup-tmpfs-ro'
	'*;^\+/[^ ]* /sys/fs/cgroup/unified .* - cgroup2 ;cgroup-unified'
	'*;^[-+]/ /[^ ]+ ro,relatime - tmpfs tmpfs ro(,size=0k,mode=555)?$;masked-dir-tmpfs'
	'*;^[-+]/null /[^ ]+ (ro|rw,nosuid) - tmpfs ;masked-file-ro'
	'*;^[-+](error )?UNKNOWN: .*(OCI runtime (exec|create) failed|did not terminate successfully: exit status 1): ;error-wording'
	'*;^[-+] "message": ".*OCI runtime create failed: ;error-wording'
	'devices-mounts;^[-+]c 1:[57] rwm$;devices-list-order'
	'bidirectional;^[-+]/ / rw,relatime (shared:N )?- overlay ;rootfs-shared-root'
)

accepted_key() { # CASE DIFF-LINE
	local entry cases re key
	for entry in "${ACCEPTED[@]}"; do
		IFS=';' read -r cases re key <<<"$entry"
		# shellcheck disable=SC2254 # CASES is a pattern
		case $1 in $cases) [[ $2 =~ $re ]] && { echo "$key"; return 0; } ;; esac
	done
	return 1
}

# Every key of ACCEPTED is a row of the differences document.
keys_are_rows() {
	local entry cases re key bad=0
	for entry in "${ACCEPTED[@]}"; do
		IFS=';' read -r cases re key <<<"$entry"
		grep -qF "| \`$key\` |" "$CTRUN_SRC/docs/differences-from-runc.md" && continue
		echo "cri diff: $key (accepted for $cases) is no row of docs/differences-from-runc.md" >&2
		bad=1
	done
	return $bad
}
keys_are_rows || exit 1

sweep() { # HANDLER CASES...
	CRIDIFF_NODE_PID=$CTRD_PID CRIDIFF_HOST_DIR=$CRIDIFF_HOST_DIR CRI_STUBS=$CRI_STUBS timeout -k 5 1200 /usr/bin/python3 "$here/cri_diff.py" "$SOCK" "$1" \
		"$CRIDIFF_OUT" "$CTRD_CGROUP" "$E2E_DIR/logs" "$E2E_IMAGE" "${@:2}" >&2
}

cases=${CRIDIFF_CASES:-all}
# shellcheck disable=SC2086 # a list of case names
sweep ctrun $cases && sweep runc $cases || { echo "cri diff: the sweep failed" >&2; exit 1; }

status=0
grep -l '^== case failed' "$CRIDIFF_OUT"/* && status=1
for f in "$CRIDIFF_OUT"/*.ctrun; do
	c=$(basename "$f" .ctrun)
	unexplained=
	while IFS= read -r line; do
		case $line in ---* | +++* | @@*) continue ;; esac
		accepted_key "$c" "$line" >/dev/null || unexplained+="$line"$'\n'
	done < <(diff -U0 "$CRIDIFF_OUT/$c.runc" "$f" | grep "^[-+]")
	if [ -n "$unexplained" ]; then
		status=1
		printf 'DIFF %s (- runc, + ctrun):\n%s' "$c" "$unexplained"
	else
		printf 'same %s\n' "$c"
	fi
done
exit $status
