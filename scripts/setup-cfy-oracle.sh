#!/usr/bin/env bash
# Creates .venv-cfy: Cloudify's own blueprint parser (dsl_parser, shipped in cloudify-common)
# from the Python package registry, pinned by scripts/cfy-requirements.txt and
# scripts/cfy-constraints.txt. The shared_ tests that compare hotfix's blueprint rules with
# Cloudify run ../shared/oracles/cloudify/cfy_check.py with it. Needs python3.
# Idempotent: an environment that meets every pin is kept; one that does not is brought to them.
set -euo pipefail
cd "$(dirname "$0")/.."

requirements=scripts/cfy-requirements.txt
constraints=scripts/cfy-constraints.txt

pins_met() {
    .venv-cfy/bin/python - "$requirements" "$constraints" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            pin = line.split("#")[0].strip()
            if not pin:
                continue
            name, wanted = pin.split("==")
            if version(name.split("[")[0]) != wanted:
                sys.exit(1)
import dsl_parser.parser  # noqa: E402,F401
PY
}

if ! pins_met; then
    if [ ! -x .venv-cfy/bin/python ]; then
        if ! command -v python3 >/dev/null; then
            echo "setup-cfy-oracle: python3 is missing: the tests that compare hotfix with" \
                "Cloudify's parser need it to install cloudify-common into .venv-cfy" >&2
            exit 1
        fi
        echo "setup-cfy-oracle: creating .venv-cfy with $(python3 --version)" >&2
        python3 -m venv .venv-cfy
    fi
    echo "setup-cfy-oracle: installing cloudify-common ($requirements, $constraints)" \
        "into .venv-cfy (about 20 s)" >&2
    if ! .venv-cfy/bin/pip install --quiet --disable-pip-version-check \
        -r "$requirements" -c "$constraints"; then
        echo "setup-cfy-oracle: pip could not install the pins above into .venv-cfy" >&2
        exit 1
    fi
    if ! pins_met; then
        echo "setup-cfy-oracle: .venv-cfy still does not meet the pins of $requirements and" \
            "$constraints, or does not import dsl_parser" >&2
        exit 1
    fi
fi
