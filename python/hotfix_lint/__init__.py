"""hotfix, the linter and upgrader of OpenStack Heat templates, packaged as a Python wheel.

The wheel installs the `hotfix` binary into the environment's scripts folder; this package
only lets `python -m hotfix_lint ARGS` run it (see `__main__.py`).
"""
