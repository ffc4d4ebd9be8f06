"""For each release: H618's findings on the probes (hotfix) against the release's Heat."""
import json, os, subprocess, sys, collections
WORK = os.environ.get('HEAT_OLD', '/tmp/heat-old')
HOTFIX = os.environ.get('HOTFIX', 'target/release/hotfix')
SERIES = {5:'liberty',6:'mitaka',7:'newton',8:'ocata',9:'pike',10:'queens',11:'rocky',12:'stein',13:'train',14:'ussuri',15:'victoria',16:'wallaby',17:'xena',18:'yoga',19:'zed',20:'antelope',21:'bobcat',22:'caracal',23:'dalmatian',24:'epoxy',25:'flamingo',26:'gazpacho'}
files = sorted(os.path.join('probes-all', f) for f in os.listdir('probes-all'))
env = dict(os.environ, PYTHONPATH='', STUBS='oslo_db.sqlalchemy.migration,Crypto,Crypto.Cipher,Crypto.Cipher.AES,Crypto.Random,Crypto.Hash,Crypto.Hash.HMAC,retrying')
summary = {}
for major in [int(a) for a in sys.argv[1:]]:
    tag = '%d.0.0' % major
    series = SERIES[major]
    r = subprocess.run([HOTFIX, 'lint', '--no-config', '--select', 'H618', '--heat-release', series, '--format', 'json', *files], capture_output=True, text=True)
    findings = collections.defaultdict(list)
    for d in json.loads(r.stdout or '[]'):
        findings[d['path']].append(d)
    env['PYTHONPATH'] = '%s/src/%s:%s/meta/%s' % (WORK, tag, WORK, tag)
    v = subprocess.run(['venv/bin/python', 'validate_old.py', *files], capture_output=True, text=True, env=env)
    verdict = {}
    for line in v.stdout.splitlines():
        d = json.loads(line); verdict[os.path.join('probes-all', d['file'])] = d
    stats = collections.Counter(); bad = []
    for f in files:
        hv = verdict.get(f)
        if hv is None:
            stats['no verdict'] += 1; continue
        fs = findings.get(f, [])
        if not fs:
            stats['silent, heat ' + ('accepts' if hv['valid'] else 'refuses')] += 1
            continue
        if len(fs) > 1:
            bad.append((f, 'several findings', [x['message'] for x in fs])); continue
        help_ = fs[0]['help']
        expected = help_.split('`')[1]  # the quoted Heat message
        if hv['valid']:
            bad.append((f, 'H618 reports, Heat accepts', fs[0]['message']))
        elif expected.rstrip('.') in hv['error'] or expected.split(':')[0] in hv['error'] and 'version' in f:
            stats['reported, heat refuses with that message'] += 1
        else:
            bad.append((f, 'H618 reports, Heat refuses otherwise', fs[0]['message'], hv['error'][:200]))
    summary[series] = dict(stats)
    print(tag, series, dict(stats), flush=True)
    for b in bad: print('   ', *b, flush=True)
