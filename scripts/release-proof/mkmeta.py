import configparser, os, subprocess, sys
WORK = os.environ.get('HEAT_OLD', '/tmp/heat-old')
tag = sys.argv[1]
cfgtext = subprocess.run(['git', '-C', os.environ['HEAT_GIT'], 'show', f'{tag}:setup.cfg'], capture_output=True, text=True, check=True).stdout
cp = configparser.ConfigParser(interpolation=None); cp.optionxform = str
cp.read_string(cfgtext)
d = f'{WORK}/meta/{tag}/openstack_heat-{tag}.dist-info'
os.makedirs(d, exist_ok=True)
open(f'{d}/METADATA', 'w').write(f'Metadata-Version: 2.1\nName: openstack-heat\nVersion: {tag}\n')
with open(f'{d}/entry_points.txt', 'w') as f:
    for group, body in cp['entry_points'].items():
        f.write(f'[{group}]\n')
        for line in body.strip().splitlines():
            if line.strip(): f.write(line.strip() + '\n')
        f.write('\n')
