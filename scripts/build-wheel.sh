#!/usr/bin/env bash
# Builds the Python wheel of hotfix (`hotfix-lint`) for this machine as the release workflow
# builds each of its wheels: the same maturin (scripts/wheel-requirements.txt, which
# scripts/workflow-check.sh checks against the workflow's MATURIN_VERSION) and the same
# arguments (MATURIN_ARGS, read here from .github/workflows/release.yml), into
# target/wheels-ci/. Prints the wheel's path on stdout; maturin's and cargo's output go to
# stderr.
#
# What differs from the workflow: there, maturin-action builds each Linux wheel inside a
# manylinux2014 (or musllinux) container and adds `--manylinux 2_17 --target TRIPLE`; here the
# build runs on this machine for its own target, without a container, so the platform tag is
# the lowest that this machine's glibc allows (manylinux_2_34 on Debian 12): a wheel that pip
# installs here, not one to publish.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "build-wheel: $*" >&2; }

venv=.venv-wheel
if ! cmp -s scripts/wheel-requirements.txt "$venv/requirements.txt"; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/wheel-requirements.txt
    cp scripts/wheel-requirements.txt "$venv/requirements.txt"
fi

args=$(sed -n 's/^  MATURIN_ARGS: //p' .github/workflows/release.yml)
if [ -z "$args" ]; then
    say "no MATURIN_ARGS in .github/workflows/release.yml"
    exit 1
fi
out=target/wheels-ci
rm -rf "$out"
say "maturin build $args --out $out"
# shellcheck disable=SC2086 # split into words, as maturin-action splits its `args`
"$venv/bin/maturin" build $args --out "$out" >&2
wheels=("$out"/*.whl)
if [ "${#wheels[@]}" != 1 ] || [ ! -f "${wheels[0]}" ]; then
    say "expected one wheel in $out, found: ${wheels[*]}"
    exit 1
fi
echo "${wheels[0]}"
