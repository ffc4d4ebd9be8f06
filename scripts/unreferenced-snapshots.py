#!/usr/bin/env python3
"""Fails on a snapshot file that no test asserted during a run: one whose test, fixture or name
is gone, and which would otherwise stay in the repository unread.

usage: scripts/unreferenced-snapshots.py REFERENCES

REFERENCES is the file insta appends every snapshot it compares to when the tests run with
INSTA_SNAPSHOT_REFERENCES_FILE set (what `cargo insta test --unreferenced=reject` uses), one
path a line. scripts/test.sh sets it for the self-contained tests, where every snapshot
assertion is (snapshot names are built from fixture names and test arguments, so only a run
knows them all), and runs this script after them.

Snapshots are the `*.snap` files in a folder named `snapshots` or below one (`snapshots/rules/`),
anywhere in the repository except `target/`, `.git/`, `node_modules/` and virtual environments. Exit codes: 0 every
snapshot referenced; 1 some are not (listed); 2 the references file is missing or empty.
"""

import os
import sys

SKIPPED = {'target', '.git', 'node_modules'}


def snapshots(root):
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED and not d.startswith('.venv')]
        if 'snapshots' not in os.path.relpath(folder, root).split(os.sep):
            continue
        found.extend(os.path.join(folder, f) for f in files if f.endswith('.snap'))
    return sorted(os.path.realpath(f) for f in found)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = os.path.realpath(os.path.join(os.path.dirname(__file__), '..'))
    try:
        with open(sys.argv[1], encoding='utf-8') as f:
            referenced = {os.path.realpath(line.rstrip('\n')) for line in f if line.strip()}
    except FileNotFoundError:
        referenced = set()
    if not referenced:
        print('unreferenced-snapshots.py: no snapshot was referenced in %s: did the tests run '
              'with INSTA_SNAPSHOT_REFERENCES_FILE set?' % sys.argv[1], file=sys.stderr)
        return 2
    unreferenced = [f for f in snapshots(root) if f not in referenced]
    if unreferenced:
        print('unreferenced-snapshots.py: %d snapshot files that no test asserted (read each, '
              'then remove it, or restore the test or fixture that wrote it):'
              % len(unreferenced), file=sys.stderr)
        for f in unreferenced:
            print('  ' + os.path.relpath(f, root), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
