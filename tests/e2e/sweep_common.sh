#!/usr/bin/env bash
# Shared by the side-by-side sweeps (podman_diff.sh, docker_diff.sh): a case's steps, the
# normaliser, the accepted differences and the judge. Sourced after common.sh; the sweep sets
# SWEEP_NAME (its name in messages), SWEEP_OUT (where each run's normalised output goes),
# E2E_DIR, ACCEPTED, and defines sweep_case_raw CASE-FN (runs it, output in $E2E_DIR/raw) and
# sweep_select_runtime VARIANT.

# One step of a case: its label, the command's stdout, its stderr marked, its status.
step() { # LABEL CMD...
	local label=$1 status
	shift
	echo "-- $label"
	"$@" >"$E2E_DIR/step.out" 2>"$E2E_DIR/step.err" </dev/null
	status=$?
	cat "$E2E_DIR/step.out"
	sed 's/^/stderr: /' "$E2E_DIR/step.err"
	echo "status: $status"
}

# Host namespaces and what names them inside, for the normaliser.
SWEEP_HOST_NS=$(for n in cgroup ipc mnt net pid time user uts; do readlink /proc/self/ns/$n; done)
ns_rules() {
	local link
	for link in $SWEEP_HOST_NS; do
		printf 's/%s/%s/g\n' "$(echo "$link" | sed 's/[][]/\\&/g')" "${link%%:*}:[host]"
	done
	echo 's/([a-z_]+):\[[0-9]+\]/\1:[new]/g'
}

# What differs between two runs of the same command for reasons of no interest.
normalise() {
	tr -d '\r' | sed -E \
		-e "s#$E2E_DIR#<dir>#g" -e "s#$CTRUN#<runtime>#g" \
		-e 's#/usr/s?bin/(runc|crun)#<runtime>#g' \
		-e 's/\b(ctrun|runc|crun)\b/<rt>/g' \
		-e 's/\b[0-9a-f]{64}\b/<id>/g' -e 's/\b[0-9a-f]{12}\b/<id12>/g' \
		-e 's/lowerdir=[^ ]*workdir=[^ ,]*/<overlay-dirs>/g' \
		-e 's/\b[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9:.]+( ?[+-][0-9]{2}:?[0-9]{2})?( [A-Z]{3,4})?Z?/<time>/g' \
		-e 's/(Less than a second|About an? [a-z]+|[0-9]+ [a-z]+) ago/<ago>/g' \
		-e 's/Up (Less than a second|About an? [a-z]+|[0-9]+ [a-z]+)/Up <ago>/g' \
		-f <(ns_rules)
}

# ACCEPTED holds "CASES;RUNTIME;LINE-REGEX;KEY", one per entry: a line of the diff of a case
# whose name matches the pattern CASES against RUNTIME's run that matches LINE-REGEX (the
# diff's +/- included: + is ctrun's line, - the other's) is explained by the row KEY of
# docs/differences-from-runc.md. Nothing else is: a difference is a row or a bug.
# What any client shows of the runtimes' own differences (mounts, devices), in the form of
# ACCEPTED; a sweep's list starts with these.
SWEEP_RUNTIME_ACCEPTED=(
	'*;runc;^[-+]/ /sys/fs/cgroup r[ow],.* - tmpfs ;cgroup-tmpfs-ro'
	'*;runc;^\+/[^ ]* /sys/fs/cgroup/unified .* - cgroup2 ;cgroup-unified'
	'namespaces;runc;^[-+]/ /sys/fs/cgroup/systemd .* - cgroup (systemd|cgroup) rw,name=systemd$;cgroupns-systemd-source'
	'*;runc;^[-+]/ /[^ ]+ ro,relatime - tmpfs tmpfs ro(,size=0k,mode=555)?(,uid=[0-9]+,gid=[0-9]+)?$;masked-dir-tmpfs'
	'*;runc;^[-+]/null /[^ ]+ (ro|rw|rw,nosuid|rw,nosuid,noexec)(,relatime)? - (dev)?tmpfs ;masked-file-ro'
	'*;runc;^[-+]/dev/mqueue drwxrwxrwt 0:(0|65534) ;mqueue-group-userns'
	'personality;runc;^[-+](x86_64|i686)$;personality'
	'*;crun;^[-+]/ /sys ro,.* - sysfs sysfs r[ow]$;crun-sysfs-superblock'
	'*;crun;^[-+]/ /sys/fs/cgroup r[ow],.* - tmpfs (tmpfs|cgroup) ;crun-cgroup-tmpfs'
	'*;crun;^[-+]/ /[^ ]+ ro,relatime - tmpfs tmpfs r[ow],size=0k(,mode=555)?(,uid=[0-9]+,gid=[0-9]+)?$;crun-masked-dir-mode'
	'namespaces;crun;^[-+]/ /sys/fs/cgroup/[a-z_,]+ .* - cgroup (cgroup|/sys/fs/cgroup/[a-z_,]+) ;crun-cgroupns-source'
	'*;crun;^[-+]/null /[^ ]+ ro(,relatime)? - (dev)?tmpfs ;crun-masked-file-source'
	'*;crun;^[-+]/(bus|fs|irq|sys|sysrq-trigger) /proc/[^ ]+ ro,;crun-readonly-path-flags'
	'*;crun;^-'\''/dev/core'\'' -> '\''/proc/kcore'\'';crun-dev-core'
	'*;crun;^[-+]devices/devices.list: ;crun-default-devices'
	'*;crun;^[-+]/[a-z]+ /dev/[a-z]+ rw,(nosuid,noexec,)?relatime - (dev)?tmpfs ;crun-userns-device-binds'
	'*;crun;^[-+]HOME=/?$;crun-home-no-entry'
	'userns;crun;^[-+]/dev/null crw-rw-rw- (0:0|65534:65534) 1:3$;crun-stdio-owner'
)

accepted_key() { # CASE RUNTIME DIFF-LINE
	local entry cases rt re key
	for entry in "${ACCEPTED[@]}"; do
		IFS=';' read -r cases rt re key <<<"$entry"
		# shellcheck disable=SC2254 # CASES is a pattern
		case $1 in $cases) ;; *) continue ;; esac
		[ "$rt" = "$2" ] && [[ "$3" =~ $re ]] && { echo "$key"; return 0; }
	done
	return 1
}

# Every key the list names is a row of the document.
check_accepted_keys() {
	local entry cases rt re key bad=0
	for entry in "${ACCEPTED[@]}"; do
		IFS=';' read -r cases rt re key <<<"$entry"
		grep -qF "| \`$key\` |" "$CTRUN_SRC/docs/differences-from-runc.md" && continue
		echo "$SWEEP_NAME: $key (accepted for $cases under $rt) is no row of docs/differences-from-runc.md" >&2
		bad=1
	done
	return $bad
}

# Runs CASE under VARIANT (a -v1 variant with cgroup2 hidden) into SWEEP_OUT, normalised.
run_variant() { # CASE VARIANT
	local fn=case_${1//-/_} variant=$2 hide=
	sweep_select_runtime "$variant"
	case $variant in *-v1) hide=e2e_without_cgroup2 ;; esac
	# Else raw would still hold the run before's output.
	$hide sweep_case_raw "$fn" || { echo "$SWEEP_NAME: $1 $variant: cgroup2 could not be hidden" >&2; exit 1; }
	normalise <"$E2E_DIR/raw" >"$SWEEP_OUT/$1.$variant"
}

# Prints the diff of CASE, ctrun's run against OTHER's; returns 1 when a line of it is not
# accepted.
judge() { # CASE CTRUN-VARIANT OTHER-VARIANT
	local line key bad=0
	[ -e "$SWEEP_OUT/$1.$2" ] && [ -e "$SWEEP_OUT/$1.$3" ] || return 0
	diff -u --label "$3" --label "$2" "$SWEEP_OUT/$1.$3" "$SWEEP_OUT/$1.$2" >"$E2E_DIR/diff" && return 0
	while IFS= read -r line; do
		case $line in
		"--- "* | "+++ "* | @@*) echo "  $line" ;;
		[-+]*)
			if key=$(accepted_key "$1" "${3%-v1}" "$line"); then
				echo "  $line    [accepted: $key]"
			else
				echo "! $line"
				bad=1
			fi
			;;
		*) echo "  $line" ;;
		esac
	done <"$E2E_DIR/diff"
	return $bad
}

# Runs every case of CASES (those of SELECTED only, when set) under each of VARIANTS (ctrun
# runc ctrun-v1 crun-v1), judges ctrun against runc and against crun, prints the verdicts;
# returns 1 when a case differs beyond ACCEPTED.
sweep_all() { # SELECTED VARIANTS
	local selected=$1 variants=$2 c v verdict failed=() started=$SECONDS
	command -v crun >/dev/null || variants=${variants//crun-v1/}
	e2e_hybrid_cgroups || variants=${variants//ctrun-v1/}
	for c in "${CASES[@]}"; do
		case " ${selected:-$c} " in *" $c "*) ;; *) continue ;; esac
		for v in $variants; do run_variant "$c" "$v"; done
		verdict=same
		judge "$c" ctrun runc >"$E2E_DIR/judged" || verdict=differs
		if e2e_hybrid_cgroups; then
			judge "$c" ctrun-v1 crun-v1 >>"$E2E_DIR/judged" || verdict=differs
		else
			judge "$c" ctrun crun-v1 >>"$E2E_DIR/judged" || verdict=differs
		fi
		printf '%-8s %s\n' "$verdict" "$c"
		[ ! -s "$E2E_DIR/judged" ] || cat "$E2E_DIR/judged"
		[ "$verdict" = same ] || failed+=("$c")
	done
	echo "$SWEEP_NAME: ${#failed[@]} case(s) with differences not accepted${failed[*]:+: ${failed[*]}} ($((SECONDS - started)) s)"
	[ "${#failed[@]}" = 0 ]
}
