#!/usr/bin/env python3
"""How busy the cores are over a `hotfix lint` run, from its start to its end.

    python3 scripts/bench_timeline.py [--runs 5] [--bucket-ms 5] [TREE]   # ../shared/corpus

Each run is sampled by `perf record` (the cpu-clock of every thread, FREQ times a second while it
runs); the samples of each slice of BUCKET milliseconds, over the slice, are the cores busy in it.
What it prints, for the run whose average is the median of RUNS:

- the run's length under the sampler (which slows it: compare runs with each other, not with
  `scripts/bench-lint.sh`), the average cores busy, and how much of the run had all of them busy,
  more than one, or one at most;
- a strip of the run, one character a slice: `#` all cores busy (at least 7/8 of them), `+` more
  than half, `-` more than one eighth, `.` less;
- which thread was busy in each stretch of the strip: `m` the calling thread alone (start-up, the
  report), `t` the walk for the tree's environments (threads named `hotfix-tree`), `l` the lint's
  pool.

What issue 29 asks ("both cores busy from the first file to the last") reads as a strip of `#`
between the start-up and the end. Needs `perf` (linux-tools) and a kernel that lets this user
sample (`/proc/sys/kernel/perf_event_paranoid` at 2 or less for its own processes).
"""

import argparse
import collections
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

FREQ = 10_000


def sample(hotfix, tree, data):
    """One sampled run; its samples as (seconds, thread id, thread name)."""
    args = [hotfix, "lint", tree, "--no-config", "--exit-zero", "--quiet", "--format", "concise"]
    record = ["perf", "record", "-q", "-F", str(FREQ), "-e", "cpu-clock", "-o", data, "--"]
    done = subprocess.run(record + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode not in (0, 1):
        sys.exit("bench-timeline: perf record failed (%d): %s" % (done.returncode, done.stderr.strip()))
    script = subprocess.run(
        ["perf", "script", "-i", data, "-F", "comm,tid,time"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, check=True,
    )
    samples = []
    for line in script.stdout.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        try:
            samples.append((float(parts[-1].rstrip(":")), int(parts[-2]), " ".join(parts[:-2])))
        except ValueError:
            continue
    if not samples:
        sys.exit("bench-timeline: perf recorded no sample of the run")
    return samples


def summary(samples, bucket, cores):
    """The run's figures: length, average cores busy, each slice's cores and busiest kind."""
    start = min(s[0] for s in samples)
    end = max(s[0] for s in samples)
    main = min(samples)[1]  # the first sample's thread: the process's own
    # The walk's threads are named `hotfix-tree`, but the sampler does not always learn a new
    # thread's name; they are also the threads done before the run's last tenth, which the
    # lint's pool works through.
    last = collections.defaultdict(float)
    for time, tid, _ in samples:
        last[tid] = max(last[tid], time)
    tree = {tid for _, tid, name in samples if name.startswith("hotfix-tree")}
    tree |= {tid for tid, t in last.items() if tid != main and t < end - (end - start) / 10}
    slices = int((end - start) / bucket) + 1
    busy = [0] * slices
    kinds = [collections.Counter() for _ in range(slices)]
    for time, tid, _ in samples:
        at = int((time - start) / bucket)
        busy[at] += 1
        kinds[at]["m" if tid == main else "t" if tid in tree else "l"] += 1
    per_slice = FREQ * bucket
    cores_busy = [min(n / per_slice, cores) for n in busy]
    length = slices * bucket
    return {
        "length": length,
        "average": len(samples) / FREQ / length,
        "cores": cores_busy,
        "kinds": [k.most_common(1)[0][0] if k else " " for k in kinds],
    }


def strip(cores_busy, cores):
    marks = []
    for c in cores_busy:
        share = c / cores
        marks.append("#" if share >= 7 / 8 else "+" if share > 1 / 2 else "-" if share > 1 / 8 else ".")
    return "".join(marks)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hotfix", default="target/release/hotfix")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bucket-ms", type=float, default=5.0)
    parser.add_argument("tree", nargs="?", default="../shared/corpus")
    args = parser.parse_args()
    if shutil.which("perf") is None:
        sys.exit("bench-timeline: needs `perf` (linux-tools) on PATH")
    cores = len(os.sched_getaffinity(0))
    bucket = args.bucket_ms / 1000
    runs = []
    with tempfile.TemporaryDirectory() as scratch:
        data = os.path.join(scratch, "perf.data")
        sample(args.hotfix, args.tree, data)  # warm the page cache
        for _ in range(args.runs):
            runs.append(summary(sample(args.hotfix, args.tree, data), bucket, cores))
    runs.sort(key=lambda r: r["average"])
    run = runs[len(runs) // 2]
    averages = [r["average"] for r in runs]
    shares = collections.Counter()
    for c in run["cores"]:
        shares["all" if c >= cores * 7 / 8 else "more than one" if c > 1 else "one at most"] += 1
    n = len(run["cores"])
    print("%s on %d cores, %d runs sampled at %d Hz, slices of %g ms" % (args.tree, cores, args.runs, FREQ, args.bucket_ms))
    print("  median run: %.0f ms under the sampler, %.2f cores busy on average (runs: %.2f-%.2f, median %.2f)"
          % (run["length"] * 1000, run["average"], min(averages), max(averages), statistics.median(averages)))
    print("  its time with all cores busy: %.0f%%, more than one: %.0f%%, one at most: %.0f%%"
          % (100 * shares["all"] / n, 100 * shares["more than one"] / n, 100 * shares["one at most"] / n))
    print("  busy:  " + strip(run["cores"], cores))
    print("  who:   " + "".join(run["kinds"]))
    print("  (# all cores, + more than half, - more than 1/8, . less; m the calling thread, "
          "t the walk for environments, l the lint's pool)")


if __name__ == "__main__":
    main()
