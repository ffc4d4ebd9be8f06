#!/usr/bin/env python3
"""Heat's own engine answering hotfix's tests: one JSON request per line in, one JSON line out.

    .venv-heat/bin/python scripts/heat_oracle.py serve

The engine is OpenStack Heat from the Python package registry, pinned by
scripts/heat-requirements.txt and installed into .venv-heat by scripts/setup-oracle.sh. No
cloud, database or message bus is involved: the template classes, intrinsic functions,
parameters, conditions, outputs and validation are Heat's; only what a running stack would
supply is stood in for (below).

The protocol is the part of `../shared/oracles/heat/resolve.py serve` that the tests on the
repository's own fixtures use, and its answers are the same, key for key (a test run beside
../shared checks that). Requests:

  {"cmd": "resolve", "template": TEXT, "params": {...}, "attrs": {...}, "env": TEXT, "files": {...}}
      The template class chosen by the version key, as Heat chooses it; parameter values,
      condition values, every resource's properties, metadata, depends_on, deletion and update
      policies and external_id, and every output, resolved by heat.engine.function.resolve.
      Answer: {"version", "template_class", "parameters", "conditions", "resources",
      "disabled_resources", "outputs", and "template_error", "parameter_error",
      "conditions_error", "resources_error", "outputs_error" where Heat raised}.
  {"cmd": "validate", "template": TEXT, "types": "generic"|"real", "params", "env", "files",
   "strict": BOOL, "no_cloud": BOOL}
      What `openstack orchestration template validate` checks (strict_validate off). With
      "generic" every resource type is a permissive stand-in, so only template-level and
      function errors remain; with "real" (the default) only unregistered types are.
      "strict" and "no_cloud" together: the checks a stack create runs before it creates
      anything (strict_validate on, every resource's full validate()), without a cloud: the
      plugins' own validate() methods, which may ask a cloud's APIs, are replaced by the base
      Resource.validate (property values, their types and constraints, required properties),
      except for nested stacks, groups and chains, which keep theirs. So "invalid" is certain
      and "valid" an upper bound. "strict" alone (a cloud's checks) is refused.
      Answer: {"valid": true} or {"valid": false, "error": TEXT, "error_type": CLASS}, plus
      "stubbed_types" when types were stood in for.
  {"cmd": "validate", ..., "strict": true, "no_cloud": true, "plugin_validate": [TYPE, ...]}
      As above, except that the plugin classes of the registered types named keep their own
      validate() (and so does every class they inherit one from, for every type of the
      template that shares it). Nothing answers in place of a cloud: the first request a
      kept validate() makes to a cloud's API (any HTTP request, or the creation of an API
      client) ends the validation there, and the answer is {"cloud_call": TEXT} (what it
      asked for), whatever Heat did next, with "stubbed_types" as above. So "valid" and
      "invalid" are Heat's own verdicts on every check of those types.
  {"cmd": "diff", "a": TEXT, "b": TEXT, "params", "attrs", "env", "files", "strict_errors"}
      Resolves both and compares parameters, conditions, resources and outputs.
      Answer: {"equal": BOOL, "diffs": [{"path", "a", "b"}]}, or {"equal": false,
      "a_error", "b_error"} when a text does not parse as a template.

  {"cmd": "diff", ..., "translated": true}
      As above, except that each resource's "properties" are compared as its plugin reads
      them after Heat's own translation rules (see "translate"). This is the check that a fix
      which does on disk what Heat's translation does in memory keeps the stack.
  {"cmd": "translate", "template": TEXT, "params", "env", "files", "attrs"}
      As "resolve", except that each resource of a type Heat registers has, in place of its
      resolved "properties", every property of its schema as the plugin reads it
      (`resource.properties[name]`) after the resource's translation_rules are applied
      (Resource.translate_properties, client look-ups off: no cloud), as an entry {"value"}
      or {"error"}. Resources of unregistered types, and those Heat cannot instantiate, keep
      the resolved properties ("untranslated": TEXT says why).

  {"cmd": "kinds"}
      Every registered resource type (aliases and templates aside), as {"types": {TYPE:
      {"nested": BOOL}}}: "nested" when its plugin is a nested stack, group or chain (Heat's
      StackResource), whose own validate() "strict" and "no_cloud" keep.

Any other request (another command, an unknown key, "strict" without "no_cloud",
"plugin_validate" without both, or naming what is not a registered type) is answered
with {"request_error": {"error": TEXT, "error_type": CLASS}}, never ignored.

What stands in for a created stack: every resource is CREATE_COMPLETE; `get_resource: r`
gives "<ref:r>", `get_attr: [r, a, p]` gives "<attr:r.a.p>" (or the path into "attrs"
values, selected as Heat selects), `get_attr: [r]` gives {"<attrs:r>": "<attrs:r>"},
Fn::GetAZs gives ["nova"]; custom parameter constraints (nova.flavor, ...) accept every value.
"""

import json
import logging
import os
import sys
import warnings

# Heat's messages list names from sets and dicts: with a fixed hash seed they read the same on
# every run (and the same as resolve.py's, which fixes it too).
if os.environ.get('PYTHONHASHSEED') != '0':
    os.environ['PYTHONHASHSEED'] = '0'
    os.execv(sys.executable, [sys.executable] + sys.argv)

# Plugin deprecation notices and library warnings at import time are noise on stderr.
warnings.filterwarnings('ignore')
logging.disable(logging.CRITICAL)

try:
    import requests
    from keystoneauth1 import session as ks_session

    from heat.common import context as heat_context
    from heat.common import environment_format
    from heat.common import grouputils
    from heat.common import exception
    from heat.common import identifier
    from heat.common import template_format
    from heat.engine import attributes
    from heat.engine.clients import client_plugin
    from heat.engine import constraints
    from heat.engine import environment
    from heat.engine import function
    from heat.engine import properties
    from heat.engine import resource
    from heat.engine import resources
    from heat.engine import stack as heat_stack
    from heat.engine import stk_defn
    from heat.engine import template as heat_template
    from heat.engine.resources import stack_resource
except ImportError as exc:  # the message is the point
    sys.exit('heat_oracle.py: cannot import Heat (%s): run scripts/setup-oracle.sh and use '
             '.venv-heat/bin/python' % exc)

PROJECT = 'oracle-project'
STACK = identifier.HeatIdentifier(PROJECT, 'oracle', '00000000-0000-4000-8000-000000000000')

# No cloud to ask: a custom constraint (nova.flavor, glance.image, ...) accepts every value.
constraints.CustomConstraint._is_valid = lambda self, value, schema, context: True


def error(ex):
    return {'error': str(ex), 'error_type': type(ex).__name__}


def jsonable(obj):
    """For json.dumps: an unresolved function as its snippet, a set as a list, else repr."""
    if isinstance(obj, function.Function):
        return {obj.fn_name: obj.args}
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    return repr(obj)


def plain(value):
    """A resolved value as plain JSON data (placeholders become strings)."""
    return json.loads(json.dumps(value, default=jsonable))


def resolved(snippet):
    try:
        return {'value': plain(function.resolve(snippet))}
    except Exception as ex:  # Heat raises exceptions of many classes
        return error(ex)


# ---------------------------------------------------------------------------------------------
# A stack whose resources all exist
# ---------------------------------------------------------------------------------------------

class Attribute(str):
    """"<attr:r.a>", which indexes to "<attr:r.a.k>": HOT 2013-05-23 selects a path out of
    the attribute's value, later versions ask the resource for the path; both agree."""

    def __new__(cls, path):
        text = str.__new__(cls, '<attr:%s>' % '.'.join(str(p) for p in path))
        text.path = tuple(path)
        return text

    def __getitem__(self, key):
        if isinstance(key, (str, int)) and not isinstance(key, bool):
            return Attribute(self.path + (key,))
        return str.__getitem__(self, key)

    def __reduce__(self):
        return (str, (str(self),))


class Created:
    """The state Heat keeps of a created resource (a NodeData), with placeholder values or the
    values a request gives in "attrs"."""

    action = 'CREATE'
    status = 'COMPLETE'

    def __init__(self, name, values):
        self.name = name
        self.values = values or {}

    def reference_id(self):
        return '<ref:%s>' % self.name

    def attributes(self):
        if self.values:
            return dict(self.values)
        return {'<attrs:%s>' % self.name: '<attrs:%s>' % self.name}

    def attribute(self, key):
        name, path = (key[0], list(key[1:])) if isinstance(key, tuple) else (key, [])
        if name in self.values:
            return attributes.select_from_attribute(self.values[name], path)
        return Attribute((self.name, name) + tuple(path))

    def attribute_names(self):
        return iter(())


class AnyName(frozenset):
    def __contains__(self, name):
        return True


class CreatedProxy(stk_defn.ResourceProxy):
    """Every attribute name is one the resource has."""

    __slots__ = ()

    @property
    def attributes_schema(self):
        return AnyName()


class CreatedStack(stk_defn.StackDefinition):
    """A StackDefinition whose resources are all created, with the zones ["nova"].

    `names`, when given, are the resources of the whole template while this definition holds
    only one of them (see `resource_definitions`)."""

    def __init__(self, template, values=None, names=None):
        super().__init__(None, template, STACK, {})
        self.names = None if names is None else set(names)
        values = values or {}
        for name in self.resource_names():
            self._resource_data[name] = Created(name, values.get(name))

    def resource_names(self):
        if self.names is not None:
            return self.names
        return set(self._template.t.get(self._template.RESOURCES) or {})

    def all_rsrc_names(self):
        return self.resource_names()

    def __contains__(self, name):
        if self.names is not None:
            return name in self.names
        return super().__contains__(name)

    def __getitem__(self, name):
        if name not in self._resources:
            try:
                definition = self.resource_definition(name)
            except KeyError:
                # Unknown and condition-disabled resources are a KeyError, as in Heat; a
                # resource of the whole template that this definition does not hold is not.
                if self.names is None or name not in self.names:
                    raise
                definition = None
            self._resources[name] = CreatedProxy(name, definition, self._resource_data.get(name))
        return self._resources[name]

    def get_availability_zones(self):
        return ['nova']


# ---------------------------------------------------------------------------------------------
# resolve
# ---------------------------------------------------------------------------------------------

def environment_of(params, env_text):
    env = environment_format.parse(env_text) if env_text else {}
    if params:
        env.setdefault('parameters', {}).update(params)
    return environment.Environment(env)


def resource_definitions(template, stack, values):
    """({name: definition}, the whole template's error, {name: error}, definitions to keep).

    When the resources cannot be parsed together, each is parsed alone (knowing the others'
    names), so that one bad resource does not hide the rest. Parsed functions refer to their
    StackDefinition weakly: the caller keeps the returned ones alive while it resolves."""
    try:
        return template.resource_definitions(stack), None, {}, []
    except Exception as ex:
        whole = error(ex)
    section = template.t.get(template.RESOURCES) or {}
    names = sorted(section)
    definitions, errors, keep = {}, {}, []
    for name in names:
        alone = dict(template.t)
        alone[template.RESOURCES] = {name: section[name]}
        alone = heat_template.Template(alone, files=template.files, env=template.env)
        alone_stack = CreatedStack(alone, values, names)
        keep.append(alone_stack)
        try:
            definitions.update(alone.resource_definitions(alone_stack))
        except Exception as ex:
            errors[name] = error(ex)
    return definitions, whole, errors, keep


# The sections of a resource definition, and where ResourceDefinition keeps each snippet.
SECTIONS = (('properties', '_properties'), ('metadata', '_metadata'), ('depends_on', '_depends'),
            ('deletion_policy', '_deletion_policy'), ('update_policy', '_update_policy'),
            ('external_id', '_external_id'))


def resolve_resource(definition):
    out = {'type': definition.resource_type}
    try:
        definition.validate()
    except Exception as ex:
        out['validation_error'] = error(ex)
    for section, attribute in SECTIONS:
        snippet = getattr(definition, attribute)
        if snippet is not None:
            out[section] = resolved(snippet)
    if definition.description:
        out['description'] = definition.description
    return out


def output_definitions(template, stack, out):
    """Heat's output definitions; when they cannot be parsed together, each alone (with the
    whole template's resources and conditions), its parse error recorded in `out`."""
    try:
        return template.outputs(stack), None
    except Exception as ex:
        whole = error(ex)
    definitions = {}
    section = template.t.get(template.OUTPUTS) or {}
    if isinstance(section, dict):
        for name in sorted(section):
            template.t[template.OUTPUTS] = {name: section[name]}
            try:
                definitions.update(template.outputs(stack))
            except Exception as ex:
                out[name] = {'parse_error': error(ex)}
            finally:
                template.t[template.OUTPUTS] = section
    return definitions, whole


def resolve(parsed, params=None, env=None, files=None, attrs=None):
    template = heat_template.Template(parsed, files=files or {}, env=environment_of(params, env))
    result = {'version': ': '.join(template.version),
              'template_class': type(template).__name__}
    try:
        template.validate()
    except Exception as ex:
        result['template_error'] = error(ex)
    try:
        stack = CreatedStack(template, attrs)
    except Exception as ex:
        result['error'] = error(ex)
        return result

    try:
        stack.parameters.validate(validate_value=True, context=None)
    except Exception as ex:
        result['parameter_error'] = error(ex)
    pseudo = set(getattr(stack.parameters, 'PSEUDO_PARAMETERS', ()))
    result['parameters'] = {}
    for name in stack.parameters:
        if name not in pseudo:
            try:
                result['parameters'][name] = {'value': plain(stack.parameters[name])}
            except Exception as ex:
                result['parameters'][name] = error(ex)

    try:
        conditions = template.conditions(stack)
        names = sorted(template._get_condition_definitions()
                       if hasattr(template, '_get_condition_definitions') else {})
        values = {}
        for name in names:
            try:
                values[name] = {'value': conditions.is_enabled(name)}
            except Exception as ex:
                values[name] = error(ex)
        if values:
            result['conditions'] = values
    except Exception as ex:
        result['conditions_error'] = error(ex)

    definitions, whole, errors, keep = resource_definitions(template, stack, attrs)
    if whole:
        result['resources_error'] = whole
    result['resources'] = {name: resolve_resource(d) for name, d in sorted(definitions.items())}
    result['resources'].update((name, {'parse_error': e}) for name, e in errors.items())
    del keep
    disabled = set(template.t.get(template.RESOURCES) or {}) - set(definitions) - set(errors)
    if disabled:
        result['disabled_resources'] = sorted(disabled)

    outputs = {}
    definitions, whole = output_definitions(template, stack, outputs)
    if whole:
        result['outputs_error'] = whole
    for name, definition in sorted(definitions.items()):
        entry = {}
        try:
            definition.validate()
        except Exception as ex:
            entry['validation_error'] = error(ex)
        entry.update(resolved(definition._value))
        if definition._description is not None:
            entry['description'] = definition.description()
        outputs[name] = entry
    result['outputs'] = outputs
    return result


# ---------------------------------------------------------------------------------------------
# translate
# ---------------------------------------------------------------------------------------------

def translate(parsed, result, params=None, env=None, files=None):
    """Replaces, in a resolve() answer, each resource's resolved properties by the properties
    its plugin reads after Heat's translation rules: a Properties object of the plugin's schema
    over the resolved values (placeholders included), given the resource's translation_rules
    as Resource.translate_properties gives them (client look-ups off), read key by key."""
    engine()
    try:
        template = heat_template.Template(parsed, files=files or {},
                                          env=environment_of(params, env))
        stack = heat_stack.Stack(oracle_context(), 'translate', template)
        # Each resource alone where they cannot be parsed together, as resolve() does.
        definitions, _, _, keep = resource_definitions(template, stack, None)
    except Exception as ex:
        for entry in result.get('resources', {}).values():
            entry['untranslated'] = str(ex)
        return result
    for name, entry in result.get('resources', {}).items():
        data = (entry.get('properties') or {}).get('value')
        if not isinstance(data, dict) or name not in definitions:
            continue
        try:
            res = resource.Resource(name, definitions[name], stack)
            props = properties.Properties(res.properties_schema, data,
                                          context=stack.context, section='properties')
            res.translate_properties(props, client_resolve=False)
        except Exception as ex:
            entry['untranslated'] = str(ex)
            continue
        read = {}
        for key in props:
            try:
                read[key] = {'value': plain(props[key])}
            except Exception as ex:
                read[key] = error(ex)
        entry['properties'] = {'value': read}
    del keep
    return result


def oracle_context():
    return heat_context.RequestContext.from_dict({
        'tenant_id': PROJECT, 'tenant': PROJECT, 'username': 'oracle', 'user_id': 'oracle',
        'password': '', 'roles': ['admin'], 'is_admin': False,
        'auth_url': 'http://127.0.0.1:5000/v3', 'auth_token': 'oracle'})


# ---------------------------------------------------------------------------------------------
# validate
# ---------------------------------------------------------------------------------------------

def usage(parsed):
    """{type: property names} and {type: get_attr names} as the template uses them."""
    section = parsed.get('resources') or parsed.get('Resources') or {}
    types, props, attrs = {}, {}, {}
    if not isinstance(section, dict):
        return types, props, attrs
    for name, body in section.items():
        if isinstance(body, dict) and isinstance(body.get('type', body.get('Type')), str):
            types[name] = body.get('type', body.get('Type'))
            given = body.get('properties', body.get('Properties'))
            if isinstance(given, dict):
                props.setdefault(types[name], set()).update(k for k in given if isinstance(k, str))

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if (key in ('get_attr', 'Fn::GetAtt') and isinstance(value, list)
                        and len(value) >= 2 and isinstance(value[0], str)
                        and isinstance(value[1], str) and value[0] in types):
                    attrs.setdefault(types[value[0]], set()).add(value[1])
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(parsed)
    return types, props, attrs


def stand_in(type_name, props, attrs):
    """A resource class that accepts the given properties and attributes with any value, and
    every deletion policy."""
    return type('OracleGeneric', (resource.Resource,), {
        'properties_schema': {n: properties.Schema(properties.Schema.ANY) for n in sorted(props)},
        'attributes_schema': {n: attributes.Schema(n) for n in sorted(attrs)},
        'oracle_type': type_name,
        'handle_snapshot_delete': lambda self, state: None,
        'validate': lambda self: None,
    })


_ENGINE_READY = []


def engine():
    """The resource registry, once; asking Keystone which services the cloud offers is off."""
    if not _ENGINE_READY:
        resource.Resource._validate_service_availability = lambda self, context, rtype: None
        resources.initialise()
        _ENGINE_READY.append(True)


class CloudCall(Exception):
    """A kept plugin validate() asked a cloud's API."""


class BaseValidation:
    """While active, ordinary plugins validate as the base Resource does (no cloud API calls);
    nested stacks, groups and chains keep their own validate(), which validates their members.
    Groups ask the engine for their existing members; before a create there are none.

    The classes in `keep` (and every class they inherit from) keep their own validate(); any
    request to a cloud is then recorded in `cloud_calls` and raised as CloudCall."""

    def __init__(self, keep=()):
        self.keep = set()
        for cls in keep:
            self.keep.update(cls.__mro__)
        self.cloud_calls = []

    def __enter__(self):
        self.replaced = []
        for info in list(resources.global_env().registry._registry.values()):
            cls = getattr(info, 'value', None)
            if (isinstance(cls, type) and issubclass(cls, resource.Resource)
                    and not issubclass(cls, stack_resource.StackResource)
                    and cls not in self.keep and 'validate' in vars(cls)):
                self.replaced.append((cls, vars(cls)['validate']))
                cls.validate = resource.Resource.validate
        self.inspector = vars(grouputils.GroupInspector)['from_parent_resource']
        grouputils.GroupInspector.from_parent_resource = classmethod(
            lambda cls, parent: cls(parent.context, None, None))
        self.cut = []
        if self.keep:
            self.cut_cloud()
        return self

    def cut_cloud(self):
        """Every way to a cloud's API raises CloudCall: an HTTP request (requests, and
        keystoneauth's sessions above it) and the creation of a client by a client plugin."""
        calls = self.cloud_calls

        def refuse(what):
            calls.append(what)
            raise CloudCall(what)

        def http(self, method, url, *args, **kwargs):
            refuse('HTTP %s %s' % (method, url))

        def create(self, *args, **kwargs):
            refuse('%s client (%s)' % (type(self).__module__.rsplit('.', 1)[-1],
                                       type(self).__name__))

        targets = [(requests.Session, 'request', http),
                   (ks_session.Session, 'request', http)]
        plugins, todo = [], [client_plugin.ClientPlugin]
        while todo:
            cls = todo.pop()
            plugins.append(cls)
            todo.extend(cls.__subclasses__())
        for cls in plugins:
            for name in ('client', '_create'):
                if name in vars(cls):
                    targets.append((cls, name, create))
        for owner, name, stub in targets:
            self.cut.append((owner, name, vars(owner)[name]))
            setattr(owner, name, stub)

    def __exit__(self, *exc):
        for cls, method in self.replaced:
            cls.validate = method
        grouputils.GroupInspector.from_parent_resource = self.inspector
        for owner, name, method in reversed(self.cut):
            setattr(owner, name, method)


def validate(parsed, types='real', params=None, env=None, files=None, strict=False,
             plugin_validate=()):
    """EngineService.validate_template, as `openstack orchestration template validate`; with
    strict, the validation a stack create runs first, under BaseValidation (which keeps the
    own validate() of the classes of the types in plugin_validate)."""
    engine()
    if strict:
        keep = [plugin_class(name) for name in plugin_validate]
        with BaseValidation(keep) as base:
            answer = validate_as(parsed, types, params, env, files, True)
        if base.cloud_calls:
            answer = {k: v for k, v in answer.items() if k == 'stubbed_types'}
            answer['cloud_call'] = base.cloud_calls[0]
        return answer
    return validate_as(parsed, types, params, env, files, False)


def kinds():
    """The registered types, and which of them BaseValidation leaves their own validate()."""
    engine()
    types = {}
    for name, info in resources.global_env().registry._registry.items():
        cls = getattr(info, 'value', None)
        if isinstance(name, str) and isinstance(cls, type) and issubclass(cls, resource.Resource):
            types[name] = {'nested': issubclass(cls, stack_resource.StackResource)}
    return {'types': types}


def plugin_class(name):
    """The plugin class of a registered type (not an alias, not a template)."""
    info = resources.global_env().registry._registry.get(name)
    cls = getattr(info, 'value', None)
    if not (isinstance(name, str) and isinstance(cls, type)
            and issubclass(cls, resource.Resource)):
        raise Unsupported('plugin_validate names %r, which is not a registered resource type'
                          % (name,))
    return cls


def validate_as(parsed, types, params, env, files, strict):
    """One validation; strict_validate as given."""
    environment_ = environment_of(params, env)
    by_name, props, attrs = usage(parsed)
    stubbed = []
    for type_name in sorted(set(by_name.values())):
        if types == 'real':
            try:
                resources.global_env().get_class(type_name)
                continue
            except Exception:
                pass
        environment_.register_class(type_name, stand_in(
            type_name, props.get(type_name, ()), attrs.get(type_name, ())))
        stubbed.append(type_name)
    try:
        template = heat_template.Template(parsed, files=files or {}, env=environment_)
    except Exception as ex:
        return dict(valid=False, **error(ex))
    context = heat_context.RequestContext.from_dict({
        'tenant_id': PROJECT, 'tenant': PROJECT, 'username': 'oracle', 'user_id': 'oracle',
        'password': '', 'roles': ['admin'], 'is_admin': False,
        'auth_url': 'http://127.0.0.1:5000/v3', 'auth_token': 'oracle'})
    try:
        try:
            template.validate()
        except AssertionError:
            raise
        except Exception as ex:
            raise exception.StackValidationFailed(message=str(ex))
        heat_stack.Stack(context, 'dummy', template, strict_validate=strict).validate(
            validate_res_tmpl_only=not strict)
        answer = {'valid': True}
    except Exception as ex:
        answer = dict(valid=False, **error(ex))
    if stubbed:
        answer['stubbed_types'] = stubbed
    return answer


# ---------------------------------------------------------------------------------------------
# diff
# ---------------------------------------------------------------------------------------------

def same(a, b, strict_errors):
    """Two {"value"} / {"error"} entries agree: equal values, or both errors (with equal texts
    under strict_errors)."""
    if a is None or b is None:
        return a == b
    if 'value' in a and 'value' in b:
        return a['value'] == b['value']
    if 'error' in a and 'error' in b:
        return not strict_errors or a == b
    return False


def differences(ra, rb, strict_errors=False):
    diffs = []

    def differ(path, a, b):
        diffs.append({'path': path, 'a': a, 'b': b})

    for key in ('parameters', 'conditions'):
        a, b = ra.get(key, {}), rb.get(key, {})
        for name in sorted(set(a) | set(b)):
            if not same(a.get(name), b.get(name), strict_errors):
                differ('%s.%s' % (key, name), a.get(name), b.get(name))

    a_all, b_all = ra.get('resources', {}), rb.get('resources', {})
    for name in sorted(set(a_all) | set(b_all)):
        a, b = a_all.get(name), b_all.get(name)
        path = 'resources.%s' % name
        if a is None or b is None:
            differ(path, a, b)
            continue
        if a.get('type') != b.get('type'):
            differ(path + '.type', a.get('type'), b.get('type'))
        for key in ('parse_error', 'validation_error'):
            if (key in a) != (key in b) or (strict_errors and a.get(key) != b.get(key)):
                differ('%s.%s' % (path, key), a.get(key), b.get(key))
        for section, _ in SECTIONS:
            if not same(a.get(section), b.get(section), strict_errors):
                differ('%s.%s' % (path, section), a.get(section), b.get(section))

    a_all, b_all = ra.get('outputs', {}), rb.get('outputs', {})
    for name in sorted(set(a_all) | set(b_all)):
        a, b = a_all.get(name), b_all.get(name)
        path = 'outputs.%s' % name
        if a is None or b is None:
            differ(path, a, b)
        elif 'parse_error' in a or 'parse_error' in b:
            if ('parse_error' in a) != ('parse_error' in b) or (strict_errors and a != b):
                differ(path, a, b)
        else:
            if ('validation_error' in a) != ('validation_error' in b):
                differ(path + '.validation_error', a.get('validation_error'),
                       b.get('validation_error'))
            if not same(a, b, strict_errors):
                differ(path + '.value', {k: a[k] for k in ('value', 'error') if k in a},
                       {k: b[k] for k in ('value', 'error') if k in b})
    for key in ('template_error', 'error', 'resources_error', 'outputs_error',
                'conditions_error', 'parameter_error'):
        if (key in ra) != (key in rb):
            differ(key, ra.get(key), rb.get(key))
    return diffs


# ---------------------------------------------------------------------------------------------
# requests
# ---------------------------------------------------------------------------------------------

class Unsupported(Exception):
    pass


KEYS = {
    'resolve': {'template', 'params', 'env', 'files', 'attrs'},
    'validate': {'template', 'params', 'env', 'files', 'types', 'strict', 'no_cloud',
                 'plugin_validate'},
    'diff': {'a', 'b', 'params', 'env', 'files', 'attrs', 'strict_errors', 'translated'},
    'translate': {'template', 'params', 'env', 'files', 'attrs'},
    'kinds': set(),
}


def parse(text):
    """Heat's template parser: the template, or None and the error."""
    try:
        return template_format.parse(text), None
    except Exception as ex:
        return None, error(ex)


def answer(request):
    if not isinstance(request, dict):
        raise Unsupported('a request is a JSON object, not %s' % type(request).__name__)
    cmd = request.get('cmd', 'resolve')
    if cmd not in KEYS:
        raise Unsupported('unknown cmd %r: this driver answers %s (the rest of resolve.py '
                          'needs ../shared/oracles/heat/resolve.py)' % (cmd, ', '.join(KEYS)))
    unknown = sorted(set(request) - KEYS[cmd] - {'cmd'})
    if unknown:
        raise Unsupported('%s does not take %s here (strict validation and other options '
                          'need ../shared/oracles/heat/resolve.py)' % (cmd, ', '.join(unknown)))
    if cmd == 'kinds':
        return kinds()
    given = {k: request.get(k) for k in ('params', 'env', 'files')}
    if cmd == 'diff':
        a, a_error = parse(request['a'])
        b, b_error = parse(request['b'])
        if a_error or b_error:
            return {'equal': False, 'a_error': a_error, 'b_error': b_error}
        ra = resolve(a, attrs=request.get('attrs'), **given)
        rb = resolve(b, attrs=request.get('attrs'), **given)
        if request.get('translated', False):
            translate(a, ra, **given)
            translate(b, rb, **given)
        diffs = differences(ra, rb, request.get('strict_errors', False))
        return {'equal': not diffs, 'diffs': diffs}
    parsed, parse_error = parse(request['template'])
    if cmd in ('resolve', 'translate'):
        if parse_error:
            return {'parse_error': parse_error}
        result = resolve(parsed, attrs=request.get('attrs'), **given)
        if cmd == 'translate':
            translate(parsed, result, **given)
        return result
    types = request.get('types', 'real')
    if types not in ('real', 'generic'):
        raise Unsupported('types is "real" or "generic", not %r' % (types,))
    strict = request.get('strict', False)
    if strict != request.get('no_cloud', False):
        raise Unsupported('validate takes "strict" and "no_cloud" together here (the checks of a '
                          'stack create without a cloud); a plugin\'s own checks need a cloud')
    keep = request.get('plugin_validate', [])
    if not isinstance(keep, list) or (keep and not strict):
        raise Unsupported('plugin_validate is a list of resource types, with "strict" and '
                          '"no_cloud" (a cloud call ends the validation)')
    if parse_error:
        return dict(valid=False, **parse_error)
    return validate(parsed, types, strict=bool(strict), plugin_validate=keep, **given)


def serve(lines, out):
    for line in lines:
        if not line.strip():
            continue
        try:
            reply = answer(json.loads(line))
        except Exception as ex:  # a bad request is answered, never the end of the session
            reply = {'request_error': error(ex)}
        out.write(json.dumps(reply, sort_keys=True, default=jsonable) + '\n')
        out.flush()


def main(argv):
    if argv not in ([], ['serve']):
        sys.stderr.write(__doc__)
        return 2
    serve(sys.stdin, sys.stdout)
    return 0


if __name__ == '__main__':
    code = main(sys.argv[1:])
    sys.stdout.flush()
    # Tearing down Heat's libraries takes about a second and is of no use here.
    os._exit(code)
