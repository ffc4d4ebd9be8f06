#!/usr/bin/env python3
"""libyaml's events, for hotfix_yaml's own reader (crates/hotfix_yaml/src/reader, issue 29).

Every text is parsed with PyYAML 6.0.3's `CParser` (libyaml 0.2.5, the scanner and parser under
the `CSafeLoader` Heat loads templates with), and every event is written with its marks as byte
offsets, line and column; a refusal with libyaml's context, problem and marks. The Rust side
(crates/hotfix_yaml/tests/reader.rs) reads the same texts with hotfix's reader and compares.

With --pure, every text is parsed with PyYAML 6.0.3's pure-Python parser instead (`scanner.py`,
`parser.py`: the `SafeLoader` Heat's `simple_parse` tries when libyaml refuses a text), for the
reader's pure mode (`Parser::pure`). Its marks count the byte-order mark at the start (which
libyaml never sees); a reader error's position is its character index, written as a byte offset;
an error that is no YAMLError (`chr()` of an escape past U+10FFFF) is {"kind": "value",
"problem": TEXT}; surrogate pairs are written as the character they encode, and a lone
surrogate (an escape `\ud800`..`\udfff` without its pair) as hotfix's stand-in for it, and sets
"surrogate": true on the record.

Usage (with the Heat virtual environment, see scripts/setup-oracle.sh):

  yaml_events.py files DIR...          one JSON line per .yaml, .yml, .json file under each DIR
                                       (hidden folders skipped; files that are not UTF-8 text
                                       without NUL skipped): {"path": P, "events": [...],
                                       "error": E or null}
  yaml_events.py gen SEED COUNT [START] the documents of `yaml_diff.py gen SEED COUNT START`:
                                       {"i": I, "yaml": TEXT, "events": [...], "error": E}
  yaml_events.py oracle                reads {"yaml": TEXT} lines, answers each at once
  yaml_events.py --pure COMMAND ...    any of the above with the pure-Python parser

An event is [KIND, START, END, ANCHOR, TAG, VALUE, STYLE, IMPLICIT, FLOW] where START and END
are [offset, line, column]; an error is {"kind", "context", "context_mark", "problem",
"problem_mark"} (marks as above; the reader's: a byte offset alone).
"""

import json
import multiprocessing
import os
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

KINDS = {
    yaml.StreamStartEvent: 'StreamStart', yaml.StreamEndEvent: 'StreamEnd',
    yaml.DocumentStartEvent: 'DocumentStart', yaml.DocumentEndEvent: 'DocumentEnd',
    yaml.AliasEvent: 'Alias', yaml.ScalarEvent: 'Scalar',
    yaml.SequenceStartEvent: 'SequenceStart', yaml.SequenceEndEvent: 'SequenceEnd',
    yaml.MappingStartEvent: 'MappingStart', yaml.MappingEndEvent: 'MappingEnd',
}


PURE = False


class Offsets:
    """libyaml's mark index (characters of the text after a leading BOM) to a byte offset; the
    pure parser's (characters of the whole text)."""

    def __init__(self, text):
        self.base = 3 if text.startswith('\ufeff') and not PURE else 0
        body = text[1:] if self.base else text
        self.table = None
        if not body.isascii():
            table = [0] * (len(body) + 1)
            n = 0
            for i, c in enumerate(body):
                table[i] = n
                n += len(c.encode('utf-8', 'surrogatepass'))
            table[len(body)] = n
            self.table = table

    def __call__(self, index):
        if self.table is None:
            return self.base + index
        return self.base + self.table[min(index, len(self.table) - 1)]

    def mark(self, m):
        return [self(m.index), m.line, m.column]


def clean(value):
    """A value as hotfix's reader holds it: surrogate pairs joined, and a lone surrogate as the
    stand-in character hotfix gives it (U+10F000 + its offset from U+D800:
    `hotfix_yaml::surrogate_char`)."""
    if value is None or value.isascii():
        return value
    out = []
    i = 0
    while i < len(value):
        c = ord(value[i])
        if (0xD800 <= c < 0xDC00 and i + 1 < len(value)
                and 0xDC00 <= ord(value[i + 1]) < 0xE000):
            out.append(chr(0x10000 + ((c - 0xD800) << 10)
                           + (ord(value[i + 1]) - 0xDC00)))
            i += 2
            continue
        out.append(chr(0x10F000 + c - 0xD800) if 0xD800 <= c < 0xE000
                   else value[i])
        i += 1
    return ''.join(out)


def events(text):
    off = Offsets(text)
    out = []
    error = None
    surrogate = False
    try:
        for e in yaml.parse(text, Loader=yaml.SafeLoader if PURE else yaml.CSafeLoader):
            ev = [KINDS[type(e)], off.mark(e.start_mark), off.mark(e.end_mark)]
            ev.append(getattr(e, 'anchor', None))
            ev.append(getattr(e, 'tag', None))
            value = getattr(e, 'value', None)
            if value is not None and any(0xD800 <= ord(c) < 0xE000 for c in value):
                surrogate = True
            ev.append(clean(value))
            style = getattr(e, 'style', None)
            # The pure parser's plain scalar has no style; libyaml's is ''.
            ev.append('' if PURE and style is None and isinstance(e, yaml.ScalarEvent) else style)
            implicit = getattr(e, 'implicit', None)
            ev.append(list(implicit) if isinstance(implicit, tuple) else implicit)
            flow = getattr(e, 'flow_style', None)
            # The pure parser gives an indentless sequence no flow style; libyaml False.
            if PURE and flow is None and isinstance(e, yaml.CollectionStartEvent):
                flow = False
            ev.append(flow)
            if isinstance(e, (yaml.DocumentStartEvent, yaml.DocumentEndEvent)):
                ev[7] = not e.explicit
            out.append(ev)
    except yaml.reader.ReaderError as exc:
        position = off(exc.position) if PURE else exc.position
        error = {"kind": "reader", "context": None, "context_mark": None,
                 "problem": exc.reason, "problem_mark": [position, None, None]}
    except yaml.MarkedYAMLError as exc:
        kind = 'scanner' if isinstance(exc, yaml.scanner.ScannerError) else 'parser'
        error = {"kind": kind, "context": exc.context,
                 "context_mark": off.mark(exc.context_mark) if exc.context_mark else None,
                 "problem": exc.problem,
                 "problem_mark": off.mark(exc.problem_mark) if exc.problem_mark else None}
    except ValueError as exc:
        if not PURE:
            raise
        error = {"kind": "value", "context": None, "context_mark": None,
                 "problem": str(exc), "problem_mark": None}
    if surrogate:
        return out, error, True
    return out, error, False


def file_record(path):
    with open(path, 'rb') as f:
        data = f.read()
    if b'\0' in data:
        return None
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError:
        return None
    evs, error, surrogate = events(text)
    return json.dumps({"path": path, "events": evs, "error": error, "surrogate": surrogate},
                      ensure_ascii=True)


def files(dirs):
    paths = []
    for top in dirs:
        for root, subdirs, names in os.walk(top):
            subdirs[:] = sorted(d for d in subdirs if not d.startswith('.'))
            for name in sorted(names):
                if name.endswith(('.yaml', '.yml', '.json')):
                    paths.append(os.path.join(root, name))
    with multiprocessing.Pool(2) as pool:
        for line in pool.imap(file_record, paths, chunksize=16):
            if line is not None:
                sys.stdout.write(line + '\n')


def gen_record(args):
    import yaml_diff
    seed, index = args
    text = yaml_diff.document(seed, index)
    evs, error, surrogate = events(text)
    return json.dumps({"i": index, "yaml": text, "events": evs, "error": error,
                       "surrogate": surrogate}, ensure_ascii=True)


def gen(seed, count, start):
    jobs = ((seed, i) for i in range(start, start + count))
    write = sys.stdout.write
    if count < 2000:
        for job in jobs:
            write(gen_record(job) + '\n')
        return
    with multiprocessing.Pool(2) as pool:
        for line in pool.imap(gen_record, jobs, chunksize=256):
            write(line + '\n')


def oracle():
    for line in sys.stdin:
        evs, error, surrogate = events(json.loads(line)["yaml"])
        sys.stdout.write(json.dumps({"events": evs, "error": error, "surrogate": surrogate})
                         + '\n')
        sys.stdout.flush()


def main(argv):
    global PURE
    if not getattr(yaml, '__with_libyaml__', False) or yaml.__version__ != '6.0.3':
        sys.exit('yaml_events.py: needs PyYAML 6.0.3 with libyaml (the Heat environment)')
    if argv[:1] == ['--pure']:
        PURE = True
        argv = argv[1:]
    if len(argv) >= 2 and argv[0] == 'files':
        files(argv[1:])
    elif len(argv) in (3, 4) and argv[0] == 'gen':
        gen(int(argv[1]), int(argv[2]), int(argv[3]) if len(argv) == 4 else 0)
    elif argv == ['oracle']:
        oracle()
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv[1:])
