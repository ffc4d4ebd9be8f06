#!/usr/bin/env bash
# Installs what scripts/test.sh's tests run beside hotfix (idempotent, kept between runs): Heat's
# engine in .venv-heat (scripts/setup-oracle.sh), wallaby's Heat 16.1.0 in target/heat-releases
# (scripts/setup-heat-release.sh), Cloudify's parser in .venv-cfy when the shared folder is there
# (scripts/setup-cfy-oracle.sh), and the editor tests' npm packages (scripts/npm-ci.sh). Mostly
# network and disk: test.sh runs it beside the compilation, and .ci/run from its first step on.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-oracle.sh
scripts/setup-heat-release.sh wallaby
if [ -d "${HOTFIX_SHARED:-../shared}" ]; then scripts/setup-cfy-oracle.sh; fi
scripts/npm-ci.sh editors/schema-check editors/vscode
