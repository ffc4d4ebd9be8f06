#!/usr/bin/env bash
# Installs what scripts/build-wasm.sh needs to build crates/hotfix_wasm for
# wasm32-unknown-unknown, from Debian's packages (rustup's wasm32 target cannot be downloaded
# where only the package registries are reachable):
#
#   rustc-web, cargo-web  Debian's Rust 1.96 (bookworm-security): /usr/bin/rustc and
#                         /usr/bin/cargo, whose LLVM has the wasm32 backend but whose sysroot
#                         has no wasm32 standard library;
#   rust-web-src          the standard library's source (/usr/lib/rustlib/src/rust), which
#                         build-wasm.sh compiles for wasm32 (`-Zbuild-std`);
#   lld-22                the WebAssembly linker (/usr/lib/llvm-22/bin/wasm-ld).
#
# rustup's toolchain (rust-toolchain.toml) stays first on PATH and builds everything else:
# build-wasm.sh names Debian's compiler explicitly. Needs root (apt-get) unless all is there;
# prints what it installed. Idempotent: nothing is installed twice.
set -euo pipefail

packages=(rustc-web cargo-web rust-web-src lld-22)
ready() {
    [ -x /usr/bin/rustc ] && [ -x /usr/bin/cargo ] && [ -x /usr/lib/llvm-22/bin/wasm-ld ] &&
        [ -f /usr/lib/rustlib/src/rust/library/Cargo.lock ] &&
        /usr/bin/rustc -V | grep -q '^rustc 1\.9[6-9]'
}
if ready; then
    echo "setup-wasm.sh: Debian's Rust ($(/usr/bin/rustc -V)), its std source and wasm-ld are installed"
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "setup-wasm.sh: run as root (apt-get install ${packages[*]})" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${packages[@]}"
if ! ready; then
    echo "setup-wasm.sh: installed ${packages[*]}, but Debian's rustc 1.96+, its std source" \
        "or wasm-ld is still missing" >&2
    exit 1
fi
echo "setup-wasm.sh: installed ${packages[*]} ($(/usr/bin/rustc -V))"
