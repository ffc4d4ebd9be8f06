#!/usr/bin/env bash
# `hotfix lint t.yaml` among 100,000 unrelated small files, with no `hotfix.toml` and no version
# control root anywhere above (issue 28's acceptance: as fast as in an empty folder, within 2x).
# Prints the median of 5 runs (after one warm-up run) of the whole command, in milliseconds,
# for each layout:
#
#   empty    t.yaml alone in a folder
#   nested   t.yaml beside 100 folders of 1,000 files each (a home folder, a downloads folder)
#   below    `hotfix lint sub/t.yaml` from a folder holding the 100,000 files in its folders
#   flat     t.yaml beside 100,000 files in the same folder (its own folder: read, bounded)
#
#   scripts/bench-scope.sh            # builds the release binary first
#   HOTFIX=path/to/hotfix scripts/bench-scope.sh
#
# t.yaml has a custom resource type and an unused parameter, so that the lint asks for the
# tree's environments: what used to walk the whole working folder.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${HOTFIX:-}" ]; then
    cargo build --release --locked --quiet
    HOTFIX=target/release/hotfix
fi
HOTFIX=$(realpath "$HOTFIX")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import os, sys
work = sys.argv[1]
template = """heat_template_version: rocky
parameters:
  flavor: {type: string}
  unused: {type: string}
resources:
  s:
    type: My::Server
    properties: {flavor: {get_param: flavor}}
"""
for layout in ["empty", "nested", "below", "flat"]:
    os.makedirs(os.path.join(work, layout))
for d in range(100):
    for layout in ["nested", "below"]:
        folder = os.path.join(work, layout, f"d{d:02}")
        os.mkdir(folder)
        for f in range(1000):
            with open(os.path.join(folder, f"f{f}.txt"), "w") as out:
                out.write("unrelated\n")
flat = os.path.join(work, "flat")
for f in range(100_000):
    with open(os.path.join(flat, f"f{f}.txt"), "w") as out:
        out.write("unrelated\n")
for place in ["empty", "nested", "flat", "below/sub"]:
    os.makedirs(os.path.join(work, place), exist_ok=True)
    with open(os.path.join(work, place, "t.yaml"), "w") as out:
        out.write(template)
PY

# The median of 5 timed runs of `hotfix lint ARG` in FOLDER, in milliseconds.
median() {
    local folder=$1 arg=$2
    (cd "$folder" && "$HOTFIX" lint --quiet --exit-zero "$arg" >/dev/null 2>&1)
    for _ in 1 2 3 4 5; do
        local start end
        start=$(date +%s%N)
        (cd "$folder" && "$HOTFIX" lint --quiet --exit-zero "$arg" >/dev/null 2>&1)
        end=$(date +%s%N)
        echo $(((end - start) / 1000000))
    done | sort -n | sed -n 3p
}

empty=$(median "$work/empty" t.yaml)
printf '%-8s %6s ms\n' empty "$empty"
for layout in nested below flat; do
    case $layout in
        below) ms=$(median "$work/below" sub/t.yaml) ;;
        *) ms=$(median "$work/$layout" t.yaml) ;;
    esac
    printf '%-8s %6s ms  (%s x empty)\n' "$layout" "$ms" \
        "$(python3 -c "print(round($ms / max($empty, 1), 1))")"
done
