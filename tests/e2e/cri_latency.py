#!/usr/bin/python3
"""Summarises the CRI suite's timed pods: cri_latency.py CTRUN_FILE RUNC_FILE, each a line
"START_SECONDS EXIT_SECONDS" per pod (cri_client.py bench); prints, for both figures, the
mean and median of each handler and the ratio of the means."""
import statistics
import sys

WHAT = ("RunPodSandbox+CreateContainer+StartContainer", "RunPodSandbox to container exit")


def main(ctrun_file, runc_file):
    rows = {}
    for handler, path in (("ctrun", ctrun_file), ("runc", runc_file)):
        with open(path) as lines:
            rows[handler] = [[float(x) * 1000 for x in line.split()] for line in lines]
    for col, what in enumerate(WHAT):
        mean = {h: statistics.mean(r[col] for r in rows[h]) for h in rows}
        median = {h: statistics.median(r[col] for r in rows[h]) for h in rows}
        print("cri %s, %d rounds: ctrun %.1f ms (median %.1f), runc %.1f ms (median %.1f), "
              "ctrun/runc %.2f" % (what, len(rows["ctrun"]), mean["ctrun"], median["ctrun"],
                                   mean["runc"], median["runc"], mean["ctrun"] / mean["runc"]))


if __name__ == "__main__":
    main(*sys.argv[1:])
