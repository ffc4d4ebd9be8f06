#!/usr/bin/env bash
# The oldest Rust that builds hotfix is the one Cargo.toml declares (`rust-version`, which the
# source distribution and `cargo install` users rely on): check the workspace with it. rustup
# installs that toolchain (minimal profile) the first time; its build goes to its own folder.
# What those users build is checked (every library and binary of the workspace); the tests,
# benchmarks and their dev-dependencies are built only with the current Rust, so that CI does
# not compile them twice.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^rust-version = "\(.*\)"$/\1/p' Cargo.toml)
[ -n "$version" ] || { echo "msrv-check: no rust-version in Cargo.toml" >&2; exit 1; }
rustup toolchain install "$version" --profile minimal >/dev/null 2>&1 ||
    { echo "msrv-check: cannot install Rust $version with rustup" >&2; exit 1; }
CARGO_TARGET_DIR=target/msrv cargo "+$version" check --workspace --locked --quiet
echo "msrv-check: the workspace's libraries and binaries build with Rust $version (Cargo.toml's rust-version)"
