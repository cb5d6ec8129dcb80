# Debian's Linux 6.1 cloud kernel for the qemu suites (sourced by tests/vm/run-vm.sh and
# tests/vm-systemd/run.sh): its package and its image, kept in $cache. The sourcing script
# defines skip (exit 77 with the reason) and die.

KERNEL_PKG=${CTRUN_VM_KERNEL_PKG:-linux-image-6.1.0-50-cloud-amd64-unsigned}

# apt-get download into the cache (sets deb); the package lists may be missing on a fresh
# machine. Not in a $(...): a skip must end the script, not a subshell.
cached_deb() {
	local f
	for f in "$cache/$KERNEL_PKG"_*.deb; do
		if [ -e "$f" ]; then echo "$f"; fi
		return 0
	done
}
download_kernel_deb() {
	deb=$(cached_deb)
	[ -n "$deb" ] && return
	command -v apt-get >/dev/null || skip "no apt-get to download $KERNEL_PKG"
	if ! (cd "$cache" && apt-get download -q "$KERNEL_PKG" >&2); then
		[ "$(id -u)" = 0 ] || skip "apt-get download $KERNEL_PKG failed (not root: no apt-get update)"
		apt-get update -qq >&2 || skip "apt-get update failed"
		(cd "$cache" && apt-get download -q "$KERNEL_PKG" >&2) ||
			skip "apt-get download $KERNEL_PKG failed"
	fi
	deb=$(cached_deb)
}

# The kernel image alone, out of the package (sets kernel).
kernel_image() {
	kernel=$cache/vmlinuz
	[ -s "$kernel" ] && return
	download_kernel_deb
	dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards './boot/vmlinuz-*' >"$kernel.tmp" ||
		die "no ./boot/vmlinuz-* in $deb"
	mv "$kernel.tmp" "$kernel"
}
