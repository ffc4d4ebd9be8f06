#!/usr/bin/env bash
# Checks every GitHub workflow of the repository (.github/workflows/) and the CI recipes in
# docs/ (docs/github-*.yml, docs/gitlab-ci.yml), offline:
#   1. each GitHub workflow against the GitHub-workflow schema, the GitLab job against GitLab's
#      CI schema (check-jsonschema's built-in copies);
#   2. zizmor --offline (the security audit of GitHub workflows): no finding at all;
#   3. every action pinned by a full commit SHA with a `# vX.Y.Z` comment naming its tag;
#   4. the release workflow's maturin (MATURIN_VERSION) is the one scripts/build-wheel.sh
#      builds with (scripts/wheel-requirements.txt);
#   5. GitHub's CI runs what .ci/run runs, by running it: .github/workflows/ci.yml runs on every
#      push to main and every pull request, and its one job runs `.ci/run` unconditionally (no
#      `if:`, no `continue-on-error`), as root in the Debian 12 image of the Rust that
#      rust-toolchain.toml pins (.ci/run's setup scripts install Debian's packages).
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

# 5. GitHub's CI is .ci/run.
"$venv/bin/python" - .github/workflows/ci.yml rust-toolchain.toml <<'PY' ||
import re, sys
from ruamel.yaml import YAML

workflow_path, toolchain_path = sys.argv[1:]
workflow = YAML(typ='safe').load(open(workflow_path))
channel = re.search(r'^channel = "(.*)"$', open(toolchain_path).read(), re.M).group(1)
problems = []
# YAML 1.1 reads the key `on` as True.
triggers = workflow.get('on', workflow.get(True)) or {}
if 'main' not in ((triggers.get('push') or {}).get('branches') or []):
    problems.append('it does not run on a push to main')
if 'pull_request' not in triggers:
    problems.append('it does not run on pull requests')
jobs = workflow.get('jobs') or {}
if len(jobs) != 1:
    problems.append('it has %d jobs, not one that runs .ci/run' % len(jobs))
for name, job in jobs.items():
    if 'if' in job or job.get('continue-on-error'):
        problems.append('job %s may be skipped or may fail unseen' % name)
    container = job.get('container') or {}
    image = container.get('image') if isinstance(container, dict) else container
    if image != 'rust:%s-bookworm' % channel:
        problems.append('job %s runs in %r, not rust:%s-bookworm (Debian 12 with the Rust of '
                        'rust-toolchain.toml)' % (name, image, channel))
    if isinstance(container, dict) and '--user' in str(container.get('options', '')):
        problems.append('job %s does not run as root' % name)
    steps = job.get('steps') or []
    runs = [s for s in steps if str(s.get('run', '')).strip() == '.ci/run']
    if len(runs) != 1:
        problems.append('job %s does not run `.ci/run` (once, as a step of its own)' % name)
    for step in steps:
        if 'if' in step or step.get('continue-on-error'):
            problems.append('job %s: a step may be skipped or may fail unseen: %s' % (name, step))
for problem in problems:
    print('  %s: %s' % (workflow_path, problem))
sys.exit(1 if problems else 0)
PY
    fail "GitHub's CI workflow does not run .ci/run as it must (above)"
ok ".github/workflows/ci.yml runs .ci/run on every push to main and pull request, in rust:$(sed -n 's/^channel = "\(.*\)"$/\1/p' rust-toolchain.toml)-bookworm"

echo "workflow-check: $passed passed, 0 failed"
