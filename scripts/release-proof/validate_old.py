"""Validate templates with an old Heat (strict, no cloud), as scripts/heat_oracle.py does."""
import os, sys, json
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import shims  # noqa
import oslo_context.context as _oc
_orig_init = _oc.RequestContext.__init__
_RENAMED = {'user': 'user_id', 'tenant': 'project_id', 'domain': 'domain_id',
            'user_domain': 'user_domain_id', 'project_domain': 'project_domain_id'}
def _init(self, *a, **k):
    for old, new in _RENAMED.items():
        if old in k:
            v = k.pop(old)
            k.setdefault(new, v)
    return _orig_init(self, *a, **k)
_oc.RequestContext.__init__ = _init
for _old, _new in [(o, n) for o, n in _RENAMED.items() if o != 'user']:
    if not hasattr(_oc.RequestContext, _old):
        setattr(_oc.RequestContext, _old, property(
            (lambda n: lambda s: getattr(s, n))(_new),
            (lambda n: lambda s, v: setattr(s, n, v))(_new)))
try:
    from heat.common import pluginutils as _pu
    _pu.log_fail_msg = lambda *a, **k: None
except ImportError:
    pass
from heat.common import context as heat_context, template_format
from heat.engine import constraints, environment, resource, resources, stack as heat_stack
from heat.engine import template as heat_template
try:
    from heat.engine.resources import stack_resource
except ImportError:
    from heat.engine import stack_resource
constraints.CustomConstraint._is_valid = lambda self, *a, **k: True
resource.Resource._validate_service_availability = lambda *a, **k: None
resources.initialise()
for info in list(resources.global_env().registry._registry.values()):
    cls = getattr(info, 'value', None)
    if (isinstance(cls, type) and issubclass(cls, resource.Resource)
            and not issubclass(cls, stack_resource.StackResource) and 'validate' in vars(cls)):
        cls.validate = resource.Resource.validate
ctx = heat_context.RequestContext.from_dict({
    'tenant_id': 'p', 'tenant': 'p', 'username': 'o', 'user_id': 'o', 'password': '',
    'roles': ['admin'], 'is_admin': False, 'auth_url': 'http://127.0.0.1:5000/v3', 'auth_token': 't'})
for path in sys.argv[1:]:
    text = open(path).read()
    try:
        parsed = template_format.parse(text)
        t = heat_template.Template(parsed, env=environment.Environment({}))
        t.validate()
        st = heat_stack.Stack(ctx, 'dummy', t, strict_validate=True)
        try:
            st.validate(validate_res_tmpl_only=False)
        except TypeError:
            st.validate()
        print(json.dumps({'file': os.path.basename(path), 'valid': True}))
    except Exception as ex:
        print(json.dumps({'file': os.path.basename(path), 'valid': False, 'error': '%s: %s' % (type(ex).__name__, ex)}))
