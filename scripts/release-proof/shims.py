"""Shims for old Heat; dump's registry: type -> {none, props (nested paths), attrs, status chain}.
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
