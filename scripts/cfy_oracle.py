#!/usr/bin/env python3
"""Cloudify's parser on a blueprint whose imports cannot be fetched offline.

Used by the shared_ tests of the blueprint rules (crates/hotfix_linter/tests/blueprint_oracle.rs)
with .venv-cfy (scripts/setup-cfy-oracle.sh). Reads JSON lines {"cmd": "parse"|"plan"|"runtime",
"blueprint": TEXT, "path": PATH} and answers one JSON line each, from the shared oracle
(../shared/oracles/cloudify/cfy_check.py, or HOTFIX_SHARED/oracles/...).

`runtime` goes one step further than the shared oracle can: it prepares the deployment plan (its
node instances included), then evaluates every `get_attribute` written in a node template's
operation inputs, a relationship's source and target operation inputs, an output or a
capability with Cloudify's own `dsl_parser.functions.evaluate_functions` /
`evaluate_outputs` / `evaluate_capabilities`, over a storage that serves the plan's nodes and
node instances, in the context Cloudify's operation endpoint gives (`cloudify/endpoint.py`
`_evaluate_functions_impl`: `{'self': instance}` for a node's operation, `{'source', 'target',
'source_node', 'target_node'}` for a relationship's), once per node instance (and relationship
instance) the plan creates. It answers {"valid": true, "ambiguous": [[where, owner, node], ...],
"evaluated": N}: each call that fails on some instance with Cloudify's `More than one node
instance found for node ...` (an output: whose value becomes `<ERROR: ...>`), once, where is
`operation`, `relationship`, `output` or `capability`, owner the node template (the
relationship's source) or the output / capability name, node the node the call names. Groups and
`cloudify.policies.scaling` policies are kept for it (scaling groups take part in the
resolution).

Imports name Cloudify's types, plugins, URLs and uploaded blueprints, none of which is there
offline. As the oracle's README says, they are stripped, and what they would give is stubbed:

- local imports (paths relative to PATH's folder) are inlined: their inputs, node templates,
  outputs and capabilities join the blueprint's;
- node types whose whole derived_from chain the blueprint declares are kept (their operations
  stubbed); the other node types, relationships, data_types, plugins, workflows and policy
  types are dropped, and each node template of a dropped type gets a type of its own declaring
  exactly the properties it sets; relationship
  types derive from stub versions of cloudify.relationships.depends_on / connected_to /
  contained_in; every operation's implementation becomes a task of one stub plugin;
- inputs keep primitive types only (others are dropped, with constraints); `plan` gives inputs
  without a default a value of their type.

So a blueprint Cloudify accepts may be refused here (a get_property of a property only its real
type defaults): callers first check that the unmutated blueprint is accepted, and use only those.
"""

import json
import os
import sys

shared = os.environ.get('HOTFIX_SHARED') or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), '..', '..', 'shared')
sys.path.insert(0, os.path.join(shared, 'oracles', 'cloudify'))

import yaml  # noqa: E402

import cfy_check  # noqa: E402

PRIMITIVE = {'string', 'integer', 'float', 'boolean', 'list', 'dict'}
DUMMY = {'integer': 1, 'float': 1.0, 'boolean': True, 'list': [], 'dict': {}}
DROPPED = ['imports', 'node_types', 'relationships', 'data_types', 'plugins', 'workflows',
           'policy_types', 'policy_triggers', 'dsl_definitions', 'blueprint_labels', 'labels',
           'groups', 'policies', 'upload_resources']
BASE_RELATIONSHIPS = {
    'cloudify.relationships.depends_on': {
        'properties': {'connection_type': {'default': 'all_to_all'}}},
    'cloudify.relationships.connected_to': {
        'derived_from': 'cloudify.relationships.depends_on'},
    'cloudify.relationships.contained_in': {
        'derived_from': 'cloudify.relationships.depends_on'},
}


def inline(bp, base, seen, depth=0):
    """Merges local imports (recursively) into bp."""
    for item in list(bp.get('imports') or []):
        if not isinstance(item, str) or depth > 10:
            continue
        if item.startswith(('http:', 'https:', 'file:', 'plugin:', 'cloudify/')) or '--' in item \
                or item.startswith('blueprint:'):
            continue
        path = os.path.normpath(os.path.join(base, item))
        if path in seen or not os.path.isfile(path):
            continue
        seen.add(path)
        with open(path, encoding='utf-8') as f:
            sub = yaml.safe_load(f) or {}
        if not isinstance(sub, dict):
            continue
        inline(sub, os.path.dirname(path), seen, depth + 1)
        for section in ('inputs', 'node_templates', 'outputs', 'capabilities'):
            if isinstance(sub.get(section), dict):
                merged = dict(sub[section])
                merged.update(bp.get(section) or {})
                bp[section] = merged


def stub_operations(interfaces):
    if not isinstance(interfaces, dict):
        return interfaces
    out = {}
    for iname, ops in interfaces.items():
        if not isinstance(ops, dict):
            continue
        new_ops = {}
        for oname, op in ops.items():
            if isinstance(op, dict):
                kept = {'implementation': 'stub.task'}
                if 'inputs' in op:
                    kept['inputs'] = op['inputs']
                new_ops[oname] = kept
            else:
                new_ops[oname] = 'stub.task'
        out[iname] = new_ops
    return out


def stub_relationship(rel, relationships):
    """Declares a relationship's type (derived from a stub base) and stubs its operations."""
    if not isinstance(rel, dict):
        return
    rtype = str(rel.get('type', ''))
    if rtype not in relationships:
        base = 'cloudify.relationships.contained_in' if 'contained_in' in rtype \
            else 'cloudify.relationships.connected_to'
        relationships[rtype] = {'derived_from': base, 'properties': {}}
    for p in rel.get('properties') or {}:
        if rtype not in BASE_RELATIONSHIPS:
            relationships[rtype]['properties'][p] = {}
    for side in ('source_interfaces', 'target_interfaces'):
        if side in rel:
            rel[side] = stub_operations(rel[side])


def local_node_types(bp):
    """The node types the blueprint declares whose whole derived_from chain it declares."""
    declared = bp.get('node_types') or {}
    local = {}
    for name, definition in declared.items():
        seen, chain = set(), name
        while chain in declared and chain not in seen and isinstance(declared[chain], dict):
            seen.add(chain)
            chain = declared[chain].get('derived_from')
        if chain is None:
            local[name] = definition
    return local


def stub(text, path):
    bp = yaml.safe_load(text)
    if path:
        inline(bp, os.path.dirname(os.path.abspath(path)), set())
    local_types = local_node_types(bp)
    for key in DROPPED:
        bp.pop(key, None)
    node_types = {}
    relationships = dict(BASE_RELATIONSHIPS)
    for name, node in (bp.get('node_templates') or {}).items():
        if not isinstance(node, dict):
            continue
        if node.get('type') in local_types:
            # A type the blueprint declares, down to its root: kept as written.
            chain = node['type']
            while chain is not None and chain not in node_types:
                kept = dict(local_types[chain])
                if 'interfaces' in kept:
                    kept['interfaces'] = stub_operations(kept['interfaces'])
                node_types[chain] = kept
                chain = kept.get('derived_from')
            if 'interfaces' in node:
                node['interfaces'] = stub_operations(node['interfaces'])
            for rel in node.get('relationships') or []:
                stub_relationship(rel, relationships)
            continue
        type_name = 'stub.node.%s' % name
        props = node.get('properties') or {}
        node_types[type_name] = {'properties': {p: {} for p in props}}
        node['type'] = type_name
        if 'interfaces' in node:
            node['interfaces'] = stub_operations(node['interfaces'])
        for rel in node.get('relationships') or []:
            stub_relationship(rel, relationships)
    bp['node_types'] = node_types
    bp['relationships'] = relationships
    bp['plugins'] = {'stub': {'executor': 'central_deployment_agent', 'install': False}}
    inputs = {}
    for name, spec in (bp.get('inputs') or {}).items():
        spec = dict(spec) if isinstance(spec, dict) else {}
        if spec.get('type') not in PRIMITIVE:
            spec.pop('type', None)
        for key in ('constraints', 'item_type'):
            spec.pop(key, None)
        inputs[name] = spec
    if inputs:
        bp['inputs'] = inputs
    return bp


def keep_scaling(bp, original):
    """Puts back the groups and the scaling policies `stub` dropped (`runtime` needs them)."""
    if isinstance(original.get('groups'), dict):
        bp['groups'] = original['groups']
    policies = {name: policy for name, policy in (original.get('policies') or {}).items()
                if isinstance(policy, dict) and policy.get('type') == 'cloudify.policies.scaling'}
    if policies:
        bp['policies'] = policies


def get_attribute_calls(value, path=()):
    """Every get_attribute call in a value (in the arguments of other calls too), with its
    path."""
    if isinstance(value, dict):
        if 'get_attribute' in value and len(value) <= 2 \
                and set(value) <= {'get_attribute', 'type'}:
            yield path, value
        for key, item in value.items():
            yield from get_attribute_calls(item, path + (str(key),))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from get_attribute_calls(item, path + (str(i),))


class Storage:
    """What dsl_parser's runtime evaluation handler asks of the manager, from the plan."""

    def __init__(self, dep):
        self.dep = dep
        self.nodes = {n['id']: n for n in dep['nodes']}
        self.instances = {}
        for ni in dep['node_instances']:
            # The manager's node instances always hold these (empty at first).
            ni.setdefault('runtime_properties', {})
            ni.setdefault('scaling_groups', [])
            ni.setdefault('relationships', [])
            self.instances[ni['id']] = ni

    def get_node(self, node_id):
        return self.nodes[node_id]

    def get_node_instances(self, node_id):
        return [ni for ni in self.instances.values() if ni['node_id'] == node_id]

    def get_node_instance(self, instance_id):
        return self.instances[instance_id]

    def get_input(self, name):
        return self.dep['inputs'][name]


AMBIGUOUS = 'More than one node instance found'


def runtime(bp, original):
    from dsl_parser import functions, tasks  # noqa: E402 (cfy_check imported them already)
    keep_scaling(bp, original)
    text = yaml.safe_dump(bp, sort_keys=False)
    parsed, result = cfy_check.parse(None, None, text)
    if parsed is None:
        return result
    try:
        # Every get_secret key counts as existing, as in cfy_check.py's plan.
        dep = tasks.prepare_deployment_plan(parsed, inputs=plan_inputs(bp),
                                            get_secret_method=cfy_check._secret_method(None))
    except Exception as ex:
        return cfy_check._err(ex)
    storage = Storage(dep)
    found = []
    evaluated = 0

    def fails(call, context):
        nonlocal evaluated
        evaluated += 1
        try:
            functions.evaluate_functions({'v': json.loads(json.dumps(call))}, dict(context),
                                         storage)
        except Exception as ex:  # FunctionEvaluationError, or the stub storage's own gaps
            return AMBIGUOUS in str(ex)
        return False

    def note(entry):
        if entry not in found:
            found.append(entry)

    written = original.get('node_templates') or {}
    for node in dep['nodes']:
        template = written.get(node['id']) or {}
        instances = storage.get_node_instances(node['id'])
        # The operations written in the template (not those its type declares).
        for iname, ops in (template.get('interfaces') or {}).items():
            for oname in ops or {}:
                op = node['operations'].get('%s.%s' % (iname, oname)) or {}
                for _, call in get_attribute_calls(op.get('inputs') or {}):
                    if any(fails(call, {'self': ni['id']}) for ni in instances):
                        note(['operation', node['id'], call['get_attribute'][0]])
        written_rels = template.get('relationships') or []
        for r, rel in enumerate(node['relationships']):
            written_rel = written_rels[r] if r < len(written_rels) else {}
            for side, plan_side in (('source_interfaces', 'source_operations'),
                                    ('target_interfaces', 'target_operations')):
                for iname, ops in (written_rel.get(side) or {}).items():
                    for oname in ops or {}:
                        op = rel[plan_side].get('%s.%s' % (iname, oname)) or {}
                        for _, call in get_attribute_calls(op.get('inputs') or {}):
                            contexts = [
                                {'source': ni['id'], 'target': ri['target_id'],
                                 'source_node': node['id'], 'target_node': rel['target_id']}
                                for ni in instances for ri in ni['relationships']
                                if ri['target_name'] == rel['target_id']
                                and ri['type'] == rel['type']]
                            if any(fails(call, c) for c in contexts):
                                note(['relationship', node['id'], call['get_attribute'][0]])
    for name, output in (dep.get('outputs') or {}).items():
        for _, call in get_attribute_calls(output.get('value')):
            evaluated += 1
            value = functions.evaluate_outputs({name: {'value': json.loads(json.dumps(call))}},
                                               storage)[name]
            if isinstance(value, str) and AMBIGUOUS in value:
                note(['output', name, call['get_attribute'][0]])
    for name, capability in (dep.get('capabilities') or {}).items():
        for _, call in get_attribute_calls(capability.get('value')):
            if fails_capability(functions, storage, name, call):
                note(['capability', name, call['get_attribute'][0]])
            evaluated += 1
    return {'valid': True, 'ambiguous': found, 'evaluated': evaluated}


def fails_capability(functions, storage, name, call):
    try:
        functions.evaluate_capabilities({name: {'value': json.loads(json.dumps(call))}},
                                        storage)
    except Exception as ex:
        return AMBIGUOUS in str(ex)
    return False


def plan_inputs(bp):
    return {name: DUMMY.get(spec.get('type'), 'x')
            for name, spec in (bp.get('inputs') or {}).items() if 'default' not in spec}


def answer(req):
    try:
        bp = stub(req['blueprint'], req.get('path'))
    except Exception as ex:  # the text does not load as YAML: not a stubbing question
        return {'valid': False, 'error': 'stub: %s' % ex, 'error_type': 'StubError'}
    if req.get('cmd') == 'runtime':
        return runtime(bp, yaml.safe_load(req['blueprint']))
    text = yaml.safe_dump(bp, sort_keys=False)
    if req.get('cmd') == 'plan':
        result = cfy_check.plan(None, plan_inputs(bp), None, None, text)
        return {k: result[k] for k in ('valid', 'error', 'error_type') if k in result}
    return cfy_check.parse(None, None, text)[1]


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            resp = answer(json.loads(line))
        except Exception as ex:
            resp = {'valid': False, 'error': str(ex), 'error_type': type(ex).__name__}
        sys.stdout.write(json.dumps(resp, default=repr) + '\n')
        sys.stdout.flush()
    return 0


if __name__ == '__main__':
    sys.exit(main())
