#!/usr/bin/env bash
# Installs the npm packages of each folder given (editors/…) from its package-lock.json, with
# `npm ci`, into its node_modules (ignored by git). Skipped where node_modules already holds
# the packages of the same package-lock.json (a copy of it is kept there); npm's own cache
# (~/.npm) makes a fresh install mostly local. Needs Node.js 20 or later with npm.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "npm-ci: $*" >&2; }

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        say "installing Node.js and npm from the system's packages"
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
    else
        say "needs Node.js 20 or later and npm on PATH (https://nodejs.org, or apt-get install nodejs npm)"
        exit 1
    fi
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
    say "needs Node.js 20 or later; this is $(node --version) (Debian 12's is 18: take Node.js 20" \
        "or later from https://nodejs.org or its Debian repository)"
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
