#!/usr/bin/env bash
# Makes the root filesystem ROOT (build-rootfs.sh) the suite's guest: no password for root,
# nothing waiting for a network or a login, the payload disk at /payload, and the suite's
# unit (guest/ctrun-suite.service) started at the end of the boot. Run again on each change.
#
#   setup-root.sh ROOT
set -euo pipefail
root=$1 here=$(cd "$(dirname "$0")" && pwd)

echo ctrun-vm >"$root/etc/hostname"
printf '/dev/vda / ext4 rw,relatime 0 1\n/dev/vdb /payload ext4 rw,relatime 0 2\n' >"$root/etc/fstab"
mkdir -p "$root/payload"
passwd -R "$(realpath "$root")" -d root >/dev/null
# What a boot would start for nothing here (Podman's API, timers, logins on the console).
chroot "$root" systemctl mask --quiet systemd-networkd-wait-online.service getty@tty1.service \
	serial-getty@ttyS0.service apt-daily.timer apt-daily-upgrade.timer e2scrub_reap.service \
	systemd-timesyncd.service podman.service podman.socket podman-auto-update.timer \
	podman-auto-update.service podman-restart.service dpkg-db-backup.timer e2scrub_all.timer \
	fstrim.timer
install -m 0644 "$here/guest/ctrun-suite.service" "$root/etc/systemd/system/"
chroot "$root" systemctl enable --quiet ctrun-suite.service
