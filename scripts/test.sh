#!/usr/bin/env bash
# The whole test suite. On a fresh clone with nothing beside it, it runs
#
#   1. every self-contained test: those of `cargo test --workspace` (unit, snapshot, CLI), the
#      test binaries side by side;
#   2. the tests that compare hotfix with Heat's own engine. These are `#[ignore]`d, so that a
#      plain `cargo test` needs no Python; here scripts/setup-oracle.sh installs Heat, pinned,
#      into .venv-heat while the tests compile, which needs python3 (HOTFIX_PYTHON, when set,
#      is the Python the Heat tests run instead);
#   3. beside those, the clients editors use (scripts/editors-check.sh: yaml-language-server with
#      `hotfix schema`'s output, the packaged VS Code extension with `hotfix server`), which
#      need Node.js 20 or later with npm; scripts/npm-ci.sh installs their pinned packages while
#      the tests compile. Its corpus part is a shared_ test, skipped without ../shared as below.
#
# Naming convention of the `#[ignore]`d tests (crates/hotfix_linter/tests/common/mod.rs says the
# same), by what they need:
#
#   heat_…    Heat's engine and the repository's own files (testdata/, scripts/heat_oracle.py).
#             Always run.
#   shared_…  also the team's shared folder: ../shared beside the repository, or HOTFIX_SHARED
#             (the template corpus, the SARIF schema in reference/, the shared oracle scripts).
#             Run when that folder exists; otherwise skipped, with one line per test file naming
#             the skipped tests. HOTFIX_REQUIRE_SHARED=1 (.ci/run sets it) makes its absence a
#             failure instead.
#
# The ignored tests run binary by binary side by side (scripts/run_tests.py: as many at once as
# there are cores, the slowest of the previous run first, one line per binary as it ends): most
# of them drive one Python process each, and `cargo test` would run them one after another.
#
# The prefix starts the test function's name. An ignored test named otherwise fails this script,
# and so does a `heat_` test whose name contains `shared_` (the skip matches that text).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "test.sh: $*" >&2; }
started=$SECONDS
step_number=0
# One line per step, numbered, with the time since the start, so that a slow step is told from
# a hung one (cargo prints its own progress while it compiles; each test binary its results).
step() {
    step_number=$((step_number + 1))
    say "[$step_number/$steps, $(elapsed)] $*"
}
elapsed() { printf '%dm%02ds' $(((SECONDS - started) / 60)) $(((SECONDS - started) % 60)); }

shared=${HOTFIX_SHARED:-../shared}
if [ -d "$shared" ]; then
    have_shared=1
elif [ "${HOTFIX_REQUIRE_SHARED:-}" = 1 ]; then
    say "HOTFIX_REQUIRE_SHARED=1, and $shared is absent: the shared_ tests (the corpus, the" \
        "SARIF schema, the shared oracle) cannot run; put the shared folder there or set HOTFIX_SHARED"
    exit 1
else
    have_shared=
fi

steps=5
# The oracles (Heat's engine; with ../shared, Cloudify's parser too) are installed while the tests
# compile: pip mostly waits on the network and the disk, the compiler on the cores.
oracle_log=target/setup-oracles.log
mkdir -p target
step "Heat's engine in .venv-heat$([ -n "$have_shared" ] && echo " and Cloudify's parser in .venv-cfy")," \
    "wallaby's Heat 16.1.0 in target/heat-releases and the editor tests' npm packages, installed" \
    "beside the compilation (scripts/setup-test-tools.sh; kept between runs; log: $oracle_log)"
HOTFIX_SHARED=$shared scripts/setup-test-tools.sh > "$oracle_log" 2>&1 &
oracles=$!
binaries=$(mktemp)
# shellcheck disable=SC2329 # called by the trap
cleanup() {
    kill "$oracles" 2>/dev/null || true
    if [ -n "${editors:-}" ]; then kill -- "$editors" 2>/dev/null || true; fi
    rm -f "$binaries" "$binaries.ignored"
}
trap cleanup EXIT
# Waits for the oracles' installation; shows what it said, and fails if it failed.
oracles_installed() {
    local code=0
    wait "$oracles" || code=$?
    sed 's/^/  /' "$oracle_log" >&2
    if [ "$code" != 0 ]; then
        say "installing the oracles failed (exit $code); its output is above"
        exit 1
    fi
}
if [ -n "${HOTFIX_PYTHON:-}" ]; then
    if ! "$HOTFIX_PYTHON" -c 'import heat.common.template_format' 2>/dev/null; then
        say "HOTFIX_PYTHON=$HOTFIX_PYTHON does not import Heat: unset it (the tests then use" \
            ".venv-heat) or point it at a Python with the pins of scripts/heat-requirements.txt"
        exit 1
    fi
    say "the tests that run Heat use HOTFIX_PYTHON=$HOTFIX_PYTHON"
fi

step "compiling every test (cargo test --workspace --no-run)"
cargo test --workspace --locked --no-run
# Every test binary (its path, its package's folder, its source file), and every ignored test,
# one per line: its source file, a tab, its name.
cargo test --workspace --locked --quiet --no-run --message-format=json-render-diagnostics |
    python3 -c '
import json, os, sys
for line in sys.stdin:
    message = json.loads(line)
    if (message.get("reason") != "compiler-artifact" or not message.get("executable")
            or not message["profile"]["test"]):
        continue
    print("%s\t%s\t%s" % (message["executable"], os.path.dirname(message["manifest_path"]),
                          os.path.relpath(message["target"]["src_path"])))
' > "$binaries"
ignored=$(python3 -c '
import subprocess, sys
for line in open(sys.argv[1]):
    executable, folder, source = line.rstrip("\n").split("\t")
    listing = subprocess.run([executable, "--list", "--ignored", "--format", "terse"],
                             capture_output=True, text=True, check=True).stdout
    for entry in listing.splitlines():
        if entry.endswith(": test"):
            print("%s\t%s" % (source, entry[:-len(": test")]))
' "$binaries")
# The binaries that hold an ignored test.
awk -F'\t' 'NR == FNR { holds[$1] = 1; next } $3 in holds' <(echo "$ignored") "$binaries" \
    > "$binaries.ignored"
misnamed=$(awk -F'\t' '{ name = $2; sub(/.*::/, "", name) }
    name !~ /^(heat|shared)_/ || (name ~ /^heat_/ && $2 ~ /shared_/) { print "  " $1 ": " $2 }' \
    <<<"$ignored")
if [ -n "$misnamed" ]; then
    say "an ignored test's name starts with heat_ (needs only Heat) or shared_ (needs ../shared)," \
        "and only a shared_ test's name contains shared_ (see the top of scripts/test.sh); rename:"
    echo "$misnamed" >&2
    exit 1
fi
count() { awk -F'\t' -v prefix="$1" '{ name = $2; sub(/.*::/, "", name) } name ~ "^" prefix' \
    <<<"$ignored" | grep -c . || true; }
heat_tests=$(count heat_)
shared_tests=$(count shared_)

step "the self-contained tests: every test binary side by side, then the documentation's" \
    "examples; then no snapshot file that no test asserted (scripts/unreferenced-snapshots.py)"
# insta lists each snapshot it compares to here; every snapshot assertion is a self-contained test.
references=$PWD/target/snapshot-references.txt
rm -f "$references"
INSTA_SNAPSHOT_REFERENCES_FILE=$references scripts/run_tests.py "$binaries"
cargo test --workspace --locked --quiet --doc
scripts/unreferenced-snapshots.py "$references"
oracles_installed
# The editors' clients, beside the Heat tests (which spend much of their time in Python waiting
# on one another); their output is shown when they end.
editors_log=target/editors-check.log
step "the editors' clients, beside the next step (scripts/editors-check.sh; log: $editors_log)"
HOTFIX=$PWD/target/debug/hotfix scripts/editors-check.sh > "$editors_log" 2>&1 &
editors=$!
editors_checked() {
    local code=0
    wait "$editors" || code=$?
    editors=
    sed 's/^/  /' "$editors_log" >&2
    if [ "$code" != 0 ]; then
        say "the editors' clients failed (exit $code); their output is above"
        exit 1
    fi
}
if [ -n "$have_shared" ]; then
    step "the $heat_tests heat_ and $shared_tests shared_ tests (Heat's engine, the corpus in $shared)"
    scripts/run_tests.py "$binaries.ignored" --ignored --nocapture
    editors_checked
    say "passed in $(elapsed): every self-contained test, $heat_tests heat_ tests and" \
        "$shared_tests shared_ tests ($shared)"
else
    step "the $heat_tests heat_ tests (Heat's engine, the repository's fixtures)"
    scripts/run_tests.py "$binaries.ignored" --ignored --skip shared_
    editors_checked
    say "passed in $(elapsed): every self-contained test and $heat_tests heat_ tests (Heat's" \
        "engine, the repository's fixtures)"
    awk -F'\t' '{ name = $2; sub(/.*::/, "", name) } name ~ /^shared_/ {
            if ($1 in tests) tests[$1] = tests[$1] ", " $2; else tests[$1] = $2 }
        END { for (file in tests) print file "\t" tests[file] }' <<<"$ignored" | sort |
        while IFS=$'\t' read -r file tests; do
            say "skipped, $shared is absent: $file: $tests"
        done
    say "(those need the shared folder at $shared or HOTFIX_SHARED; HOTFIX_REQUIRE_SHARED=1 makes" \
        "its absence a failure)"
fi
