#!/usr/bin/python3
"""make bench-profile: where the time of one `ctrun run` of /bin/true goes, step by step.

First by taking things away: the bench's config (bench.py) and variants of it, each without
one piece (network namespace, cgroups, mount check, masked and read-only paths, the mounts
beyond /proc, the /sys/fs/cgroup mount; and one that adds a seccomp filter), run
round-robin untraced; the difference of the medians (and of the minimums) is what that
piece costs a run.

Then by cutting a trace: the bench's bundle (bench.py: same config, same cgroup base) under `strace -f -tt -T`
BENCH_PROFILE_RUNS times (default 10), cuts each trace into the steps of a run at the
first syscall of each step, and prints per step the median wall time, syscall count and
time spent inside those syscalls (strace's -T). strace stops the process at every syscall,
so the wall times are inflated (compare the traced and untraced totals); the in-kernel
times are close to real. Steps of ctrun and of the container's init are listed in the
order they happen; the rows in parentheses overlap others (ctrun waits while the init
works). BENCH_PROFILE_ITER (50) and BENCH_PROFILE_RUNS (10) set the counts.
"""
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time

import bench
import json

RUNS = int(os.environ.get("BENCH_PROFILE_RUNS", "10"))
ITER = int(os.environ.get("BENCH_PROFILE_ITER", "50"))
LINE = re.compile(r"^(\d+) +(\d+):(\d+):(\d+\.\d+) (.*)$")

# (step, who, the first syscall of the step); a step ends where the next one of the same
# process begins. "after:" steps begin with the syscall following the match.
PARENT, INIT = "ctrun", "init"
STEPS = [
    ("exec ctrun, libc start, flags", PARENT, r"^execve\("),
    ("parse config.json", PARENT, r'^openat\(.*config\.json"'),
    ("state dir (reserve, lock)", PARENT, r"^mkdirat\(.*\.reserve-"),
    ("cgroups (layout, mkdir, devices)", PARENT, r'^openat\(AT_FDCWD, "/proc/self/mountinfo"'),
    ("spawn plan (caps, mounts)", PARENT, r"cap_last_cap"),
    ("clone3 (namespaces incl. net)", PARENT, r"^clone3\("),
    ("join cgroups, write state.json", PARENT, r"^(close|openat)\("),
    ("(waits for the init)", PARENT, r"^recvmsg\("),
    ("init: cgroupns, hostname, keyring", INIT, r"^unshare\(CLONE_NEWCGROUP"),
    ("init: mounts (defaults, /dev nodes)", INIT, r'^mount\(NULL, "/"'),
    ("init: pivot_root", INIT, r"^pivot_root\("),
    ("init: masked and read-only paths", INIT, r"after:^umount2\("),
    ("init: mount check (statmount)", INIT, r"^(statmount|syscall_0x1c9|listmount|syscall_0x1ca)\("),
    ("init: ids, caps, no_new_privs", INIT, r"^setresgid\("),
    ("init: report ready, get start", INIT, r"^sendto\("),
    ("init: execve, /bin/true runs", INIT, r"^execve\("),
    ("wait for the exit (pidfd)", PARENT, r"^signalfd4\("),
    ("delete (cgroups, state dir)", PARENT, r"after:^waitid\("),
]


DURATION = re.compile(r"<(\d+\.\d+)>$")


def parse(path):
    """who -> [(seconds, call text, seconds inside the call)] in order; the first pid is
    ctrun, the next its init. A call strace shows in two lines (unfinished, resumed) keeps
    the first one's text and takes the second one's duration."""
    by_pid = {}
    with open(path) as f:
        for line in f:
            m = LINE.match(line.rstrip("\n"))
            if not m:
                continue
            t = int(m.group(2)) * 3600 + int(m.group(3)) * 60 + float(m.group(4))
            d = DURATION.search(m.group(5))
            calls = by_pid.setdefault(int(m.group(1)), [])
            if m.group(5).startswith("<...") and calls:
                when, text, _ = calls[-1]
                calls[-1] = (when, text, float(d.group(1)) if d else 0.0)
            else:
                calls.append((t, m.group(5), float(d.group(1)) if d else 0.0))
    pids = list(by_pid)
    return {PARENT: by_pid[pids[0]], INIT: by_pid[pids[1]]}


def cut(calls):
    """step -> (start time, index of first call) for the steps found, in trace order."""
    marks, i = {}, 0
    for step, who, pattern in STEPS:
        seq = calls[who]
        after = pattern.startswith("after:")
        regex = re.compile(pattern[6:] if after else pattern)
        start = marks_start(marks, who)
        for j in range(start, len(seq)):
            if regex.search(seq[j][1]):
                k = j + 1 if after else j
                if k < len(seq):
                    marks[step] = (who, k)
                break
    return marks


def marks_start(marks, who):
    """Where the search for a process's next step begins: after its last step's start."""
    own = [k for w, k in marks.values() if w == who]
    return max(own) + 1 if own else 0


WAITS = ("recvmsg", "poll", "waitid", "wait4", "exit_group", "+++")
SLOW = 0.001


OPENED = re.compile(r'^open\w*\(\w+, "([^"]+)".* = (\d+) <')
FD_CALL = re.compile(r"^(write|read|close)\((\d+)")


def call_name(text, fds):
    """A short name for a call: a write/read/close with the file its fd was opened from,
    cgroup paths cut after the hierarchy."""
    m = FD_CALL.match(text)
    if m and m.group(2) in fds:
        text = '%s("%s"' % (m.group(1), fds[m.group(2)])
    else:
        text = text.split(",")[0].split(" ")[0]
    return re.sub(r"(/sys/fs/cgroup/[^/]+)/[^\"]*/([^/\"]+)", r"\1/.../\2", text)[:70]


def slow_calls(calls):
    """The calls that took over SLOW seconds, waits aside."""
    out = []
    for who in (PARENT, INIT):
        fds = {}
        for _, text, d in calls[who]:
            opened = OPENED.match(text)
            if opened:
                fds[opened.group(2)] = opened.group(1)
            if d > SLOW and not text.startswith(WAITS):
                out.append((call_name(text, fds), d))
    return out


def step_costs(calls):
    """step -> (seconds, syscalls, seconds inside syscalls) of one trace."""
    marks = cut(calls)
    out = {}
    for who in (PARENT, INIT):
        own = sorted((k, step) for step, (w, k) in marks.items() if w == who)
        seq = calls[who]
        for n, (k, step) in enumerate(own):
            end = own[n + 1][0] if n + 1 < len(own) else len(seq) - 1
            inside = sum(d for _, _, d in seq[k:end])
            out[step] = (seq[end][0] - seq[k][0], end - k, inside)
    return out


def without_netns(c):
    c["linux"]["namespaces"] = [n for n in c["linux"]["namespaces"] if n["type"] != "network"]


def without_masked_readonly(c):
    c["linux"].pop("maskedPaths", None)
    c["linux"].pop("readonlyPaths", None)


def only_proc_mount(c):
    """masking binds /dev/null: the masked paths go along with /dev"""
    c["mounts"] = [m for m in c["mounts"] if m["destination"] == "/proc"]
    without_masked_readonly(c)


def without_cgroup_mount(c):
    c["mounts"] = [m for m in c["mounts"] if m["type"] != "cgroup"]


# Syscalls a container rarely needs (a deny list in the style of Docker's profile).
DENIED = ("acct add_key bpf clock_adjtime clock_settime create_module delete_module "
          "finit_module get_kernel_syms get_mempolicy init_module ioperm iopl kcmp "
          "kexec_file_load kexec_load keyctl lookup_dcookie mbind move_pages "
          "name_to_handle_at nfsservctl open_by_handle_at perf_event_open personality "
          "pivot_root process_vm_readv process_vm_writev ptrace query_module quotactl "
          "reboot request_key set_mempolicy setns settimeofday swapoff swapon sysfs "
          "_sysctl umount2 unshare uselib userfaultfd ustat vm86 vm86old").split()


def with_seccomp(c):
    c["linux"]["seccomp"] = {
        "defaultAction": "SCMP_ACT_ALLOW", "architectures": ["SCMP_ARCH_X86_64"],
        "syscalls": [{"names": DENIED, "action": "SCMP_ACT_ERRNO", "errnoRet": 1}]}


# (what is taken away, extra global flags, config edit); the last one adds instead

VARIANTS = [
    ("nothing (the bench's config)", [], None),
    ("the network namespace", [], without_netns),
    ("cgroups (--cgroup-manager disabled)", ["--cgroup-manager", "disabled"], None),
    ("the mount check (--no-verify-mounts)", ["--no-verify-mounts"], None),
    ("masked and read-only paths", [], without_masked_readonly),
    ("every mount but /proc, masked+ro paths", [], only_proc_mount),
    ("the /sys/fs/cgroup mount", [], without_cgroup_mount),
    ("(adds) a seccomp filter denying %d calls" % len(DENIED), [], with_seccomp),
]


def variant_cmd(i, flags, edit):
    path = os.path.join(bench.WORK, "bundles", "variant-%d" % i)
    os.makedirs(path, exist_ok=True)
    config = json.loads(json.dumps(bench.BASE_CONFIG))
    config["process"]["args"] = bench.TRUE
    config["linux"]["cgroupsPath"] = "%s/variant-%d" % (bench.CG_BASE, i)
    if edit:
        edit(config)
    with open(os.path.join(path, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    return [bench.CTRUN, "--root", os.path.join(bench.STATE, "ctrun")] + flags + \
        ["run", "--bundle", path, "%svariant-%d" % (bench.PREFIX, i)]


def take_away():
    """What each piece costs a run: with it minus without (ms), for the medians and for the
    fastest runs (noise only adds, so on a busy machine the minimum is the steadier one)."""
    cmds = [variant_cmd(i, flags, edit) for i, (_, flags, edit) in enumerate(VARIANTS)]
    # the floor as a yardstick: all of ctrun's work that it does not do, taken away at once
    floor = bench.Floor(bench.ctrun_hierarchies(bench.Runtime("ctrun", [bench.CTRUN])))
    cmds.append(floor.run_cmd("profile"))
    times = [[] for _ in cmds]
    for _ in range(ITER):
        for i in random.sample(range(len(cmds)), len(cmds)):
            times[i].append(bench.timed(cmds[i]) * 1000)
    med = [statistics.median(t) for t in times]
    low = [min(t) for t in times]
    print("taking one piece away (untraced, %d runs each, round-robin in shuffled order):"
          % ITER)
    print("  %-42s %8s %8s %10s %10s" % ("without", "median", "min", "saves med", "saves min"))
    names = [name for name, _, _ in VARIANTS] + ["everything: the floor (floor.c)"]
    for name, m, n in zip(names, med, low):
        print("  %-42s %8.2f %8.2f %10.2f %10.2f" % (name, m, n, med[0] - m, low[0] - n))


def attach_cost():
    """A cgroup v1 attach (a write to cgroup.procs) takes cgroup_threadgroup_rwsem for
    writing; after a quiet spell that waits for an RCU grace period, right after another
    attach it does not. Measured on a `sleep` moved between two cgroups of the bench's."""
    hierarchy = os.path.join(bench.CGROUP_ROOT, "cpu")
    if not os.path.isdir(hierarchy):
        return
    base = os.path.join(hierarchy, bench.CG_BASE.strip("/"), "attach")
    dirs = [os.path.join(base, "a"), os.path.join(base, "b")]
    for d in dirs:
        os.makedirs(d, exist_ok=True)
    with open("/proc/self/cgroup") as f:
        home = next(l.split(":", 2)[2].strip() for l in f if ":cpu," in l or ":cpu:" in l)
    sleeper = subprocess.Popen(["sleep", "1000"])

    def move(d):
        start = time.perf_counter()
        with open(os.path.join(d, "cgroup.procs"), "w") as f:
            f.write(str(sleeper.pid))
        return (time.perf_counter() - start) * 1000
    try:
        print("cgroup v1 attach (a write to cgroup.procs), 20 each:")
        for pause in (0, 50):
            ms = []
            for i in range(20):
                ms.append(move(dirs[i % 2]))
                time.sleep(pause / 1000)
            print("  %2d ms after the previous attach: median %6.3f ms, max %6.3f ms"
                  % (pause, statistics.median(ms), max(ms)))
    finally:
        move(os.path.join(hierarchy, home.lstrip("/")))
        sleeper.kill()
        sleeper.wait()


def perf_stat(name, argv, runs=10):
    """CPU time (task-clock, the process and its children) and instructions of a command,
    medians of `runs` under perf stat; a counter the machine lacks (a VM without a PMU has
    no instructions) says so."""
    if not shutil.which("perf"):
        print("  %-8s perf is not installed" % name)
        return
    values = {}
    for _ in range(runs):
        out = subprocess.run(["perf", "stat", "-x,", "-e", "task-clock,instructions"] + argv,
                             capture_output=True, text=True, timeout=bench.TIMEOUT).stderr
        for line in out.splitlines():
            fields = line.split(",")
            if len(fields) > 2 and fields[2] in ("task-clock", "instructions"):
                values.setdefault(fields[2], []).append(fields[0])
    shown = []
    for event, unit in (("task-clock", "ms CPU"), ("instructions", "instructions")):
        got = [float(v) for v in values.get(event, []) if v.replace(".", "", 1).isdigit()]
        shown.append("%.2f %s" % (statistics.median(got), unit) if got
                     else "%s: not supported here" % event)
    print("  %-8s %s" % (name, ", ".join(shown)))


def main():
    made = bench.prepare()
    ctrun = bench.Runtime("ctrun", [bench.CTRUN])
    traced, plain, samples, syscalls, slow = [], [], {}, [], {}
    trace = os.path.join(bench.WORK, "profile.strace")
    try:
        take_away()
        attach_cost()
        print("perf stat (medians of 10):")
        perf_stat("ctrun", ctrun.run_cmd(0))
        floor = bench.Floor(bench.ctrun_hierarchies(ctrun))
        perf_stat("floor", floor.run_cmd("perf"))
        for i in range(RUNS):
            plain.append(bench.timed(ctrun.run_cmd(0)))
            traced.append(bench.timed(["strace", "-f", "-tt", "-T", "-o", trace] +
                                      ctrun.run_cmd(0)))
            calls = parse(trace)
            syscalls.append(len(calls[PARENT]) + len(calls[INIT]))
            for name, d in slow_calls(calls):
                slow.setdefault(name, []).append(d)
            for step, cost in step_costs(calls).items():
                samples.setdefault(step, []).append(cost)
    finally:
        bench.remove_cgroups(made)
        bench.clean_state_roots()
    real, under = statistics.median(plain), statistics.median(traced)
    print("strace -f -tt -T of a ctrun run of /bin/true, built from %s; medians of %d runs, "
          "%s UTC" % (bench.source_commit(), RUNS,
                      time.strftime("%Y-%m-%d %H:%M", time.gmtime())))
    print("wall %.2f ms untraced, %.2f ms traced (%d syscalls)"
          % (real * 1000, under * 1000, statistics.median(syscalls)))
    print("  %-40s %10s %9s %10s" % ("step", "traced ms", "syscalls", "in-kernel"))
    for step, _, _ in STEPS:
        if step not in samples:
            print("  %-40s %10s" % (step, "not seen"))
            continue
        ms = statistics.median(s for s, _, _ in samples[step]) * 1000
        n = statistics.median(c for _, c, _ in samples[step])
        inside = statistics.median(i for _, _, i in samples[step]) * 1000
        print("  %-40s %10.3f %9d %10.3f" % (step, ms, n, inside))
    print("calls that took over %d ms (waits aside; most total time first), %d traced runs:"
          % (SLOW * 1000, RUNS))
    for name, ds in sorted(slow.items(), key=lambda e: -sum(e[1]))[:8]:
        print("  %3d x %-70s median %6.2f ms, max %6.2f ms"
              % (len(ds), name, statistics.median(ds) * 1000, max(ds) * 1000))


if __name__ == "__main__":
    sys.exit(main())
