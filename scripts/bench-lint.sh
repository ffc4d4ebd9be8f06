#!/usr/bin/env bash
# How fast `hotfix lint` is over a tree of real templates (../shared/corpus by default), against
# PyYAML's C loader merely parsing the same templates as Heat's loader does: the medians of five
# runs each, made in one run, with one thread and every core, templates per second and peak
# memory (scripts/bench_lint.py says what each figure is), of the binary users install (the
# `dist` profile of Cargo.toml). Then the in-process figures: parse only, and lint on one thread
# and every core (`cargo bench -p hotfix_linter --bench lint`), and parse throughput in MB/s
# (`cargo bench -p hotfix_yaml --bench parse`) and in instructions per byte
# (scripts/bench-yaml.sh, with valgrind), and peak memory over the corpus copied once and ten
# times (scripts/bench-memory.sh); skip them with BENCH_QUICK=1. RUNS=N changes the number of
# runs.
#
# Needs python3 with PyYAML built with libyaml: .venv-heat's (scripts/setup-oracle.sh) when it
# exists, else the system's `python3`.
set -euo pipefail
cd "$(dirname "$0")/.."
tree=${1:-${HOTFIX_SHARED:-../shared}/corpus}
[ -d "$tree" ] || { echo "bench-lint: no folder $tree (give one, or put the shared folder at ../shared)" >&2; exit 1; }
# Absolute: `cargo bench` runs each benchmark in its package's folder.
tree=$(cd "$tree" && pwd)
shared=$(dirname "$tree")
python=.venv-heat/bin/python
[ -x "$python" ] || python=python3
"$python" -c 'import yaml' 2>/dev/null ||
    { echo "bench-lint: $python has no PyYAML: pip install pyyaml, or run scripts/setup-oracle.sh" >&2; exit 1; }
# The binary users install (wheels, release archives): the `dist` profile.
cargo build --profile dist --locked -q --bin hotfix
"$python" scripts/bench_lint.py --runs "${RUNS:-5}" --hotfix target/dist/hotfix "$tree"
if [ -z "${BENCH_QUICK:-}" ] && [ "$(basename "$tree")" != corpus ]; then
    # The in-process benchmarks read `$HOTFIX_SHARED/corpus`.
    echo "bench-lint: $tree is not a folder named corpus, so only the figures above"
elif [ -z "${BENCH_QUICK:-}" ]; then
    HOTFIX_SHARED=$shared cargo bench -q -p hotfix_linter --bench lint
    HOTFIX_SHARED=$shared cargo bench -q -p hotfix_yaml --bench parse
    # Parse only, in instructions per byte (callgrind): needs valgrind.
    if command -v valgrind >/dev/null; then
        HOTFIX_SHARED=$shared scripts/bench-yaml.sh
    else
        echo "bench-lint: no valgrind, so no instructions per byte (scripts/bench-yaml.sh)"
    fi
    # Peak memory of the same binary over the corpus copied once and ten times (every case:
    # scripts/bench-memory.sh alone).
    if [ -x /usr/bin/time ]; then
        HOTFIX_SHARED=$shared HOTFIX_BIN=target/dist/hotfix CASES=concise \
            scripts/bench-memory.sh
    else
        echo "bench-lint: no GNU time at /usr/bin/time, so no peak memory (scripts/bench-memory.sh)"
    fi
fi
