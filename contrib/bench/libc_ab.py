#!/usr/bin/python3
"""make bench-libc: ctrun linked with musl against ctrun linked with glibc (build/ctrun-musl,
build/ctrun-glibc: the same sources), and the floor built with each, on bench.py's bundles.

Per command, the two take turns (round-robin in shuffled order) and each sample is the
command's wall time and its CPU time (user + system of the process and what it reaped,
from wait4: what `perf stat` counts as task-clock); the CPU time is what a loaded machine
disturbs least. Prints medians and musl/glibc ratios for `run` of /bin/true (with the floor
of each libc), `state` of a running container, `list` with LIST_CONTAINERS containers of
each, the peak RSS of `run` and the smallest memory limit. BENCH_AB_ITER (default 200) sets
the samples per command, BENCH_AB_LIST_ITER (default 50) those of `list`.
"""
import os
import statistics
import subprocess
import sys
import time

import bench

ITER = int(os.environ.get("BENCH_AB_ITER", "200"))
LIST_ITER = int(os.environ.get("BENCH_AB_LIST_ITER", "50"))


def cpu_timed(argv):
    """(wall s, CPU s) of one command; raises bench.Failed if it fails."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise bench.Failed("%s failed (%d)" % (" ".join(argv), proc.returncode))
    return wall, usage.ru_utime + usage.ru_stime


class Floor(bench.Floor):
    """bench.py's floor launcher, built with one libc (build/bench/floor-<libc>)."""

    def __init__(self, libc, hierarchies):
        super().__init__(hierarchies)
        self.name = "floor-" + libc
        self.libc = libc

    def run_cmd(self, slot, args=bench.TRUE, mem_limit=None):
        cmd = super().run_cmd(slot, args, mem_limit)
        cmd[0] = os.path.join(bench.TOOLS, self.name)
        return cmd


def row(rts, iterations, argv_of):
    """name -> (median wall ms, median CPU ms) of argv_of(rt) over round-robin turns."""
    samples = bench.round_robin(rts, iterations, lambda rt, i: cpu_timed(argv_of(rt)))
    return {name: tuple(statistics.median(s[k] for s in v) * 1000 for k in (0, 1))
            for name, v in samples.items()}


def row_state(rts):
    for rt in rts:
        bench.timed(rt.cmd("run", "--detach", "--bundle",
                           bench.bundle(rt.name, bench.SLEEP, "state"), rt.cid("state")))
    try:
        return row(rts, ITER, lambda rt: rt.cmd("state", rt.cid("state")))
    finally:
        for rt in rts:
            subprocess.run(rt.cmd("delete", "--force", rt.cid("state")), timeout=bench.TIMEOUT)


def row_list(rts):
    made = []
    try:
        for i in range(bench.LIST_CONTAINERS):
            for rt in rts:
                bench.timed(rt.cmd("run", "--detach", "--bundle",
                                   bench.bundle(rt.name, bench.SLEEP, "list%d" % i),
                                   rt.cid("list%d" % i)))
                made.append((rt, rt.cid("list%d" % i)))
        return row(rts, LIST_ITER, lambda rt: rt.cmd("list"))
    finally:
        for rt, cid in made:
            subprocess.run(rt.cmd("delete", "--force", cid), timeout=bench.TIMEOUT)


def print_pair(what, values, a, b):
    """One line: wall and CPU medians of a and b, and a/b of each."""
    (wa, ca), (wb, cb) = values[a], values[b]
    print("%-28s %s %.3f / %.3f ms, %s %.3f / %.3f ms; %s/%s wall %.2f, CPU %.2f"
          % (what, a, wa, ca, b, wb, cb, a, b, wa / wb, ca / cb))


def main():
    made = bench.prepare()
    rts = [bench.Runtime(libc, [os.path.join(bench.BUILD, "ctrun-" + libc)])
           for libc in ("musl", "glibc")]
    try:
        hierarchies = bench.ctrun_hierarchies(rts[0])
        floors = [Floor(libc, hierarchies) for libc in ("musl", "glibc")]
        runs = row(rts + floors, ITER, lambda rt: rt.run_cmd(0))
        states = row_state(rts)
        lists = row_list(rts)
        rss = {rt.name: statistics.median(bench.peak_rss(rt.run_cmd(0)) for _ in range(5))
               for rt in rts}
        mem = {rt.name: bench.min_memory(rt) for rt in rts}
    finally:
        bench.remove_cgroups(made)
        bench.clean_state_roots()
    print("make bench-libc: ctrun-musl vs ctrun-glibc (same sources), %s UTC, load %s; "
          "wall / CPU medians of %d turns (list: %d, with %d containers each)"
          % (time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
             open("/proc/loadavg").read().split()[0], ITER, LIST_ITER,
             bench.LIST_CONTAINERS))
    print_pair("run /bin/true", runs, "musl", "glibc")
    print_pair("floor run /bin/true", runs, "floor-musl", "floor-glibc")
    for libc in ("musl", "glibc"):
        (w, c), (fw, fc) = runs[libc], runs["floor-" + libc]
        print("%-28s wall %.2f, CPU %.2f" % ("ctrun-%s / floor-%s run" % (libc, libc),
                                            w / fw, c / fc))
    print_pair("state", states, "musl", "glibc")
    print_pair("list", lists, "musl", "glibc")
    print("%-28s musl %d KiB, glibc %d KiB" % ("peak RSS of run", rss["musl"], rss["glibc"]))
    print("%-28s musl %s KiB, glibc %s KiB" % ("min memory limit", mem["musl"], mem["glibc"]))


if __name__ == "__main__":
    sys.exit(main())
