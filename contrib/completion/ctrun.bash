# bash completion for ctrun(8). Installed as share/bash-completion/completions/ctrun;
# for a try-out: source contrib/completion/ctrun.bash
#
# Keep the command list in step with runtime/commands.c (tests/integration/test_docs.c
# checks that every command of `ctrun --help` is here).

_ctrun_global_flags="--root --log --log-format --debug --systemd-cgroup --cgroup-manager
	--rootless --criu --no-verify-mounts --version -v --help -h"
# Global flags followed by a value (skipped when looking for the command).
_ctrun_global_valued="--root --log --log-format --cgroup-manager --rootless --criu"

_ctrun_commands="create start run state list kill delete exec ps pause resume update events
	spec features validate mounts checkpoint restore help"

# Commands whose first argument is a container id.
_ctrun_id_commands="start state kill delete exec ps pause resume update events mounts
	checkpoint restore"

_ctrun_command_flags()
{
	case $1 in
	create) echo "--bundle -b --pid-file --console-socket --no-pivot --no-new-keyring
		--preserve-fds --help" ;;
	run) echo "--bundle -b --pid-file --console-socket --no-pivot --no-new-keyring
		--preserve-fds --detach -d --keep --no-subreaper --help" ;;
	spec) echo "--bundle -b --rootless --help" ;;
	validate) echo "--bundle -b --help" ;;
	list) echo "--format -f --quiet -q --help" ;;
	kill) echo "--all -a --help" ;;
	delete) echo "--force -f --help" ;;
	exec) echo "--process -p --tty -t --cwd --env -e --user -u --additional-gids -g
		--cap -c --no-new-privs --apparmor --process-label --preserve-fds --ignore-paused
		--cgroup --detach -d --pid-file --console-socket --help" ;;
	ps) echo "--format -f --help" ;;
	mounts) echo "--format --help" ;;
	update) echo "--resources -r --memory --memory-reservation --memory-swap --kernel-memory
		--kernel-memory-tcp --cpu-share --cpu-shares --cpu-period --cpu-quota --cpu-rt-period
		--cpu-rt-runtime --cpuset-cpus --cpuset-mems --pids-limit --blkio-weight
		--l3-cache-schema --mem-bw-schema --help" ;;
	events) echo "--stats --interval --help" ;;
	*) echo "--help" ;;
	esac
}

# Flags of a command that take a value (the next word is not a positional argument).
_ctrun_command_valued()
{
	case $1 in
	create | run) echo "--bundle -b --pid-file --console-socket --preserve-fds" ;;
	spec | validate) echo "--bundle -b" ;;
	list | ps | mounts) echo "--format -f" ;;
	exec) echo "--process -p --cwd --env -e --user -u --additional-gids -g --cap -c
		--apparmor --process-label --preserve-fds --pid-file --console-socket --cgroup" ;;
	update) echo "--resources -r --memory --memory-reservation --memory-swap --kernel-memory
		--kernel-memory-tcp --cpu-share --cpu-shares --cpu-period --cpu-quota --cpu-rt-period
		--cpu-rt-runtime --cpuset-cpus --cpuset-mems --pids-limit --blkio-weight
		--l3-cache-schema --mem-bw-schema" ;;
	events) echo "--interval" ;;
	esac
}

_ctrun_in_list()
{
	local word=$1 item
	shift
	for item; do
		[[ $item == "$word" ]] && return 0
	done
	return 1
}

# Container ids from `ctrun list -q`, with the same --root; nothing when that fails (no
# state directory yet, or the command is not implemented in this build).
_ctrun_container_ids()
{
	local prog=$1 root=$2
	prog=${prog/#\~/$HOME}
	if [[ -n $root ]]; then
		"$prog" --root "$root" list -q 2>/dev/null
	else
		"$prog" list -q 2>/dev/null
	fi
	return 0
}

# Both spellings ctrun accepts: SIGTERM and TERM (numbers are not offered).
_ctrun_signals()
{
	local sig
	for sig in $(compgen -A signal); do
		echo "$sig"
		echo "${sig#SIG}"
	done
}

_ctrun_files()
{
	compopt -o filenames 2>/dev/null
	COMPREPLY=($(compgen -f -- "$1"))
}

_ctrun_dirs()
{
	compopt -o filenames 2>/dev/null
	COMPREPLY=($(compgen -d -- "$1"))
}

# Completes the value of a flag; returns 1 when `flag` takes no value.
_ctrun_flag_value()
{
	local flag=$1 cur=$2
	case $flag in
	--root | --bundle | -b | --cwd) _ctrun_dirs "$cur" ;;
	--log | --criu | --pid-file | --console-socket | --process | -p | --resources | -r)
		_ctrun_files "$cur" ;;
	--log-format) COMPREPLY=($(compgen -W "text json" -- "$cur")) ;;
	--cgroup-manager) COMPREPLY=($(compgen -W "cgroupfs systemd disabled" -- "$cur")) ;;
	--rootless) COMPREPLY=($(compgen -W "auto true false" -- "$cur")) ;;
	--format | -f) COMPREPLY=($(compgen -W "table json" -- "$cur")) ;;
	--env | -e | --user | -u | --preserve-fds) COMPREPLY=() ;;
	*) return 1 ;;
	esac
	return 0
}

_ctrun()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local prog=${COMP_WORDS[0]} root="" cmd="" i=1 word nargs=0
	COMPREPLY=()

	# "--root=DIR": bash splits at '=' (COMP_WORDBREAKS), so the flag is two words back.
	if [[ $prev == "=" && $COMP_CWORD -ge 2 ]]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	[[ $cur == "=" ]] && cur=""

	# Global flags and their values, up to the command.
	while ((i < COMP_CWORD)); do
		word=${COMP_WORDS[i]}
		if [[ ${COMP_WORDS[i + 1]} == "=" ]]; then
			[[ $word == --root ]] && root=${COMP_WORDS[i + 2]}
			((i += 3))
			continue
		fi
		if _ctrun_in_list "$word" $_ctrun_global_valued; then
			[[ $word == --root ]] && root=${COMP_WORDS[i + 1]}
			((i += 2))
			continue
		fi
		if [[ $word == -* ]]; then
			[[ $word == --root=* ]] && root=${word#--root=}
			((i++))
			continue
		fi
		cmd=$word
		((i++))
		break
	done

	if [[ -z $cmd ]]; then
		_ctrun_in_list "$prev" $_ctrun_global_valued && _ctrun_flag_value "$prev" "$cur" &&
			return 0
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$_ctrun_global_flags" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$_ctrun_commands" -- "$cur"))
		fi
		return 0
	fi

	# After the command: its flags, their values, then positional arguments.
	local valued
	valued=$(_ctrun_command_valued "$cmd")
	if [[ -n $valued ]] && _ctrun_in_list "$prev" $valued; then
		_ctrun_flag_value "$prev" "$cur" && return 0
	fi
	while ((i < COMP_CWORD)); do
		word=${COMP_WORDS[i]}
		if [[ ${COMP_WORDS[i + 1]} == "=" ]]; then
			((i += 3))
			continue
		fi
		if [[ -n $valued ]] && _ctrun_in_list "$word" $valued; then
			((i += 2))
			continue
		fi
		[[ $word != -* ]] && ((nargs++))
		((i++))
	done

	if [[ $cur == -* ]] && ! { [[ $cmd == exec ]] && ((nargs >= 1)); }; then
		COMPREPLY=($(compgen -W "$(_ctrun_command_flags "$cmd")" -- "$cur"))
		return 0
	fi

	case $cmd in
	help | spec | features | validate | list) ;;
	kill)
		if ((nargs == 0)); then
			COMPREPLY=($(compgen -W "$(_ctrun_container_ids "$prog" "$root")" -- "$cur"))
		elif ((nargs == 1)); then
			COMPREPLY=($(compgen -W "$(_ctrun_signals)" -- "$cur"))
		fi
		;;
	exec)
		if ((nargs == 0)); then
			COMPREPLY=($(compgen -W "$(_ctrun_container_ids "$prog" "$root")" -- "$cur"))
		else
			COMPREPLY=($(compgen -c -- "$cur"))
		fi
		;;
	create | run) ;; # a new id: nothing to offer
	*)
		if ((nargs == 0)) && _ctrun_in_list "$cmd" $_ctrun_id_commands; then
			COMPREPLY=($(compgen -W "$(_ctrun_container_ids "$prog" "$root")" -- "$cur"))
		fi
		;;
	esac
	return 0
}

complete -F _ctrun ctrun
