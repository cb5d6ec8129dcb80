#!/usr/bin/python3
"""make bench: ctrun vs crun vs runc on one busybox bundle, side by side in one run.

Every runtime gets the same bundle (ctrun spec's default config, process /bin/true) and the
same sequence; the figures are medians, printed with their ratio to crun. This machine is
shared and noisy, so only the ratios mean much. Not a test: no thresholds.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
CTRUN = os.path.join(BUILD, "ctrun")
WORK = os.path.join(BUILD, "bench")
RUNS = int(os.environ.get("BENCH_RUNS", "100"))
REPEAT = int(os.environ.get("BENCH_REPEAT", "20"))


def sh(*args, **kw):
    return subprocess.run(args, check=True, **kw)


def make_bundle():
    bundle = os.path.join(WORK, "bundle")
    shutil.rmtree(bundle, ignore_errors=True)
    bindir = os.path.join(bundle, "rootfs", "bin")
    os.makedirs(bindir)
    shutil.copy("/bin/busybox", bindir)
    applets = subprocess.run(["/bin/busybox", "--list"], capture_output=True, text=True).stdout
    for applet in applets.split():
        if applet != "busybox":
            os.symlink("busybox", os.path.join(bindir, applet))
    sh(CTRUN, "spec", "--bundle", bundle)
    path = os.path.join(bundle, "config.json")
    with open(path) as f:
        config = json.load(f)
    config["process"]["args"] = ["/bin/true"]
    config["ociVersion"] = "1.0.2-dev"  # crun 1.8 knows no later version
    with open(path, "w") as f:
        json.dump(config, f, indent=2)
    # the container `exec` goes into: the same rootfs, a process that waits
    sleeper = os.path.join(WORK, "bundle-sleep")
    shutil.rmtree(sleeper, ignore_errors=True)
    os.makedirs(sleeper)
    config["process"]["args"] = ["sleep", "1000"]
    config["root"]["path"] = os.path.join(bundle, "rootfs")
    with open(os.path.join(sleeper, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    return bundle


def runtimes():
    """name -> argv prefix; crun without cgroups is the like-for-like reference while ctrun
    has no cgroup driver yet (cgroups issue), crun/runc with cgroupfs are shown too."""
    out = {"ctrun": [CTRUN, "--root", os.path.join(WORK, "root-ctrun")]}
    if shutil.which("crun"):
        out["crun"] = ["crun", "--cgroup-manager=disabled", "--root",
                       os.path.join(WORK, "root-crun")]
        out["crun+cgroups"] = ["crun", "--root", os.path.join(WORK, "root-crun-cg")]
    if shutil.which("runc"):
        out["runc+cgroups"] = ["runc", "--root", os.path.join(WORK, "root-runc")]
    return out


MAXRSS = os.path.join(WORK, "maxrss")


def peak_rss(argv):
    """Peak RSS (KiB) of one command, measured by the small C launcher."""
    out = os.path.join(WORK, "maxrss.out")
    subprocess.run([MAXRSS, out] + argv, check=True, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out) as f:
        return int(f.read())


def timed(argv):
    """Wall time of one command."""
    # stderr goes to a file: a created container keeps the runtime's stdio open
    with open(os.path.join(WORK, "stderr"), "w+") as errfile:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=errfile)
        _, status = os.waitpid(proc.pid, 0)
        elapsed = time.perf_counter() - start
        errfile.seek(0)
        err = errfile.read()
    if status != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(argv), status, err.strip()))
    return elapsed


def wait_stopped(rt, cid):
    for _ in range(1000):
        out = subprocess.run(rt + ["state", cid], capture_output=True, text=True).stdout
        if '"stopped"' in out:
            return
        time.sleep(0.001)
    raise RuntimeError("container %s never stopped" % cid)


def exec_times(name, rt):
    """`exec CID /bin/true` into one running container, REPEAT times; median (ms)."""
    cid = "ctrun-bench-exec-%s" % name.replace("+", "-")
    timed(rt + ["run", "--detach", "--bundle", os.path.join(WORK, "bundle-sleep"), cid])
    try:
        return statistics.median(timed(rt + ["exec", cid, "/bin/true"])
                                 for _ in range(REPEAT)) * 1000
    finally:
        sh(*rt, "delete", "--force", cid)


def measure(name, rt, bundle):
    ids = ["ctrun-bench-%s-%d" % (name.replace("+", "-"), i) for i in range(REPEAT)]
    start = time.perf_counter()
    for i in range(RUNS):
        timed(rt + ["run", "--bundle", bundle, "ctrun-bench-run-%d" % i])
    run_total = time.perf_counter() - start
    create, start_t, delete, rss = [], [], [], []
    for cid in ids:
        create.append(timed(rt + ["create", "--bundle", bundle, cid]))
        start_t.append(timed(rt + ["start", cid]))
        wait_stopped(rt, cid)
        delete.append(timed(rt + ["delete", cid]))
        rss.append(peak_rss(rt + ["run", "--bundle", bundle, cid]))
    return {
        "run x%d (s)" % RUNS: run_total,
        "create (ms)": statistics.median(create) * 1000,
        "start (ms)": statistics.median(start_t) * 1000,
        "delete (ms)": statistics.median(delete) * 1000,
        "peak RSS of run (KiB)": max(rss),
        "exec /bin/true (ms)": exec_times(name, rt),
    }


def check_cost(bundle):
    """create with and without the mount check, alternating so that both see the same
    machine; returns the two medians (ms)."""
    root = os.path.join(WORK, "root-ctrun-check")
    with_check, without = [], []
    for i in range(2 * REPEAT):
        flags = [] if i % 2 == 0 else ["--no-verify-mounts"]
        cid = "ctrun-bench-check-%d" % i
        rt = [CTRUN, "--root", root] + flags
        (with_check if not flags else without).append(
            timed(rt + ["create", "--bundle", bundle, cid]))
        sh(CTRUN, "--root", root, "delete", "--force", cid)
    return statistics.median(with_check) * 1000, statistics.median(without) * 1000


def cleanup_cgroups():
    """crun/runc with cgroupfs make /sys/fs/cgroup/<controller>/<id> for our ids: remove
    those (and only those) if a failed run left any behind."""
    base = "/sys/fs/cgroup"
    for controller in os.listdir(base):
        path = os.path.join(base, controller)
        if not os.path.isdir(path) or os.path.islink(path):
            continue
        for entry in os.listdir(path):
            if entry.startswith("ctrun-bench-"):
                try:
                    os.rmdir(os.path.join(path, entry))
                except OSError:
                    pass


def main():
    os.makedirs(WORK, exist_ok=True)
    for entry in os.listdir(WORK):  # state roots of an interrupted earlier run
        if entry.startswith("root-"):
            shutil.rmtree(os.path.join(WORK, entry), ignore_errors=True)
    bundle = make_bundle()
    sh("cc", "-O2", "-o", MAXRSS, os.path.join(os.path.dirname(__file__), "maxrss.c"))
    floor = peak_rss(["/bin/true"])
    results = {}
    try:
        for name, rt in runtimes().items():
            try:
                results[name] = measure(name, rt, bundle)
            except RuntimeError as e:
                print("bench: %s: %s" % (name, e), file=sys.stderr)
    finally:
        cleanup_cgroups()
    names = list(results)
    rows = list(next(iter(results.values())).keys())
    ref = results.get("crun")
    print("%-26s" % "" + "".join("%16s" % n for n in names))
    for row in rows:
        line = "%-26s" % row
        for n in names:
            v = results[n][row]
            ratio = " (%.2fx)" % (v / ref[row]) if ref and ref[row] else ""
            line += "%16s" % (("%.1f" % v if v >= 10 else "%.3f" % v) + ratio)
        print(line)
    print("peak RSS floor (the launcher running /bin/true): %d KiB" % floor)
    checked, unchecked = check_cost(bundle)
    print("ctrun create with the mount check %.3f ms, without %.3f ms: the check costs %.1f%%"
          % (checked, unchecked, 100 * (checked - unchecked) / unchecked))
    print("ratios are to crun (cgroup manager disabled); medians of %d, run is %d in a row"
          % (REPEAT, RUNS))


if __name__ == "__main__":
    main()
