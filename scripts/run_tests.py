#!/usr/bin/env python3
"""Runs test binaries side by side, as many at once as there are cores, and says how far along
it is: one line per binary as it ends, with its time and the time since the start.

Usage: run_tests.py BINARIES.tsv [ARGUMENT...]

BINARIES.tsv holds one test binary per line: its path, a tab, the folder cargo runs it in (its
package's folder), a tab, the test's source file (for the messages). Each binary runs with the
ARGUMENTs (`--ignored --nocapture`, `--skip shared_`, ...); its output is kept and shown when it
fails (and always when HOTFIX_TEST_OUTPUT=1). Each binary's time is recorded in
target/test-times.tsv (by source file and by which of its tests ran: plain, heat_ or heat_ and
shared_), and the next run starts the slowest first, so that the run does
not end waiting for one long binary started last. A clone that has run no test yet takes the
order from scripts/test-times.tsv (times of a run on a quiet 2-core machine, kept in the
repository for that alone: a stale figure only changes the order).

Why not `cargo test`: it runs one binary after another, and most of the Heat tests are one test
in one binary driving one Python process, which leaves the other core idle.
"""
import os
import subprocess
import sys
import tempfile
import threading
import time

TIMES = os.path.join('target', 'test-times.tsv')
FIRST_TIMES = os.path.join('scripts', 'test-times.tsv')


def main():
    listing, arguments = sys.argv[1], sys.argv[2:]
    binaries = []
    with open(listing) as f:
        for line in f:
            if line.strip():
                binaries.append(line.rstrip('\n').split('\t'))
    # Which tests of a binary run: its plain tests, its ignored ones without the shared_ ones,
    # or all its ignored ones.
    if '--ignored' not in arguments:
        phase = 'plain'
    elif 'shared_' in arguments:
        phase = 'heat'
    else:
        phase = 'heat+shared'
    known = {}
    for path in (FIRST_TIMES, TIMES):
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    key, _, seconds = line.rstrip('\n').partition('\t')
                    try:
                        known[key] = float(seconds)
                    except ValueError:
                        pass

    def key(source):
        return '%s %s' % (source, phase)

    # Unknown ones first (they may be long), then the slowest.
    binaries.sort(key=lambda b: -known.get(key(b[2]), float('inf')))
    jobs = max(1, min(len(binaries), os.cpu_count() or 1))
    started = time.monotonic()
    lock = threading.Lock()
    failed = []
    done = [0]
    queue = list(binaries)

    def clock(seconds):
        return '%dm%02ds' % (seconds // 60, seconds % 60)

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                executable, folder, source = queue.pop(0)
            begin = time.monotonic()
            with tempfile.TemporaryFile() as out:
                code = subprocess.call([executable] + arguments, cwd=folder, stdout=out,
                                       stderr=subprocess.STDOUT)
                out.seek(0)
                text = out.read().decode('utf-8', 'replace')
            took = time.monotonic() - begin
            summary = next((line for line in reversed(text.splitlines())
                            if line.startswith('test result:')), 'no test result line')
            with lock:
                done[0] += 1
                known[key(source)] = took
                verdict = 'ok' if code == 0 else 'FAILED (exit %d)' % code
                print('run_tests: [%d/%d, %s] %s: %s in %.0f s; %s' % (
                    done[0], len(binaries), clock(time.monotonic() - started), source,
                    verdict, took, summary), file=sys.stderr, flush=True)
                if code != 0:
                    failed.append(source)
                if code != 0 or os.environ.get('HOTFIX_TEST_OUTPUT') == '1':
                    sys.stderr.write(text)
                    sys.stderr.flush()

    threads = [threading.Thread(target=worker) for _ in range(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    os.makedirs(os.path.dirname(TIMES), exist_ok=True)
    with open(TIMES, 'w') as f:
        for source, seconds in sorted(known.items()):
            f.write('%s\t%.1f\n' % (source, seconds))
    if failed:
        print('run_tests: %d of %d test binaries failed: %s' % (
            len(failed), len(binaries), ', '.join(failed)), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
