#!/usr/bin/python3
"""make bench: ctrun vs crun vs runc vs a bare C launcher (the floor), side by side in one run.

Every runtime gets the same busybox rootfs and the same config.json: `ctrun spec`'s default
(all default mounts, masked and read-only paths, capabilities, network namespace) with
cgroups, under a cgroupsPath below the bench's own cgroup; only the last component of that
path differs between containers, so that containers alive at the same time have their own.
The runtimes take turns in every iteration (round-robin, in shuffled order), so machine
noise hits all alike; figures are medians, printed with their ratio to crun. This machine
is shared and noisy: the ratios mean more than the milliseconds. Not a test: no thresholds.

BENCH_ITER (default 20) sets the iterations per row; BENCH_SEQ_ROUNDS (default 3) how many
times the 100 sequential runs are repeated; BENCH_PARALLEL_ROUNDS (default BENCH_ITER / 5, at
least 3) how many bursts of 20 parallel runs each runtime gets. BENCH_EXTRA adds runtimes to
every row, for an A/B in one run: "name=command [flags]", several separated by ";", e.g.
BENCH_EXTRA="nocheck=build/ctrun --no-verify-mounts;old=/tmp/ctrun-old".
"""
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time

BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
CTRUN = os.path.join(BUILD, "ctrun")
WORK = os.path.join(BUILD, "bench")
TOOLS = os.path.join(BUILD, "bench")  # maxrss, floor and launch, built by make bench
LAUNCH = os.path.join(TOOLS, "launch")
ITER = int(os.environ.get("BENCH_ITER", "20"))
SEQ_ROUNDS = int(os.environ.get("BENCH_SEQ_ROUNDS", "3"))
SEQ_RUNS = 100
LIST_CONTAINERS = 100
PARALLEL = 20
PARALLEL_ROUNDS = int(os.environ.get("BENCH_PARALLEL_ROUNDS", max(3, ITER // 5)))
MEM_STEP = 32 * 1024
MEM_MAX = 64 * 1024 * 1024
CGROUP_ROOT = "/sys/fs/cgroup"
TIMEOUT = 60
PREFIX = "ctrun-bench-"


class Failed(RuntimeError):
    pass


def sh(*args, **kw):
    return subprocess.run(args, check=True, timeout=TIMEOUT, **kw)


def own_cgroup():
    """The bench's memory cgroup: containers go below it, so they stay inside whatever
    limit the caller lives under. Absolute, because crun reads a relative cgroupsPath from
    the hierarchy's root and runc and ctrun from the caller's cgroup."""
    with open("/proc/self/cgroup") as f:
        for line in f:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            if "memory" in controllers.split(","):
                return path.rstrip("/")
    return ""


CG_BASE = own_cgroup() + "/ctrun-bench"


def v1_hierarchies():
    """Directory names under /sys/fs/cgroup of the mounted v1 hierarchies (not symlinks)."""
    out = []
    for name in sorted(os.listdir(CGROUP_ROOT)):
        path = os.path.join(CGROUP_ROOT, name)
        if os.path.isdir(path) and not os.path.islink(path) and name != "unified" and \
                os.path.exists(os.path.join(path, "cgroup.procs")):
            out.append(name)
    return out


def made_cgroup_ancestors():
    """The directories of CG_BASE and its parents that do not exist yet in some hierarchy:
    the bench removes these (and only these) at the end."""
    parts = CG_BASE.strip("/").split("/")
    out = []
    for h in v1_hierarchies():
        for i in range(len(parts)):
            path = os.path.join(CGROUP_ROOT, h, *parts[:i + 1])
            if not os.path.exists(path):
                out.append(path)
    return out


def remove_cgroups(made):
    """Removes the bench's cgroup subtree and the ancestors it made, deepest first; a
    directory still in use stays (rmdir refuses it)."""
    for h in v1_hierarchies():
        base = os.path.join(CGROUP_ROOT, h, CG_BASE.strip("/"))
        if not os.path.isdir(base):
            continue
        for dirpath, _, _ in sorted(os.walk(base), key=lambda e: -e[0].count("/")):
            try:
                os.rmdir(dirpath)
            except OSError:
                pass
    for path in sorted(made, key=lambda p: -p.count("/")):
        try:
            os.rmdir(path)
        except OSError:
            pass


# ---- bundles ----

ROOTFS = os.path.join(WORK, "rootfs")
STATE = os.path.join(WORK, "state")


def mount_state_tmpfs():
    """The state roots on a tmpfs, as /run is on most hosts: a runtime's state files then
    cost what they cost there, not what this machine's disk journal makes of them. Only in
    the bench's private mount namespace (bench.sh); gone with it."""
    os.makedirs(STATE, exist_ok=True)
    sh("mount", "-t", "tmpfs", "-o", "mode=0700", "ctrun-bench-state", STATE)
BASE_CONFIG = {}


def make_rootfs():
    shutil.rmtree(ROOTFS, ignore_errors=True)
    bindir = os.path.join(ROOTFS, "bin")
    os.makedirs(bindir)
    shutil.copy("/bin/busybox", bindir)
    for applet in ("true", "sleep", "sh"):
        os.symlink("busybox", os.path.join(bindir, applet))
    spec = os.path.join(WORK, "spec")
    shutil.rmtree(spec, ignore_errors=True)
    os.makedirs(spec)
    sh(CTRUN, "spec", "--bundle", spec)
    with open(os.path.join(spec, "config.json")) as f:
        BASE_CONFIG.update(json.load(f))
    BASE_CONFIG["ociVersion"] = "1.0.2-dev"  # crun 1.8 knows no later version
    BASE_CONFIG["root"]["path"] = ROOTFS


def bundle(name, args, slot, mem_limit=None):
    """A bundle directory whose config is the shared one with process args, the cgroup
    leaf (name-slot) and optionally a memory limit; made once, reused."""
    path = os.path.join(WORK, "bundles", "%s-%s" % (name, slot))
    if mem_limit is not None:
        path += "-mem%d" % mem_limit
    if "sleep" in args:
        path += "-sleep"
    if os.path.exists(os.path.join(path, "config.json")):
        return path
    os.makedirs(path, exist_ok=True)
    config = json.loads(json.dumps(BASE_CONFIG))
    config["process"]["args"] = args
    config["linux"]["cgroupsPath"] = "%s/%s-%s" % (CG_BASE, name, slot)
    if mem_limit is not None:
        config["linux"].setdefault("resources", {})["memory"] = {"limit": mem_limit}
    with open(os.path.join(path, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    return path


TRUE = ["/bin/true"]
SLEEP = ["/bin/sleep", "1000"]


# ---- runtimes ----

class Runtime:
    """An OCI runtime driven through its command line, with its own state root."""

    floor = False

    def __init__(self, name, argv):
        self.name = name
        self.root = os.path.join(STATE, name)
        self.argv = argv + ["--root", self.root]

    def cmd(self, *args):
        return self.argv + list(args)

    def run_cmd(self, slot, args=TRUE, mem_limit=None):
        cid = "%s%s-%s" % (PREFIX, self.name, slot)
        return self.cmd("run", "--bundle", bundle(self.name, args, slot, mem_limit), cid)

    def cid(self, slot):
        return "%s%s-%s" % (PREFIX, self.name, slot)


class Floor:
    """contrib/bench/floor.c: the same work as a `run` without a runtime around it. It puts
    itself into the hierarchies ctrun uses (taken from a ctrun container's state)."""

    floor = True
    name = "floor"

    def __init__(self, hierarchies):
        self.hierarchies = hierarchies

    def run_cmd(self, slot, args=TRUE, mem_limit=None):
        assert mem_limit is None
        cmd = [os.path.join(TOOLS, "floor")]
        for h in self.hierarchies:
            cmd += ["-c", os.path.join(CGROUP_ROOT, h, CG_BASE.strip("/"), "floor-%s" % slot)]
        return cmd + [ROOTFS] + args


def extra_runtimes(spec):
    """BENCH_EXTRA's runtimes: "name=command [flags]", ";"-separated."""
    out = []
    for item in filter(None, (part.strip() for part in spec.split(";"))):
        name, sep, command = item.partition("=")
        argv = command.split()
        if not sep or not name or not argv or name in ("ctrun", "crun", "runc", "floor"):
            sys.exit("bench: BENCH_EXTRA: \"%s\" is not name=command with a new name" % item)
        argv[0] = os.path.abspath(argv[0]) if os.sep in argv[0] else argv[0]
        out.append(Runtime(name, argv))
    return out


def runtimes():
    out = [Runtime("ctrun", [CTRUN])]
    for name in ("crun", "runc"):
        if shutil.which(name):
            out.append(Runtime(name, [name]))
        else:
            print("bench: %s is not installed: left out" % name, file=sys.stderr)
    return out + extra_runtimes(os.environ.get("BENCH_EXTRA", ""))


def ctrun_hierarchies(ctrun):
    """The v1 hierarchies ctrun puts a container in, from its state.json's cgroupPaths."""
    cid = ctrun.cid("probe")
    timed(ctrun.cmd("create", "--bundle", bundle("ctrun", SLEEP, "probe"), cid))
    try:
        with open(os.path.join(ctrun.root, cid, "state.json")) as f:
            paths = json.load(f).get("ctrun", {}).get("cgroupPaths", {})
    finally:
        sh(*ctrun.cmd("delete", "--force", cid))
    prefix = CGROUP_ROOT + "/"
    return sorted(p[len(prefix):].split("/", 1)[0] for p in paths.values()
                  if p.startswith(prefix) and not p.startswith(prefix + "unified/"))


# ---- measuring ----

def launch(commands, errpath=os.devnull):
    """Starts the commands at once and waits for them all, through contrib/bench/launch.c (no
    Python in the timed span: Popen's CPU a process is of the order of a command's). Returns the wall
    time (s) and each command's exit status; their stderr goes to errpath."""
    data = b"".join(b"".join(arg.encode() + b"\0" for arg in argv) + b"\0"
                    for argv in commands)
    try:
        out = subprocess.run([LAUNCH, "-e", errpath], input=data, capture_output=True,
                             timeout=TIMEOUT, check=True).stdout.split()
    except subprocess.TimeoutExpired:
        raise Failed("%s did not end within %d s" % (" ".join(commands[0]), TIMEOUT))
    return int(out[0]) / 1e9, [int(status) for status in out[1:]]


def timed(argv, check=True):
    """Wall time of one command (s); raises Failed with its stderr if it fails. stderr goes
    to a file, not a pipe: a created container keeps the runtime's stdio open."""
    errpath = os.path.join(WORK, "stderr")
    open(errpath, "w").close()
    elapsed, (status,) = launch([argv], errpath)
    if check and status != 0:
        with open(errpath) as errfile:
            err = errfile.read().strip()
        raise Failed("%s failed (%d): %s" % (" ".join(argv), status, err))
    return elapsed if status == 0 else None


def wait_stopped(rt, cid):
    for _ in range(5000):
        out = subprocess.run(rt.cmd("state", cid), capture_output=True, text=True,
                             timeout=TIMEOUT).stdout
        if '"stopped"' in out:
            return
        time.sleep(0.001)
    raise Failed("container %s never stopped" % cid)


def round_robin(rts, iterations, step):
    """step(rt, i) -> seconds for every runtime in turn, `iterations` times; name -> list.
    The order is shuffled every iteration (the same seed every bench): a run leaves work
    behind for the kernel (the network namespace is torn down later, by a kworker), which
    slows whatever comes next, so no runtime may always follow the same one."""
    out = {rt.name: [] for rt in rts}
    order = random.Random(len(rts) * 1000 + iterations)
    for i in range(iterations):
        for rt in order.sample(rts, len(rts)):
            out[rt.name].append(step(rt, i))
    return out


def medians_ms(samples):
    return {name: statistics.median(v) * 1000 for name, v in samples.items()}


FASTEST_RUN = {}  # name -> the fastest `run` (ms): noise only adds, so it is the steadiest


def row_run(rts):
    samples = round_robin(rts, ITER, lambda rt, i: timed(rt.run_cmd(0)))
    FASTEST_RUN.update({name: min(v) * 1000 for name, v in samples.items()})
    return medians_ms(samples)


def row_sequential(rts):
    def hundred(rt, _):
        return sum(timed(rt.run_cmd(0)) for _ in range(SEQ_RUNS))
    samples = round_robin(rts, SEQ_ROUNDS, hundred)
    return {name: statistics.median(v) for name, v in samples.items()}


def rows_lifecycle(rts):
    """create, start, delete of a stopped container, in one cycle per iteration."""
    create, start, delete = ({rt.name: [] for rt in rts} for _ in range(3))

    def cycle(rt, _):
        cid = rt.cid(0)
        create[rt.name].append(timed(rt.cmd("create", "--bundle", bundle(rt.name, TRUE, 0), cid)))
        start[rt.name].append(timed(rt.cmd("start", cid)))
        wait_stopped(rt, cid)
        delete[rt.name].append(timed(rt.cmd("delete", cid)))
        return 0
    round_robin(rts, ITER, cycle)
    return medians_ms(create), medians_ms(start), medians_ms(delete)


def rows_running(rts):
    """exec and state against one running container per runtime, then delete --force of a
    running one (made afresh each iteration, not timed)."""
    for rt in rts:
        timed(rt.cmd("run", "--detach", "--bundle", bundle(rt.name, SLEEP, "exec"),
                     rt.cid("exec")))
    try:
        execs = round_robin(rts, ITER, lambda rt, i: timed(rt.cmd("exec", rt.cid("exec"),
                                                                  "/bin/true")))
        states = round_robin(rts, ITER, lambda rt, i: timed(rt.cmd("state", rt.cid("exec"))))
    finally:
        for rt in rts:
            subprocess.run(rt.cmd("delete", "--force", rt.cid("exec")), timeout=TIMEOUT)

    def force(rt, _):
        timed(rt.cmd("run", "--detach", "--bundle", bundle(rt.name, SLEEP, "force"),
                     rt.cid("force")))
        return timed(rt.cmd("delete", "--force", rt.cid("force")))
    return medians_ms(execs), medians_ms(states), medians_ms(round_robin(rts, ITER, force))


def row_list(rts):
    """list with LIST_CONTAINERS running containers per runtime, all alive at once."""
    made = {rt.name: [] for rt in rts}
    try:
        for i in range(LIST_CONTAINERS):
            for rt in rts:
                cid = rt.cid("list%d" % i)
                timed(rt.cmd("run", "--detach", "--bundle",
                             bundle(rt.name, SLEEP, "list%d" % i), cid))
                made[rt.name].append(cid)
        return medians_ms(round_robin(rts, ITER, lambda rt, i: timed(rt.cmd("list"))))
    finally:
        for rt in rts:
            for cid in made[rt.name]:
                subprocess.run(rt.cmd("delete", "--force", cid), timeout=TIMEOUT)


def children_cpu():
    """CPU time (s) of the bench's waited-for descendants so far, user and system."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def row_parallel(rts):
    """PARALLEL `run`s started at once: the wall time until the last ends, the CPU time they
    took (the runtimes and their containers; not the kernel's workers), and failures. On a
    loaded machine the CPU time moves less than the wall time."""
    failures = {rt.name: 0 for rt in rts}
    cpu = {rt.name: [] for rt in rts}

    def burst(rt, _):
        before = children_cpu()
        elapsed, statuses = launch([rt.run_cmd("par%d" % i) for i in range(PARALLEL)])
        cpu[rt.name].append(children_cpu() - before)
        failures[rt.name] += sum(status != 0 for status in statuses)
        return elapsed
    samples = round_robin(rts, PARALLEL_ROUNDS, burst)
    return ({n: statistics.median(v) for n, v in samples.items()},
            {n: statistics.median(v) for n, v in cpu.items()}, failures)


def peak_rss(argv):
    """Peak RSS (KiB) of one command, measured by the small C launcher maxrss."""
    out = os.path.join(WORK, "maxrss.out")
    subprocess.run([os.path.join(TOOLS, "maxrss"), out] + argv, check=True,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=TIMEOUT)
    with open(out) as f:
        return int(f.read())


def row_rss(rts):
    samples = round_robin(rts, 5, lambda rt, i: peak_rss(rt.run_cmd(0)))
    return {n: statistics.median(v) for n, v in samples.items()}


def runs_under(rt, limit):
    cid = rt.cid("mem")
    ok = timed(rt.run_cmd("mem", mem_limit=limit), check=False) is not None
    # a runtime killed by the OOM killer may leave its container behind
    subprocess.run(rt.cmd("delete", "--force", cid), stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=TIMEOUT)
    return ok


def min_memory(rt):
    """The smallest linux.resources.memory.limit (KiB, in MEM_STEP steps) under which a run
    of /bin/true still succeeds, bisected between 0 and MEM_MAX."""
    lo, hi = 0, MEM_MAX
    if not runs_under(rt, hi):
        return float("nan")
    while hi - lo > MEM_STEP:
        mid = (lo + hi) // 2 // MEM_STEP * MEM_STEP
        if runs_under(rt, mid):
            hi = mid
        else:
            lo = mid
    return hi // 1024


# ---- output ----

def fmt(v):
    if isinstance(v, float) and v != v:
        return "-"
    if isinstance(v, int):
        return str(v)
    return "%.1f" % v if v >= 100 else "%.2f" % v if v >= 1 else "%.3f" % v


def print_table(names, rows):
    """One line per row; every figure but a count of failures with its ratio to crun's."""
    width = 22
    print("%-30s" % "" + "".join("%*s" % (width, n) for n in names))
    for label, values in rows:
        line = "%-30s" % label
        ref = values.get("crun")
        for n in names:
            v = values.get(n)
            text = "n/a" if v is None else fmt(v)
            if v is not None and n != "crun" and ref and not label.endswith("failures"):
                text += " (%.2fx)" % (v / ref)
            line += "%*s" % (width, text)
        print(line)


def versions(rts):
    out = []
    for rt in rts:
        lines = subprocess.run([rt.argv[0], "--version"], capture_output=True,
                               text=True).stdout.splitlines()
        # ctrun's "libc: musl" line: the libc start-up is part of every command's time
        libc = [line for line in lines if line.startswith("libc: ")]
        out.append("%s: %s" % (rt.name, ", ".join((lines[:1] or ["?"]) + libc)))
    return "; ".join(out)


def source_commit():
    """The commit the measured ctrun was built from, "+changes" when the tree differs."""
    src = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    head = subprocess.run(["git", "-C", src, "log", "-1", "--format=%h %cd", "--date=iso"],
                          capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", src, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return (head or "unknown") + (" +changes" if dirty else "")


def clean_state_roots():
    for entry in os.listdir(WORK):
        if entry.startswith("root-") or entry in ("bundles", "state"):
            shutil.rmtree(os.path.join(WORK, entry), ignore_errors=True)


def mount_check_cost(ctrun):
    """ctrun create with and without its mount check (--no-verify-mounts), alternated so
    both see the same machine; the two medians (ms)."""
    unchecked = Runtime("ctrun-nocheck", [CTRUN, "--no-verify-mounts"])
    samples = {"ctrun": [], "ctrun-nocheck": []}
    for _ in range(ITER):
        for rt in (ctrun, unchecked):
            cid = rt.cid("check")
            samples[rt.name].append(
                timed(rt.cmd("create", "--bundle", bundle(rt.name, SLEEP, "check"), cid)))
            sh(*rt.cmd("delete", "--force", cid))
    m = medians_ms(samples)
    return m["ctrun"], m["ctrun-nocheck"]


def exe_view_cost(ctrun):
    """ctrun run as installed (a writable binary: it re-executes from the read-only view of
    itself, security.md) and from a read-only bind mount of the same binary (which needs no
    view), alternated; the two medians (ms): the price of the view."""
    ro_path = os.path.join(WORK, "ctrun-ro")
    open(ro_path, "w").close()
    sh("mount", "--bind", CTRUN, ro_path)
    try:
        sh("mount", "-o", "remount,bind,ro", ro_path)
        on_ro = Runtime("ctrun-ro", [ro_path])
        m = medians_ms(round_robin([ctrun, on_ro], ITER, lambda rt, i: timed(rt.run_cmd("view"))))
    finally:
        # lazily: a run's last process may still be letting go of the binary
        sh("umount", "-l", ro_path)
    return m["ctrun"], m["ctrun-ro"]


def measure(rts, floor):
    with_floor = [floor] + rts
    rows = []
    rows.append(("run /bin/true (ms)", row_run(with_floor)))
    rows.append(("%d sequential runs (s)" % SEQ_RUNS, row_sequential(with_floor)))
    create, start, delete = rows_lifecycle(rts)
    execs, states, force = rows_running(rts)
    rows += [("create (ms)", create), ("start (ms)", start), ("exec /bin/true (ms)", execs),
             ("delete, stopped (ms)", delete), ("delete --force, running (ms)", force),
             ("state (ms)", states)]
    rows.append(("list, %d containers (ms)" % LIST_CONTAINERS, row_list(rts)))
    wall, cpu, failures = row_parallel(with_floor)
    rows.append(("%d parallel runs, wall (s)" % PARALLEL, wall))
    rows.append(("%d parallel runs, CPU (s)" % PARALLEL, cpu))
    rows.append(("%d parallel runs, failures" % PARALLEL, failures))
    rows.append(("peak RSS of run (KiB)", row_rss(with_floor)))
    rows.append(("min memory limit (KiB)", {rt.name: min_memory(rt) for rt in rts}))
    return rows, mount_check_cost(rts[0]), exe_view_cost(rts[0])


def prepare():
    """The work directory, state tmpfs and rootfs every bench script starts from; returns the
    cgroup ancestors it will have to remove (remove_cgroups)."""
    os.makedirs(WORK, exist_ok=True)
    clean_state_roots()  # left by an interrupted earlier run
    mount_state_tmpfs()
    make_rootfs()
    return made_cgroup_ancestors()


def main():
    made = prepare()
    rts = runtimes()
    started = time.perf_counter()
    try:
        floor = Floor(ctrun_hierarchies(rts[0]))
        rows, (checked, unchecked), (viewed, unviewed) = measure(rts, floor)
    finally:
        remove_cgroups(made)
        clean_state_roots()
    names = [floor.name] + [rt.name for rt in rts]
    print("make bench: %s; in a private mount namespace with an empty tmpfs over "
          "/sys/fs/cgroup/unified (plain cgroup v1, as crun 1.8 needs); state roots on a "
          "tmpfs" % versions(rts))
    print("ctrun built from commit %s; measured %s UTC, load %s"
          % (source_commit(), time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
             open("/proc/loadavg").read().split()[0]))
    print("config: ctrun spec defaults + network namespace + cgroupsPath %s/<runtime-slot> "
          "(hierarchies: %s); the floor joins ctrun's hierarchies: %s"
          % (CG_BASE, ",".join(v1_hierarchies()), ",".join(floor.hierarchies)))
    print("medians of %d round-robin iterations (%d rounds of %d runs, %d of %d parallel), each "
          "command started and timed by contrib/bench/launch.c (no Python in the timed span); "
          "(x) = ratio to crun" % (ITER, SEQ_ROUNDS, SEQ_RUNS, PARALLEL_ROUNDS, PARALLEL))
    print_table(names, rows)
    print("ctrun create with its mount check %.2f ms, without (--no-verify-mounts) %.2f ms: "
          "the check costs %.1f%%" % (checked, unchecked, 100 * (checked - unchecked) / unchecked))
    print("ctrun run as installed (re-executed from the read-only view of its binary) %.2f ms, "
          "from a read-only mount (no view needed) %.2f ms: the view costs %.1f%%"
          % (viewed, unviewed, 100 * (viewed - unviewed) / unviewed))
    run, seq = rows[0][1], rows[1][1]
    print("ctrun run / floor run (target <= 1.3): %.2f on the medians, %.2f on the fastest "
          "runs (%.2f / %.2f ms), %.2f on %d sequential runs; took %.0f s"
          % (run["ctrun"] / run["floor"], FASTEST_RUN["ctrun"] / FASTEST_RUN["floor"],
             FASTEST_RUN["ctrun"], FASTEST_RUN["floor"], seq["ctrun"] / seq["floor"], SEQ_RUNS,
             time.perf_counter() - started))


if __name__ == "__main__":
    main()
