#!/usr/bin/env bash
# Buildah 1.28 end to end (Debian's): `buildah bud` of a Containerfile whose RUN steps are
# containers ctrun runs (OCI isolation, --runtime ctrun), then `buildah from` + `buildah run`
# of the built image under ctrun, with private storage (tests/e2e/buildah_env.sh). Each case
# checks buildah's result, what the steps saw inside, that ctrun ran them (its log), where it
# means something that runc gives the same, then that nothing is left behind. The cmp-*
# cases run each scenario under ctrun, runc and crun and compare (buildah_compare.sh).
# --isolation chroot is not tested: it runs no OCI runtime. Needs CTRUN, CTRUN_SRC; run as
# root in a private mount namespace (tests/e2e/run-all.sh does).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
. "$here/busybox_image.sh"
: "${CTRUN:?set CTRUN to the ctrun binary}" "${CTRUN_SRC:?set CTRUN_SRC to the source tree}"

e2e_require_tools buildah buildah runc

E2E_DIR=$(mktemp -d /tmp/ctrun-buildah-e2e.XXXXXX)
. "$here/buildah_env.sh"
. "$here/buildah_compare.sh"
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
	remove_cache
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

# ---- differential cases (tests/e2e/buildah_compare.sh) -------------------------------------
# Each FN RUNTIME_NAME prints facts that must not depend on the runtime (buildah is pointed
# at it through RUNTIME_ARGS). Buildah copies a step's stdout and stderr apart, so their lines
# may come in either order: a step whose lines are compared writes to one of them only.

# The build of the Containerfile on stdin under the runtime being compared: its output,
# then its exit status.
bud_facts() { # TAG [bud flags...]
	local out status
	out=$(bud "$@")
	status=$?
	printf '%s\nbud-status=%s\n' "$out" "$status"
}

# What a user of image TAG gets: its config and every file outside /bin (type, mode, owner,
# size, link target, content digest); then the image is removed.
image_facts() { # TAG
	local c mnt
	echo "config: $(image_field "$1" '{{.OCIv1.Config}}')"
	c=$(bh from --pull=never --quiet "$1") && mnt=$(bh mount "$c") || return 1
	(cd "$mnt" && find . -xdev ! -path './bin/*' -printf 'file: %P %y %m %U:%G %s %l\n' | sort &&
		find . -xdev -type f ! -path './bin/*' -exec md5sum {} + | sort -k2)
	bh umount "$c" >/dev/null && bh rm "$c" >/dev/null && bh rmi "$1" >/dev/null
}

# ARG (default and --build-arg), ENV, WORKDIR, USER by name and by number, RUN steps writing
# files that later steps and the image hold, with their owners.
case_cmp_bud_instructions() { compare_runtimes bud-instructions bud_instructions_facts; }
bud_instructions_facts() {
	cat <<-'EOF' | bud_facts localhost/cmp:e2e --build-arg GREETING=hi
	FROM localhost/busybox:e2e
	ARG GREETING=hello
	ARG UNSET_ARG=fallback
	ENV APPDIR=/app MODE="built here"
	WORKDIR /app
	RUN echo "$GREETING $UNSET_ARG $MODE in $(pwd) as $(id)" | tee greeting && mkdir -p shared && chown 1000:1000 shared && umask
	USER user
	RUN id && echo "HOME=$HOME" && touch shared/by-user && touch /app/denied 2>&1; echo "touch status $?"
	USER 1000:1000
	RUN id && mkdir shared/numeric && ls -ln shared | sed 1d | awk '{print $1, $3, $4, $NF}'
	USER root
	WORKDIR sub/dir
	RUN pwd && env | grep -E '^(APPDIR|MODE|GREETING|UNSET_ARG|PATH|container)=' | sort; echo x > here
	CMD ["cat", "/app/greeting"]
	EOF
	image_facts localhost/cmp:e2e
}

# A failing RUN stops the build with its status; so does one killed by a signal.
case_cmp_bud_failing_run() { compare_runtimes bud-failing-run bud_failing_run_facts; }
bud_failing_run_facts() {
	printf '%s\n' 'FROM localhost/busybox:e2e' 'RUN echo before > /before' 'RUN echo failing-step; exit 3' \
		'RUN echo after-the-failure' | bud_facts localhost/cmp:e2e
	printf '%s\n' 'FROM localhost/busybox:e2e' 'RUN echo killing-myself; kill -KILL $$' |
		bud_facts localhost/cmp:e2e
	printf '%s\n' 'FROM localhost/busybox:e2e' 'RUN no-such-command' | bud_facts localhost/cmp:e2e
	echo "images: $(bh images -q localhost/cmp:e2e 2>/dev/null | wc -l)"
}

# A RUN has no input, whatever buildah's own stdin holds: reading stdin ends at once, and
# it is no terminal.
case_cmp_bud_stdin() { compare_runtimes bud-stdin bud_stdin_facts; }
bud_stdin_facts() {
	local ctx
	ctx=$(mktemp -d "$E2E_DIR/ctx.XXXXXX") || return 1
	printf '%s\n' 'FROM localhost/busybox:e2e' \
		'RUN cat; echo "cat status $?"; read line; echo "read status $?"; [ -t 0 ] && echo tty || echo "no tty"; [ -t 1 ] || echo "stdout no tty"' \
		>"$ctx/Containerfile"
	echo "from the host" | bh bud "${RUNTIME_ARGS[@]}" --pull=never --layers=false \
		--signature-policy "$E2E_DIR/policy.json" -t localhost/cmp:e2e -f "$ctx/Containerfile" "$ctx" 2>&1
	echo "bud-status=$?"
}

# --network none: loopback only; host: the host's interfaces.
case_cmp_bud_network() { compare_runtimes bud-network bud_network_facts; }
bud_network_facts() {
	local net
	for net in none host; do
		printf '%s\n' 'FROM localhost/busybox:e2e' \
			'RUN sed 1,2d /proc/net/dev | cut -d: -f1 | tr -d " " | sort | tr "\n" " "; echo; cat /etc/hosts 2>/dev/null | grep -c localhost; readlink /proc/self/ns/net | tr -d "0-9"' |
			bud_facts localhost/cmp:e2e --network "$net"
	done
	echo "host interfaces: $(sed 1,2d /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort | tr '\n' ' ')"
}

# --cap-add / --cap-drop: the sets a RUN has, and what a dropped capability refuses.
case_cmp_bud_capabilities() { compare_runtimes bud-capabilities bud_capabilities_facts; }
bud_capabilities_facts() {
	local caps='RUN grep -E "^Cap(Inh|Prm|Eff|Bnd|Amb)" /proc/self/status; chown 1000 /tmp 2>&1; echo "chown status $?"; mknod /tmp/n c 1 3 2>&1; echo "mknod status $?"'
	printf '%s\n' 'FROM localhost/busybox:e2e' "$caps" | bud_facts localhost/cmp:e2e
	printf '%s\n' 'FROM localhost/busybox:e2e' "$caps" |
		bud_facts localhost/cmp:e2e --cap-add SYS_ADMIN --cap-add NET_ADMIN --cap-drop CHOWN --cap-drop MKNOD
	printf '%s\n' 'FROM localhost/busybox:e2e' "$caps" | bud_facts localhost/cmp:e2e --cap-drop ALL
}

# The default seccomp profile filters; seccomp=unconfined does not.
case_cmp_bud_seccomp() { compare_runtimes bud-seccomp bud_seccomp_facts; }
bud_seccomp_facts() {
	local run='RUN grep -E "^(Seccomp|NoNewPrivs):" /proc/self/status; unshare -U true 2>&1 | sed "s/.*: //"; echo "unshare status $?"'
	printf '%s\n' 'FROM localhost/busybox:e2e' "$run" | bud_facts localhost/cmp:e2e
	printf '%s\n' 'FROM localhost/busybox:e2e' "$run" | bud_facts localhost/cmp:e2e --security-opt seccomp=unconfined
}

# RUN --mount (with `buildah build`, bud's other name): a bind of the context (read-only
# unless rw), a tmpfs that the image does not keep, and a cache that a later step finds
# again.
case_cmp_bud_run_mounts() { compare_runtimes bud-run-mounts bud_run_mounts_facts; }
bud_run_mounts_facts() {
	local ctx
	ctx=$(mktemp -d "$E2E_DIR/ctx.XXXXXX") && echo "from the context" >"$ctx/ctx-file" || return 1
	cat >"$ctx/Containerfile" <<-'EOF'
	FROM localhost/busybox:e2e
	RUN --mount=type=bind,source=.,target=/ctx cat /ctx/ctx-file && touch /ctx/new 2>&1 | sed 's/.*: //'
	RUN --mount=type=bind,source=ctx-file,target=/one,rw echo changed > /one && cat /one
	RUN --mount=type=tmpfs,target=/scratch echo tmp > /scratch/f && ls /scratch && grep -c " /scratch tmpfs " /proc/mounts
	RUN --mount=type=cache,target=/cache ls /cache; echo kept > /cache/first
	RUN --mount=type=cache,target=/cache cat /cache/first && ls -ld /cache | awk '{print $1, $3, $4}'
	RUN ls /ctx /one /scratch /cache 2>&1 | sed 's/.*: //'
	EOF
	bh build "${RUNTIME_ARGS[@]}" --pull=never --layers=false --signature-policy "$E2E_DIR/policy.json" \
		-t localhost/cmp:e2e -f "$ctx/Containerfile" "$ctx" 2>&1
	echo "build-status=$? context file: $(cat "$ctx/ctx-file"), new: $([ -e "$ctx/new" ] && echo yes || echo no)"
	image_facts localhost/cmp:e2e
}

# A user namespace: --userns-uid-map/--userns-gid-map give the RUN steps the mapping, and
# the image's files are the container's ids.
case_cmp_bud_userns() { compare_runtimes bud-userns bud_userns_facts; }
bud_userns_facts() {
	cat <<-'EOF' | bud_facts localhost/cmp:e2e --userns-uid-map 0:200000:65536 --userns-gid-map 0:200000:65536
	FROM localhost/busybox:e2e
	RUN cat /proc/self/uid_map /proc/self/gid_map | tr -s " " && id && touch /root-file && mkdir /owned && chown 1000:1000 /owned && ls -ln / | grep -E " (root-file|owned|data)$" | awk '{print $1, $3, $4, $NF}'
	RUN grep -E "^Cap(Eff|Bnd)" /proc/self/status; readlink /proc/self/ns/user | tr -d "0-9"
	EOF
	image_facts localhost/cmp:e2e
}

# A RUN that never ends, stopped as a user stops a build: TERM to buildah once the step
# runs and buildah watches it (it has asked the runtime for the container's state: only
# then does it handle TERM). Buildah then has the runtime kill and delete the container
# and fails; nothing of it stays.
case_cmp_bud_timeout() { compare_runtimes bud-timeout bud_timeout_facts; }
bud_timeout_facts() {
	local ctx line pid calls=$E2E_DIR/runtime-calls
	ctx=$(mktemp -d "$E2E_DIR/ctx.XXXXXX") || return 1
	printf '%s\n' 'FROM localhost/busybox:e2e' 'RUN echo started; exec sleep 1000' >"$ctx/Containerfile"
	: >"$calls"
	printf '#!/bin/sh\necho "$*" >>%s\nexec %s "$@"\n' "$calls" "${RUNTIME_ARGS[3]}" >"$ctx/runtime"
	chmod +x "$ctx/runtime" && RUNTIME_ARGS[3]=$ctx/runtime || return 1
	coproc BUD { exec buildah --root "$E2E_DIR/root" --runroot "$E2E_DIR/runroot" --storage-driver overlay \
		bud "${RUNTIME_ARGS[@]}" --pull=never --layers=false --signature-policy "$E2E_DIR/policy.json" \
		-t localhost/timed-out:e2e -f "$ctx/Containerfile" "$ctx" 2>&1; }
	pid=$BUD_PID
	while read -r -t 60 -u "${BUD[0]}" line; do
		echo "$line"
		[ "$line" != started ] || break
	done
	wait_for_runtime_call "$calls" state || kill -KILL "$pid"
	kill -TERM "$pid"
	timeout 60 cat <&"${BUD[0]}" || kill -KILL "$pid"
	wait "$pid"
	echo "bud-status=$? sleepers: $(e2e_pids_by_cmdline '^sleep 1000 $' | wc -l)"
	echo "runtime commands after the state: $(sed -n '/ state /,$s/.* \(kill\|delete\) .*/\1/p' "$calls" | tr '\n' ' ')"
	echo "images: $(bh images -q localhost/timed-out:e2e 2>/dev/null | wc -l)"
}

# Waits (bounded) until the wrapped runtime was called with COMMAND.
wait_for_runtime_call() { # CALLS COMMAND
	local _
	for _ in $(seq 600); do
		grep -q " $2 " "$1" && return 0
		sleep 0.1
	done
	e2e_fail "buildah never called the runtime's $2"
}

# Twenty RUN steps, twenty containers: each is gone once its step ends (the state roots are
# checked by compare_runtimes): no cgroup (below the build's --cgroup-parent), no process
# and no rootfs mount stays.
case_cmp_bud_many_steps() { compare_runtimes bud-many-steps bud_many_steps_facts; }
bud_many_steps_facts() {
	local i parent=ctrun-buildah-e2e-$$
	{
		echo 'FROM localhost/busybox:e2e'
		for i in $(seq 20); do echo "RUN echo step-$i >> /steps && wc -l < /steps"; done
	} | bud_facts localhost/cmp:e2e --cgroup-parent "/$parent"
	echo "cgroups left: $(find /sys/fs/cgroup -mindepth 2 -maxdepth 9 -type d -path "*/$parent/*" 2>/dev/null | wc -l)"
	echo "processes left: $(grep -l "/$parent/" /proc/[0-9]*/cgroup 2>/dev/null | wc -l)"
	remove_cgroup_parent "$parent"
	echo "mounts left: $(grep -cE " $E2E_DIR/root/overlay/[^ ]*/merged " /proc/self/mountinfo)"
	image_facts localhost/cmp:e2e
}

# The build's parent cgroup in every hierarchy, and what a runtime left below it.
remove_cgroup_parent() { # NAME
	find /sys/fs/cgroup -mindepth 1 -maxdepth 9 -depth -type d -path "*/$1*" -exec rmdir {} + 2>/dev/null
	return 0
}

# buildah run of a working container: -v binds (read-only and not), --user by number and by
# name, --env, --workingdir, --hostname, exit statuses, and piped stdin.
case_cmp_run_flags() { compare_runtimes run-flags run_flags_facts; }
run_flags_facts() {
	local c vol=$E2E_DIR/vol
	rm -rf "$vol" && mkdir -p "$vol" && echo "on the host" >"$vol/host-file" || return 1
	c=$(bh from --pull=never --quiet --name cmp-run "$E2E_IMAGE") || return 1
	bh run "${RUNTIME_ARGS[@]}" -v "$vol:/vol" "$c" sh -c 'cat /vol/host-file; echo from-container > /vol/back'
	echo "status $? back: $(cat "$vol/back")"
	bh run "${RUNTIME_ARGS[@]}" -v "$vol:/vol:ro" "$c" sh -c 'touch /vol/x 2>&1 | sed "s/.*: //"; grep -c " /vol " /proc/mounts'
	echo "status $?"
	bh run "${RUNTIME_ARGS[@]}" --user 1000:1000 "$c" sh -c 'id; echo $HOME; touch /root/x 2>&1 | sed "s/.*: //"'
	bh run "${RUNTIME_ARGS[@]}" --user user "$c" id
	bh run "${RUNTIME_ARGS[@]}" --user 4242 "$c" id
	bh run "${RUNTIME_ARGS[@]}" -e FOO=bar --env "SPACED=a b" --workingdir /tmp --hostname cmp-host "$c" \
		sh -c 'echo "$FOO|$SPACED|$(pwd)|$(hostname)"; env | grep -E "^(PATH|HOME|TERM|container)=" | sort'
	bh run "${RUNTIME_ARGS[@]}" "$c" sh -c 'echo out; echo err >&2; exit 42' 2>"$E2E_DIR/run.err"
	echo "status $? stderr: $(cat "$E2E_DIR/run.err")"
	bh run "${RUNTIME_ARGS[@]}" "$c" /no/such/binary 2>&1 | grep -c 'no/such/binary'
	echo "piped" | bh run "${RUNTIME_ARGS[@]}" "$c" sh -c 'cat; [ -t 0 ] || echo "no tty"'
	bh run "${RUNTIME_ARGS[@]}" "$c" sh -c 'ls -A /dev | tr "\n" " "; echo; grep -c " / overlay " /proc/mounts'
	bh rm "$c" >/dev/null
}

# buildah run --terminal with buildah itself on a terminal (script(1)): the process has a
# pty as its stdio, and its exit status comes back.
case_cmp_run_terminal() {
	command -v script >/dev/null || { e2e_skip_case "script(1) is not installed"; return 0; }
	compare_runtimes run-terminal run_terminal_facts
}
run_terminal_facts() {
	local c
	c=$(bh from --pull=never --quiet --name cmp-tty "$E2E_IMAGE") || return 1
	cat >"$E2E_DIR/in-tty.sh" <<-'SH'
	tty | sed 's/[0-9]*$/N/'
	[ -t 0 ] && [ -t 1 ] && [ -t 2 ] && echo all-tty
	ls -l "$(tty)" | awk '{print $1, $3, $4}'
	echo "TERM=$TERM"
	exit 5
	SH
	# script(1) at its stdin's end puts a NUL (echoed as ^@) into the output, where depends on timing
	TERM=xterm timeout -k 5 60 script -qec "buildah --root $E2E_DIR/root --runroot $E2E_DIR/runroot \
		--storage-driver overlay run ${RUNTIME_ARGS[*]} -t -v $E2E_DIR/in-tty.sh:/in-tty.sh $c sh /in-tty.sh" \
		/dev/null </dev/null | tr -d '\r\000' | sed 's/\^@//g'
	echo "status ${PIPESTATUS[0]}"
	bh rm "$c" >/dev/null
}

# buildah from, run (writing files), config, commit; then a container of the committed
# image runs and sees them.
case_cmp_from_run_commit() { compare_runtimes from-run-commit from_run_commit_facts; }
from_run_commit_facts() {
	local c c2
	c=$(bh from --pull=never --quiet --name cmp-commit "$E2E_IMAGE") || return 1
	# one stream: Buildah copies a RUN's stdout and stderr apart, their order varies
	bh run "${RUNTIME_ARGS[@]}" "$c" sh -c 'mkdir /made && echo committed > /made/file &&
		echo newuser:x:2000:2000::/made:/bin/sh >> /etc/passwd && echo newuser:x:2000: >> /etc/group &&
		chown -R 2000:2000 /made; id newuser' 2>&1
	bh config --env COMMITTED=yes --workingdir /made --user newuser --cmd 'cat file' "$c" || return 1
	bh commit --quiet "$c" localhost/committed:e2e >/dev/null && bh rm "$c" >/dev/null || return 1
	c2=$(bh from --pull=never --quiet --name cmp-commit2 localhost/committed:e2e) || return 1
	bh run "${RUNTIME_ARGS[@]}" "$c2" sh -c 'id; pwd; echo $COMMITTED; cat file; ls -ln /made | sed 1d | awk "{print \$1, \$3, \$4, \$NF}"'
	echo "status $?"
	bh rm "$c2" >/dev/null
	image_facts localhost/committed:e2e
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
bcase cmp-bud-instructions case_cmp_bud_instructions
bcase cmp-bud-failing-run case_cmp_bud_failing_run
bcase cmp-bud-stdin case_cmp_bud_stdin
bcase cmp-bud-network case_cmp_bud_network
bcase cmp-bud-capabilities case_cmp_bud_capabilities
bcase cmp-bud-seccomp case_cmp_bud_seccomp
bcase cmp-bud-run-mounts case_cmp_bud_run_mounts
bcase cmp-bud-userns case_cmp_bud_userns
bcase cmp-bud-timeout case_cmp_bud_timeout
bcase cmp-bud-many-steps case_cmp_bud_many_steps
bcase cmp-run-flags case_cmp_run_flags
bcase cmp-run-terminal case_cmp_run_terminal
bcase cmp-from-run-commit case_cmp_from_run_commit
bcase bud-failing-run case_bud_failing_run
bcase from-and-run case_from_and_run
bcase kill-during-run case_kill_during_run
bcase teardown case_teardown
bcase difference-rules assert_rules_hold

e2e_summary buildah
