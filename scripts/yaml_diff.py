#!/usr/bin/env python3
"""The PyYAML side of hotfix_yaml's differential test: random YAML documents, loaded by Heat.

Every document is loaded with Heat's own loading function, `heat.common.template_format.
simple_parse` (json.loads, then PyYAML's CSafeLoader with timestamps kept as strings, then
PyYAML's pure SafeLoader where the C loader fails), and encoded as `openstack stack create` sends
it, by `scripts/heat_load.py`. The Rust side (crates/hotfix_yaml/tests/differential.rs) loads the
same text with hotfix and checks that both refuse it or both give the same value.

Usage (with the Heat virtual environment, see scripts/setup-oracle.sh):

  yaml_diff.py gen SEED COUNT [START]  one JSON line per document START..START+COUNT-1 of the
                                       seeded stream: {"i": I, "yaml": TEXT, "json": J} or
                                       {"i": I, "yaml": TEXT, "error": E}. Document I depends only
                                       on SEED and I, so any one is made again with COUNT 1.
                                       Two worker processes when COUNT is large.
  yaml_diff.py oracle                  reads {"yaml": TEXT} lines on stdin and answers each with
                                       {"json": J} or {"error": E} at once (for shrinking).
  yaml_diff.py show SEED I             prints document I of the stream SEED, as Python's repr.

The generator writes documents of HOT's shape (a mapping at the top), made of block and flow
collections nested both ways; plain scalars of every resolved type and starting with every
indicator; single- and double-quoted scalars with every escape and line folding; block scalars
with every header (style, indentation indicator, chomping, comment), blank and more-indented
lines, at the end of the file with and without a final line break; anchors, aliases, tags, merge
keys, explicit keys, comments, directives, document markers and a byte-order mark. A third of
the documents are then mutated: line breaks turned into CRLF, CR, NEL, LS or PS, tabs put in,
characters inserted, deleted or doubled, lines moved, indented or cut, the final break removed.
"""

import json
import multiprocessing
import random
import sys

try:
    import yaml
    from heat.common import template_format

    # Heat's loading and the command line's encoding, shared with the other YAML oracles.
    from heat_load import load
except ImportError as exc:  # pragma: no cover - the message is the point
    sys.exit(
        "yaml_diff.py: cannot import Heat's loader (%s). Create the oracle environment with "
        "scripts/setup-oracle.sh and run this script with .venv-heat/bin/python." % exc
    )

PYYAML = '6.0.3'


def check_loader():
    """The differential test is only worth its name against the loader Heat really runs."""
    problems = []
    if yaml.__version__ != PYYAML:
        problems.append('PyYAML is %s, not %s' % (yaml.__version__, PYYAML))
    if not getattr(yaml, '__with_libyaml__', False):
        problems.append('PyYAML has no libyaml (CSafeLoader)')
    if not issubclass(template_format.yaml_loader, yaml.CSafeLoader):
        problems.append("Heat's yaml_loader is not a CSafeLoader")
    if problems:
        sys.exit('yaml_diff.py: ' + '; '.join(problems))


# ---------------------------------------------------------------------------------------------
# The generator.

SAFE_WORDS = ['a', 'b', 'key', 'value', 'x y', 'OS::Nova::Server', 'get_param', 'a-b', 'a_b',
              'é', 'ü ñ', '日本', '🙂', 'a.b', 'a/b', 'a=b', 'a%b', 'a@b', 'a`b', 'a!b', 'a&b',
              'a*b', 'a|b', 'a>b', "a'b", 'a"b', 'a#b', 'a:b', 'a?', 'a-', 'http://x:80/y',
              'C:\\dir', 'a\\nb']
# Words a context may refuse: `: ` in a plain scalar, flow indicators, a comment.
RISKY_WORDS = ['a #b', 'a: b', 'a,b', 'a[b]', 'a{b}', 'a:', 'a\tb', 'a\t']
WORDS = SAFE_WORDS + RISKY_WORDS
RESOLVED = ['1', '-1', '+1', '0', '00', '012', '08', '0x1F', '0X1F', '0o17', '0b101', '1_000',
            '1:20', '190:20:30', '-1:30', '1.5', '-1.5', '1.', '.5', '1e3', '1.0e+3', '1E-3',
            '6.8523015e+5', '685.230_15e+03', '190:20:30.15', '.inf', '-.Inf', '+.INF', '.nan',
            '.NaN', 'true', 'True', 'TRUE', 'false', 'yes', 'No', 'on', 'OFF', 'y', 'n', 'null',
            'Null', 'NULL', '~', '2001-12-14', '2001-12-14t21:59:43.10-05:00',
            '2001-12-14 21:59:43.10 -5', '2002-1-1', '2016-10-14', '=', '<<', '0.', '-0', '+0',
            '0_1', '1__0', '._1', '-', '--', '---x', '...x', '12:', ':12', '1,000', '0x', '0b',
            '0o', '1e', '.', '+', '+.', '-.', 'tRUE', 'nULL']
INDICATORS = ['-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', "'", '"',
              '%', '@', '`']
AFTER = ['', ' ', 'a', '-', ':', ',', ']', '}', '[', '{', '#', '?', '\t', '1', '.', '!']
BREAKS = ['\r\n', '\r', '\x85', '\u2028', '\u2029']
ESCAPES = ['\\0', '\\a', '\\b', '\\t', '\\\t', '\\n', '\\v', '\\f', '\\r', '\\e', '\\ ', '\\"',
           '\\/', '\\\\', '\\N', '\\_', '\\L', '\\P', '\\x41', '\\xe9', '\\u00e9', '\\u2028',
           '\\U0001F642', '\\ud83d', '\\x00', '\\xFF', '\\U0010FFFF', '\\uFEFF']
BAD_ESCAPES = ['\\x4', '\\u12', '\\q', '\\\'', '\\U00110000', '\\x', '\\\r']
TAGS = ['!!str', '!!int', '!!float', '!!bool', '!!null', '!!binary', '!!timestamp', '!!seq',
        '!!map', '!!set', '!!omap', '!!pairs', '!', '!local', '!<tag:yaml.org,2002:str>',
        '!<tag:yaml.org,2002:int>', '!!merge', '!!value', '!e!x', '!!python/none']
MAX_DEPTH = 4


class Gen:
    def __init__(self, rng):
        self.r = rng
        self.anchors = []
        # How often a choice that may make the document invalid is taken, per document: some
        # documents stay clean, so that values are compared as often as refusals.
        self.risk = rng.choice([0.0, 0.0, 0.02, 0.1])
        self.max_depth = rng.choice([1, 2, 3, MAX_DEPTH])

    def word(self):
        return self.r.choice(RISKY_WORDS if self.chance(self.risk) else SAFE_WORDS)

    def chance(self, p):
        return self.r.random() < p

    # -- scalars ------------------------------------------------------------------------------

    def plain(self, flow):
        r = self.r
        c = r.random()
        if self.chance(0.05 + 2 * self.risk):
            c = 0.7 + 0.3 * c
        else:
            c = 0.7 * c
        if c < 0.35:
            text = self.word()
        elif c < 0.7:
            text = r.choice(RESOLVED)
        elif c < 0.9:
            text = r.choice(INDICATORS) + r.choice(AFTER) + (self.word() if self.chance(.5) else '')
        else:
            text = self.word() + r.choice(AFTER) + r.choice(INDICATORS) + r.choice(AFTER)
        if flow and self.chance(0.5):
            text = text.rstrip()
        return text

    def single(self, ind):
        r = self.r
        parts = []
        for _ in range(r.randint(0, 4)):
            c = r.random()
            if c < 0.3:
                parts.append("''")
            elif c < 0.5:
                parts.append('\n' + ' ' * (ind + r.randint(0, 3)) * (not self.chance(.1)))
            elif c < 0.6:
                parts.append('\n\n' + ' ' * (ind + r.randint(0, 3)))
            elif c < 0.7:
                parts.append(r.choice([' ', '  ', '\t', '\\', '"', '#', ': ']))
            else:
                parts.append(self.word())
        return "'" + ''.join(parts) + "'"

    def double(self, ind):
        r = self.r
        parts = []
        for _ in range(r.randint(0, 5)):
            c = r.random()
            if c < 0.45:
                parts.append(r.choice(BAD_ESCAPES if self.chance(self.risk) else ESCAPES))
            elif c < 0.55:
                parts.append('\\\n' + ' ' * (ind + r.randint(0, 3)))
            elif c < 0.65:
                parts.append(r.choice([' ', '  ', '\t']) + '\n' + ' ' * (ind + r.randint(0, 3)))
            elif c < 0.7:
                parts.append('\n\n' + ' ' * (ind + r.randint(0, 3)))
            else:
                parts.append((self.word() if self.chance(.8) else r.choice(["'", '#', ' '])))
        return '"' + ''.join(parts) + '"'

    def multiline_plain(self, ind):
        r = self.r
        text = self.word()
        for _ in range(r.randint(1, 3)):
            text += r.choice(['\n', '\n\n', ' \n', '\n \n']) + ' ' * (ind + r.randint(0, 3))
            text += (self.word() if self.chance(.5) else r.choice(RESOLVED))
        return text

    def scalar(self, ind, flow):
        c = self.r.random()
        if c < 0.6:
            return self.plain(flow)
        if c < 0.75:
            return self.single(ind)
        if c < 0.92:
            return self.double(ind)
        return self.multiline_plain(ind)

    def block_scalar(self, ind):
        """A block scalar's header and lines, after `key:` / `- `, ending with a line break."""
        r = self.r
        digit = str(r.randint(1, 5)) if self.chance(0.35) else ''
        chomp = r.choice(['', '', '-', '+'])
        header = r.choice('|>') + (digit + chomp if self.chance(.6) else chomp + digit)
        if self.chance(0.15):
            header += r.choice([' # c', '  #', '\t# c', ' x'])
        base = ind + (int(digit) if digit else r.choice([1, 2, 4]))
        if self.chance(0.1):
            base += r.choice([-1, 1])
        lines = []
        for _ in range(r.randint(0, 5)):
            c = r.random()
            if c < 0.55:
                lines.append(' ' * base + r.choice(SAFE_WORDS + RESOLVED + ['#x', '- a', 'k: v']))
            elif c < 0.7:
                lines.append(' ' * (base + r.randint(1, 3)) + self.word())
            elif c < 0.8:
                lines.append('')
            elif c < 0.9:
                lines.append(' ' * r.randint(0, base + 2))
            else:
                lines.append(' ' * base + r.choice(['\t', 'a\t', '\tb', ' \t']))
        if self.chance(0.3):
            lines.extend([''] * r.randint(1, 2))
        return ' ' + header + '\n' + ''.join(line + '\n' for line in lines)

    # -- node properties ----------------------------------------------------------------------

    def props(self):
        r = self.r
        out = ''
        if self.chance(0.08):
            tag = r.choice(TAGS)
            if tag.startswith('!e!') and not self.chance(self.risk):
                tag = '!!str'
            out += tag + ' '
        if self.chance(0.12):
            if self.chance(self.risk):
                name = r.choice(['a', 'a:b', 'ä', 'a,b', 'a]'])  # repeated or invalid
            else:
                name = r.choice(['a', 'b', 'x', 'a-b', 'a_1']) + str(len(self.anchors))
            self.anchors.append(name)
            out = '&' + name + ' ' + out if self.chance(.7) else out + '&' + name + ' '
        return out

    def alias(self):
        if self.anchors and not self.chance(self.risk):
            return '*' + self.r.choice(self.anchors)
        if self.chance(self.risk):
            return '*' + self.r.choice(['zz', 'a', 'b'])
        return self.plain(True)

    def comment(self):
        if not self.chance(0.12):
            return ''
        return self.r.choice([' # c', '  #c', ' #'] + ['\t# c', ' #\t'] * self.chance(self.risk))

    # -- flow ---------------------------------------------------------------------------------

    def flow_node(self, ind, depth):
        r = self.r
        c = r.random()
        if depth >= self.max_depth or c < 0.5:
            if self.anchors and self.chance(0.06):
                return self.alias()
            return self.props() + self.scalar(ind, True)
        return self.props() + (self.flow_seq(ind, depth) if c < 0.75 else self.flow_map(ind, depth))

    def flow_sep(self, ind):
        r = self.r
        c = r.random()
        if c < 0.7:
            return r.choice([', ', ',', ' , ', ',  '])
        if c < 0.85:
            return ',\n' + ' ' * (ind + r.randint(0, 3))
        return r.choice([', # c\n', ' ,\n', '\n,']) + ' ' * (ind + 1)

    def flow_seq(self, ind, depth):
        r = self.r
        items = []
        for _ in range(r.randint(0, 4)):
            if self.chance(0.15):
                items.append(self.flow_node(ind, depth + 1) + r.choice([': ', ':', ' : ']) +
                             self.flow_node(ind, depth + 1))
            elif self.chance(0.05):
                items.append('? ' + self.flow_node(ind, depth + 1))
            else:
                items.append(self.flow_node(ind, depth + 1))
        body = ''.join((self.flow_sep(ind) if i else '') + item for i, item in enumerate(items))
        if items and self.chance(0.1):
            body += ','
        return '[' + r.choice(['', ' ', '\n' + ' ' * (ind + 1)]) + body + r.choice(['', ' ']) + ']'

    def flow_map(self, ind, depth):
        r = self.r
        items = []
        for _ in range(r.randint(0, 4)):
            c = r.random()
            key = self.flow_node(ind, MAX_DEPTH) if self.chance(.9) else self.flow_node(ind, depth + 1)
            if c < 0.75:
                items.append(key + r.choice([': ', ':', ' : ', ': ']) + self.flow_node(ind, depth + 1))
            elif c < 0.85:
                items.append(key)
            elif c < 0.9:
                items.append(key + ':')
            else:
                items.append('? ' + key + r.choice(['', ': ' + self.flow_node(ind, depth + 1)]))
        body = ''.join((self.flow_sep(ind) if i else '') + item for i, item in enumerate(items))
        if items and self.chance(0.1):
            body += ','
        return '{' + r.choice(['', ' ', '\n' + ' ' * (ind + 1)]) + body + r.choice(['', ' ']) + '}'

    # -- block --------------------------------------------------------------------------------

    def value(self, ind, depth, in_seq):
        """What follows `key:` or `-` at indentation `ind`, through its final line break."""
        r = self.r
        c = r.random()
        if depth >= self.max_depth:
            c = c * 0.6
        if c < 0.05:
            return self.comment() + '\n'  # an empty value: null
        if c < 0.35:
            return ' ' + self.props() + self.scalar(ind + 1, False) + self.comment() + '\n'
        if c < 0.42:
            return ' ' + self.props() + self.block_scalar(ind)
        if c < 0.5 and self.anchors:
            return ' ' + self.alias() + self.comment() + '\n'
        if c < 0.6:
            return ' ' + self.flow_node(ind + 1, depth + 1) + self.comment() + '\n'
        props = self.props().rstrip()
        head = (' ' + props if props else '') + self.comment() + '\n'
        if self.chance(0.1):
            head += r.choice(['# own line\n', '\n', '  # c\n'])
        step = r.choice([1, 2, 2, 2, 3, 4])
        if c < 0.8:
            return head + self.block_map(ind + step, depth + 1)
        # A sequence as a mapping's value may sit at the key's own indentation.
        inner = ind if (not in_seq and self.chance(0.4)) else ind + step
        return head + self.block_seq(inner, depth + 1)

    def key(self, ind):
        r = self.r
        c = r.random()
        if c < 0.6:
            return self.props() + r.choice(WORDS[:12] + RESOLVED[:40] + ['<<'])
        if c < 0.75:
            return self.props() + self.plain(False)
        # A simple key is one line long; a multi-line one is for the risky.
        if c < 0.85:
            text = self.single(ind)
        elif c < 0.95:
            text = self.double(ind)
        else:
            return self.flow_node(ind, self.max_depth - 1)
        if '\n' in text and not self.chance(self.risk):
            text = text[0] + text[-1]
        return text

    def block_map(self, ind, depth):
        r = self.r
        out = []
        for _ in range(self.sized(4)):
            pad = ' ' * ind
            c = r.random()
            if c < 0.08 and self.anchors:
                out.append(pad + '<<:' + r.choice([
                    ' ' + self.alias() + '\n',
                    ' [' + ', '.join(self.alias() for _ in range(r.randint(1, 2))) + ']\n',
                    ' {m: 1}\n']))
            elif c < 0.14:
                out.append(pad + '? ' + self.key(ind) + '\n')
                if self.chance(0.85):
                    out.append(pad + ':' + self.value(ind, depth, False))
            else:
                out.append(pad + self.key(ind) + r.choice([':', ':', ' :']) +
                           self.value(ind, depth, False))
            if self.chance(0.06):
                out.append(r.choice(['\n', '# c\n', ' ' * ind + '# c\n', '   \n']))
        return ''.join(out)

    def block_seq(self, ind, depth):
        r = self.r
        out = []
        for _ in range(self.sized(4)):
            pad = ' ' * ind
            c = r.random()
            if c < 0.15 and depth < self.max_depth:
                # A compact mapping or sequence on the item's own line: `- k: v` / `- - a`.
                gap = r.choice([1, 1, 2, 3])
                inner = ind + 1 + gap
                if self.chance(0.7):
                    text = self.block_map(inner, depth + 1)
                else:
                    text = self.block_seq(inner, depth + 1)
                out.append(pad + '-' + ' ' * gap + text[inner:])
            else:
                out.append(pad + '-' + self.value(ind, depth, True))
        return ''.join(out)

    def sized(self, n):
        return self.r.randint(1, n if self.chance(0.3) else 2)

    def document(self):
        r = self.r
        head = ''
        if self.chance(0.03):
            head += '\ufeff'
        if self.chance(0.1):
            head += r.choice(['# c\n', '\n', '#!x\n'])
        if self.chance(0.08):
            head += r.choice(['%YAML 1.1\n', '%YAML 1.2\n', '%TAG !e! tag:e.com,2000:\n',
                              '%TAG ! !x-\n', '%FOO bar\n', '%YAML 1.1\n%YAML 1.1\n'])
            head += '---\n' if self.chance(0.9) else ''
        elif self.chance(0.12):
            head += r.choice(['---\n', '--- # c\n', '---\n\n'])
        c = r.random()
        if c < 0.85:
            body = self.block_map(0, 0)
        elif c < 0.95:
            body = self.props() + self.flow_map(0, 0) + '\n'
        else:
            body = self.block_seq(0, 0) if self.chance(.5) else self.scalar(0, False) + '\n'
        tail = ''
        if self.chance(0.08):
            tail = r.choice(['...\n', '---\n', '...\n# c\n', '--- a\n', '...\n---\nb: 1\n', '#\n'])
        return head + body + tail

    # -- mutations ----------------------------------------------------------------------------

    def mutate(self, text):
        r = self.r
        for _ in range(r.randint(1, 3)):
            c = r.random()
            if c < 0.12:
                text = text.replace('\n', r.choice(BREAKS))
            elif c < 0.2 and '\n' in text:
                positions = [i for i, ch in enumerate(text) if ch == '\n']
                i = r.choice(positions)
                text = text[:i] + r.choice(BREAKS) + text[i + 1:]
            elif c < 0.35:
                i = r.randint(0, len(text))
                text = text[:i] + r.choice(['\t', '\t', ' \t', '\t\n', '\n\t\n', '\n\t']) + text[i:]
            elif c < 0.42 and ' ' in text:
                positions = [i for i, ch in enumerate(text) if ch == ' ']
                i = r.choice(positions)
                text = text[:i] + '\t' + text[i + 1:]
            elif c < 0.55:
                i = r.randint(0, len(text))
                text = text[:i] + r.choice(INDICATORS + [' ', '\n', 'a', '0', '\\', '\x85',
                                                         '\u2028', '\ufeff', '\x00', '\x07',
                                                         '\x7f', '\u00a0', '\ue000']) + text[i:]
            elif c < 0.62 and text:
                i = r.randrange(len(text))
                text = text[:i] + text[i + 1:]
            elif c < 0.67 and text:
                i = r.randrange(len(text))
                text = text[:i] + text[i] + text[i:]
            elif c < 0.8:
                lines = text.split('\n')
                i = r.randrange(len(lines))
                d = r.random()
                if d < 0.3:
                    del lines[i]
                elif d < 0.5:
                    lines.insert(i, lines[i])
                elif d < 0.65:
                    j = r.randrange(len(lines))
                    lines[i], lines[j] = lines[j], lines[i]
                elif d < 0.85:
                    lines[i] = ' ' + lines[i]
                elif lines[i].startswith(' '):
                    lines[i] = lines[i][1:]
                else:
                    lines[i] = r.choice(['\t', ' \t', '\t ', '  ', '#', '-', '---', '...'])
                text = '\n'.join(lines)
            else:
                d = r.random()
                if d < 0.5:
                    text = text.rstrip('\n')
                elif d < 0.75:
                    text = text.rstrip()
                else:
                    text += r.choice([' ', '\t', '\n\n', ' \n', '#'])
        return text


def document(seed, index):
    rng = random.Random(seed * 10_000_019 + index)
    gen = Gen(rng)
    text = gen.document()
    if rng.random() < 0.3:
        text = gen.mutate(text)
    elif rng.random() < 0.25:
        # Every line break of some kind, without other damage.
        text = text.replace('\n', rng.choice(BREAKS)) if rng.random() < .5 else text.rstrip('\n')
    return text


def record(args):
    seed, index = args
    text = document(seed, index)
    out = {"i": index, "yaml": text}
    out.update(load(text))
    return json.dumps(out, ensure_ascii=True)


def gen(seed, count, start):
    jobs = ((seed, i) for i in range(start, start + count))
    write = sys.stdout.write
    if count < 2000:
        for job in jobs:
            write(record(job) + '\n')
        return
    with multiprocessing.Pool(2) as pool:
        for line in pool.imap(record, jobs, chunksize=256):
            write(line + '\n')


def oracle():
    for line in sys.stdin:
        text = json.loads(line)["yaml"]
        sys.stdout.write(json.dumps(load(text)) + '\n')
        sys.stdout.flush()


def main(argv):
    check_loader()
    if len(argv) in (3, 4) and argv[0] == 'gen':
        gen(int(argv[1]), int(argv[2]), int(argv[3]) if len(argv) == 4 else 0)
    elif argv == ['oracle']:
        oracle()
    elif len(argv) == 3 and argv[0] == 'show':
        print(repr(document(int(argv[1]), int(argv[2]))))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv[1:])
