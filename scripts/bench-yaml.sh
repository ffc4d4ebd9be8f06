#!/usr/bin/env bash
# Instructions per byte of hotfix's YAML reader over the template corpus (../shared/corpus, or
# $HOTFIX_SHARED/corpus), counted by callgrind: a figure that does not depend on the machine's
# load, unlike a time. Two passes of crates/hotfix_yaml/benches/parse.rs, one thread, on every
# .yaml/.yml/.json file that is UTF-8 without NUL bytes:
#
#   events  the reader's events (hotfix_yaml::reader::Parser), every file to its end or refusal;
#   tree    hotfix_yaml::parse_unlimited: JSON first, the tree built on the events (and the pure
#           rules' second reading where libyaml's refuse), the constructor's checks.
#
# Issue 29's target for the parse: at most 55 instructions per byte. Needs valgrind
# (apt-get install valgrind). Takes a minute or two; MB/s figures come from
# `cargo bench -p hotfix_yaml --bench parse` (run by scripts/bench-lint.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null ||
    { echo "bench-yaml: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
export HOTFIX_SHARED=${HOTFIX_SHARED:-../shared}
[ -d "$HOTFIX_SHARED/corpus" ] ||
    { echo "bench-yaml: no corpus at $HOTFIX_SHARED/corpus (set HOTFIX_SHARED)" >&2; exit 1; }
bench=$(cargo bench -p hotfix_yaml --bench parse --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "parse" and m.get("executable"):
        print(m["executable"])')
[ -x "$bench" ] || { echo "bench-yaml: the parse bench did not build" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for pass in events tree; do
    case $pass in
        events) only=reader function=events_reader ;;
        tree) only=tree-reader function=trees_reader ;;
    esac
    HOTFIX_BENCH_ONLY=$only valgrind --tool=callgrind --toggle-collect="*$function*" \
        --callgrind-out-file="$work/cg.$pass" "$bench" >"$work/out.$pass" 2>"$work/err.$pass" ||
        { cat "$work/err.$pass" >&2; exit 1; }
    instructions=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/err.$pass")
    bytes=$(sed -n 's/^[a-z-]*: \([0-9]*\) bytes.*/\1/p' "$work/out.$pass")
    [ -n "$instructions" ] && [ -n "$bytes" ] ||
        { echo "bench-yaml: no figures from callgrind for $pass" >&2; cat "$work/err.$pass" >&2; exit 1; }
    awk -v p="$pass" -v i="$instructions" -v b="$bytes" -v what="$(cat "$work/out.$pass")" \
        'BEGIN { printf "%-7s %6.1f instructions/byte  (%d instructions, %s)\n", p, i / b, i, what }'
done
