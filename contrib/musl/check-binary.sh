#!/bin/sh
# Checks that BINARY is ctrun as it ships: linked with musl (its --version says so), static
# (no program interpreter, no shared library needed). Exits 1 with one line on stderr saying
# what it is instead. .ci/run runs it on the binary the tests ran against.
# Usage: check-binary.sh BINARY
bin=$1

fail() {
	echo "$bin: not the musl static ctrun that ships: $*" >&2
	exit 1
}

[ -f "$bin" ] && [ -x "$bin" ] || fail "no such executable"
headers=$(readelf -lW "$bin" 2>&1) || fail "not an ELF file ($(printf '%s' "$headers" | head -n 1))"
case $headers in
*"Requesting program interpreter"*) fail "it asks for a program interpreter (dynamically linked)" ;;
esac
needed=$(readelf -dW "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
[ -z "$needed" ] || fail "it needs shared libraries: $needed"
libc=$("$bin" --version 2>&1 | sed -n 's/^libc: //p')
[ "$libc" = musl ] || fail "its --version says libc: ${libc:-(none)}"
