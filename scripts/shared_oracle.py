#!/usr/bin/env python3
"""The shared Heat oracle (`../shared/oracles/heat/resolve.py serve`), with one request context.

resolve.py builds a new RequestContext for every template it validates or resolves; building one
(Keystone session, SSL options) is about a third of a small template's validation. Every request
asks with the same context (the same project, user and roles), so this driver builds it once
and serves resolve.py's requests with it. HOTFIX_ORACLE_LOG=FILE writes each request and its
answer to FILE, so that two runs (with and without the shared context:
HOTFIX_ORACLE_FRESH_CONTEXT=1) can be compared answer by answer.

resolve.py runs as `__main__`, as it does as a script (its classes' names appear in Heat's
messages: `'<attr:R.value>' is type <class '__main__.AttrPlaceholder'>`), with its closing
`if __name__ == '__main__':` block left out, so that the context is shared before it serves.

Usage: shared_oracle.py PATH/TO/resolve.py   (then requests on stdin, as resolve.py serve)
"""

import json
import os
import sys
import types

MAIN_BLOCK = "\nif __name__ == '__main__':"


def main():
    path = os.path.abspath(sys.argv[1])
    sys.path.insert(0, os.path.dirname(path))
    with open(path, encoding='utf-8') as f:
        source = f.read()
    if source.count(MAIN_BLOCK) != 1:
        sys.exit(f'shared_oracle.py: {path} has no single `if __name__ == "__main__":` block')
    source = source.replace(MAIN_BLOCK, '\nif False:')
    resolve = types.ModuleType('__main__')
    resolve.__file__ = path
    exec(compile(source, path, 'exec'), resolve.__dict__)
    if not os.environ.get('HOTFIX_ORACLE_FRESH_CONTEXT'):
        built = []
        fresh = resolve._context

        def shared():
            if not built:
                built.append(fresh())
            return built[0]

        resolve._context = shared
    log_path = os.environ.get('HOTFIX_ORACLE_LOG')
    if log_path:
        log = open(log_path, 'a', encoding='utf-8')
        run = resolve.run_request

        def logged(req):
            out = run(req)
            log.write(json.dumps([req, out], sort_keys=True, default=str) + '\n')
            log.flush()
            return out

        resolve.run_request = logged
    rc = resolve.main(['serve'])
    # As resolve.py does: skip the interpreter's teardown of Heat's libraries (about 1 s).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(rc)


if __name__ == '__main__':
    main()
