#!/usr/bin/env bash
# Creates .venv-heat: OpenStack Heat's own engine from the Python package registry, pinned by
# ../shared/oracles/heat/requirements.txt, which tests that compare hotfix with Heat run; and
# the pinned SARIF schema validator that scripts/validate-sarif.py needs.
# Idempotent: an environment that already imports Heat and meets the validator's pins is kept.
set -euo pipefail
cd "$(dirname "$0")/.."

requirements=../shared/oracles/heat/requirements.txt
if [ ! -f "$requirements" ]; then
    echo "setup-oracle: $requirements is missing: the shared folder must sit beside this repository" >&2
    exit 1
fi
if ! .venv-heat/bin/python -c 'import heat.common.template_format' 2>/dev/null; then
    command -v python3 >/dev/null || { echo "setup-oracle: python3 is required" >&2; exit 1; }
    echo "setup-oracle: installing Heat into .venv-heat (about 40 s)" >&2
    python3 -m venv .venv-heat
    .venv-heat/bin/pip install --quiet --disable-pip-version-check -r "$requirements"
    .venv-heat/bin/python -c 'import heat.common.template_format'
fi

# The SARIF schema validator (scripts/validate-sarif.py): jsonschema, and rfc3986-validator for
# the `uri` and `uri-reference` formats. Pinned; installed only when a pin is not met.
sarif_validator=(jsonschema==4.26.0 rfc3986-validator==0.1.1)
if ! .venv-heat/bin/python - "${sarif_validator[@]}" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
for pin in sys.argv[1:]:
    name, wanted = pin.split("==")
    if version(name) != wanted:
        sys.exit(1)
PY
then
    echo "setup-oracle: installing ${sarif_validator[*]} into .venv-heat" >&2
    .venv-heat/bin/pip install --quiet --disable-pip-version-check "${sarif_validator[@]}"
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
