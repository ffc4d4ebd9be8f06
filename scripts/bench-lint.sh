#!/usr/bin/env bash
# Times `hotfix lint` over the whole corpus (best of 5 runs of the release binary), beside
# the in-process figures of `cargo bench -p hotfix_linter --bench lint`.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${HOTFIX_SHARED:-../shared}/corpus
[ -d "$corpus" ] || { echo "bench-lint: no corpus at $corpus" >&2; exit 1; }
cargo build --release --locked -q
python3 - "$corpus" <<'PY'
import subprocess, sys, time
corpus = sys.argv[1]
best = min(
    (lambda t0: (subprocess.run(['./target/release/hotfix', 'lint', corpus, '--format', 'concise', '--exit-zero'],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True), time.monotonic() - t0)[1])(time.monotonic())
    for _ in range(5))
print(f"hotfix lint {corpus}: best of 5: {best:.3f} s")
PY
cargo bench -q -p hotfix_linter --bench lint
