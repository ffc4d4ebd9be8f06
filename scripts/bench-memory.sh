#!/usr/bin/env bash
# Peak memory of `hotfix lint` over the corpus copied once and ten times (the goal: the 10x
# tree within 1.5x of the 1x tree), per output format, measured by GNU time (`/usr/bin/time`,
# Debian package `time`): the largest resident set of the process, median of 3 runs. With
# heaptrack installed, also the peak of the heap itself (what hotfix holds, without what the C
# allocator keeps of freed memory: glibc's per-thread arenas retain some, more over a longer
# run; `MALLOC_ARENA_MAX=1` shows the difference).
#
# HOTFIX_BIN=PATH measures that binary instead of building the release one (scripts/bench-lint.sh
# gives the `dist` one); CASES="concise,sarif" (a comma-separated list) measures only those of the cases below.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${HOTFIX_SHARED:-../shared}/corpus
[ -d "$corpus" ] || { echo "bench-memory: no corpus at $corpus" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench-memory: needs GNU time at /usr/bin/time" >&2; exit 1; }
bin=${HOTFIX_BIN:-}
if [ -z "$bin" ]; then
    cargo build --release --locked -q
    bin=./target/release/hotfix
fi
[ -x "$bin" ] || { echo "bench-memory: no binary at $bin" >&2; exit 1; }
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
mkdir -p "$work/x1" "$work/x10"
cp -r "$corpus" "$work/x1/c0"
for i in 0 1 2 3 4 5 6 7 8 9; do cp -r "$corpus" "$work/x10/c$i"; done
peak() { # tree, format, extra args: prints the median peak RSS in MB of three runs
    local tree=$1 format=$2
    shift 2
    for _ in 1 2 3; do
        /usr/bin/time -f '%M' "$bin" lint "$tree" --no-config --exit-zero \
            --format "$format" --output "$work/out" "$@" 2>&1 >/dev/null | tail -n 1
    done | sort -n | sed -n 2p | awk '{printf "%.1f", $1 / 1024}'
}
heap() { # tree, format, extra args: the peak heap in MB, as heaptrack measures it
    local tree=$1 format=$2
    shift 2
    rm -f "$work"/heap.*
    heaptrack -o "$work/heap" "$bin" lint "$tree" --no-config --exit-zero \
        --format "$format" --output "$work/out" "$@" >/dev/null 2>&1
    heaptrack_print "$work"/heap.* 2>/dev/null |
        awk '/peak heap memory consumption/ {v=$NF; u=substr(v, length(v)); n=substr(v, 1, length(v)-1);
             if (u=="K") n/=1024; else if (u=="G") n*=1024; else if (u!="M") n=v/1048576; printf "%.1f", n}'
}
if command -v heaptrack >/dev/null && command -v heaptrack_print >/dev/null; then
    printf '%-32s %10s %10s %7s %12s %12s\n' "run" "1x (MB)" "10x (MB)" "ratio" "heap 1x" "heap 10x"
else
    printf '%-32s %10s %10s %7s\n' "run" "1x (MB)" "10x (MB)" "ratio"
fi
IFS=, read -r -a cases <<<"${CASES:-concise,sarif,concise --select ALL,sarif --select ALL}"
for case in "${cases[@]}"; do
    read -r format extra <<<"$case"
    # shellcheck disable=SC2086 # $extra is a list of arguments
    one=$(peak "$work/x1" "$format" $extra)
    # shellcheck disable=SC2086
    ten=$(peak "$work/x10" "$format" $extra)
    ratio=$(awk "BEGIN {printf \"%.2f\", $ten / $one}")
    if command -v heaptrack >/dev/null && command -v heaptrack_print >/dev/null; then
        # shellcheck disable=SC2086
        printf '%-32s %10s %10s %7s %12s %12s\n' "$case" "$one" "$ten" "$ratio" \
            "$(heap "$work/x1" "$format" $extra)" "$(heap "$work/x10" "$format" $extra)"
    else
        printf '%-32s %10s %10s %7s\n' "$case" "$one" "$ten" "$ratio"
    fi
done
