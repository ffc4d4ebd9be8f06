#!/usr/bin/env bash
# Installs what the playground's build and tests need (idempotent; as root where a package is
# missing): Debian's Rust for wasm32 (scripts/setup-wasm.sh), Debian's Chromium, and
# playwright-core (npm ci in playground/, pinned by its package-lock.json; it downloads no
# browser). Mostly network and disk: .ci/run runs it beside the first steps.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup-wasm.sh
if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "setup-playground.sh: Chromium is missing: apt-get install chromium (as root)" >&2
        exit 1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium
    echo "setup-playground.sh: installed chromium ($(/usr/bin/chromium --version))"
fi
(cd playground && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
echo "setup-playground.sh: playwright-core $(node -p 'require("./playground/node_modules/playwright-core/package.json").version') in playground/node_modules"
