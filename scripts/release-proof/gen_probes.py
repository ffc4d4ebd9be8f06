"""One probe template per type, per property path and per attribute of Heat 27's data, and per
HOT version: what H618 may report, for checking its claims against an older Heat."""
import json, os, yaml
data = json.load(open(os.environ.get('HOTFIX_DATA', 'crates/hotfix_hot/data/resource_types.json')))['types']
out = 'probes-all'
def example(s):
    for c in s.get('constraints', []):
        if 'allowed_values' in c and c['allowed_values']:
            return c['allowed_values'][0]
    t = s['type']
    if t in ('string', 'any'): return 'x'
    if t in ('integer', 'number'):
        for c in s.get('constraints', []):
            if 'range' in c and c['range'].get('min') is not None: return c['range']['min']
        return 1
    if t == 'boolean': return True
    if t == 'map':
        return {k: example(v) for k, v in s.get('schema', {}).items() if v.get('required')}
    if t == 'list':
        return []
    return 'x'
def required(schemas):
    return {k: example(v) for k, v in schemas.items() if v.get('required')}
def doc(rtype, props=None, outputs=None):
    d = {'heat_template_version': '2015-10-15', 'resources': {'r': {'type': rtype}}}
    if props: d['resources']['r']['properties'] = props
    if outputs: d['outputs'] = outputs
    return d
n = 0
def write(name, d):
    global n
    n += 1
    with open(os.path.join(out, '%04d-%s.yaml' % (n, name.replace(':', '_').replace('/', '_'))), 'w') as f:
        yaml.safe_dump(d, f, sort_keys=False)
for t, s in data.items():
    write('type-' + t, doc(t))
    if s.get('none_resource'): continue
    base = required(s['properties'])
    def walk(schemas, build, path):
        for k, v in schemas.items():
            p = path + [k]
            if v.get('support_status'):
                write('prop-%s-%s' % (t, '.'.join(p)), doc(t, build(k, example(v))))
            if v.get('schema') and v['type'] == 'map':
                inner = v['schema']
                walk(inner, (lambda b, k, inner: lambda kk, vv: b(k, {**required(inner), kk: vv}))(build, k, inner), p)
            if v.get('items') and v['items'].get('schema'):
                inner = v['items']['schema']
                walk(inner, (lambda b, k, inner: lambda kk, vv: b(k, [{**required(inner), kk: vv}]))(build, k, inner), p)
    walk(s['properties'], lambda k, v: {**base, k: v}, [])
    for a, av in s['attributes'].items():
        if av.get('support_status'):
            write('attr-%s-%s' % (t, a), doc(t, base or None, {'o': {'value': {'get_attr': ['r', a]}}}))
for v in ['2013-05-23','2014-10-16','2015-04-30','2015-10-15','2016-04-08','2016-10-14','2017-02-24','2017-09-01','2018-03-02','2018-08-31','2021-04-16']:
    write('version-' + v, {'heat_template_version': v, 'resources': {'r': {'type': 'OS::Heat::None'}}})
print(n)
