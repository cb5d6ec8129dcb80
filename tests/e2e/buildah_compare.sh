#!/usr/bin/env bash
# The Buildah suite's differential cases: one case function run with buildah pointed at
# ctrun, then at runc 1.1.5 and crun 1.8.1, each printing the facts a Buildah user sees
# (exit status, the build's output, the image's files and config); ctrun's facts must be
# runc's and crun's, but for the rows of docs/differences-from-runc.md's "Where the Buildah
# suite sees them". Sourced after buildah_env.sh; needs E2E_DIR, CTRUN.

# ctrun first: the others are compared with it.
COMPARED_RUNTIMES=("$CTRUN" "$(command -v runc)")

# crun 1.8.1 refuses the hybrid layout: it runs with cgroup2 hidden under an empty tmpfs,
# which only a mount namespace of the suite's own may get.
crun_comparable() {
	command -v crun >/dev/null || { echo "crun is not installed"; return 1; }
	[ "$(readlink /proc/self/ns/mnt)" != "$(readlink /proc/1/ns/mnt)" ] ||
		{ echo "not in a private mount namespace (cgroup2 cannot be hidden for crun)"; return 1; }
	[ -d /sys/fs/cgroup/unified ] || { echo "no /sys/fs/cgroup/unified to hide"; return 1; }
}
if why=$(crun_comparable); then
	COMPARED_RUNTIMES+=("$(command -v crun)")
else
	echo "buildah e2e: the cases are compared with runc only: $why"
fi

runtime_name() { basename "$1"; }

compared_with() { # NAME
	local rt
	for rt in "${COMPARED_RUNTIMES[@]}"; do [ "$(runtime_name "$rt")" != "$1" ] || return 0; done
	return 1
}

# Buildah 1.28 keeps what RUN --mount=type=cache mounts in $TMPDIR/buildah-cache (the
# suite's own TMPDIR: buildah_env.sh).
remove_cache() { rm -rf "$TMPDIR/buildah-cache"; }

# Runs CMD... with buildah pointed at RUNTIME (cgroup2 hidden for crun) and an empty cache
# for RUN --mount=type=cache, so that no runtime sees what the one before left there.
with_runtime() { # RUNTIME CMD...
	local rt=$1 status hide=
	shift
	buildah_runtime_args "$rt"
	remove_cache
	[ "$(runtime_name "$rt")" != crun ] || hide=e2e_without_cgroup2
	$hide "$@"
	status=$?
	buildah_runtime_args "$CTRUN"
	return $status
}

# What differs between runtimes and means nothing to a Buildah user: digests and short
# ids, the runtime's path, the generated container names, and the image copy's progress.
normalise_facts() {
	sed -E -e '/^(Getting image source signatures|Copying (blob|config) |Writing manifest|Storing signatures)/d' \
		-e "s#($CTRUN|$(command -v runc)|$(command -v crun || echo /nonexistent))#<runtime>#g" \
		-e 's/[0-9a-f]{64}/<digest>/g' -e 's/--> [0-9a-f]{11,12}$/--> <id>/' \
		-e 's/buildah-buildah[0-9]+/<container>/g' -e 's/[a-z0-9]+-working-container(-[0-9]+)?/<working-container>/g'
}

# The documented differences the suite accepts: the rules of the table "Where the Buildah
# suite sees them" (key | vs | case | ctrun fact | other fact, the last three shell
# patterns), one a line.
buildah_rules() {
	sed -n '/^## Where the Buildah suite sees them/,/^## [^W]/p' "$CTRUN_SRC/docs/differences-from-runc.md" |
		grep '^| `'
}

# Whether a rule accepts the pair; the rule that did is noted in rules-used.
accepted_difference() { # CASE OTHER CTRUN_LINE OTHER_LINE
	local key vs case ours theirs
	while IFS='|' read -r _ key vs case ours theirs _; do
		key=$(unquote_cell "$key") vs=$(unquote_cell "$vs") case=$(unquote_cell "$case")
		ours=$(unquote_cell "$ours") theirs=$(unquote_cell "$theirs")
		# shellcheck disable=SC2053
		if [[ $vs == "$2" && $1 == $case && $3 == $ours && $4 == $theirs ]]; then
			echo "$key $vs" >>"$E2E_DIR/rules-used"
			return 0
		fi
	done < <(buildah_rules)
	return 1
}

# Every rule names a row of a differences table, and (after a run of every case) accepted
# a difference: a rule cannot outlive what it describes.
assert_rules_hold() {
	local key vs bad=
	while IFS='|' read -r _ key vs _; do
		key=$(unquote_cell "$key") vs=$(unquote_cell "$vs")
		[ "$(grep -c "^| \`$key\` |" "$CTRUN_SRC/docs/differences-from-runc.md")" -gt "$(buildah_rules | grep -c "^| \`$key\` |")" ] ||
			bad+=" $key(no row)"
		[ -n "${E2E_CASES:-}" ] || ! compared_with "$vs" || grep -qx "$key $vs" "$E2E_DIR/rules-used" 2>/dev/null ||
			bad+=" $key/$vs(unused)"
	done < <(buildah_rules)
	[ -z "$bad" ] || e2e_fail "rules of \"Where the Buildah suite sees them\":$bad"
}

unquote_cell() { sed -E 's/^ *`?//; s/`? *$//' <<<"$1"; }

# ctrun's facts against OTHER's, line by line (same count expected): every differing pair
# must be an accepted row.
compare_facts() { # CASE OTHER CTRUN_FILE OTHER_FILE
	local bad=0 ours theirs
	if [ "$(wc -l <"$3")" != "$(wc -l <"$4")" ]; then
		e2e_log "  $1: ctrun and $2 printed a different number of facts:"
		diff -u "$4" "$3" | grep '^[-+]' | sed 's/^/       /' >&2
		return 1
	fi
	while IFS= read -r ours <&3 && IFS= read -r theirs <&4; do
		[ "$ours" = "$theirs" ] && continue
		accepted_difference "$1" "$2" "$ours" "$theirs" && continue
		e2e_log "  $1: ctrun [$ours], $2 [$theirs]"
		bad=1
	done 3<"$3" 4<"$4"
	return $bad
}

# The differential case: FN RUNTIME_NAME prints its facts, under each runtime in turn.
compare_runtimes() { # CASE FN
	local case=$1 fn=$2 rt name out=$E2E_DIR/facts status=0
	mkdir -p "$out" || return 1
	for rt in "${COMPARED_RUNTIMES[@]}"; do
		name=$(runtime_name "$rt")
		with_runtime "$rt" "$fn" "$name" 2>&1 | normalise_facts >"$out/$case.$name"
		runtime_left_nothing "$rt" || status=1
	done
	[ -s "$out/$case.ctrun" ] || e2e_fail "$case printed no facts" || return 1
	for rt in "${COMPARED_RUNTIMES[@]:1}"; do
		compare_facts "$case" "$(runtime_name "$rt")" "$out/$case.ctrun" "$out/$case.$(runtime_name "$rt")" ||
			status=1
	done
	return $status
}

# Nothing of the containers RUNTIME ran stays in its state root.
runtime_left_nothing() { # RUNTIME
	local root
	root=$(state_root "$1")
	[ -z "$(ls -A "$root")" ] || e2e_fail "$(runtime_name "$1") left state in $root: $(ls -A "$root")"
}
