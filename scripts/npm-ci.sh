#!/usr/bin/env bash
# Installs the npm packages of each folder given (editors/…) from its package-lock.json, with
# `npm ci`, into its node_modules (ignored by git). Skipped where node_modules already holds
# the packages of the same package-lock.json (a copy of it is kept there); npm's own cache
# (~/.npm) makes a fresh install mostly local. Needs Node.js 20 or later with npm.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "npm-ci: $*" >&2; }

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    say "needs Node.js 20 or later and npm on PATH (https://nodejs.org, or apt-get install nodejs npm)"
    exit 1
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
    say "needs Node.js 20 or later; this is $(node --version)"
    exit 1
fi
for folder in "$@"; do
    # The lock file as last installed from, kept beside the packages.
    installed=$folder/node_modules/.hotfix-installed-lock.json
    if cmp -s "$folder/package-lock.json" "$installed"; then
        continue
    fi
    say "installing $folder's packages (npm ci)"
    (cd "$folder" && npm ci --no-audit --no-fund --prefer-offline --loglevel=error)
    cp "$folder/package-lock.json" "$installed"
done
