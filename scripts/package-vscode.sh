#!/usr/bin/env bash
# Packages the VS Code extension (editors/vscode) as a .vsix for one platform, with the hotfix
# binary inside (bin/hotfix), by @vscode/vsce (pinned in editors/vscode/package-lock.json).
#
#   scripts/package-vscode.sh [--binary PATH] [--target TARGET] [--out FILE]
#
# --binary: the hotfix to bundle; by default the `dist` profile's, built here (as the release
#   workflow builds it). --target: VS Code's platform name (linux-x64, linux-arm64, darwin-x64,
#   darwin-arm64, win32-x64, …); by default this machine's. --out: the .vsix; by default
#   target/vscode/hotfix-TARGET-VERSION.vsix. Needs Node.js 20 or later with npm.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "package-vscode: $*" >&2; }

binary= target= out=
while [ $# -gt 0 ]; do
    case $1 in
        --binary) binary=$2; shift 2 ;;
        --target) target=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        *) say "unknown argument $1 (see the top of $0)"; exit 2 ;;
    esac
done
if [ -z "$target" ]; then
    case "$(uname -s)-$(uname -m)" in
        Linux-x86_64) target=linux-x64 ;;
        Linux-aarch64) target=linux-arm64 ;;
        Darwin-x86_64) target=darwin-x64 ;;
        Darwin-arm64) target=darwin-arm64 ;;
        *) say "name the platform with --target"; exit 2 ;;
    esac
fi
if [ -z "$binary" ]; then
    cargo build --locked --profile dist --bin hotfix
    binary=target/dist/hotfix
fi
[ -x "$binary" ] || { say "$binary is not an executable"; exit 1; }
scripts/npm-ci.sh editors/vscode
extension=editors/vscode
version=$(node -p "require('./$extension/package.json').version")
out=${out:-target/vscode/hotfix-$target-$version.vsix}
mkdir -p "$(dirname "$out")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
name=hotfix
case $target in win32-*) name=hotfix.exe ;; esac
# The binary and the licence are copied in for the packaging only (both ignored by git).
trap 'rm -rf "$extension/bin" "$extension/LICENSE"' EXIT
mkdir -p "$extension/bin"
cp "$binary" "$extension/bin/$name"
cp LICENSE "$extension/LICENSE"
(cd "$extension" && node_modules/.bin/vsce package --target "$target" --out "$out" >&2)
say "wrote $out"
