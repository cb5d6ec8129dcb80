#!/bin/sh
# Prints the libc to link ctrun with: LIBC, "musl" unless "glibc" is asked for.
# musl is what ships and what the tests and every figure were made with: its prefix
# (MUSL_DIR/prefix: musl and yajl and libseccomp built with it) is built here when missing or
# out of date (build-deps.sh), and when it cannot be, this fails with the reason on stderr:
# glibc is never a silent fallback. glibc is printed only when asked for, with a line saying so.
# The prefix is rebuilt when build-deps.sh or sources.sha256 changes (their checksum is the stamp).
# Usage: libc.sh MUSL_DIR [musl|glibc]
dir=$1
libc=${2:-musl}
here=$(dirname "$0")
case $libc in
musl) ;;
glibc)
	echo "ctrun: LIBC=glibc: linking ctrun with glibc, as asked; what ships and what .ci/run" \
		"accepts is the musl build (make without LIBC)" >&2
	echo glibc
	exit 0
	;;
*)
	echo "ctrun: LIBC=$libc: ctrun links musl, or glibc when asked (LIBC=glibc)" >&2
	exit 1
	;;
esac
recipe=$(cat "$here/build-deps.sh" "$here/sources.sha256" | cksum)
# make -j asks for ctrun and the floor at once: one builds, the other waits for it.
mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9
if [ "$(cat "$dir/prefix/.complete" 2>/dev/null)" = "$recipe" ]; then
	echo musl
	exit 0
fi
echo "ctrun: building musl, yajl, libseccomp in $dir (once)" >&2
if why=$("$here/build-deps.sh" "$dir/src" "$dir/prefix" 2>&1 >/dev/null); then
	printf '%s\n' "$recipe" >"$dir/prefix/.complete"
	echo musl
	exit 0
fi
echo "ctrun: cannot build the musl ctrun: ${why:-build-deps.sh failed} (make LIBC=glibc to link glibc)" >&2
exit 1
