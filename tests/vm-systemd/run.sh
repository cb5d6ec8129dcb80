#!/usr/bin/env bash
# Boots Debian 12 with systemd as PID 1 in qemu (software emulation, Debian's Linux 6.1 cloud
# kernel, cgroup v2) and runs the systemd-driver suite (tests/vm-systemd/guest/) in it,
# against Debian's runc (`--systemd-cgroup`, the anchor the cases are checked on) and then
# against ctrun; then the side by side timings of `run`.
#
#   run.sh CTRUN CACHE
#
# CACHE (the build directory's vm-systemd/) keeps the root filesystem (debootstrap, remade
# when tests/vm-systemd/packages or build-rootfs.sh change), its disk image and the
# initramfs; the payload disk (ctrun, the suite, the shared configs) is made for each run.
# CTRUN_VM_SYSTEMD_CASES (names of guest/cases.sh) runs only those cases,
# CTRUN_VM_SYSTEMD_BENCH_N the timed runs per variant (0: none).
# Prints the guest's `@sd` lines and a summary; exit 0 when every case passed against both
# runtimes, 77 (reason on stderr) when qemu, the kernel or the packages cannot be had, 1
# otherwise.
set -euo pipefail

QEMU=qemu-system-x86_64
VM_TIMEOUT=${CTRUN_VM_SYSTEMD_TIMEOUT:-1500}
# CTRUN_VM_SYSTEMD_VERBOSE=1 shows the kernel's and systemd's boot on the console.
QUIET="quiet loglevel=1 systemd.show_status=0"
[ -n "${CTRUN_VM_SYSTEMD_VERBOSE:-}" ] && QUIET="loglevel=6 systemd.show_status=1"
here=$(cd "$(dirname "$0")" && pwd)

die() {
	echo "vm-systemd: $*" >&2
	exit 1
}
skip() {
	echo "vm-systemd: skip: $*" >&2
	exit 77
}

[ $# = 2 ] || die "usage: run.sh CTRUN CACHE"
ctrun=$(realpath "$1")
mkdir -p "$2"
work=$(realpath "$2")
cache=$(realpath "$work/../vm" 2>/dev/null || echo "$work") # the kernel package, shared with the vm suite
mkdir -p "$cache"
[ "$(id -u)" = 0 ] || skip "needs root (debootstrap, the image's root-owned files)"
command -v "$QEMU" >/dev/null || skip "no $QEMU (apt-get install qemu-system-x86)"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4 (apt-get install e2fsprogs)"
command -v cpio >/dev/null || skip "no cpio (apt-get install cpio)"
[ -x /bin/busybox ] || skip "no /bin/busybox (apt-get install busybox-static)"
. "$here/../vm/kernel.sh"

# The root filesystem, remade when what it is made from changes.
rootfs_sum() {
	cat "$here/packages" "$here/build-rootfs.sh" | sha256sum | cut -d' ' -f1
}
ensure_rootfs() {
	local sum
	sum=$(rootfs_sum)
	[ "$(cat "$work/rootfs.sum" 2>/dev/null)" = "$sum" ] && [ -d "$work/rootfs" ] && return
	rm -rf "$work/rootfs" "$work/root.img" "$work/rootfs.sum"
	local rc=0
	"$here/build-rootfs.sh" "$here/packages" "$work/rootfs" || rc=$?
	[ $rc = 77 ] && exit 77
	[ $rc = 0 ] || die "build-rootfs.sh failed ($rc)"
	echo "$sum" >"$work/rootfs.sum"
}

# The kernel's modules go into the root (overlay, veth...) and the few the boot needs into the
# initramfs: virtio_blk and virtio_pci are modules in the cloud kernel.
BOOT_MODULES="virtio virtio_ring virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci virtio_blk"
install_modules() {
	local root=$1
	[ -d "$root/lib/modules" ] && [ -e "$root/lib/modules/.from-$(basename "$deb")" ] && return
	rm -rf "$root/lib/modules"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$root" --wildcards './lib/modules/*'
	chroot "$root" depmod "$(ls "$root/lib/modules")" # the guest's kmod: the host may have none
	touch "$root/lib/modules/.from-$(basename "$deb")"
}

make_initramfs() {
	local out=$work/initramfs.cpio root=$work/initramfs m
	newer_than_all "$out" "$here/initramfs-init.sh" "$deb" && return
	rm -rf "$root"
	mkdir -p "$root"/{bin,dev,proc,sys,newroot,modules}
	cp /bin/busybox "$root/bin/busybox"
	ln -s busybox "$root/bin/sh"
	for m in $BOOT_MODULES; do
		find "$work/rootfs/lib/modules" -name "$m.ko" -exec cp {} "$root/modules/" \;
		[ -e "$root/modules/$m.ko" ] || die "no $m.ko in $deb"
	done
	echo "$BOOT_MODULES" >"$root/modules/order"
	cp "$here/initramfs-init.sh" "$root/init"
	chmod 0755 "$root/init"
	mknod -m 0600 "$root/dev/console" c 5 1
	(cd "$root" && find . | cpio -o -H newc --quiet) >"$out.tmp"
	mv "$out.tmp" "$out"
	rm -rf "$root"
}

# The root disk: the root filesystem made the guest (setup-root.sh), an ext4 image made
# without a mount (mkfs.ext4 -d); qemu's -snapshot keeps the guest's writes out of it.
newer_than_all() { # FILE SOURCE...
	local f=$1 s
	shift
	[ -s "$f" ] || return 1
	for s; do
		[ "$f" -nt "$s" ] || return 1
	done
}
make_root_image() {
	local img=$work/root.img size
	newer_than_all "$img" "$work/rootfs.sum" "$here/setup-root.sh" "$here/guest/ctrun-suite.service" &&
		return
	"$here/setup-root.sh" "$work/rootfs" || die "setup-root.sh failed"
	size=$(($(du -sm "$work/rootfs" | cut -f1) + 768))
	rm -f "$img.tmp"
	mkfs.ext4 -q -F -L root -d "$work/rootfs" "$img.tmp" "${size}M" >/dev/null ||
		die "mkfs.ext4 of the root failed"
	mv "$img.tmp" "$img"
}

# The second disk: the runtime under test, the suite and the shared configs.
make_payload() {
	local dir=$work/payload img=$work/payload.img
	rm -rf "$dir" "$img"
	mkdir -p "$dir/bin" "$dir/configs"
	cp "$ctrun" "$dir/bin/ctrun"
	cp -r "$here/guest" "$dir/suite"
	cp "$here/../../../shared/configs/"{containerd-systemd-cgroup,podman-systemd-cgroup-manager}.json \
		"$dir/configs/" || die "no ../shared/configs next to the source"
	echo "${CTRUN_VM_SYSTEMD_CASES:-}" >"$dir/cases-filter"
	echo "${CTRUN_VM_SYSTEMD_BENCH_N:-11}" >"$dir/bench-n"
	mkfs.ext4 -q -F -L payload -d "$dir" "$img" 64M >/dev/null || die "mkfs.ext4 of the payload failed"
}

ensure_rootfs
download_kernel_deb
kernel_image
install_modules "$work/rootfs"
make_initramfs
make_root_image
make_payload

console=$work/console.log
start=$(date +%s)
# No KVM (it hangs on this kind of machine): software emulation; no network.
timeout "$VM_TIMEOUT" "$QEMU" -cpu max -smp 2 -m 1536 -nographic -no-reboot -net none -snapshot \
	-kernel "$kernel" -initrd "$work/initramfs.cpio" \
	-drive "file=$work/root.img,format=raw,if=virtio" \
	-drive "file=$work/payload.img,format=raw,if=virtio" \
	-append "console=ttyS0 root=/dev/vda rw $QUIET panic=-1 systemd.unified_cgroup_hierarchy=1" \
	</dev/null | stdbuf -o0 tr -d '\r' >"$console" || die "qemu failed or timed out after $VM_TIMEOUT s (console: $console)"
echo "vm-systemd: the VM ran $(($(date +%s) - start)) s"
exec "$here/summary.sh" "$console"
