#!/usr/bin/env python3
"""Write the resource-type data of older Heat releases, as differences from the newest one.

    python3 scripts/gen-heat-releases.py [SERIES ...]     # default: every release, newest first

For each series (a file scripts/heat-releases/SERIES.txt), scripts/setup-heat-release.sh builds
that release's Heat in target/heat-releases/SERIES, scripts/gen-resource-types.py runs on it
(its full output is kept beside it, SERIES.json), and crates/hotfix_hot/data/releases/SERIES.json
is written: a JSON merge patch (RFC 7386) that turns the data of the newest release,
crates/hotfix_hot/data/resource_types.json (Heat 27.0.1, from .venv-heat), into this release's.
hotfix_hot::resource_types applies it to read the release. Each release's patch is against the
newest one, so any release can be written alone; all of them are stale when the newest changes.

Run with `--check SERIES...` to only compare: exit 1 and name the releases whose embedded data
differs from what their Heat's generator writes now.

A merge patch uses null to delete a key, and Heat's data holds null inside some property
defaults (`service_function_parameters` of `OS::Neutron::PortPair`), so the patches stop at
DEPTH: a value that deep (one property's or attribute's whole schema, `types.T.properties.P`)
is replaced whole, never merged; above it the data never holds null (the script stops if it
does).
"""

import json
import os
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
BASE = os.path.join(ROOT, 'crates/hotfix_hot/data/resource_types.json')
DATA = os.path.join(ROOT, 'crates/hotfix_hot/data/releases')
# Newest first, as crates/hotfix_hot/src/resource_types.rs lists them (RELEASE_PATCHES).
# How deep a patch merges: a value at this depth (`types`, a type, `properties`, a property) is
# replaced whole. hotfix_hot::resource_types::PATCH_DEPTH is the same.
DEPTH = 4
ORDER = ['gazpacho', 'flamingo', 'epoxy', 'dalmatian', 'caracal', 'bobcat', 'antelope', 'zed',
         'yoga', 'xena', 'wallaby', 'victoria', 'ussuri', 'train', 'stein', 'rocky']


def main(argv):
    check = argv[1:2] == ['--check']
    wanted = argv[2:] if check else argv[1:]
    for series in wanted:
        if series not in ORDER:
            sys.exit('gen-heat-releases.py: %s is not one of %s' % (series, ' '.join(ORDER)))
    wanted = [s for s in ORDER if s in (wanted or ORDER)]
    stale = []
    for series in wanted:
        fresh = generate(series)
        no_nulls(fresh, series)
        if check:
            if embedded(series) != fresh:
                stale.append(series)
            continue
        patch = diff(base(), fresh)
        os.makedirs(DATA, exist_ok=True)
        path = os.path.join(DATA, series + '.json')
        with open(path + '.tmp', 'w', encoding='utf-8', newline='\n') as f:
            f.write(render(patch))
        os.replace(path + '.tmp', path)
        if embedded(series) != fresh:
            sys.exit('gen-heat-releases.py: the patch written for %s does not give its data back'
                     % series)
        print('%s: %s (%d bytes)' % (series, os.path.relpath(path, ROOT), os.path.getsize(path)))
    if stale:
        sys.exit('the embedded data of %s differs from what their Heat writes now; regenerate '
                 'with python3 scripts/gen-heat-releases.py %s' % (', '.join(stale), ' '.join(stale)))


def generate(series):
    """The generator's output on this release's Heat, as data."""
    python = subprocess.run([os.path.join(ROOT, 'scripts/setup-heat-release.sh'), series],
                            check=True, stdout=subprocess.PIPE, universal_newlines=True,
                            cwd=ROOT).stdout.strip()
    out = os.path.join(ROOT, os.path.dirname(os.path.dirname(python)) + '.json')
    subprocess.run([os.path.join(ROOT, python), os.path.join(ROOT, 'scripts/gen-resource-types.py'),
                    out], check=True, cwd=ROOT)
    with open(out, encoding='utf-8') as f:
        return json.load(f)


def base():
    with open(BASE, encoding='utf-8') as f:
        return json.load(f)


def embedded(series):
    """A release's data as hotfix reads it: BASE with the release's patch applied (None when
    there is none)."""
    path = os.path.join(DATA, series + '.json')
    if not os.path.exists(path):
        return None
    with open(path, encoding='utf-8') as f:
        return merge(base(), json.load(f))


def merge(target, patch, depth=0):
    """RFC 7386, down to DEPTH: a value there is replaced whole."""
    if not isinstance(patch, dict) or depth == DEPTH:
        return patch
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge(out.get(key), value, depth + 1)
    return out


def diff(old, new, depth=0):
    """The smallest patch (for merge) that turns old into new (both maps)."""
    out = {}
    for key in old:
        if key not in new:
            out[key] = None
    for key, value in new.items():
        if key in old and old[key] == value:
            continue
        if (key in old and isinstance(old[key], dict) and isinstance(value, dict) and value
                and depth + 1 < DEPTH):
            out[key] = diff(old[key], value, depth + 1)
        else:
            out[key] = value
    return out


def no_nulls(value, where, depth=0):
    """No null where merge reads null as a deletion (above DEPTH)."""
    if isinstance(value, dict) and depth < DEPTH:
        for key, v in value.items():
            if v is None:
                sys.exit('gen-heat-releases.py: %s has null at %s: a patch cannot hold it'
                         % (where, key))
            no_nulls(v, where + '.' + key, depth + 1)


def render(doc):
    """As gen-resource-types.py writes: sorted keys, no spaces, one type per line."""
    def dumps(value):
        return json.dumps(value, sort_keys=True, separators=(',', ':'), ensure_ascii=False,
                          allow_nan=False)

    head = {k: v for k, v in doc.items() if k != 'types'}
    lines = ['{']
    for key in sorted(head):
        lines.append('%s:%s,' % (dumps(key), dumps(head[key])))
    lines.append('"types":{')
    names = sorted(doc.get('types', {}))
    for i, name in enumerate(names):
        comma = ',' if i + 1 < len(names) else ''
        lines.append('%s:%s%s' % (dumps(name), dumps(doc['types'][name]), comma))
    lines.append('}}')
    return '\n'.join(lines) + '\n'


if __name__ == '__main__':
    main(sys.argv)
