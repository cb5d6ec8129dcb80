#!/bin/bash
# make's choice of the libc ctrun links (contrib/musl/libc.sh and the Makefile's link of
# BUILD/ctrun), and the checks around it: glibc only when asked and said so, a musl build that
# fails fails the build (no binary of the other libc left), the prefix stamp, the pinned
# source checksums (verify-sources.sh) and the shipped-binary check (check-binary.sh).
# Fast: make links from copies of the objects in BUILD; the musl builds are fakes.
# Usage: libc_choice.sh BUILD (after make BUILD/libctrun.a BUILD/libctrun-cli.a BUILD/runtime/main.o)
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
make=${MAKE:-make}
# The sub-makes below say what they want themselves: nothing of a calling make's flags or
# variables (make check LIBC=glibc) reaches them.
unset MAKEFLAGS MFLAGS MAKELEVEL
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0

fail() {
	echo "FAIL $name: $*"
	failures=$((failures + 1))
}

# A build directory holding copies of BUILD's objects and libraries (times kept, so make
# relinks and compiles nothing).
scratch_build() {
	dir=$scratch/$1
	mkdir -p "$dir"
	(cd "$build" && find . -path ./musl -prune -o -path ./fuzz -prune -o \
		\( -name '*.o' -o -name '*.a' -o -name version.h \) -print0 | xargs -0 cp --parents -p -t "$dir")
	echo "$dir"
}

# A copy of contrib/musl/libc.sh beside a build-deps.sh that runs BODY.
fake_musl() {
	dir=$scratch/$1
	mkdir -p "$dir"
	cp "$src/contrib/musl/libc.sh" "$src/contrib/musl/sources.sha256" "$dir/"
	printf '#!/bin/sh\n%s\n' "$2" >"$dir/build-deps.sh"
	chmod +x "$dir/build-deps.sh"
	echo "$dir"
}

# run OUT ERR CMD...: CMD's stdout and stderr into files, its status in $rc.
run() {
	out=$1 err=$2
	shift 2
	"$@" >"$out" 2>"$err"
	rc=$?
}

name=glibc_when_asked
b=$(scratch_build glibc)
run "$scratch/out" "$scratch/err" "$make" -C "$src" BUILD="$b" LIBC=glibc "$b/ctrun"
if [ $rc != 0 ]; then
	fail "make LIBC=glibc exited $rc: $(tail -n 3 "$scratch/err")"
elif ! grep -q '^ctrun: LIBC=glibc: linking ctrun with glibc, as asked' "$scratch/err"; then
	fail "no line on stderr says ctrun links glibc: $(cat "$scratch/err")"
elif ! [ "$b/ctrun" -ef "$b/ctrun-glibc" ]; then
	fail "$b/ctrun is not a link to $b/ctrun-glibc"
elif ! "$b/ctrun" --version | grep -q '^libc: glibc '; then
	fail "$b/ctrun --version: $("$b/ctrun" --version | tr '\n' ' ')"
elif contrib_err=$("$src/contrib/musl/check-binary.sh" "$b/ctrun" 2>&1); then
	fail "check-binary.sh accepts the glibc ctrun"
elif [ "$contrib_err" != "$b/ctrun: not the musl static ctrun that ships: its --version says libc: glibc $(getconf GNU_LIBC_VERSION | cut -d' ' -f2)" ]; then
	fail "check-binary.sh says: $contrib_err"
else
	echo "PASS $name"
fi

name=musl_failure_fails_the_build
b=$(scratch_build broken)
: >"$b/ctrun" # a binary left from an earlier build must not survive under the name
fake=$(fake_musl broken-musl 'echo "fake: the source packages cannot be fetched" >&2; exit 1')
run "$scratch/out" "$scratch/err" "$make" -C "$src" BUILD="$b" LIBC=musl LIBC_SH="$fake/libc.sh" "$b/ctrun"
if [ $rc = 0 ]; then
	fail "make exited 0"
elif ! grep -q '^ctrun: cannot build the musl ctrun: fake: the source packages cannot be fetched (make LIBC=glibc' "$scratch/err"; then
	fail "stderr does not give the reason: $(cat "$scratch/err")"
elif grep -q glibc "$scratch/out" || [ -e "$b/ctrun" ] || [ -e "$b/ctrun-glibc" ]; then
	fail "a glibc ctrun was made or kept: $(ls "$b" | tr "\n" " ")"
else
	echo "PASS $name"
fi

name=unknown_libc_refused
run "$scratch/out" "$scratch/err" "$make" -C "$src" BUILD="$b" LIBC=uclibc "$b/ctrun"
if [ $rc = 0 ]; then
	fail "make LIBC=uclibc exited 0"
elif ! grep -q '^ctrun: LIBC=uclibc: ctrun links musl, or glibc when asked' "$scratch/err"; then
	fail "stderr: $(cat "$scratch/err")"
else
	echo "PASS $name"
fi

# The fake counts its runs and succeeds once fixed; the prefix is rebuilt only when
# build-deps.sh or sources.sha256 changes, a failure is not remembered.
name=prefix_stamp
fake=$(fake_musl stamp-musl 'echo run >>"$(dirname "$0")/runs"; exit 1')
runs() { [ -f "$fake/runs" ] && wc -l <"$fake/runs" || echo 0; }
run "$scratch/out" "$scratch/err" "$fake/libc.sh" "$scratch/stamp"
first_rc=$rc
first_out=$(cat "$scratch/out")
printf '#!/bin/sh\necho run >>"$(dirname "$0")/runs"; mkdir -p "$2"\n' >"$fake/build-deps.sh"
"$fake/libc.sh" "$scratch/stamp" >"$scratch/out1" 2>/dev/null
"$fake/libc.sh" "$scratch/stamp" >"$scratch/out2" 2>/dev/null
after_fix=$(runs)
echo "# pin changed" >>"$fake/sources.sha256"
"$fake/libc.sh" "$scratch/stamp" >"$scratch/out3" 2>/dev/null
if [ "$first_rc" = 0 ] || [ -n "$first_out" ]; then
	fail "a failing build printed '$first_out' and exited $first_rc"
elif [ "$(cat "$scratch/out1" "$scratch/out2" "$scratch/out3" | tr '\n' ' ')" != "musl musl musl " ]; then
	fail "libc.sh printed $(cat "$scratch/out1" "$scratch/out2" "$scratch/out3" | tr '\n' ' ')"
elif [ "$after_fix" != 2 ] || [ "$(runs)" != 3 ]; then
	fail "build-deps.sh ran $after_fix times before the pin changed, $(runs) after (want 2, 3)"
else
	echo "PASS $name"
fi

name=pinned_sources
pins=$scratch/pins
mkdir -p "$scratch/sources"
printf 'one\n' >"$scratch/sources/a_1.dsc"
printf 'two\n' >"$scratch/sources/a_1.tar.gz"
{
	echo "# a comment"
	(cd "$scratch/sources" && sha256sum a_1.dsc a_1.tar.gz)
} >"$pins"
verify() { "$src/contrib/musl/verify-sources.sh" "$pins" "$scratch/sources" 2>&1; }
good=$(verify)
good_rc=$?
printf 'tw0\n' >"$scratch/sources/a_1.tar.gz"
changed=$(verify)
changed_rc=$?
rm "$scratch/sources/a_1.dsc"
missing=$(verify)
missing_rc=$?
want_sum=$(printf 'two\n' | sha256sum | cut -d' ' -f1)
got_sum=$(printf 'tw0\n' | sha256sum | cut -d' ' -f1)
if [ $good_rc != 0 ] || [ -n "$good" ]; then
	fail "the pinned files are refused: $good"
elif [ $changed_rc = 0 ] ||
	[ "$changed" != "$scratch/sources/a_1.tar.gz: SHA-256 $got_sum, not the $want_sum pinned in $pins" ]; then
	fail "a changed file: exit $changed_rc, '$changed'"
elif [ $missing_rc = 0 ] || [ "$missing" != "$scratch/sources/a_1.dsc: missing (pinned in $pins)" ]; then
	fail "a missing file: exit $missing_rc, '$missing'"
else
	echo "PASS $name"
fi

name=shipped_binary_accepted
if [ -e "$build/ctrun-musl" ]; then
	if out=$("$src/contrib/musl/check-binary.sh" "$build/ctrun-musl" 2>&1); then
		echo "PASS $name"
	else
		fail "$out"
	fi
else
	echo "SKIP $name: no $build/ctrun-musl (built with LIBC=glibc)"
fi

[ $failures = 0 ] && echo "libc_choice: all passed" || echo "libc_choice: $failures failed"
[ $failures = 0 ]
