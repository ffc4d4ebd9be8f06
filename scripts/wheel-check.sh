#!/usr/bin/env bash
# Proves the Python wheel works as users will install it, with no Rust toolchain involved after
# the build:
#   1. scripts/build-wheel.sh builds it as the release workflow does; its size stays under
#      10 MiB and its name carries the crate's version;
#   2. pip installs it into a fresh virtual environment: `hotfix -V` is the crate's
#      version, `hotfix lint` on the README's example exits with 1 and names its finding, and
#      `python -m hotfix_lint` runs the same binary (also from a `pip install --target` folder);
#   3. scripts/release-archive.py packs the binary as the release does: the checksum holds, and
#      the unpacked binary is the wheel's, byte for byte, and runs; Cargo.toml's
#      [package.metadata.binstall] names these archives (this machine's target and Windows);
#   4. the tox recipe of docs/tox.ini, in a throwaway project, installs the wheel (pip offered
#      only that) and passes on a valid template, fails on a broken one.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
passed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; echo "wheel-check: $passed passed, 1 failed"; exit 1; }

wheel=$repo/$(scripts/build-wheel.sh)
version=$(cargo metadata --no-deps --format-version 1 --locked |
    python3 -c 'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "hotfix-lint"))')

# 1. Size and name.
size=$(stat -c %s "$wheel")
limit=$((10 * 1024 * 1024))
echo "wheel-check: $(basename "$wheel"): $size bytes ($((size / 1024)) KiB)"
[ "$size" -lt "$limit" ] || fail "the wheel has $size bytes, more than 10 MiB ($limit)"
case $(basename "$wheel") in
    "hotfix_lint-$version-py3-none-"*.whl) ok "the wheel is under 10 MiB and named for version $version" ;;
    *) fail "the wheel's name does not carry the crate's version $version" ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 2. Installed with pip into a fresh virtual environment (nothing from the network).
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-index --no-deps "$wheel"
hotfix=$work/venv/bin/hotfix
got=$("$hotfix" -V)
[ "$got" = "hotfix $version" ] || fail "hotfix -V says '$got', not 'hotfix $version'"
"$hotfix" --version | grep -q "^resource types: Heat " ||
    fail "hotfix --version does not say which Heat's resource types it carries"
ok "hotfix -V of the installed wheel: $got"

code=0
"$hotfix" lint testdata/cli/lint/tree > "$work/lint.txt" 2>&1 || code=$?
[ "$code" = 1 ] || { cat "$work/lint.txt"; fail "hotfix lint testdata/cli/lint/tree exited with $code, not 1"; }
grep -q "H102" "$work/lint.txt" || { cat "$work/lint.txt"; fail "the example's H102 finding is not shown"; }
ok "hotfix lint on the README's example exits with 1 and shows its findings"

got=$("$work/venv/bin/python" -m hotfix_lint -V)
[ "$got" = "hotfix $version" ] || fail "python -m hotfix_lint --version says '$got'"
code=0
"$work/venv/bin/python" -m hotfix_lint lint --quiet testdata/cli/lint/tree > /dev/null 2>&1 || code=$?
[ "$code" = 1 ] || fail "python -m hotfix_lint lint exited with $code, not hotfix's 1"
ok "python -m hotfix_lint runs the wheel's binary and passes its exit code on"

"$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-index --no-deps \
    --target "$work/target" "$wheel"
got=$(PYTHONPATH=$work/target python3 -m hotfix_lint -V)
[ "$got" = "hotfix $version" ] || fail "python -m hotfix_lint from a --target folder says '$got'"
ok "python -m hotfix_lint finds the binary of a pip install --target folder"

# 3. The release archive of this machine's target.
host=$(rustc -vV | sed -n 's/^host: //p')
archive=$(python3 scripts/release-archive.py --target "$host" --version "$version" \
    --binary target/dist/hotfix --out "$work/archives")
(cd "$work/archives" && sha256sum --quiet -c "$(basename "$archive").sha256") ||
    fail "the checksum of $(basename "$archive") does not hold"
mkdir "$work/unpacked"
tar -xzf "$archive" -C "$work/unpacked"
folder=$work/unpacked/hotfix-$host-v$version
[ -f "$folder/LICENSE" ] && [ -f "$folder/README.md" ] || fail "the archive lacks LICENSE or README.md"
cmp -s "$folder/hotfix" "$hotfix" || fail "the archive's binary is not the wheel's"
got=$("$folder/hotfix" -V)
[ "$got" = "hotfix $version" ] || fail "the archive's hotfix --version says '$got'"
ok "$(basename "$archive"): checksum, LICENSE, README.md, the wheel's binary"

# The names that [package.metadata.binstall] gives cargo binstall are those of the archives, for
# this machine's target and for Windows (a zip, packed here from this machine's binary only to
# read its names).
windows=$(python3 scripts/release-archive.py --target x86_64-pc-windows-msvc --version "$version" \
    --binary target/dist/hotfix --out "$work/archives")
python3 - "$version" "$host" "$archive" "$windows" <<'PYTHON' || fail "[package.metadata.binstall] does not name the release archives"
import os, sys, tarfile, tomllib, zipfile
version, host, archive, windows = sys.argv[1:]
package = tomllib.load(open("Cargo.toml", "rb"))["package"]
meta = package["metadata"]["binstall"]
repo = "https://github.com/hotfix-lint/hotfix"
for target, path, names in [
    (host, archive, tarfile.open(archive).getnames()),
    ("x86_64-pc-windows-msvc", windows, zipfile.ZipFile(windows).namelist()),
]:
    entry = dict(meta, **meta.get("overrides", {}).get(target, {}))
    values = {"repo": repo, "version": version, "target": target, "bin": "hotfix",
              "binary-ext": ".exe" if "windows" in target else ""}
    def render(template):
        for key, value in values.items():
            template = template.replace("{ %s }" % key, value)
        return template
    url, bin_dir = render(entry["pkg-url"]), render(entry["bin-dir"])
    expected = "%s/releases/download/v%s/%s" % (repo, version, os.path.basename(path))
    if url != expected or bin_dir not in names:
        print("%s: binstall expects %s with %s; the archive is %s with %s"
              % (target, url, bin_dir, expected, names))
        sys.exit(1)
    if entry["pkg-fmt"] != ("zip" if path.endswith(".zip") else "tgz"):
        print("%s: pkg-fmt %s for %s" % (target, entry["pkg-fmt"], path))
        sys.exit(1)
PYTHON
ok "[package.metadata.binstall] names the archives and the binary in them ($host, Windows)"

# 4. The tox recipe, as an OpenStack-style project runs it.
mkdir -p "$work/project/heat"
cp docs/tox.ini "$work/project/tox.ini"
printf 'heat_template_version: 2018-08-31\nresources: {}\n' > "$work/project/heat/ok.yaml"
tox() {
    (cd "$work/project" && PIP_NO_INDEX=1 PIP_FIND_LINKS=$(dirname "$wheel") \
        "$repo/.venv-wheel/bin/tox" -e hotfix "$@") > "$work/tox.txt" 2>&1
}
tox || { cat "$work/tox.txt"; fail "tox -e hotfix fails on a valid template"; }
grep -q "1 template checked" "$work/tox.txt" || { cat "$work/tox.txt"; fail "tox -e hotfix did not lint"; }
printf 'heat_template_version: 2016-10-15\nresources: {}\n' > "$work/project/heat/broken.yaml"
if tox; then cat "$work/tox.txt"; fail "tox -e hotfix passes on a broken template"; fi
grep -q "H102" "$work/tox.txt" || { cat "$work/tox.txt"; fail "tox -e hotfix does not show the finding"; }
tox -- heat/ok.yaml || { cat "$work/tox.txt"; fail "tox -e hotfix -- heat/ok.yaml fails"; }
ok "docs/tox.ini: tox -e hotfix installs the wheel, passes on a valid template, fails on a broken one"

echo "wheel-check: $passed passed, 0 failed"
