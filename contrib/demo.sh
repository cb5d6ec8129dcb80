#!/usr/bin/env bash
# make demo: a busybox bundle under build/demo, its config from `ctrun spec`, and one
# container run from it that shows what it sees: hostname, id, pid 1 and its mounts.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
ctrun=$build/ctrun
demo=$build/demo
rm -rf "$demo"
mkdir -p "$demo/rootfs/bin"
cp /bin/busybox "$demo/rootfs/bin/"
for applet in $("$demo/rootfs/bin/busybox" --list); do
	[ "$applet" = busybox ] || ln -s busybox "$demo/rootfs/bin/$applet"
done
"$ctrun" spec --bundle "$demo"
/usr/bin/python3 - "$demo/config.json" <<'PY'
import json, sys
path = sys.argv[1]
config = json.load(open(path))
config["process"]["args"] = ["sh", "-c",
    "echo \"hostname: $(hostname)\"; echo \"id: $(id)\"; "
    "echo \"pid 1: $(cat /proc/1/cmdline | tr '\\0' ' ')\"; echo mounts:; cat /proc/self/mounts"]
json.dump(config, open(path, "w"), indent=2)
PY
"$ctrun" validate --bundle "$demo"
echo "--- ctrun run --bundle $demo demo"
# a private mount namespace: nothing the demo mounts can stay on the host
exec unshare -m --propagation private "$ctrun" --root "$build/demo-root" run --bundle "$demo" \
	"demo-$$"
