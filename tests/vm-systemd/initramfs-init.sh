#!/bin/sh
# The systemd VM's initramfs (tests/vm-systemd/run.sh): loads the virtio modules the cloud
# kernel does not build in, mounts /dev/vda and hands over to systemd.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in $(cat /modules/order); do
	insmod "/modules/$m.ko"
done
tries=0
while [ ! -b /dev/vda ] && [ $tries -lt 100 ]; do
	sleep 0.1
	tries=$((tries + 1))
done
if ! mount -t ext4 -o rw /dev/vda /newroot; then
	echo "initramfs: cannot mount /dev/vda" >/dev/console
	poweroff -f
fi
umount /proc /sys
mount --move /dev /newroot/dev 2>/dev/null || umount /dev
exec switch_root /newroot /sbin/init
