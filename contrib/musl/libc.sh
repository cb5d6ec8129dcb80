#!/bin/sh
# Prints the libc ctrun is linked with: "musl" when musl and the three libraries built with
# it are in MUSL_DIR/prefix (built now if need be, by build-deps.sh), else "glibc", with one
# line on stderr saying why. Never fails: the glibc static link is always the fallback.
# The prefix is rebuilt when build-deps.sh changes (its checksum is the stamp).
# Usage: libc.sh MUSL_DIR
dir=$1
here=$(dirname "$0")
recipe=$(cksum <"$here/build-deps.sh")
# make -j asks for ctrun and the floor at once: one builds, the other waits for it.
mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9
if [ "$(cat "$dir/prefix/.complete" 2>/dev/null)" = "$recipe" ]; then
	echo musl
	exit 0
fi
if [ "$(cat "$dir/failed.recipe" 2>/dev/null)" = "$recipe" ]; then
	why="$(cat "$dir/failed") (rm $dir/failed.recipe to try again)"
else
	echo "ctrun: building musl, yajl, libseccomp in $dir (once)" >&2
	if why=$("$here/build-deps.sh" "$dir/src" "$dir/prefix" 2>&1 >/dev/null); then
		printf '%s\n' "$recipe" >"$dir/prefix/.complete"
		echo musl
		exit 0
	fi
	printf '%s\n' "$why" >"$dir/failed"
	printf '%s\n' "$recipe" >"$dir/failed.recipe"
fi
echo "ctrun: linking with glibc, not musl: $why" >&2
echo glibc
