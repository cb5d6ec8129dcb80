#!/usr/bin/env bash
# Buildah 1.28 end to end (Debian's): `buildah bud` of a Containerfile whose RUN steps are
# containers ctrun runs (OCI isolation, --runtime ctrun), then `buildah from` + `buildah run`
# of the built image under ctrun, with private storage (tests/e2e/buildah_env.sh). Each case
# checks buildah's result, what the steps saw inside, that ctrun ran them (its log), where it
# means something that runc gives the same, then that nothing is left behind. Needs CTRUN,
# CTRUN_SRC; run as root in a private mount namespace (tests/e2e/run-all.sh does).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
. "$here/busybox_image.sh"
: "${CTRUN:?set CTRUN to the ctrun binary}" "${CTRUN_SRC:?set CTRUN_SRC to the source tree}"

e2e_require_tools buildah buildah runc

E2E_DIR=$(mktemp -d /tmp/ctrun-buildah-e2e.XXXXXX)
. "$here/buildah_env.sh"
cleanup_all() {
	cd / || return
	buildah_env_teardown
	rm -rf "$E2E_DIR"
}
trap cleanup_all EXIT
if ! buildah_env_setup; then
	echo "buildah e2e: setting up Buildah's private storage and image failed" >&2
	exit 1
fi
buildah_runtime_args "$CTRUN"

# ---- what "nothing left behind" means ----------------------------------------------------

# The containers ctrun started since the case began, by name (from its log).
ctrun_containers() {
	sed -n 's/.*container "\([^"]*\)": init [0-9]* spawned.*/\1/p' "$CTRUN_LOG" 2>/dev/null | sort -u
}

# No working container, no ctrun state, and of every container ctrun ran: no cgroup in any
# hierarchy, no process, no rootfs mount.
assert_nothing_left() {
	local left= name dir
	[ -z "$(bh containers -q)" ] || left+=" container($(bh containers -q | tr '\n' ' '))"
	[ -z "$(ls -A "$CTRUN_STATE_ROOT")" ] || left+=" ctrun-state($(ls -A "$CTRUN_STATE_ROOT"))"
	for name in $(ctrun_containers); do
		for dir in $(find /sys/fs/cgroup -maxdepth 8 -type d -name "$name" 2>/dev/null); do
			left+=" cgroup($dir)"
		done
		grep -l "/$name\$" /proc/[0-9]*/cgroup >/dev/null 2>&1 && left+=" process($name)"
	done
	grep -E " $E2E_DIR/root/overlay/[^ ]*/merged " /proc/self/mountinfo >/dev/null && left+=" mount"
	[ -z "$left" ] || e2e_fail "left behind:$left"
}

CASE_FN=
run_case() {
	: >"$CTRUN_LOG"
	"$CASE_FN" && assert_nothing_left
}
# E2E_CASES="bud" runs only the named cases (while working on them).
bcase() {
	case " ${E2E_CASES:-$1} " in *" $1 "*) ;; *) return 0 ;; esac
	CASE_FN=$2
	e2e_test "$1" run_case
	delete_runtime_containers
	bh rm -a >/dev/null 2>&1
}

# ---- helpers -------------------------------------------------------------------------------

# buildah bud of the Containerfile on stdin, tagged NAME, with the runtime of
# buildah_runtime_args; the build's output on stdout, its exit status returned.
bud() { # NAME [bud flags...]
	local name=$1 ctx
	shift
	ctx=$(mktemp -d "$E2E_DIR/ctx.XXXXXX") && cat >"$ctx/Containerfile" || return 1
	bh bud "${RUNTIME_ARGS[@]}" --pull=never --layers=false --signature-policy "$E2E_DIR/policy.json" \
		"$@" -t "$name" -f "$ctx/Containerfile" "$ctx" 2>&1
}

spawned_count() { grep -c 'init [0-9]* spawned' "$CTRUN_LOG"; }

image_field() { bh inspect --type image --format "$2" "$1"; }

# ---- cases ---------------------------------------------------------------------------------

BUILT=localhost/built:e2e
# ARG (a default and one given on the command line), ENV, WORKDIR, USER, and RUN steps of
# which later ones read what earlier ones wrote.
write_containerfile() {
	cat <<-'EOF'
	FROM localhost/busybox:e2e
	ARG GREETING=hello
	ARG FROM_DEFAULT=default-arg
	ENV APPDIR=/app MODE=built
	WORKDIR /app
	RUN echo "$GREETING from $(id -un) in $(pwd), $MODE" > built.txt && echo "$FROM_DEFAULT" > arg.txt && mkdir data && chown user:user data
	USER user
	RUN cat built.txt > data/seen && id -u > data/uid && echo "step read: $(cat built.txt) $(cat arg.txt)"
	RUN touch /app/not-mine 2>/dev/null || echo "$(id -un) cannot write $APPDIR"
	EOF
}

case_bud() {
	local out
	out=$(write_containerfile | bud "$BUILT" --build-arg GREETING=hi) ||
		e2e_fail "buildah bud failed: $out" || return 1
	assert_contains "$out" "step read: hi from root in /app, built default-arg" \
		"a RUN step read what the one before wrote (ARG, ENV, WORKDIR)" &&
		assert_contains "$out" "user cannot write /app" "USER: the later step ran as user" &&
		assert_eq 3 "$(spawned_count)" "ctrun ran the three RUN steps" || return 1
	assert_eq "user /app" "$(image_field "$BUILT" '{{.OCIv1.Config.User}} {{.OCIv1.Config.WorkingDir}}')" \
		"the image's USER and WORKDIR" &&
		assert_contains "$(image_field "$BUILT" '{{.OCIv1.Config.Env}}')" "APPDIR=/app" "the image's ENV"
}

# A RUN that fails stops the build with its exit status (as with runc): the steps after it
# do not run and no image is tagged.
FAILING_STATUS=
case_bud_failing_run() {
	local out status runtime
	for runtime in runc "$CTRUN"; do
		buildah_runtime_args "$runtime"
		out=$(printf '%s\n' 'FROM localhost/busybox:e2e' 'RUN echo before > /before' \
			'RUN echo failing-step; exit 3' 'RUN echo after-the-failure' | bud localhost/failed:e2e)
		status=$?
		assert_not_contains "$out" "after-the-failure" "$runtime: the build stopped at the failing step" &&
			assert_contains "$out" failing-step "$runtime: the failing step ran" || return 1
		[ -z "$FAILING_STATUS" ] || assert_eq "$FAILING_STATUS" "$status" "exit status, ctrun against runc" ||
			return 1
		FAILING_STATUS=$status
	done
	assert_eq 3 "$status" "buildah bud's exit status is the RUN's" &&
		assert_eq 2 "$(spawned_count)" "ctrun ran the two steps up to the failure" || return 1
	bh inspect --type image localhost/failed:e2e >/dev/null 2>&1 &&
		e2e_fail "an image was tagged by a failed build" && return 1
	return 0
}

# The built image under buildah from + buildah run: its USER, WORKDIR, ENV and files.
case_from_and_run() {
	local c out status
	[ -n "$(bh images -q "$BUILT" 2>/dev/null)" ] || write_containerfile | bud "$BUILT" >/dev/null ||
		return 1
	: >"$CTRUN_LOG"
	c=$(bh from --pull=never --quiet "$BUILT") || return 1
	out=$(bh run "${RUNTIME_ARGS[@]}" "$c" sh -c 'id -un; pwd; echo $APPDIR $MODE; cat data/seen data/uid') ||
		return 1
	assert_eq "user
/app
/app built
hi from root in /app, built
1000" "$out" "the built image's user, workdir, env and files" || return 1
	assert_eq 0 "$(bh run "${RUNTIME_ARGS[@]}" --user root "$c" id -u)" "buildah run --user root" || return 1
	bh run "${RUNTIME_ARGS[@]}" "$c" sh -c 'exit 7'
	status=$?
	assert_eq 7 "$status" "buildah run exit status" || return 1
	assert_eq "piped-in" "$(echo piped-in | bh run "${RUNTIME_ARGS[@]}" "$c" cat)" "stdin reaches the container" ||
		return 1
	assert_eq 4 "$(spawned_count)" "ctrun ran each buildah run" || return 1
	buildah_runtime_args runc
	assert_eq "$out" "$(bh run "${RUNTIME_ARGS[@]}" "$c" sh -c 'id -un; pwd; echo $APPDIR $MODE; cat data/seen data/uid')" \
		"the same under runc" || return 1
	buildah_runtime_args "$CTRUN"
	bh rm "$c" >/dev/null
}

# While buildah run waits, the container is the runtime's (its state root lists it
# running). A SIGKILL through the runtime ends it; buildah run then says "container exited
# on killed" and exits 1, with runc as with ctrun.
case_kill_during_run() {
	local c runtime
	c=$(bh from --pull=never --quiet "$E2E_IMAGE") || return 1
	for runtime in runc "$CTRUN"; do
		kill_one_run "$runtime" "$c" || return 1
	done
	buildah_runtime_args "$CTRUN"
	bh rm "$c" >/dev/null
}

kill_one_run() { # RUNTIME CONTAINER
	local rt=$1 root line id status
	root=$(state_root "$rt")
	buildah_runtime_args "$rt"
	coproc RUN { exec timeout -k 5 "$E2E_TIMEOUT" buildah --root "$E2E_DIR/root" \
		--runroot "$E2E_DIR/runroot" --storage-driver overlay run "${RUNTIME_ARGS[@]}" "$2" \
		sh -c 'echo ready; exec sleep 1000' 2>"$E2E_DIR/run.err"; }
	read -r -t 60 -u "${RUN[0]}" line
	assert_eq ready "$line" "$rt: the container started" || return 1
	id=$("$rt" --root "$root" list -q)
	assert_eq running "$("$rt" --root "$root" state "$id" | sed -n 's/.*"status": *"\([a-z]*\)".*/\1/p')" \
		"$rt's state of $id" || return 1
	"$rt" --root "$root" kill "$id" KILL || return 1
	wait "$RUN_PID"
	status=$?
	assert_eq 1 "$status" "$rt: buildah run after the runtime's kill" &&
		assert_contains "$(cat "$E2E_DIR/run.err")" "container exited on killed" "$rt: buildah's message" &&
		assert_eq "" "$(ls -A "$root")" "$rt: the state is gone"
}

# Last: the images go; no image, working container, ctrun state or mount of a layer stays
# (the storage's own overlay mount of its root is all Buildah keeps).
case_teardown() {
	local left
	bh rmi -af >/dev/null || return 1
	left=$(bh images -q; bh containers -q; ls -A "$CTRUN_STATE_ROOT"; ls -A "$E2E_DIR/runc-state"
		grep -F " $E2E_DIR/" /proc/self/mountinfo | grep -vF " $E2E_DIR/root/overlay ")
	assert_eq "" "$left" "left after the images were removed"
}

bcase bud case_bud
bcase bud-failing-run case_bud_failing_run
bcase from-and-run case_from_and_run
bcase kill-during-run case_kill_during_run
bcase teardown case_teardown

e2e_summary buildah
