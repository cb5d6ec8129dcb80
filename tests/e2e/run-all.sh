#!/usr/bin/env bash
# make check-e2e: every suite tests/e2e/*_e2e.sh with the real clients (Podman + conmon,
# containerd + its runc shim) driving the ctrun built in $1, each in a private mount
# namespace so a failure cannot leave a mount on the host. Fails if any suite fails.
set -uo pipefail
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
status=0
for suite in "$here"/*_e2e.sh; do
	[ -e "$suite" ] || continue
	echo "== $(basename "$suite")"
	CTRUN="$build/ctrun" CTRUN_SRC=$(dirname "$(dirname "$here")") \
		unshare -m --propagation private bash "$suite" || status=1
done
exit $status
