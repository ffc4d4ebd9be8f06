#!/usr/bin/env bash
# Builds one OpenStack release's Heat engine in a virtual environment of its own, from the Python
# package registry, so that scripts/gen-resource-types.py and scripts/heat_oracle.py can run on
# it (docs/resource-types.md, "Data per Heat release").
#
#   scripts/setup-heat-release.sh SERIES            # prints the environment's python
#   scripts/setup-heat-release.sh --seed SERIES UPPER_CONSTRAINTS
#
# SERIES is a file scripts/heat-releases/SERIES.txt: a pip constraints file that pins
# openstack-heat and everything it installs, with a header naming the Python it runs on:
#
#   # python: 3.8
#
# The environment is target/heat-releases/SERIES (or $HOTFIX_HEAT_RELEASES/SERIES), kept while it
# was built from the same file by the same Python. Idempotent; needs that Python (on PATH as
# pythonX.Y, or under pyenv's versions/) and nothing beside the repository.
#
# --seed makes the constraints file once, from the series' upper-constraints.txt (the
# openstack/requirements repository's file on the series' stable branch or end-of-life tag): it
# installs openstack-heat==VERSION constrained by it and writes what was installed (pip freeze),
# so the repository keeps only the pins Heat uses. Start SERIES.txt with the header (its comment
# lines are kept) and an openstack-heat==VERSION line.
set -euo pipefail
cd "$(dirname "$0")/.."

seed=
if [ "${1:-}" = --seed ]; then
    seed=${3:?usage: setup-heat-release.sh --seed SERIES UPPER_CONSTRAINTS}
    shift
fi
series=${1:?usage: setup-heat-release.sh SERIES (a file scripts/heat-releases/SERIES.txt)}
pins=scripts/heat-releases/$series.txt
if [ ! -f "$pins" ]; then
    echo "setup-heat-release: no $pins: the releases are $(ls scripts/heat-releases | sed -n 's/\.txt$//p' | tr '\n' ' ')" >&2
    exit 2
fi
want_python=$(sed -n 's/^# python: *\([0-9.]*\).*/\1/p' "$pins" | head -1)
heat=$(sed -n 's/^openstack-heat==\([^ ;#]*\).*/\1/p' "$pins" | head -1)
if [ -z "$want_python" ] || [ -z "$heat" ]; then
    echo "setup-heat-release: $pins needs a '# python: X.Y' line and an openstack-heat== pin" >&2
    exit 2
fi

if [ -z "$seed" ] && [ "$(grep -cv '^#' "$pins")" -lt 2 ]; then
    echo "setup-heat-release: $pins pins only openstack-heat: make it first with" \
        "scripts/setup-heat-release.sh --seed $series UPPER_CONSTRAINTS (see its header)" >&2
    exit 2
fi

# The series' Python: pythonX.Y that runs, on PATH or in pyenv's versions.
python=
for candidate in "python$want_python" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$want_python".*/bin/"python$want_python"; do
    if "$candidate" -c 'import venv, ssl' >/dev/null 2>&1; then
        python=$candidate
        break
    fi
done
if [ -z "$python" ]; then
    echo "setup-heat-release: Heat $heat ($series) runs on Python $want_python, which is not" \
        "installed (python$want_python on PATH or pyenv's versions/$want_python.*)" >&2
    exit 1
fi

root=${HOTFIX_HEAT_RELEASES:-target/heat-releases}
venv=$root/$series
stamp="$(sha256sum "$pins" | cut -d' ' -f1) $("$python" -c 'import sys; print(sys.version.split()[0])')"
if [ -z "$seed" ] && [ -f "$venv/.hotfix-stamp" ] && [ "$(cat "$venv/.hotfix-stamp")" = "$stamp" ]; then
    echo "$venv/bin/python"
    exit 0
fi

rm -rf "$venv"
mkdir -p "$root"
echo "setup-heat-release: building Heat $heat ($series) on $("$python" --version 2>&1) in $venv" >&2
"$python" -m venv "$venv"
# The newest pip, setuptools and wheel that this Python runs: old sdists build with them.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade \
    'pip<24.1' 'setuptools<70' wheel >&2
log=$venv.log
if [ -n "$seed" ]; then
    # pip freeze omits pip, setuptools and wheel; the series' constraints may not name
    # openstack-heat, so it is pinned here.
    if ! "$venv/bin/pip" install --disable-pip-version-check \
        -c "$seed" "openstack-heat==$heat" >"$log" 2>&1; then
        echo "setup-heat-release: pip could not install openstack-heat==$heat with $seed; see $log" >&2
        tail -5 "$log" >&2
        exit 1
    fi
    {
        grep '^#' "$pins"
        "$venv/bin/pip" freeze --disable-pip-version-check | LC_ALL=C sort -f
    } >"$pins.tmp"
    mv "$pins.tmp" "$pins"
    stamp="$(sha256sum "$pins" | cut -d' ' -f1) $("$python" -c 'import sys; print(sys.version.split()[0])')"
else
    if ! "$venv/bin/pip" install --disable-pip-version-check --no-deps \
        -r "$pins" >"$log" 2>&1; then
        echo "setup-heat-release: pip could not install $pins; see $log" >&2
        tail -5 "$log" >&2
        exit 1
    fi
fi
if ! "$venv/bin/python" -c 'import heat.engine.resources' >>"$log" 2>&1; then
    echo "setup-heat-release: Heat $heat ($series) installed in $venv but does not import; see $log" >&2
    tail -5 "$log" >&2
    exit 1
fi
# A virtual environment records its own path, so it is built where it stays; the stamp is the
# last thing written, so a half-built one is never taken.
echo "$stamp" >"$venv/.hotfix-stamp"
echo "$venv/bin/python"
