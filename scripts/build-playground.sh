#!/usr/bin/env bash
# Builds the playground (playground/: a static site, hotfix compiled to WebAssembly) into
# target/playground/, a folder any static host serves as it is:
#
#   scripts/build-playground.sh && python3 -m http.server -d target/playground
#
# Prints its size, gzipped (the site must stay within 3 MB).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/build-wasm.sh
out=target/playground
rm -rf "$out.new"
mkdir -p "$out.new"
cp playground/index.html playground/app.js playground/hotfix.mjs playground/style.css "$out.new/"
cp target/wasm/hotfix_wasm.wasm "$out.new/"
rm -rf "$out"
mv "$out.new" "$out"
total=0
for file in "$out"/*; do
    total=$((total + $(gzip -9c "$file" | wc -c)))
done
echo "build-playground.sh: $out, $total bytes gzipped" >&2
