#!/usr/bin/env bash
# The playground in a real browser (.ci/run): builds the site (scripts/build-playground.sh),
# installs Debian's Chromium (as root, when missing) and playwright-core (npm ci, pinned by
# playground/package-lock.json; it downloads no browser), and runs playground/test/browser.mjs.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "playground-check.sh: Chromium is missing: apt-get install chromium (as root)" >&2
        exit 1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium
fi
(cd playground && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
scripts/build-playground.sh
node playground/test/browser.mjs target/playground
