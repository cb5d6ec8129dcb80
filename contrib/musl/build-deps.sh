#!/bin/sh
# Builds musl (libc.a, its start files and headers, a musl-gcc wrapper) and with it yajl
# and libseccomp into PREFIX, all from Debian 12's own source packages (their
# patches applied), so ctrun can be linked statically against musl: musl's start-up does no
# cpuid cache probing, each probe a trap to the hypervisor in a VM, at every exec.
# musl is built here, not taken from Debian's musl-dev, for one option: --with-malloc=
# oldmalloc. Its default malloc (mallocng) unmaps a group of slots as soon as it is empty and
# keeps it only after 100 such "bounces" of a size class: `ctrun list` of 100 containers,
# which parses and frees each state.json in turn, mapped and unmapped memory for each and
# was far slower than with glibc; oldmalloc reuses the chunks (docs/performance.md).
# The versions and every file's SHA-256 are pinned in sources.sha256 beside this script: the
# archive's signature alone would take whatever version the mirror serves.
# Usage: build-deps.sh WORKDIR PREFIX (contrib/musl/libc.sh runs it). Exits non-zero with
# one line on stderr saying why.
set -eu
work=$1
prefix=$2
here=$(cd "$(dirname "$0")" && pwd)
pins=$here/sources.sha256
packages="musl yajl libseccomp"

die() {
	echo "$*" >&2
	exit 1
}

command -v dpkg-source >/dev/null || die "dpkg-source not found (make deps installs dpkg-dev)"

rm -rf "${prefix:?}"
mkdir -p "$work/lists/partial" "$prefix/lib" "$prefix/include"
work=$(cd "$work" && pwd)
prefix=$(cd "$prefix" && pwd)
log=$work/build.log
: >"$log"

# A deb-src list of our own: the system's apt configuration is left as it is.
cat >"$work/src.sources" <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
apt_src() {
	apt-get -o Dir::Etc::sourcelist="$work/src.sources" -o Dir::Etc::sourceparts=/dev/null \
		-o Dir::State::Lists="$work/lists" -o Debug::NoLocking=1 "$@" >>"$log" 2>&1
}

# "musl=1.2.3-1 ..." for apt-get source, from the pinned .dsc names.
pinned_versions() {
	sed -n 's/^[0-9a-f]*  \([^_]*\)_\(.*\)\.dsc$/\1=\2/p' "$pins" | paste -sd ' '
}

pinned_dsc() {
	sed -n "s/^[0-9a-f]*  \\($1_.*\\.dsc\\)$/\\1/p" "$pins"
}

# apt's last error line, the reason a fetch failed.
apt_error() {
	grep '^E:' "$log" | tail -n 1
}

fetch_sources() {
	cd "$work"
	if ! "$here/verify-sources.sh" "$pins" "$work" 2>/dev/null; then
		sed -n 's/^[0-9a-f]*  //p' "$pins" | while read -r file; do rm -f "./$file"; done
		apt_src update || die "apt-get update of the deb-src list failed: $(apt_error) (see $log)"
		versions=$(pinned_versions)
		# shellcheck disable=SC2086 # one argument per package
		apt_src source --download-only $versions ||
			die "apt-get source $versions failed: $(apt_error) (see $log)"
		"$here/verify-sources.sh" "$pins" "$work" || exit 1
	fi
	for p in $packages; do
		rm -rf "${p:?}-src"
		dsc=$(pinned_dsc "$p")
		[ -n "$dsc" ] || die "$pins: no $p .dsc pinned"
		dpkg-source -x "$dsc" "$p-src" >>"$log" 2>&1 || die "dpkg-source -x $dsc failed (see $log)"
	done
}

# musl-gcc sees only musl's headers: the kernel's uapi headers (libc-independent) are
# added by links, as musl's own docs suggest.
link_kernel_headers() {
	for d in linux asm-generic; do
		ln -sfn "/usr/include/$d" "$prefix/include/$d"
	done
	ln -sfn "/usr/include/$(gcc -dumpmachine)/asm" "$prefix/include/asm"
	[ -f "$prefix/include/linux/capability.h" ] ||
		die "kernel headers missing (/usr/include/linux, from linux-libc-dev)"
}

# musl's x86_64 memcpy is `rep movsq`, slow to start on some hypervisors' CPUs: a small copy
# took many times as long as with musl's own C memcpy, and a `run` makes thousands of
# small copies (stdio, yajl, snprintf). Its C version is built instead; memmove.s
# goes with it (it jumps into memcpy.s). memset.s stays: as fast as the C one or faster.
build_musl() {
	cd "$work/musl-src"
	rm -f src/string/x86_64/memcpy.s src/string/x86_64/memmove.s
	./configure --prefix="$prefix" --disable-shared --with-malloc=oldmalloc CC=gcc \
		>>"$log" 2>&1 || die "musl: configure failed (see $log)"
	make -j"$(nproc)" >>"$log" 2>&1 || die "musl: make failed (see $log)"
	make install >>"$log" 2>&1 || die "musl: make install failed (see $log)"
}

CC_MUSL="$prefix/bin/musl-gcc -O2 -fPIE"

# yajl's CMake build is a list of .c files and one generated version header.
build_yajl() {
	src=$work/yajl-src/src
	mkdir -p "$prefix/include/yajl" "$work/yajl-obj"
	cp "$src"/api/yajl_common.h "$src"/api/yajl_gen.h "$src"/api/yajl_parse.h \
		"$src"/api/yajl_tree.h "$prefix/include/yajl/"
	sed -e 's/\${YAJL_MAJOR}/2/' -e 's/\${YAJL_MINOR}/1/' -e 's/\${YAJL_MICRO}/0/' \
		"$src/api/yajl_version.h.cmake" >"$prefix/include/yajl/yajl_version.h"
	for c in "$src"/*.c; do
		$CC_MUSL -c -o "$work/yajl-obj/$(basename "$c" .c).o" "$c" >>"$log" 2>&1 ||
			die "yajl: compiling $(basename "$c") failed (see $log)"
	done
	rm -f "$prefix/lib/libyajl.a"
	ar rcs "$prefix/lib/libyajl.a" "$work"/yajl-obj/*.o
}

# configure runs the programs it compiles: linked static they need no musl loader
# (/lib/ld-musl-x86_64.so.1), which no Debian package this build installs provides.
build_libseccomp() {
	cd "$work/libseccomp-src"
	./configure CC="$CC_MUSL" LDFLAGS=-static --prefix="$prefix" --enable-static --disable-shared \
		>>"$log" 2>&1 || die "libseccomp: configure failed (see $log)"
	make -C src libseccomp.la >>"$log" 2>&1 || die "libseccomp: make failed (see $log)"
	cp src/.libs/libseccomp.a "$prefix/lib/"
	cp include/seccomp.h include/seccomp-syscalls.h "$prefix/include/"
}

fetch_sources
build_musl
link_kernel_headers
build_yajl
build_libseccomp
