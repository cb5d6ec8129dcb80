#!/usr/bin/env bash
# Runs ctrun on a real Linux 6.1 (Debian's cloud kernel) in qemu, without KVM, and prints
# the guest's result lines on stdout. Linux 6.1 lacks fchmodat2 and statmount/listmount, so
# ctrun takes its fallback paths there for real, not under a seccomp filter.
#
#   run-vm.sh CTRUN HELPERS CASES CACHE
#
# CTRUN is the ctrun binary, HELPERS the directory of the built tests/helpers (kernel_probe,
# devcg_check and console_receiver go into the guest), CASES a directory of bundles (one per case, the directory's name is the
# container's id), CACHE where the kernel package, the kernel and the initramfs are kept.
# A case directory may hold `ctrun-args` (what comes between `ctrun --root R` and `--bundle
# DIR NAME`; default `--debug run`), or `script` (run as `sh script DIR NAME` instead, for a
# case of several commands), and `stage` ("initramfs": run on the initramfs root, before the switch to a tmpfs; otherwise
# after it, where pivot_root works; "cgroup-v1": last there, for a case that mounts v1
# hierarchies, which may outlive it a while).
#
# Every result line is `@vm NAME KIND TEXT`: KIND `rc` (the exit code), `out` / `err` (one
# line of stdout / stderr). NAME is a case, or one of the fixed checks: uname, probe
# (tests/helpers/kernel_probe), features, devcg (tests/helpers/devcg_check), left-initramfs
# and left-tmpfs (`ctrun list -q` after each stage), cgroups-left (the cgroups below the root
# after the tmpfs stage). The guest enables every controller in the root's
# cgroup.subtree_control. The last line
# is `@vm end`. Exit status 77 (with the reason on stderr) when qemu or the kernel cannot
# be had; 0 when the guest ran to its end; 1 otherwise.
set -euo pipefail

QEMU=qemu-system-x86_64
VM_TIMEOUT=${CTRUN_VM_TIMEOUT:-800}
# CRIU for the checkpoint cases, with its libraries and the kernel's modules it needs, each
# after those it depends on: the socket diagnostics it dumps sockets with; conntrack's
# netlink, which it dumps a network namespace's connections through (without it the
# kernel answers EINVAL); nf_tables for the iptables-nft rules of its network lock (their
# mark match is nft's own meta mark: no x_tables module).
CRIU=${CTRUN_VM_CRIU:-/usr/sbin/criu}
CRIU_MODULES="net/unix/unix_diag net/netlink/netlink_diag net/packet/af_packet_diag
	net/ipv4/inet_diag net/ipv4/tcp_diag net/ipv4/udp_diag lib/libcrc32c
	net/netfilter/nfnetlink net/netfilter/nf_tables
	net/ipv4/netfilter/nf_defrag_ipv4 net/ipv6/netfilter/nf_defrag_ipv6
	net/netfilter/nf_conntrack net/netfilter/nf_conntrack_netlink"
# runc, when the host has it, for tests/vm/criu/timing.sh
RUNC=${CTRUN_VM_RUNC:-/usr/sbin/runc}

die() {
	echo "run-vm: $*" >&2
	exit 1
}
skip() {
	echo "run-vm: skip: $*" >&2
	exit 77
}

[ $# = 4 ] || die "usage: run-vm.sh CTRUN HELPERS CASES CACHE"
ctrun=$(realpath "$1") helpers=$(realpath "$2") cases=$(realpath "$3")
mkdir -p "$4"
cache=$(realpath "$4")

command -v "$QEMU" >/dev/null || skip "no $QEMU (apt-get install qemu-system-x86)"
command -v cpio >/dev/null || skip "no cpio (apt-get install cpio)"
[ -x /bin/busybox ] || skip "no /bin/busybox (apt-get install busybox-static)"

. "$(dirname "$0")/kernel.sh"

# Copies each shared library a binary needs to the same path under the initramfs.
copy_libraries() {
	local root=$1 bin=$2 lib
	for lib in $(ldd "$bin" | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\).*/\1/p'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}

# criu, its libraries and modules, in that order in /lib/criu-modules/ (the guest loads them
# in the order of its `order` file); nothing when the host has no criu (its cases skip).
add_criu() {
	local root=$1 m
	[ -x "$CRIU" ] || return 0
	download_kernel_deb
	mkdir -p "$root/usr/sbin" "$root/lib/criu-modules" "$cache/modules"
	cp "$CRIU" "$root/usr/sbin/criu"
	copy_libraries "$root" "$CRIU"
	# criu keeps a tmpfs's files with GNU tar's flags and a network namespace's addresses
	# with iproute2's `ip addr save`, which busybox's tar and ip lack
	local tool
	for tool in tar ip; do
		[ -x "/bin/$tool" ] || skip "no /bin/$tool for criu (apt-get install tar iproute2)"
		cp "/bin/$tool" "$root/usr/sbin/$tool"
		copy_libraries "$root" "/bin/$tool"
	done
	# and a network namespace's rules with iptables-save, its lock (criu's default) with
	# iptables-restore and the mark match, which iptables loads from its extensions'
	# directory: the nft ones, as Debian's default
	local xt=/usr/sbin/xtables-nft-multi ext
	[ -x $xt ] || skip "no $xt for criu (apt-get install iptables)"
	ext=$(dirname "$(ls /usr/lib/*/xtables/libxt_mark.so 2>/dev/null | head -n 1)")
	[ -f "$ext/libxt_standard.so" ] || skip "no xtables extensions for criu (apt-get install iptables)"
	cp $xt "$root/usr/sbin/"
	copy_libraries "$root" $xt
	for tool in iptables-save ip6tables-save iptables-restore ip6tables-restore; do
		ln -s xtables-nft-multi "$root/usr/sbin/$tool"
	done
	mkdir -p "$root$ext"
	cp "$ext/libxt_standard.so" "$ext/libxt_mark.so" "$root$ext/"
	# runc, to time its checkpoint and restore against ctrun's on the same kernel
	if [ -x "$RUNC" ]; then
		cp "$RUNC" "$root/usr/sbin/runc"
		copy_libraries "$root" "$RUNC"
	fi
	for m in $CRIU_MODULES; do
		if [ ! -s "$cache/modules/${m##*/}.ko" ]; then
			dpkg-deb --fsys-tarfile "$deb" |
				tar -xO --wildcards "./lib/modules/*/kernel/$m.ko" >"$cache/modules/${m##*/}.ko" ||
				die "no $m.ko in $deb"
		fi
		cp "$cache/modules/${m##*/}.ko" "$root/lib/criu-modules/"
		echo "${m##*/}" >>"$root/lib/criu-modules/order"
	done
}

make_initramfs() {
	local root=$cache/initramfs
	rm -rf "$root"
	mkdir -p "$root"/{bin,dev,proc,sys,run,tmp,newroot,usr/bin,vm}
	cp /bin/busybox "$root/bin/busybox"
	ln -s busybox "$root/bin/sh"
	cp "$ctrun" "$root/usr/bin/ctrun"
	for helper in kernel_probe devcg_check console_receiver; do
		cp "$helpers/$helper" "$root/usr/bin/$helper"
		copy_libraries "$root" "$helpers/$helper"
	done
	copy_libraries "$root" "$ctrun"
	add_criu "$root"
	mkdir "$root/cases"
	for case in "$cases"/*; do # a case may be a symlink to its bundle
		cp -a "$(realpath "$case")" "$root/cases/${case##*/}"
	done
	cp "$(dirname "$0")/init.sh" "$root/init"
	chmod 0755 "$root/init"
	mknod -m 0600 "$root/dev/console" c 5 1
	(cd "$root" && find . | cpio -o -H newc --quiet) >"$cache/initramfs.cpio"
	rm -rf "$root"
}

kernel_image
make_initramfs
# No KVM: software emulation only (KVM hangs on this kind of machine). No network, no
# disk: the initramfs is the whole system; the guest powers off at the end.
timeout "$VM_TIMEOUT" "$QEMU" -cpu max -m 768 -nographic -no-reboot -net none \
	-kernel "$kernel" -initrd "$cache/initramfs.cpio" \
	-append "console=ttyS0 quiet loglevel=1 panic=-1" </dev/null | sed -u 's/\r//g' | tee "$cache/console.log" ||
	die "qemu failed or timed out after $VM_TIMEOUT s (console: $cache/console.log)"
grep -qx '@vm end' "$cache/console.log" || die "the guest did not finish (console: $cache/console.log)"
