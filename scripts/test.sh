#!/usr/bin/env bash
# The whole test suite: unit, snapshot and CLI tests, then the tests that compare hotfix with
# Heat itself on ../shared (the corpus and the oracles). Those fail loudly when ../shared or
# Heat's Python environment is missing; a plain `cargo test` runs everything else.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup-oracle.sh
cargo test --workspace --locked
cargo test --workspace --locked -- --ignored --nocapture
