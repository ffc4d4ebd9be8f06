#!/usr/bin/env python3
"""Validates SARIF logs against the official SARIF 2.1.0 JSON schema.

    scripts/validate-sarif.py [--schema SCHEMA] FILE...     (`-` reads standard input)

The schema defaults to ../shared/reference/sarif-schema-2.1.0.json (the OASIS schema). Formats
are checked too (`uri`, `uri-reference`, …), which needs the `rfc3986-validator` package
beside `jsonschema`; `scripts/setup-oracle.sh` installs both, pinned, into .venv-heat.

Prints one line per file: `FILE: valid (N results, M rules)`, or every violation with its
JSON path. Exit status: 0 all valid, 1 a file is invalid, 2 the validator could not run.
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SCHEMA = os.path.join(HERE, "..", "..", "shared", "reference", "sarif-schema-2.1.0.json")


def fail(message):
    print(f"validate-sarif: {message}", file=sys.stderr)
    sys.exit(2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", default=DEFAULT_SCHEMA)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    try:
        import jsonschema
        import rfc3986_validator  # noqa: F401  (enables the uri and uri-reference formats)
    except ImportError as err:
        fail(f"{err}: run scripts/setup-oracle.sh and use .venv-heat/bin/python")

    try:
        with open(args.schema, encoding="utf-8") as f:
            schema = json.load(f)
    except OSError as err:
        fail(f"cannot read the SARIF schema: {err}")

    # The shared copy of the OASIS schema keeps the root object's constraints under
    # `definitions/Root`, with nothing at the top level: validate against that definition.
    if not any(key in schema for key in ("type", "properties", "required", "$ref", "allOf")):
        if "Root" not in schema.get("definitions", {}):
            fail("the schema constrains nothing at its top level and has no definitions/Root")
        schema = dict(schema, **{"$ref": "#/definitions/Root"})

    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    checker = validator_class.FORMAT_CHECKER
    for needed in ("uri", "uri-reference"):
        if needed not in checker.checkers:
            fail(f"jsonschema cannot check the `{needed}` format: install rfc3986-validator")
    validator = validator_class(schema, format_checker=checker)
    # A schema that accepts anything would make every log "valid".
    for must_fail in ({}, {"version": "2.1.0", "runs": [{"tool": {}}]}, {"version": "2.1.0", "runs": [], "x": 1}):
        if validator.is_valid(must_fail):
            fail(f"the schema accepts {json.dumps(must_fail)}: it is not the SARIF schema")

    invalid = 0
    for name in args.files:
        try:
            if name == "-":
                log = json.load(sys.stdin)
            else:
                with open(name, encoding="utf-8") as f:
                    log = json.load(f)
        except (OSError, ValueError) as err:
            print(f"{name}: not JSON: {err}")
            invalid += 1
            continue
        errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
        if errors:
            invalid += 1
            print(f"{name}: INVALID ({len(errors)} violations)")
            for error in errors[:50]:
                where = "/".join(str(p) for p in error.absolute_path) or "(root)"
                print(f"  {where}: {error.message}")
            continue
        runs = log.get("runs", [])
        results = sum(len(run.get("results", [])) for run in runs)
        rules = sum(len(run.get("tool", {}).get("driver", {}).get("rules", [])) for run in runs)
        print(f"{name}: valid ({results} results, {rules} rules)")
    sys.exit(1 if invalid else 0)


if __name__ == "__main__":
    main()
