#!/usr/bin/env bash
# The playground in a real browser (.ci/run): installs what it needs when missing
# (scripts/setup-playground.sh), builds the site (scripts/build-playground.sh) and runs
# playground/test/browser.mjs on it in Debian's headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup-playground.sh
scripts/build-playground.sh
node playground/test/browser.mjs target/playground
