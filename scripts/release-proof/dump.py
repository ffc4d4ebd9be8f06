"""Dump an old Heat's registry: type -> {none, props (nested paths), attrs, status chain}.
Run with PYTHONPATH=<old heat tree> so that `heat` is the old one."""
import json, os, sys, tempfile, warnings, logging
warnings.filterwarnings('ignore'); logging.disable(logging.CRITICAL)
import collections, collections.abc, inspect, fnmatch as _fnmatch
for _n in ('Mapping','MutableMapping','Sequence','MutableSequence','Iterable','Callable','Set','MutableSet','Hashable','Iterator','Sized','Container'):
    if not hasattr(collections, _n): setattr(collections, _n, getattr(collections.abc, _n))
if not hasattr(inspect, 'getargspec'):
    def _gas(f):
        a = inspect.getfullargspec(f); return inspect.ArgSpec(a.args, a.varargs, a.varkw, a.defaults) if hasattr(inspect,'ArgSpec') else (a.args, a.varargs, a.varkw, a.defaults)
    inspect.getargspec = _gas
from unittest import mock as _mock
import importlib as _il
for _m in os.environ.get('STUBS','').split(','):
    if not _m: continue
    try:
        _il.import_module(_m)
    except Exception:
        sys.modules[_m] = _mock.MagicMock(__name__=_m, __path__=[])
import importlib.metadata as _md
if not hasattr(_md.EntryPoint, 'module_name'):
    _md.EntryPoint.module_name = property(lambda self: self.module)
import oslo_utils
from oslo_versionedobjects import fields as _ovf
if not hasattr(_ovf.AutoTypedField, 'AUTO_TYPE'):
    _ovf.AutoTypedField.AUTO_TYPE = _ovf.FieldType()
if not hasattr(oslo_utils, 'fnmatch'):
    sys.modules['oslo_utils.fnmatch'] = _fnmatch; oslo_utils.fnmatch = _fnmatch
import heat
from oslo_config import cfg
from heat.engine import properties, resources, environment, resource
try:
    from heat.engine.resources.openstack.heat import none_resource
    NoneResource = none_resource.NoneResource
except Exception:
    NoneResource = None

def chain(s):
    out = []
    while s is not None:
        out.append([s.status, None if s.version is None else str(s.version)])
        s = s.previous_status
    return out

def paths(schemas, prefix, out):
    for n, s in schemas.items():
        p = prefix + n
        out[p] = chain(s.support_status)
        sub = s.schema
        if sub is None:
            continue
        if s.type == s.LIST:
            inner = getattr(sub, 'value', None)
            if inner is None and isinstance(sub, dict) and '*' in sub:
                inner = sub['*']
            if inner is not None and inner.type == inner.MAP and isinstance(inner.schema, dict):
                paths(inner.schema, p + '[].', out)
        elif s.type == s.MAP and isinstance(sub, dict):
            paths(sub, p + '.', out)

empty = tempfile.mkdtemp()
cfg.CONF.set_override('environment_dir', empty)
from heat.engine import clients as _clients
FAILED_PLUGINS = []
try:
    from heat.common import pluginutils as _pu
    _pu.log_fail_msg = lambda manager, ep, exc: FAILED_PLUGINS.append('%s: %r' % (ep, exc))
except ImportError:
    pass
resources.initialise()
try:
    out_failed = sorted(set(n for n in ['aodh','barbican','blazar','cinder','designate','glance','heat','ironic','keystone','magnum','manila','mistral','monasca','neutron','nova','octavia','sahara','senlin','swift','trove','zaqar','zun','vitrage','ceilometer','openstack','zaqar'] if not _clients.has_client(n)))
except Exception as e:
    out_failed = repr(e)
out = {'heat_file': heat.__file__, 'types': {}, 'no_client': out_failed, 'failed_plugins': FAILED_PLUGINS}
for name, info in resources.global_env().registry._registry.items():
    if name == 'resources' or not isinstance(info, environment.ClassResourceInfo):
        continue
    cls = info.value
    props = {}
    paths(properties.schemata(cls.properties_schema), '', props)
    attrs = dict(cls.attributes_schema); attrs.update(getattr(cls, 'base_attributes_schema', {}))
    out['types'][name] = {
        'none': bool(NoneResource and issubclass(cls, NoneResource)),
        'class': cls.__module__ + '.' + cls.__name__,
        'status': chain(cls.support_status),
        'props': props,
        'attrs': sorted(attrs),
    }
json.dump(out, sys.stdout, indent=0, sort_keys=True)
