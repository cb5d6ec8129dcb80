#!/usr/bin/env bash
# The cases, and the steps of cases, the Podman and Docker sweeps run alike: the same
# invocation but for the client. Sourced after sweep_common.sh; the sweep sets SWEEP_CLIENT
# (its client function: pm, dk) and SWEEP_X (the name exec_target gives its container) and
# defines exec_target RUN-ARGS, tty_step and inspect_state.

# exec's everyday failures and its view of the container; case_exec_plain of each sweep.
exec_plain_steps() {
	step exec "$SWEEP_CLIENT" exec "$SWEEP_X" probe $ALL oom
	step "exec exit 5" "$SWEEP_CLIENT" exec "$SWEEP_X" sh -c 'exit 5'
	step "exec missing" "$SWEEP_CLIENT" exec "$SWEEP_X" nosuchcommand
	step "exec not executable" "$SWEEP_CLIENT" exec "$SWEEP_X" /etc/passwd
	step "exec pid 1" "$SWEEP_CLIENT" exec "$SWEEP_X" sh -c 'tr "\0" " " </proc/1/cmdline'
}
case_exec_user() {
	exec_target || return 1
	step "exec -u 1000:1000" "$SWEEP_CLIENT" exec -u 1000:1000 "$SWEEP_X" probe id status env
	step "exec -u user" "$SWEEP_CLIENT" exec -u user "$SWEEP_X" probe id env
	step "exec -u 2000" "$SWEEP_CLIENT" exec -u 2000 "$SWEEP_X" probe id env
	step "exec -u nosuch" "$SWEEP_CLIENT" exec -u nosuch "$SWEEP_X" id
}
case_exec_workdir_env() {
	exec_target -e FROM_RUN=1 || return 1
	step "exec -w -e" "$SWEEP_CLIENT" exec -w /tmp -e FOO=bar -e FROM_RUN=2 "$SWEEP_X" probe cwd env
	step "exec -w missing" "$SWEEP_CLIENT" exec -w /no/such "$SWEEP_X" pwd
	step "exec --env-file" "$SWEEP_CLIENT" exec --env-file "$E2E_DIR/env-file" "$SWEEP_X" probe env
}
case_exec_tty() {
	exec_target || return 1
	tty_step "exec -t" '' "exec -t $SWEEP_X probe tty fds"
	tty_step "exec -it" 'echo typed-$((6*7))\nexit 6\n' "exec -it $SWEEP_X sh"
}
# A detached exec, seen from a second one; case_exec_detach of each sweep, before its top.
exec_detach_steps() {
	step "exec -d" "$SWEEP_CLIENT" exec -d "$SWEEP_X" sh -c 'echo detached > /tmp/d; exec sleep 1000'
	step "wait for it" "$SWEEP_CLIENT" exec "$SWEEP_X" sh -c 'while [ ! -s /tmp/d ]; do sleep 0.05; done; cat /tmp/d; ps -o comm,args'
}
# exec with and without --privileged in a container without capabilities; case_exec_privileged
# of each sweep, after its exec_target.
exec_privileged_steps() {
	step "exec" "$SWEEP_CLIENT" exec "$SWEEP_X" probe status
	step "exec --privileged" "$SWEEP_CLIENT" exec --privileged "$SWEEP_X" probe status
}

# pid 1 ignoring TERM, then killed: what exec, wait and logs show; case_kill_signals of each
# sweep, after its USR1 and HUP.
kill_unhandled_steps() { # NAME
	step "kill TERM (pid 1 ignores it)" "$SWEEP_CLIENT" kill -s TERM "$1"
	step "exec after TERM" "$SWEEP_CLIENT" exec "$1" echo alive
	step "kill KILL" "$SWEEP_CLIENT" kill "$1"
	step wait "$SWEEP_CLIENT" wait "$1"
	inspect_state "$1"
	step logs "$SWEEP_CLIENT" logs "$1"
}

# A restart, then what the container counted of its starts; case_wait_restart of each sweep,
# after its start_named.
restart_steps() { # NAME
	step restart "$SWEEP_CLIENT" restart -t 0 "$1"
	step "exec count" "$SWEEP_CLIENT" exec "$1" cat /tmp/count
	inspect_state "$1"
}

# Waits (bounded) until NAME, run with a restart policy, has been restarted COUNT times and
# has exited (the client restarts it after the exit: there is no event to wait for alone).
wait_restarts() { # NAME COUNT
	local try
	for try in $(seq 600); do
		[ "$("$SWEEP_CLIENT" inspect --format '{{.RestartCount}} {{.State.Status}}' "$1")" != "$2 exited" ] ||
			return 0
		sleep 0.1
	done
	echo "$1: not restarted $2 times and exited"
	return 1
}

# A step whose command runs under script(1): the client then has a terminal, as a user at a
# shell has. INPUT is what is typed; then only the lines of output that hold typed-<number>
# count (where the terminal's echo of the input and the prompts fall races with the shell's
# start). The sweep's tty_client prints the client's command line.
tty_step() { # LABEL INPUT CLIENT-ARGS
	local label=$1 input=$2 status
	echo "-- $label"
	printf '%b' "$input" | timeout -k 5 90 script -qec "$(tty_client) $3" /dev/null \
		>"$E2E_DIR/step.out" 2>&1
	status=$?
	if [ -n "$input" ]; then
		tr -d '\r' <"$E2E_DIR/step.out" | grep -aoE 'typed-[0-9]+$'
	else
		tr -d '\r' <"$E2E_DIR/step.out"
	fi
	echo "status: $status"
}
