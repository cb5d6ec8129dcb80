#!/usr/bin/env bash
# make bench / make bench-profile: installs crun and runc when missing, then runs bench.py
# (or the script named second, e.g. profile.py) in a private mount namespace with an empty
# tmpfs over /sys/fs/cgroup/unified, so crun 1.8 sees plain cgroup v1 on this v1/v2 hybrid
# host (every runtime gets the same view).
set -euo pipefail
build=${1:-build}
script=${2:-bench.py}
missing=()
for p in crun runc strace; do command -v "$p" >/dev/null || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
here=$(cd "$(dirname "$0")" && pwd)
exec unshare -m --propagation private /bin/sh -c '
	if [ -d /sys/fs/cgroup/unified ]; then mount -t tmpfs none /sys/fs/cgroup/unified; fi
	exec /usr/bin/python3 "$0" "$1"' "$here/$script" "$build"
