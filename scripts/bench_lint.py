#!/usr/bin/env python3
"""`hotfix lint` over a tree against PyYAML's C loader merely parsing the same templates.

Run through scripts/bench-lint.sh, which builds the binary users install (the `dist` profile)
first:

    scripts/bench-lint.sh [TREE]          # TREE: ../shared/corpus by default

What it prints, every time figure the median of RUNS runs (5 by default) made in this one run:

- the files `hotfix lint` checks in TREE (from its JUnit report: a test suite per file:
  templates, environment files, blueprints), their count and size;
- `hotfix lint TREE` as a whole process (start-up, the walk over every file of the tree, every
  rule, the report): wall time on every core, on one thread (RAYON_NUM_THREADS=1, which the walk for
  environments follows too; the calling thread still finds the files and prints beside it) and on one core (the process held to
  one CPU, with RAYON_NUM_THREADS=1: nothing runs beside), the speed-ups, templates per second
  and peak memory (the largest resident set of a run);
- the CPU time (user and system, every thread's) of a run on every core and of one held to one
  core: the work grows on several cores (threads share caches and the kernel's locks), and
  the speed-up on N cores is at most N times the ratio of the two, however busy they are kept;
- PyYAML merely loading the same templates as Heat's loader does (`json.loads` first, then
  `yaml.load` with a CSafeLoader whose timestamps stay strings), timed inside one Python process
  (interpreter start-up and the file walk not counted): its wall time and MB/s;
- the ratio of the two: how many times faster hotfix lints the tree than PyYAML parses its
  templates.

PyYAML must be built with libyaml (`yaml.__with_libyaml__`); the script says so otherwise.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

import yaml


class HeatLoader(yaml.CSafeLoader):
    """PyYAML's C loader with timestamps kept as the scalar's text, as Heat's loader has it."""


HeatLoader.add_constructor(
    "tag:yaml.org,2002:timestamp", lambda loader, node: loader.construct_scalar(node)
)


def run_hotfix(hotfix, tree, threads=None, fmt="concise", one_cpu=False):
    """One `hotfix lint` run: (wall seconds, peak RSS in MB or None, standard output, CPU
    seconds as (user, system)).

    The peak comes from GNU time (`/usr/bin/time`) when it is there: the resident-set figure
    this process would get from wait4 counts the Python process it was forked from. The CPU
    time is the kernel's account of the finished process (wait4), its threads' added up.
    """
    env = dict(os.environ)
    env.pop("RAYON_NUM_THREADS", None)
    if threads is not None:
        env["RAYON_NUM_THREADS"] = str(threads)
    args = [hotfix, "lint", tree, "--no-config", "--exit-zero", "--quiet", "--format", fmt]
    with tempfile.NamedTemporaryFile(mode="r") as peak:
        timed = ["/usr/bin/time", "-f", "%M", "-o", peak.name] if os.path.exists("/usr/bin/time") else []
        start = time.monotonic()
        # Held to the first CPU it may use (inherited by its threads) when one_cpu.
        pin = (lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})) if one_cpu else None
        proc = subprocess.Popen(timed + args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                env=env, preexec_fn=pin)
        with proc.stdout:
            stdout = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in (0, 1):
            sys.exit("bench-lint: %s exited with %d" % (" ".join(args), proc.returncode))
        text = peak.read().strip()
    peak_mb = int(text.splitlines()[-1]) / 1024 if text else None
    return wall, peak_mb, stdout, (usage.ru_utime, usage.ru_stime)


def templates(hotfix, tree):
    """The files hotfix checks in `tree`, as paths it can open, from its JUnit report."""
    _, _, out, _ = run_hotfix(hotfix, tree, fmt="junit")
    names = [suite.get("name") for suite in ET.fromstring(out).iter("testsuite")]
    return [name for name in names if name]


def pyyaml_parse(texts):
    """Seconds PyYAML takes to load every text as Heat's loader does."""
    start = time.monotonic()
    for text in texts:
        try:
            json.loads(text)
        except ValueError:
            try:
                yaml.load(text, Loader=HeatLoader)
            except yaml.YAMLError:
                pass
    return time.monotonic() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hotfix", default="target/release/hotfix")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("tree")
    args = parser.parse_args()
    if not yaml.__with_libyaml__:
        sys.exit("bench-lint: this PyYAML has no libyaml (CSafeLoader): install a PyYAML wheel")

    paths = templates(args.hotfix, args.tree)
    texts = []
    for path in paths:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            texts.append(f.read())
    size = sum(len(t.encode("utf-8", errors="surrogateescape")) for t in texts)
    print("%s: %d files hotfix checks, %.2f MB (1 MB = 10^6 bytes)" % (args.tree, len(paths), size / 1e6))

    all_cores, one_thread, one_core, peaks, parses = [], [], [], [], []
    cpu_cores, cpu_pinned = [], []
    run_hotfix(args.hotfix, args.tree)  # warm the page cache
    pyyaml_parse(texts)
    for _ in range(args.runs):  # interleaved, so that a drift of the machine hits every figure
        # Each hotfix run right after a run of the same tree: the system may drop a page cache
        # left unused for seconds, and a run that reads the tree from disk waits for it.
        wall, peak, _, cpu = run_hotfix(args.hotfix, args.tree)
        all_cores.append(wall)
        cpu_cores.append(cpu)
        peaks.append(peak)
        one_thread.append(run_hotfix(args.hotfix, args.tree, threads=1)[0])
        wall, _, _, cpu = run_hotfix(args.hotfix, args.tree, threads=1, one_cpu=True)
        one_core.append(wall)
        cpu_pinned.append(cpu)
        parses.append(pyyaml_parse(texts))
    hotfix = statistics.median(all_cores)
    single = statistics.median(one_thread)
    pinned = statistics.median(one_core)
    pyyaml = statistics.median(parses)
    cores = len(os.sched_getaffinity(0))  # the CPUs this process may use, as hotfix counts them
    print("median of %d runs each:" % args.runs)
    peak = "peak %.1f MB" % statistics.median(peaks) if None not in peaks else "no /usr/bin/time for the peak"
    print(
        "  hotfix lint, %d cores:   %.3f s  (%.0f files/s, %s)"
        % (cores, hotfix, len(paths) / hotfix, peak)
    )
    print("  hotfix lint, 1 thread:   %.3f s  (speed-up on %d cores: %.2fx)"
          % (single, cores, single / hotfix))
    print("  hotfix lint, 1 core:     %.3f s  (speed-up on %d cores: %.2fx)"
          % (pinned, cores, pinned / hotfix))
    user = statistics.median(u for u, _ in cpu_cores)
    system = statistics.median(s for _, s in cpu_cores)
    user_1 = statistics.median(u for u, _ in cpu_pinned)
    system_1 = statistics.median(s for _, s in cpu_pinned)
    # The work the run does on every core against on one: the speed-up on N cores is at most
    # about N times their ratio, however well the cores are kept busy (about: the run on one
    # core may also wait, for the disk, without using the CPU).
    print("  CPU time, %d cores:      %.3f s  (user %.3f, system %.3f)"
          % (cores, user + system, user, system))
    print("  CPU time, 1 core:        %.3f s  (user %.3f, system %.3f; on %d cores the work is"
          " %.2fx, so the speed-up is at most about %.2fx)"
          % (user_1 + system_1, user_1, system_1, cores, (user + system) / (user_1 + system_1),
             cores * (user_1 + system_1) / (user + system)))
    print("  PyYAML CSafeLoader:      %.3f s  (%.1f MB/s, parsing only)" % (pyyaml, size / 1e6 / pyyaml))
    print("  hotfix lint is %.1fx faster than PyYAML parses the same files" % (pyyaml / hotfix))


if __name__ == "__main__":
    main()
