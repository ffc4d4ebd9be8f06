#!/usr/bin/env python3
"""Write the resource-type data that hotfix embeds, read from Heat's own resource registry.

    .venv-heat/bin/python scripts/gen-resource-types.py crates/hotfix_hot/data/resource_types.json

The registry is the one heat-engine builds at start-up (heat.engine.resources.initialise: every
plugin's resource_mapping / available_resource_mapping), loaded as ../shared/oracles/heat/resolve.py
loads it for `validate --types real`, with no cloud: the check whether a cloud offers a service is
switched off, and nothing else. The Heat release is the openstack-heat package installed in the
Python that runs this script (scripts/heat-requirements.txt pins the one the tests use);
docs/resource-types.md says how to make the data for another release.

The output is facts only, never a description sentence or a support-status message. For each
registered type (the plugin classes; not aliases):

  support_status     {"status", "version"?, "previous"?} (Heat's SupportStatus chain), and
                     "substitute" when Heat names a replacement type (substitute_class);
                     a type's own chain also has Heat's "message" where it gives one
  properties         name -> schema: "type" (string, integer, number, boolean, map, list, any),
                     and only where they differ from Heat's defaults: "required", "default",
                     "constraints" (allowed_values, range {min, max}, length {min, max}, modulo
                     {step, offset}, allowed_pattern, custom_constraint: Heat's own dict form
                     without the description), "update_allowed", "immutable", "implemented"
                     (false), "allow_conversion", "support_status", and the nested schema:
                     "schema" of a map (name -> schema), "items" of a list (a schema)
  attributes         name -> {"type"? (when Heat gives one), "support_status"?}, the base
                     attributes (`show`) included, as Resource.__init__ adds them
  update_policy      name -> schema, as properties (the update_policy section Heat accepts)
  translation        Heat's translation rules that rename or drop properties (Add, Replace,
                     Delete; Resolve rules, which look names up in a cloud, are left out): "rule",
                     "path", and "value_name", "value_path", "custom_value_path", "value" as Heat
                     gives them; a value read from the template is {"property": [path]}
  none_resource      true when the class is OS::Heat::None's NoneResource or a subclass of it:
                     any property and any attribute (None) are accepted and nothing is made. The
                     subclasses are removed types that Heat keeps this way (all HIDDEN)
  snapshot           true when the `Snapshot` deletion policy is accepted
                     (Resource.validate_deletion_policy: callable handle_snapshot_delete)
  dynamic_attributes true when every attribute name passes validation, because the class
                     overrides get_attribute or FnGetAtt (Resource.node_data's test before a
                     resource exists)

Also "default_environment": the resource_registry of etc/heat/environment.d/default.yaml from
the openstack-heat package (aliases such as OS::Quantum* -> OS::Neutron*), which heat-engine loads
only when a deployment installs it in its environment_dir; the registry above is read without it.

Output: one JSON document, keys sorted, one type per line (so that a diff shows which types
changed), written to the path given (or stdout with `-`).
"""

import json
import os
import sys
import tempfile
import warnings
import logging

# Some of Heat's schemas hold sets (allowed values): fix the hash seed so that their order, and
# so the output, is the same on every run.
if os.environ.get('PYTHONHASHSEED') != '0':
    os.environ['PYTHONHASHSEED'] = '0'
    os.execv(sys.executable, [sys.executable] + sys.argv)

# Plugin deprecation notices and library warnings at import time are noise on stderr.
warnings.filterwarnings('ignore')
logging.disable(logging.CRITICAL)

try:
    try:
        from importlib import metadata
    except ImportError:  # Python 3.7 and older (the Heat of stein and before)
        try:
            import importlib_metadata as metadata
        except ImportError:
            metadata = None

    import yaml
    from oslo_config import cfg

    from heat.engine import attributes
    from heat.engine import constraints
    from heat.engine import environment
    from heat.engine import properties
    from heat.engine import resource
    from heat.engine import resources
    from heat.engine import support
    from heat.engine import translation
    from heat.engine.resources.openstack.heat import none_resource
except ImportError as exc:  # pragma: no cover - the message is the point
    sys.exit(
        "gen-resource-types.py: cannot import Heat (%s). Create the oracle environment with "
        "scripts/setup-oracle.sh and run this script with .venv-heat/bin/python." % exc
    )

FORMAT = 1
PACKAGE = 'openstack-heat'


class PkgResourcesMetadata(object):
    """What this script asks of importlib.metadata, from pkg_resources: for an old Python
    without importlib_metadata installed."""

    @staticmethod
    def version(name):
        import pkg_resources
        return pkg_resources.get_distribution(name).version

    @staticmethod
    def distribution(name):
        import pkg_resources
        dist = pkg_resources.get_distribution(name)

        class Distribution(object):
            files = [line.split(',')[0] for line in dist.get_metadata_lines('RECORD')]

            @staticmethod
            def locate_file(path):
                return os.path.join(dist.location, path)

        return Distribution()


if metadata is not None and sys.version_info < (3, 8):
    try:
        metadata.version(PACKAGE)
    except Exception:  # an old importlib_metadata beside a newer setuptools' path finder (train)
        metadata = None
if metadata is None:
    metadata = PkgResourcesMetadata()


def main(argv):
    if len(argv) != 2:
        sys.exit('usage: gen-resource-types.py OUTPUT.json (or - for stdout)')
    text = render(generate())
    if argv[1] == '-':
        sys.stdout.write(text)
    else:
        with open(argv[1], 'w', encoding='utf-8', newline='\n') as f:
            f.write(text)


def generate():
    classes = registry()
    names_of = {}
    for name, cls in classes.items():
        names_of.setdefault(cls, []).append(name)
    types = {name: resource_type(name, cls, names_of) for name, cls in classes.items()}
    return {
        'format': FORMAT,
        'heat': {'package': PACKAGE, 'version': metadata.version(PACKAGE)},
        'default_environment': default_environment(),
        'types': types,
    }


def registry():
    """Every registered type name and its plugin class, as heat-engine registers them."""
    # A deployment's environment files (/etc/heat/environment.d) may add aliases or remove
    # types; the data is Heat's own registry, so read none (the packaged default environment
    # is recorded on its own, below).
    empty = tempfile.mkdtemp(prefix='gen-resource-types-')
    cfg.CONF.set_override('environment_dir', empty)
    # As resolve.py's _prepare_validate: checking whether a cloud offers a service needs
    # Keystone.
    resource.Resource._validate_service_availability = (
        lambda self, context, resource_type: None)
    resources.initialise()
    os.rmdir(empty)
    out = {}
    for name, info in resources.global_env().registry._registry.items():
        if name == 'resources':
            # Per-resource-name overrides: only an environment makes them.
            if info:
                raise SystemExit('gen-resource-types.py: the global registry has overrides '
                                 'for resource names: %r' % (info,))
            continue
        if not isinstance(info, environment.ClassResourceInfo):
            raise SystemExit('gen-resource-types.py: %s is registered as %s, not a plugin '
                             'class: the environment directory was read' % (name, type(info)))
        out[name] = info.value
    return out


def resource_type(name, cls, names_of):
    out = {'support_status': support_status(cls.support_status, names_of, messages=True)
                             or {'status': support.SUPPORTED}}
    out['properties'] = schemata(properties.schemata(cls.properties_schema), names_of)
    attrs = dict(cls.attributes_schema)
    attrs.update(cls.base_attributes_schema)
    out['attributes'] = {n: attribute(s, names_of) for n, s in attrs.items()}
    if cls.update_policy_schema:
        out['update_policy'] = schemata(properties.schemata(cls.update_policy_schema), names_of)
    rules = translation_rules(name, cls)
    if rules:
        out['translation'] = rules
    if issubclass(cls, none_resource.NoneResource):
        out['none_resource'] = True
    if callable(getattr(cls, 'handle_snapshot_delete', None)):
        out['snapshot'] = True
    if (cls.get_attribute is not resource.Resource.get_attribute
            or cls.FnGetAtt is not resource.Resource.FnGetAtt):
        out['dynamic_attributes'] = True
    return out


def support_status(status, names_of, messages=False):
    """The status chain, or None for Heat's default (SUPPORTED, no version, no history); with
    `messages` (a type's own status), each status's message where Heat gives one."""
    out = {'status': status.status}
    if status.version is not None:
        out['version'] = str(status.version)
    if messages and status.message:
        out['message'] = str(status.message)
    if status.previous_status is not None:
        out['previous'] = support_status(status.previous_status, names_of, messages) or {
            'status': support.SUPPORTED}
    if status.substitute_class is not None:
        names = names_of.get(status.substitute_class)
        if not names or len(names) != 1:
            raise SystemExit('gen-resource-types.py: substitute class %r is registered as %r'
                             % (status.substitute_class, names))
        out['substitute'] = names[0]
    if out == {'status': support.SUPPORTED}:
        return None
    return out


def schemata(schemas, names_of):
    return {n: schema(s, names_of) for n, s in schemas.items()}


def schema(s, names_of):
    out = {'type': s.type.lower()}
    if s.required:
        out['required'] = True
    if s.default is not None:
        out['default'] = plain(s.default)
    if s.constraints:
        out['constraints'] = [constraint(c) for c in s.constraints]
    if s.update_allowed:
        out['update_allowed'] = True
    if s.immutable:
        out['immutable'] = True
    if not s.implemented:
        out['implemented'] = False
    if s.allow_conversion:
        out['allow_conversion'] = True
    status = support_status(s.support_status, names_of)
    if status:
        out['support_status'] = status
    # Heat writes a list's item schema as {"*": schema}; here it is "items", and "schema" is a
    # map's (name -> schema). Heat would also take a list with a schema per index: none has one.
    if isinstance(s.schema, constraints.AnyIndexDict) and s.type == s.LIST:
        out['items'] = schema(s.schema.value, names_of)
    elif isinstance(s.schema, dict) and s.type == s.MAP:
        out['schema'] = schemata(s.schema, names_of)
    elif s.schema is not None:
        raise SystemExit('gen-resource-types.py: a %s with the nested schema %r: extend the '
                         'format' % (s.type, s.schema))
    return out


def constraint(c):
    """Heat's own dict form of a constraint (dict(c)), without the description."""
    out = {k: plain(v) for k, v in dict(c).items() if k != constraints.Constraint.DESCRIPTION}
    if len(out) != 1:
        raise SystemExit('gen-resource-types.py: unexpected constraint %r' % (dict(c),))
    return out


def attribute(s, names_of):
    out = {}
    if s.type is not None:
        out['type'] = s.type.lower()
    status = support_status(s.support_status, names_of)
    if status:
        out['support_status'] = status
    return out


def plain(value):
    """A schema value as JSON data; anything else is an error, never a guess."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(plain(v) for v in value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    raise SystemExit('gen-resource-types.py: cannot write %r (%s)' % (value, type(value)))


class PropertyValue(object):
    """Stands for the template's value of a property inside a translation rule's value."""

    def __init__(self, path):
        self.path = path


class Properties(object):
    """What a translation_rules method reads: every property is set (so that a rule that
    applies only when a property is given is seen), its value a PropertyValue."""

    def get(self, key, default=None):
        return PropertyValue([key])

    def __getitem__(self, key):
        return PropertyValue([key])


class ClientPlugin(object):
    """A client plugin that is never called: only Resolve rules use it, and they are left
    out."""

    def __getattr__(self, name):
        return '<client plugin>.%s' % name


class Clients(object):
    def client_plugin(self, name=None):
        return ClientPlugin()


class Stack(object):
    clients = Clients()


# Resource.stack is a weak reference: keep the stand-in alive.
STACK = Stack()


def translation_rules(name, cls):
    if cls.translation_rules is resource.Resource.translation_rules:
        return []
    # A bare instance: translation_rules reads only constants, props and client plugins.
    instance = object.__new__(cls)
    instance.stack = STACK
    instance.name = name
    rules = cls.translation_rules(instance, Properties()) or []
    out = []
    for rule in rules:
        if rule.rule == translation.TranslationRule.RESOLVE:
            continue
        entry = {'rule': rule.rule, 'path': list(rule.translation_path)}
        for key in ('value_name', 'value_path', 'custom_value_path'):
            if getattr(rule, key) is not None:
                entry[key] = plain(getattr(rule, key))
        if rule.value is not None:
            entry['value'] = rule_value(rule.value)
        out.append(entry)
    return out


def rule_value(value):
    if isinstance(value, PropertyValue):
        return {'property': value.path}
    if isinstance(value, list):
        return [rule_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): rule_value(v) for k, v in value.items()}
    return plain(value)


def default_environment():
    """The resource_registry of the default environment file the package ships."""
    dist = metadata.distribution(PACKAGE)
    files = [f for f in dist.files or () if str(f).endswith('environment.d/default.yaml')]
    if len(files) != 1:
        raise SystemExit('gen-resource-types.py: expected one environment.d/default.yaml in %s, '
                         'found %r' % (PACKAGE, files))
    with open(dist.locate_file(files[0]), encoding='utf-8') as f:
        body = yaml.safe_load(f)
    registry = body.get('resource_registry') or {}
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in registry.items()):
        raise SystemExit('gen-resource-types.py: default.yaml has a resource_registry entry '
                         'that is not a plain mapping: %r' % (registry,))
    return registry


def render(doc):
    """Sorted keys, no spaces, one type per line."""
    def dumps(value):
        return json.dumps(value, sort_keys=True, separators=(',', ':'), ensure_ascii=False,
                          allow_nan=False)

    head = {k: v for k, v in doc.items() if k != 'types'}
    lines = ['{']
    for key in sorted(head):
        lines.append('%s:%s,' % (dumps(key), dumps(head[key])))
    lines.append('"types":{')
    names = sorted(doc['types'])
    for i, name in enumerate(names):
        comma = ',' if i + 1 < len(names) else ''
        lines.append('%s:%s%s' % (dumps(name), dumps(doc['types'][name]), comma))
    lines.append('}}')
    return '\n'.join(lines) + '\n'


if __name__ == '__main__':
    main(sys.argv)
