#!/usr/bin/env bash
# Proves the pre-commit hooks work as users will use them: installs pre-commit from the Python
# package registry, makes a throwaway git repository whose .pre-commit-config.yaml uses this
# repository's hooks at its current commit, and checks that
#   1. committing a broken template fails with the finding,
#   2. committing the fixed template passes (and non-template YAML is never reported),
#   3. the upgrade hook rewrites an old template and fails the commit, as pre-commit expects of
#      a fixer, and the rewritten file then commits.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
rev=$(git rev-parse HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "pre-commit-scenario: note: testing the committed state ($rev), not uncommitted changes" >&2
fi

venv=.venv-pre-commit
if ! "$venv/bin/pre-commit" --version >/dev/null 2>&1; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'pre-commit==4.3.0'
fi
pre_commit=$(pwd)/$venv/bin/pre-commit

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PRE_COMMIT_HOME="$work/cache"
cd "$work"
git init -q project
cd project
git config user.email ci@example.invalid
git config user.name "hotfix CI"
git config commit.gpgsign false
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $repo
    rev: $rev
    hooks:
      - id: hotfix-lint
      - id: hotfix-upgrade
        args: [--to, pike]
YAML
"$pre_commit" install >/dev/null
printf -- '- name: Controller\n  count: 1\n' > roles.yaml
git add .pre-commit-config.yaml roles.yaml
git commit -qm "non-template YAML only" > ../out.txt 2>&1 || { cat ../out.txt; echo "FAIL: committing non-template YAML failed"; exit 1; }
echo "ok: non-template YAML is not reported"

# 1. A broken template: the lint hook fails and names the finding.
cat > server.yaml <<'YAML'
heat_template_version: 2017-09-01
resources:
  server:
    type: OS::Nova::Server
    properties:
      flavor: {get_param: flavour}
YAML
git add server.yaml
if git commit -qm "broken" > ../out.txt 2>&1; then
    cat ../out.txt; echo "FAIL: a broken template was committed"; exit 1
fi
grep -q "H301" ../out.txt || { cat ../out.txt; echo "FAIL: the finding is not shown"; exit 1; }
echo "ok: the broken template is refused with its finding"

# 2. Fixed: the commit goes through.
cat > server.yaml <<'YAML'
heat_template_version: 2017-09-01
parameters:
  flavour: {type: string, default: m1.small}
resources:
  server:
    type: OS::Nova::Server
    properties:
      flavor: {get_param: flavour}
YAML
git add server.yaml
git commit -qm "fixed" > ../out.txt 2>&1 || { cat ../out.txt; echo "FAIL: the fixed template was refused"; exit 1; }
echo "ok: the fixed template commits"

# 3. The upgrade hook rewrites an old template and fails the commit; the result then commits.
cat > old.yaml <<'YAML'
heat_template_version: 2013-05-23
outputs:
  joined:
    value: {"Fn::Join": ["-", [a, b]]}  # a comment that must survive
YAML
git add old.yaml
if git commit -qm "old" > ../out.txt 2>&1; then
    cat ../out.txt; echo "FAIL: the upgrade hook did not stop the commit"; exit 1
fi
grep -q "heat_template_version: 2017-09-01" old.yaml || { cat old.yaml; echo "FAIL: not upgraded"; exit 1; }
grep -q '"list_join"' old.yaml || { cat old.yaml; echo "FAIL: Fn::Join not rewritten"; exit 1; }
grep -q "a comment that must survive" old.yaml || { echo "FAIL: the comment was lost"; exit 1; }
git add old.yaml
git commit -qm "upgraded" > ../out.txt 2>&1 || { cat ../out.txt; echo "FAIL: the upgraded file was refused"; exit 1; }
echo "ok: the upgrade hook rewrites the file and fails the commit once"
echo "pre-commit scenario: 4 passed, 0 failed"
