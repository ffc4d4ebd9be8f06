#!/usr/bin/env python3
"""Asks ../shared/oracles/heat/stack.py many questions in one process.

Usage (with the Heat venv's python):
    stack_batch.py PATH/TO/stack.py

Reads one JSON array per line on standard input: the arguments of one stack.py run
(`["T.yaml", "-e", "E.yaml", "--strict", "--no-cloud"]`), and writes for each one line of JSON:
the object stack.py prints for those arguments. Heat is imported once instead of once per run,
which is most of a run's time (about 4 s of CPU each).

stack.py's --no-cloud replaces the `validate` of Heat's ordinary resource plugins for the rest of
the process. A process that has answered a --no-cloud question therefore refuses a question
without it (the answer would differ from a fresh stack.py's): ask those of another process.
"""
import contextlib
import importlib.util
import json
import sys


def main():
    spec = importlib.util.spec_from_file_location('heat_stack', sys.argv[1])
    stack = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(stack)
    no_cloud = False
    for line in sys.stdin:
        args = json.loads(line)
        if no_cloud and '--no-cloud' not in args:
            answer = {'batch_error': 'this process has run --no-cloud: ask a question without '
                                     'it of another process'}
        else:
            no_cloud = no_cloud or '--no-cloud' in args
            sys.argv = ['stack.py'] + args
            try:
                # Whatever Heat prints must not mix with the answers.
                with contextlib.redirect_stdout(sys.stderr):
                    answer = stack.main()
            except SystemExit as ex:
                answer = {'batch_error': 'stack.py exited with %s for %s' % (ex.code, args)}
        sys.stdout.write(json.dumps(answer, sort_keys=True) + '\n')
        sys.stdout.flush()


if __name__ == '__main__':
    main()
