#!/usr/bin/env python3
"""Validates JUnit XML reports: well-formed (xml.etree), then valid against the JUnit schema.

    scripts/validate-junit.py [--schema SCHEMA] FILE...

The schema defaults to .venv-heat/share/junit-10.xsd: the Jenkins xunit plugin's JUnit schema,
which pytest validates its own reports against; `scripts/setup-oracle.sh` takes it from pytest's
pinned source package. Validation uses lxml (a dependency of Heat, so already in .venv-heat).

Prints one line per file: `FILE: valid (N test cases, M failures)`, or every violation with its
line. Exit status: 0 all valid, 1 a file is invalid, 2 the validator could not run.
"""

import argparse
import os
import sys
import xml.etree.ElementTree as ElementTree

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SCHEMA = os.path.join(HERE, "..", ".venv-heat", "share", "junit-10.xsd")


def fail(message):
    print(f"validate-junit: {message}", file=sys.stderr)
    sys.exit(2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", default=DEFAULT_SCHEMA)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    try:
        from lxml import etree
    except ImportError as err:
        fail(f"{err}: run scripts/setup-oracle.sh and use .venv-heat/bin/python")
    try:
        schema = etree.XMLSchema(etree.parse(args.schema))
    except (OSError, etree.XMLSchemaParseError, etree.XMLSyntaxError) as err:
        fail(f"cannot read the JUnit schema {args.schema}: {err} (run scripts/setup-oracle.sh)")

    invalid = False
    for path in args.files:
        try:
            root = ElementTree.parse(path).getroot()
        except (OSError, ElementTree.ParseError) as err:
            print(f"{path}: not well-formed: {err}")
            invalid = True
            continue
        document = etree.parse(path)
        if schema.validate(document):
            cases = root.iter("testcase")
            failures = sum(1 for _ in root.iter("failure"))
            print(f"{path}: valid ({sum(1 for _ in cases)} test cases, {failures} failures)")
            continue
        invalid = True
        print(f"{path}: invalid")
        for error in schema.error_log:
            print(f"  line {error.line}: {error.message}")
    sys.exit(1 if invalid else 0)


if __name__ == "__main__":
    main()
