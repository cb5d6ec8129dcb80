#!/bin/sh
# Checks that every file PINS lists (sha256sum's format: SHA-256, two spaces, name; lines
# starting with # are comments) is in DIR with that SHA-256. Exits 1 with one line on stderr
# naming the first file that is missing or differs.
# Usage: verify-sources.sh PINS DIR
set -eu
pins=$1
dir=$2

fail() {
	echo "$*" >&2
	exit 1
}

entries=$(grep -v -e '^#' -e '^$' "$pins") || fail "$pins: no files pinned"
printf '%s\n' "$entries" | while read -r sum file; do
	case $sum in
	*[!0-9a-f]*) fail "$pins: '$sum $file' is not a SHA-256 and a file name" ;;
	esac
	[ ${#sum} = 64 ] && [ -n "$file" ] || fail "$pins: '$sum $file' is not a SHA-256 and a file name"
	[ -f "$dir/$file" ] || fail "$dir/$file: missing (pinned in $pins)"
	got=$(sha256sum <"$dir/$file")
	got=${got%% *}
	[ "$got" = "$sum" ] || fail "$dir/$file: SHA-256 $got, not the $sum pinned in $pins"
done
