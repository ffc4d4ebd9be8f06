#!/usr/bin/env bash
# The clients editors use, against hotfix (Node.js tests, node:test; both run side by side):
#
#   editors/schema-check   Red Hat's yaml-language-server with `hotfix schema`'s output: the
#                          mistakes it must report, a valid template, and (a shared_ part) every
#                          corpus template hotfix finds no error in: no schema error;
#   editors/vscode         the packaged VS Code extension (scripts/package-vscode.sh) against
#                          `hotfix server`, with a stand-in for the `vscode` module.
#
# Needs Node.js 20 or later with npm; the pinned packages are installed by scripts/npm-ci.sh
# (kept between runs). HOTFIX: the binary (default target/debug/hotfix, built here). Without
# the shared folder (HOTFIX_SHARED, default ../shared) the shared_ part is skipped, by name;
# HOTFIX_REQUIRE_SHARED=1 makes its absence a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "editors-check: $*" >&2; }

if [ -z "${HOTFIX:-}" ]; then
    cargo build --locked -q --bin hotfix
    export HOTFIX=$PWD/target/debug/hotfix
fi
scripts/npm-ci.sh editors/schema-check editors/vscode
logs=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$logs"' EXIT
# Stopped (scripts/test.sh stops it when a test before it fails): the tests stop too.
trap 'exit 143' TERM
started=$SECONDS
node --test editors/schema-check/schema.test.mjs > "$logs/schema" 2>&1 &
schema=$!
node --test editors/vscode/test/extension.test.mjs > "$logs/vscode" 2>&1 &
vscode=$!
failed=0
for name in schema vscode; do
    code=0
    wait "${!name}" || code=$?
    if [ "$code" != 0 ]; then
        failed=1
        say "$name: failed; its output:"
        cat "$logs/$name" >&2
    fi
    # One line per test, and the skipped ones with their reason.
    grep -aE '^(ok|not ok) ' "$logs/$name" | sed "s/^/  $name: /" >&2 || true
done
if grep -aq '# SKIP' "$logs/schema"; then
    say "skipped, ${HOTFIX_SHARED:-../shared} is absent: editors/schema-check/schema.test.mjs:" \
        "$(grep -aE '^ok .*# SKIP' "$logs/schema" | sed -E 's/^ok [0-9]+ - ([^ ]+).*/\1/' | paste -sd, -)"
fi
say "$([ "$failed" = 0 ] && echo passed || echo FAILED) in $((SECONDS - started)) s"
exit "$failed"
