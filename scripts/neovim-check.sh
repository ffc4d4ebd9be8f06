#!/usr/bin/env bash
# A real editor as the language server's client: Neovim (Debian's package; installed here with
# apt-get when it is missing and this runs as root) in headless mode, its built-in LSP client
# attached to `hotfix server` on a template of ours. scripts/neovim/check.lua waits for the
# diagnostics, applies a code action, and writes what it saw; this script checks it.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "neovim-check: $*" >&2; }

if ! command -v nvim >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        say "installing Neovim from Debian's packages"
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim >/dev/null
    else
        say "needs Neovim (nvim) on PATH: apt-get install neovim"
        exit 1
    fi
fi
cargo build --locked -q --bin hotfix
hotfix=$PWD/target/debug/hotfix

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/stack.yaml" <<'YAML'
heat_template_version: 2016-10-14
parameters:
  flavor:
    type: string
resources:
  server:
    type: OS::Nova::Server
    properties:
      flavor: {get_param: flavr}
      image: cirros
  volume:
    type: OS::Cinder::Volume
    propertes: {size: 1}
YAML
HOTFIX=$hotfix FILE=$work/stack.yaml OUT=$work/out.txt \
    timeout 120 nvim --headless -u NONE -i NONE -n -c "luafile scripts/neovim/check.lua" \
    >/dev/null 2>"$work/nvim.err" || true
[ -f "$work/out.txt" ] || { say "Neovim wrote nothing"; cat "$work/nvim.err" >&2; exit 1; }

passed=0 failed=0
expect() {
    if grep -aqxF -- "$1" "$work/out.txt"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        say "missing: $1"
    fi
}
expect "diagnostic H301 9:27 \`get_param\` names \`flavr\`, which is not a declared parameter"
expect "diagnostic H603 13:5 \`propertes\` is not a valid resource key"
expect "action Unsafe fix: Rename \`propertes\` to \`properties\` (H603)"
expect "action Suppress H603 on this line"
expect "text     properties: {size: 1}"
expect "cleared H603"
if grep -aq '^error ' "$work/out.txt"; then
    failed=$((failed + 1))
    grep -a '^error ' "$work/out.txt" >&2
fi
if [ "$failed" -gt 0 ]; then
    say "what Neovim saw:"
    cat "$work/out.txt" >&2
fi
echo; echo "neovim-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
