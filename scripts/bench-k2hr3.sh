#!/usr/bin/env bash
# `hotfix k2hr3 expand` of a generated ~100 KB K2HR3 template with loops: the wall time of the
# whole command (start, read, parse, expand, write), best of 20 runs, in milliseconds.
#
#   scripts/bench-k2hr3.sh            # builds the release binary first
#   HOTFIX=path/to/hotfix scripts/bench-k2hr3.sh
#
# The template repeats the block of crates/hotfix_k2hr3/benches/expand.rs (a foreach over the
# 20 hosts of a role, a for loop with if/elif/else and continue, a while loop) until it holds
# 100,000 bytes; `cargo bench -p hotfix_k2hr3 --bench expand` times parse and expansion alone.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${HOTFIX:-}" ]; then
    cargo build --release --locked --quiet
    HOTFIX=target/release/hotfix
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import json, sys
block = """\
{{# block {n}: the hosts of the role, numbered, with a checksum }}
{{ %no% = 0 }}
{{ foreach %key% in %yrn:yahoo:::tenant:role:web/hosts/all% }}
{{ %host% = %yrn:yahoo:::tenant:role:web/hosts/all%{%key%} }}
{n}.{{= %no% }} {{= %host%{'host'} }}:{{= %host%{'port'} }}
{{ ++%no% }}
{{ done }}
{{ %sum% = 0 }}
{{ for %i% = 0 ; %i% < 16 ; ++%i% }}
{{ %r% = %i% % 3 }}{{ if %r% == 0 }}{{ %sum% = %sum% + %i% * 2 }}{{ elif %r% == 1 }}{{ %sum% = %sum% - %i% << 1 }}{{ else }}{{ continue }}{{ endif }}
{{ done }}
{{ %w% = 8 }}
{{ while %w% > 0 }}{{ --%w% }}{{ done }}
sum {n} = {{= %sum% }}, last = '{{= 'block ' + {n} }}'
"""
out = "{{#!k2hr3template }}\n"
n = 0
while len(out) < 100_000:
    out += block.replace("{n}", str(n))
    n += 1
hosts = {f"10.0.0.{i},0,": {"host": f"10.0.0.{i}", "port": 8000 + i, "extra": None, "cuk": None}
         for i in range(20)}
open(sys.argv[1] + "/template.k2hr3", "w").write(out)
json.dump({"yrn:yahoo:::tenant:role:web/hosts/all": hosts}, open(sys.argv[1] + "/vars.json", "w"))
PY

"$HOTFIX" k2hr3 expand "$work/template.k2hr3" --vars "$work/vars.json" > "$work/out"
best=
for _ in $(seq 20); do
    start=$(date +%s%N)
    "$HOTFIX" k2hr3 expand "$work/template.k2hr3" --vars "$work/vars.json" > /dev/null
    end=$(date +%s%N)
    ms=$(( (end - start) / 1000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
done
printf 'template %d bytes, output %d bytes\n' "$(wc -c < "$work/template.k2hr3")" "$(wc -c < "$work/out")"
printf 'hotfix k2hr3 expand: best of 20 runs %d.%03d ms\n' $((best / 1000)) $((best % 1000))
