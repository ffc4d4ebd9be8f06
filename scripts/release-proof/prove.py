import json, os, subprocess, sys
data = json.load(open(os.environ.get('HOTFIX_DATA', 'crates/hotfix_hot/data/resource_types.json')))['types']
ORDER = ['2013.1','2013.2','2014.1','2014.2','2015.1'] + ['%d.0.0' % i for i in range(5, 28)]
IDX = {v: i for i, v in enumerate(ORDER)}
def chain(s):
    out = []
    while s:
        out.append((s['status'], (s.get('version') or '').strip() or None)); s = s.get('previous')
    return out
def arrival(ss):
    if not ss: return None
    c = chain(ss)
    st, v = c[-1]
    if st == 'SUPPORTED' and v in IDX: return v, st
    return None
def walk(schemas, prefix, out):
    for n, s in schemas.items():
        p = prefix + n
        out[p] = s.get('support_status')
        if s.get('schema'): walk(s['schema'], p + '.', out)
        if s.get('items') and s['items'].get('schema'): walk(s['items']['schema'], p + '[].', out)
stats = {}
bad = []
for tag in sys.argv[1:]:
    R = IDX[tag]
    dump = json.load(open(f'dumps/{tag}.json'))['types']
    tree = f'src/{tag}/heat/engine/resources'
    ok = {'type_absent': 0, 'prop_absent': 0, 'attr_absent': 0, 'removed_none': 0,
          'type_present': 0, 'prop_present': 0, 'attr_present': 0, 'not_yet_none': 0}
    for name, t in data.items():
        a = arrival(t['support_status'])
        if a and IDX[a[0]] > R:
            grep = subprocess.run(['grep', '-rlF', "'%s'" % name, tree], capture_output=True, text=True).stdout.split()
            if name in dump or grep:
                bad.append((tag, 'type present', name, a, grep[:2]))
            else:
                ok['type_absent'] += 1
            continue
        if a and name not in dump and not t.get('none_resource'):
            bad.append((tag, 'INFO type arrived but absent', name, a))
        if t.get('none_resource') and t['support_status']['status'] == 'HIDDEN':
            v = t['support_status'].get('version')
            if v in IDX and IDX[v] <= R:
                if name in dump and not dump[name]['none']:
                    bad.append((tag, 'removed but real class', name, v, dump[name]['class']))
                else:
                    ok['removed_none'] += 1
            elif v in IDX and name in dump and dump[name]['none']:
                bad.append((tag, 'INFO none before removal version', name, v))
        if name not in dump or t.get('none_resource'):
            continue
        props = {}
        walk(t['properties'], '', props)
        for p, ss in props.items():
            a = arrival(ss)
            if not a: continue
            if IDX[a[0]] > R:
                if p in dump[name]['props']:
                    bad.append((tag, 'prop present', name, p, a))
                else:
                    ok['prop_absent'] += 1
            else:
                if p in dump[name]['props']: ok['prop_present'] += 1
                else: bad.append((tag, 'INFO prop arrived but absent', name, p, a))
        for at, s in t['attributes'].items():
            a = arrival(s.get('support_status'))
            if not a: continue
            if IDX[a[0]] > R:
                if at in dump[name]['attrs']: bad.append((tag, 'attr present', name, at, a))
                else: ok['attr_absent'] += 1
            else:
                if at in dump[name]['attrs']: ok['attr_present'] += 1
                else: bad.append((tag, 'INFO attr arrived but absent', name, at, a))
    stats[tag] = ok
for tag, ok in stats.items(): print(tag, ok)
for b in bad: print(*b)
