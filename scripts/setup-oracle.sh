#!/usr/bin/env bash
# Creates .venv-heat: OpenStack Heat's own engine from the Python package registry, pinned by
# ../shared/oracles/heat/requirements.txt. Tests that compare hotfix with Heat run it.
# Idempotent: an environment that already imports Heat is kept.
set -euo pipefail
cd "$(dirname "$0")/.."

requirements=../shared/oracles/heat/requirements.txt
if [ ! -f "$requirements" ]; then
    echo "setup-oracle: $requirements is missing: the shared folder must sit beside this repository" >&2
    exit 1
fi
if .venv-heat/bin/python -c 'import heat.common.template_format' 2>/dev/null; then
    exit 0
fi
command -v python3 >/dev/null || { echo "setup-oracle: python3 is required" >&2; exit 1; }
echo "setup-oracle: installing Heat into .venv-heat (about 40 s)" >&2
python3 -m venv .venv-heat
.venv-heat/bin/pip install --quiet --disable-pip-version-check -r "$requirements"
.venv-heat/bin/python -c 'import heat.common.template_format'
