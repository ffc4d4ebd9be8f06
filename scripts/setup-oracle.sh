#!/usr/bin/env bash
# Creates .venv-heat: OpenStack Heat's own engine from the Python package registry, pinned by
# scripts/heat-requirements.txt and scripts/heat-constraints.txt, which the tests that compare
# hotfix with Heat run (scripts/heat_oracle.py, scripts/heat_load.py); and the pinned SARIF
# schema validator that scripts/validate-sarif.py needs. Needs python3; nothing beside the
# repository.
# Idempotent: an environment that meets every pin is kept; one that does not is brought to them.
# Also takes the JUnit schema that scripts/validate-junit.py needs (below).
set -euo pipefail
cd "$(dirname "$0")/.."

requirements=scripts/heat-requirements.txt
constraints=scripts/heat-constraints.txt
# The SARIF schema validator: jsonschema, and rfc3986-validator for the `uri` and
# `uri-reference` formats.
sarif_validator=(jsonschema==4.26.0 rfc3986-validator==0.1.1)

# Whether .venv-heat has exactly the pinned version of every package, and imports Heat.
pins_met() {
    .venv-heat/bin/python - "$requirements" "$constraints" "${sarif_validator[@]}" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
pins = []
for arg in sys.argv[1:]:
    if arg.endswith(".txt"):
        with open(arg, encoding="utf-8") as f:
            pins += [line.split("#")[0].strip() for line in f]
    else:
        pins.append(arg)
for pin in filter(None, pins):
    name, wanted = pin.split("==")
    if version(name) != wanted:
        sys.exit(1)
import heat.common.template_format  # noqa: E402,F401
PY
}

if ! pins_met; then
    if [ ! -x .venv-heat/bin/python ]; then
        if ! command -v python3 >/dev/null; then
            echo "setup-oracle: python3 is missing: the tests that compare hotfix with Heat need it" \
                "to install Heat's engine into .venv-heat. Install Python 3;" \
                "\`cargo test --workspace\` runs every other test without it." >&2
            exit 1
        fi
        echo "setup-oracle: creating .venv-heat with $(python3 --version)" >&2
        python3 -m venv .venv-heat
    fi
    echo "setup-oracle: installing Heat ($requirements, $constraints) and ${sarif_validator[*]}" \
        "into .venv-heat (about 2 min on 2 cores, longer when pip downloads them first)" >&2
    if ! .venv-heat/bin/pip install --quiet --disable-pip-version-check \
        -r "$requirements" -c "$constraints" "${sarif_validator[@]}"; then
        echo "setup-oracle: pip could not install the pins above into .venv-heat" \
            "($(.venv-heat/bin/python --version 2>&1))" >&2
        exit 1
    fi
    if ! pins_met; then
        echo "setup-oracle: .venv-heat still does not meet the pins of $requirements," \
            "$constraints and ${sarif_validator[*]}, or does not import Heat" >&2
        exit 1
    fi
fi

# The JUnit schema that scripts/validate-junit.py checks `--format junit` against: the Jenkins
# xunit plugin's junit-10.xsd (MIT), which pytest ships in its source package to validate its
# own reports. Taken from that pinned package, checked by its hash, when not there yet.
junit_schema=.venv-heat/share/junit-10.xsd
if [ ! -f "$junit_schema" ]; then
    echo "setup-oracle: taking junit-10.xsd from pytest's source package" >&2
    download=$(mktemp -d)
    trap 'rm -rf "$download"' EXIT
    .venv-heat/bin/pip download --quiet --disable-pip-version-check --no-deps \
        --no-binary :all: --dest "$download" pytest==9.2.0
    echo "97c4f3b1f3c7414aa36465e09b8220f1d03627993bd51b1282e193753c80557b  $download/pytest-9.2.0.tar.gz" \
        | sha256sum --check --quiet
    mkdir -p "$(dirname "$junit_schema")"
    tar -xzf "$download/pytest-9.2.0.tar.gz" -O pytest-9.2.0/testing/example_scripts/junit-10.xsd \
        > "$junit_schema.tmp"
    mv "$junit_schema.tmp" "$junit_schema"
fi
