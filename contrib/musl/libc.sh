#!/bin/sh
# Prints the libc ctrun is linked with: "musl" when musl-gcc and the three libraries built
# with it are there (built now if need be, by build-deps.sh), else "glibc", with one line on
# stderr saying why. Never fails: the glibc static link is always the fallback.
# Usage: libc.sh MUSL_DIR
dir=$1
here=$(dirname "$0")
if [ -f "$dir/prefix/.complete" ]; then
	echo musl
	exit 0
fi
why=
if ! command -v musl-gcc >/dev/null; then
	why="musl-gcc not found (make deps installs musl-tools)"
elif [ -f "$dir/failed" ]; then
	why="$(cat "$dir/failed") (rm $dir/failed to try again)"
else
	echo "ctrun: building yajl, libcap, libseccomp with musl-gcc in $dir" >&2
	if why=$("$here/build-deps.sh" "$dir/src" "$dir/prefix" 2>&1 >/dev/null); then
		touch "$dir/prefix/.complete"
		echo musl
		exit 0
	fi
	mkdir -p "$dir"
	printf '%s\n' "$why" >"$dir/failed"
fi
echo "ctrun: linking with glibc, not musl: $why" >&2
echo glibc
