#!/usr/bin/env bash
# Builds crates/hotfix_wasm for wasm32-unknown-unknown into target/wasm/hotfix_wasm.wasm (the
# playground's engine; playground/hotfix.mjs loads it, in Node or a browser), with Debian's
# Rust and its standard library compiled from source (scripts/setup-wasm.sh installs both):
# RUSTC_BOOTSTRAP=1 lets the stable compiler take `-Zbuild-std`. Its own target folder
# (target/wasm), so that it never invalidates the main build; incremental after the first run
# (the standard library is built once).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup-wasm.sh >&2
export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=/usr/lib/llvm-22/bin/wasm-ld
# Small rather than fast: the module is downloaded by every visitor of the playground.
export CARGO_PROFILE_RELEASE_OPT_LEVEL=s CARGO_PROFILE_RELEASE_LTO=true
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 CARGO_PROFILE_RELEASE_PANIC=abort
export CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_STRIP=true
/usr/bin/cargo build --locked --release -p hotfix_wasm --target wasm32-unknown-unknown \
    -Zbuild-std=std,panic_abort --target-dir target/wasm
cp target/wasm/wasm32-unknown-unknown/release/hotfix_wasm.wasm target/wasm/hotfix_wasm.wasm
echo "build-wasm.sh: target/wasm/hotfix_wasm.wasm, $(wc -c < target/wasm/hotfix_wasm.wasm) bytes" \
    "($(gzip -9c target/wasm/hotfix_wasm.wasm | wc -c) gzipped)" >&2
