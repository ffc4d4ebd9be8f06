#!/usr/bin/env bash
# Checks every GitHub workflow of the repository (.github/workflows/) and the CI recipes in
# docs/ (docs/github-*.yml, docs/gitlab-ci.yml), offline:
#   1. each GitHub workflow against the GitHub-workflow schema, the GitLab job against GitLab's
#      CI schema (check-jsonschema's built-in copies);
#   2. zizmor --offline (the security audit of GitHub workflows): no finding at all;
#   3. every action pinned by a full commit SHA with a `# vX.Y.Z` comment naming its tag;
#   4. the release workflow's maturin (MATURIN_VERSION) is the one scripts/build-wheel.sh
#      builds with (scripts/wheel-requirements.txt).
# The tools are pinned in scripts/workflow-check-requirements.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
passed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; echo "workflow-check: $passed passed, 1 failed"; exit 1; }

venv=.venv-workflow-check
if ! cmp -s scripts/workflow-check-requirements.txt "$venv/requirements.txt"; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check \
        -r scripts/workflow-check-requirements.txt
    cp scripts/workflow-check-requirements.txt "$venv/requirements.txt"
fi

github=(.github/workflows/*.yml docs/github-*.yml)
gitlab=(docs/gitlab-ci.yml)

# 1. Schemas.
"$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows "${github[@]}" ||
    fail "a GitHub workflow does not match the schema"
ok "${github[*]}: the GitHub-workflow schema"
"$venv/bin/check-jsonschema" --builtin-schema vendor.gitlab-ci "${gitlab[@]}" ||
    fail "the GitLab CI recipe does not match GitLab's schema"
ok "${gitlab[*]}: the GitLab CI schema"

# 2. zizmor: its exit code is non-zero for any finding that its default persona reports.
"$venv/bin/zizmor" --offline --no-progress "${github[@]}" || fail "zizmor reports findings"
ok "zizmor --offline: no findings"

# 3. Pinned actions: `uses: owner/repo[/path]@<40 hex> # vX.Y.Z`.
unpinned=$(grep -nE '^\s*-?\s*uses:' "${github[@]}" |
    grep -vE 'uses: [A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@[0-9a-f]{40} # v[0-9]+\.[0-9]+\.[0-9]+$' || true)
if [ -n "$unpinned" ]; then
    echo "$unpinned"
    fail "actions not pinned by a commit SHA with a '# vX.Y.Z' comment (above)"
fi
ok "every action is pinned by commit SHA, with its tag in a comment"

# 4. One maturin version.
workflow=$(sed -n 's/^  MATURIN_VERSION: //p' .github/workflows/release.yml)
pinned=$(sed -n 's/^maturin==//p' scripts/wheel-requirements.txt)
[ "$workflow" = "v$pinned" ] ||
    fail "release.yml's MATURIN_VERSION is '$workflow', scripts/wheel-requirements.txt pins maturin==$pinned"
ok "release.yml builds with maturin $workflow, as scripts/build-wheel.sh does"

echo "workflow-check: $passed passed, 0 failed"
