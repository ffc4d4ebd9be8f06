#!/usr/bin/env python3
"""Load templates with Heat's own loader and print what it makes of them.

This is the oracle for hotfix_yaml: the loader is `heat.common.template_format.simple_parse`
from the `openstack-heat` package (JSON first, then PyYAML's CSafeLoader with Heat's
timestamp-as-string override, then PyYAML's pure SafeLoader where libyaml refuses the text), so
expectations come from Heat itself. The value is printed as `openstack stack create` sends it:
python-heatclient encodes the request with oslo.serialization's `jsonutils.dumps` (json.dumps
with `to_primitive` for what JSON lacks: `!!binary` bytes decoded as UTF-8, a `!!set` as a list,
a date of the pure loader as '%Y-%m-%d', a datetime as '%Y-%m-%dT%H:%M:%S.%f'). A set's members
come in document order here: Python's own order of a set of strings changes from run to run.

Usage (with the Heat virtual environment, see scripts/setup-oracle.sh):

  heat_load.py tree DIR...            one JSON line per HOT template found under DIR:
                                      {"path": P, "json": json.dumps(value)} or {"path": P, "error": E}
  heat_load.py cases IN.json OUT.json  expected values for the conformance table: IN is a list of
                                      {"name": N, "yaml": TEXT}; OUT gets "json" or "error" added
"""

import json
import os
import re
import sys

try:
    import yaml
    from heat.common import template_format
    from oslo_serialization import jsonutils
except ImportError as exc:  # pragma: no cover - the message is the point
    sys.exit(
        "heat_load.py: cannot import Heat's loader (%s). Create the oracle environment with "
        "scripts/setup-oracle.sh and run this script with .venv-heat/bin/python." % exc
    )

# A HOT template has a top-level heat_template_version key: at column 0 in YAML (also in the
# Jinja2 sources, which are not YAML until rendered), or as a JSON object key.
TEMPLATE = re.compile(r'^heat_template_version\s*:|"heat_template_version"\s*:', re.M)
SUFFIXES = ('.yaml', '.yml', '.json', '.template')


class DocumentOrderSet(set):
    """A `!!set` whose members iterate in the document's order."""

    def __iter__(self):
        return iter(self.order)


def construct_set(loader, node):
    """PyYAML's construct_yaml_set, keeping the members' order for DocumentOrderSet."""
    data = DocumentOrderSet()
    data.order = []
    yield data
    value = loader.construct_mapping(node)
    data.update(value)
    data.order = list(value)


# Heat's loader (its own copy of the constructors) and the pure loader of its second try.
for _loader in (template_format.yaml_loader, yaml.SafeLoader):
    _loader.add_constructor('tag:yaml.org,2002:set', construct_set)


def load(text):
    """What Heat's loader returns for `text`, as the command line sends it, or the error."""
    try:
        value = template_format.simple_parse(text)
        return {"json": jsonutils.dumps(value)}
    except Exception as exc:  # Heat surfaces every loader failure as an error
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return {"error": "%s: %s" % (type(exc).__name__, first)}


def tree(roots):
    for root in roots:
        if not os.path.isdir(root):
            sys.exit("heat_load.py: %s is not a directory" % root)
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith('.'))
            for name in sorted(filenames):
                if not name.endswith(SUFFIXES):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, 'rb') as f:
                    raw = f.read()
                try:
                    text = raw.decode('utf-8')
                except UnicodeDecodeError:
                    continue
                if not TEMPLATE.search(text):
                    continue
                record = {"path": path}
                record.update(load(text))
                print(json.dumps(record, sort_keys=True))


def cases(src, dst):
    with open(src, encoding='utf-8') as f:
        table = json.load(f)
    out = []
    for case in table:
        result = {"name": case["name"], "yaml": case["yaml"]}
        result.update(load(case["yaml"]))
        out.append(result)
    with open(dst, 'w', encoding='utf-8') as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write('\n')
    print("wrote %d cases to %s" % (len(out), dst))


def main(argv):
    if len(argv) >= 2 and argv[0] == 'tree':
        tree(argv[1:])
    elif len(argv) == 3 and argv[0] == 'cases':
        cases(argv[1], argv[2])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv[1:])
