#!/usr/bin/env bash
# Proves the pre-commit hooks work as users will use them: installs pre-commit from the Python
# package registry (pinned in scripts/pre-commit-requirements.txt), makes a throwaway git
# repository whose .pre-commit-config.yaml uses hotfix's hooks, and checks that
#   1. committing a broken template fails with the finding,
#   2. committing the fixed template passes (and non-template YAML is never reported),
#   3. the upgrade hook rewrites an old template and fails the commit, as pre-commit expects of
#      a fixer, and the rewritten file then commits.
# It does so twice:
#   - rust: this repository's hooks at its current commit (`language: rust`: pre-commit builds
#     hotfix with cargo);
#   - python: the hooks repository that scripts/pre-commit-mirror.sh generates (`language:
#     python`: pre-commit pip-installs the hotfix-lint wheel), with no Rust toolchain on PATH,
#     and pip offered only the wheel that scripts/build-wheel.sh builds and the hooks
#     repository's build backend (scripts/pre-commit-links.txt), never the package registry.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
rev=$(git rev-parse HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "pre-commit-scenario: note: testing the committed state ($rev), not uncommitted changes" >&2
fi

venv=.venv-pre-commit
if ! cmp -s scripts/pre-commit-requirements.txt "$venv/requirements.txt"; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/pre-commit-requirements.txt
    cp scripts/pre-commit-requirements.txt "$venv/requirements.txt"
fi
pre_commit=$(pwd)/$venv/bin/pre-commit

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PRE_COMMIT_HOME="$work/cache"
passed=0

# scenario HOOKS_REPO REV NAME: the four checks in a new repository $work/NAME whose
# .pre-commit-config.yaml uses the hooks of HOOKS_REPO at REV (run in a subshell; the caller
# counts the four as passed).
scenario() {
local hooks_repo=$1 hooks_rev=$2 name=$3
echo "pre-commit scenario, $name hooks ($hooks_repo at $hooks_rev):"
cd "$work"
git init -q "$name"
cd "$name"
git config user.email ci@example.invalid
git config user.name "hotfix CI"
git config commit.gpgsign false
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $hooks_repo
    rev: $hooks_rev
    hooks:
      - id: hotfix-lint
      - id: hotfix-upgrade
        args: [--to, pike]
YAML
"$pre_commit" install >/dev/null
printf -- '- name: Controller\n  count: 1\n' > roles.yaml
git add .pre-commit-config.yaml roles.yaml
git commit -qm "non-template YAML only" > ../out-$name.txt 2>&1 || { cat ../out-$name.txt; echo "FAIL: committing non-template YAML failed"; exit 1; }
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
if git commit -qm "broken" > ../out-$name.txt 2>&1; then
    cat ../out-$name.txt; echo "FAIL: a broken template was committed"; exit 1
fi
grep -q "H301" ../out-$name.txt || { cat ../out-$name.txt; echo "FAIL: the finding is not shown"; exit 1; }
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
      image: cirros
YAML
git add server.yaml
git commit -qm "fixed" > ../out-$name.txt 2>&1 || { cat ../out-$name.txt; echo "FAIL: the fixed template was refused"; exit 1; }
echo "ok: the fixed template commits"

# 3. The upgrade hook rewrites an old template and fails the commit; the result then commits.
cat > old.yaml <<'YAML'
heat_template_version: 2013-05-23
outputs:
  joined:
    value: {"Fn::Join": ["-", [a, b]]}  # a comment that must survive
YAML
git add old.yaml
if git commit -qm "old" > ../out-$name.txt 2>&1; then
    cat ../out-$name.txt; echo "FAIL: the upgrade hook did not stop the commit"; exit 1
fi
grep -q "heat_template_version: 2017-09-01" old.yaml || { cat old.yaml; echo "FAIL: not upgraded"; exit 1; }
grep -q '"list_join"' old.yaml || { cat old.yaml; echo "FAIL: Fn::Join not rewritten"; exit 1; }
grep -q "a comment that must survive" old.yaml || { echo "FAIL: the comment was lost"; exit 1; }
git add old.yaml
git commit -qm "upgraded" > ../out-$name.txt 2>&1 || { cat ../out-$name.txt; echo "FAIL: the upgraded file was refused"; exit 1; }
echo "ok: the upgrade hook rewrites the file and fails the commit once"
}

# 1. This repository's hooks, built with cargo. pre-commit runs `cargo install` in its clone of
# the repository; the scenario proves the hooks build and run, not how fast the binary is, so the
# build is unoptimised (as quick as a debug build), in a target folder kept between
# runs of this script.
(
    export CARGO_TARGET_DIR=$repo/target/pre-commit CARGO_PROFILE_RELEASE_OPT_LEVEL=0 \
        CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256 \
        CARGO_PROFILE_RELEASE_INCREMENTAL=true
    scenario "$repo" "$rev" rust
)
passed=$((passed + 4))

# 2. The hooks repository of `language: python` hooks, installing the wheel built here.
cd "$repo"
wheel=$repo/$(scripts/build-wheel.sh)
links=$work/links
mkdir "$links"
cp "$wheel" "$links/"
python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary :all: \
    --dest "$links" -r scripts/pre-commit-links.txt
scripts/pre-commit-mirror.sh "$work/hotfix-pre-commit"
git -C "$work/hotfix-pre-commit" init -q
git -C "$work/hotfix-pre-commit" add -A
git -C "$work/hotfix-pre-commit" -c user.email=ci@example.invalid -c user.name="hotfix CI" \
    -c commit.gpgsign=false commit -qm "hotfix-pre-commit"
mirror_rev=$(git -C "$work/hotfix-pre-commit" rev-parse HEAD)

# The PATH without cargo, rustc or rustup; pip sees only $links. A folder that holds one of them
# is not simply dropped: where a distribution installs Rust into /usr/bin (Debian's rustc-web,
# which the playground's setup installs), dropping it would drop cat and git too. It is replaced
# by a folder of links to everything in it but the Rust toolchain's programs.
no_rust_path=
shims=0
IFS=: read -ra folders <<<"$PATH"
for folder in "${folders[@]}"; do
    [ -n "$folder" ] && [ -d "$folder" ] || continue
    if [ -e "$folder/cargo" ] || [ -e "$folder/rustc" ] || [ -e "$folder/rustup" ]; then
        shims=$((shims + 1))
        shim=$work/path-without-rust-$shims
        mkdir "$shim"
        for program in "$folder"/*; do
            case ${program##*/} in
                cargo | cargo-* | rustc | rustc-* | rustdoc | rustup | rust-* | rustfmt | clippy-driver) continue ;;
            esac
            if [ -f "$program" ] && [ -x "$program" ]; then
                ln -s "$program" "$shim/${program##*/}"
            fi
        done
        folder=$shim
    fi
    no_rust_path=${no_rust_path:+$no_rust_path:}$folder
done
for tool in cargo rustc rustup; do
    if PATH=$no_rust_path command -v "$tool" >/dev/null; then
        echo "FAIL: $tool is still on the PATH meant to have no Rust toolchain: $no_rust_path"
        exit 1
    fi
done
(
    export PATH=$no_rust_path PIP_NO_INDEX=1 PIP_FIND_LINKS=$links
    unset CARGO_HOME RUSTUP_HOME RUSTUP_TOOLCHAIN
    scenario "$work/hotfix-pre-commit" "$mirror_rev" python
)
passed=$((passed + 4))
installed=("$PRE_COMMIT_HOME"/repo*/py_env-*/bin/hotfix)
if [ "${#installed[@]}" != 1 ] || ! cmp -s "${installed[0]}" "$repo/target/dist/hotfix"; then
    echo "FAIL: the python hooks' environment does not hold the wheel's binary: ${installed[*]}"
    exit 1
fi
echo "ok: the python hooks ran the binary of the wheel built here"
passed=$((passed + 1))
echo "pre-commit scenario: $passed passed, 0 failed"
