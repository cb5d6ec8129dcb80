#!/usr/bin/env bash
# Makes the systemd VM's root filesystem once: Debian 12 by debootstrap with the packages of
# PACKAGES (one a line, `#` comments); setup-root.sh makes it the suite's guest.
#
#   build-rootfs.sh PACKAGES OUT
#
# OUT is made whole or not at all (built in OUT.tmp). Exit 77 with the reason on stderr when
# debootstrap or the mirror cannot be had, 1 when debootstrap fails.
set -euo pipefail

MIRROR=${CTRUN_VM_MIRROR:-http://deb.debian.org/debian}

skip() {
	echo "build-rootfs: skip: $*" >&2
	exit 77
}

[ $# = 2 ] || { echo "usage: build-rootfs.sh PACKAGES OUT" >&2; exit 1; }
packages=$1
out=$(realpath -m "$2")
[ "$(id -u)" = 0 ] || skip "debootstrap needs root"
if ! command -v debootstrap >/dev/null; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >&2 ||
		skip "no debootstrap (apt-get install debootstrap failed)"
fi

include=$(sed 's/#.*//' "$packages" | tr -s ' \n' ',' | sed 's/^,//; s/,$//')
wget -q -O /dev/null "$MIRROR/dists/bookworm/Release" || skip "$MIRROR cannot be reached"
rm -rf "$out.tmp"
if ! debootstrap --variant=minbase --include="$include" bookworm "$out.tmp" "$MIRROR" >&2; then
	echo "build-rootfs: debootstrap failed (log: $out.tmp/debootstrap/debootstrap.log)" >&2
	exit 1
fi

root=$out.tmp
rm -rf "$root/var/cache/apt/archives"/*.deb "$root/var/lib/apt/lists"/*_Packages
mv "$root" "$out"
