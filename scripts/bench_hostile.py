#!/usr/bin/env python3
"""Work that grows with a hostile input (issue 26): each case at two sizes, the second twice
the first, so that a figure about twice the first says the work is linear, four times says
it is quadratic.

    python3 scripts/bench_hostile.py [--hotfix target/release/hotfix] [--runs 3] [CASE ...]

Cases (all by default):

- chain: `hotfix lint .` (the default rules) on a chain of N nested templates, each naming the
  next in a `type:`; and `--select X004` alone; then the same on a ring (the last names the
  first), where every template is reported;
- line: `hotfix lint` (human format) of a one-line JSON template with N findings, with a
  non-ASCII description (so that columns are counted in characters, not bytes);
- integers: `hotfix lint` of a template whose description is one integer of N digits, in
  base 16, 8, 2 and 10 (Python reads each; hotfix must not take time that grows as N squared
  turning it into decimal digits);
- did-change: one `didChange` of N changes, each typing a character at the end of a one-line
  JSON document of 400 KB, sent to `hotfix server`; the time until the answer to the request
  sent after it.

Each figure is the best of RUNS runs (wall time, in milliseconds).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def best_of(runs, f):
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        f()
        elapsed = (time.perf_counter() - start) * 1e3
        best = elapsed if best is None else min(best, elapsed)
    return best


def lint(hotfix, cwd, *args):
    done = subprocess.run([hotfix, "lint", "--no-config", *args], cwd=cwd,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env={**os.environ, "NO_COLOR": "1"})
    if done.returncode not in (0, 1):
        sys.exit(f"bench-hostile: exit {done.returncode}: {done.stderr.decode()[:2000]}")
    return done


def chain(hotfix, runs):
    for n in (1000, 2000):
        with tempfile.TemporaryDirectory() as work:
            os.mkdir(os.path.join(work, ".git"))
            for shape in ("chain", "ring"):
                for i in range(n):
                    if i < n - 1:
                        resource = f"{{type: t{i + 1}.yaml}}"
                    elif shape == "ring":
                        resource = "{type: t0.yaml}"
                    else:
                        resource = "{type: OS::Heat::None}"
                    with open(os.path.join(work, f"t{i}.yaml"), "w") as f:
                        f.write(f"heat_template_version: rocky\nresources:\n  n: {resource}\n")
                all_rules = best_of(runs, lambda: lint(hotfix, work, "."))
                x004 = best_of(runs, lambda: lint(hotfix, work, "--select", "X004", "."))
                print(f"  {shape} of {n:>5} nested templates: lint {all_rules:8.1f} ms, "
                      f"--select X004 {x004:8.1f} ms")


def line(hotfix, runs):
    for n in (2500, 5000):
        resources = {
            f"r{i}": {"type": "OS::Heat::None", "properties": {"a": {"get_param": f"x{i}"}}}
            for i in range(n)
        }
        template = {"heat_template_version": "rocky", "description": "é" * 10,
                    "resources": resources}
        with tempfile.TemporaryDirectory() as work:
            text = json.dumps(template, ensure_ascii=False)
            with open(os.path.join(work, "t.yaml"), "w") as f:
                f.write(text)
            out = []
            ms = best_of(runs, lambda: out.append(lint(hotfix, work, "t.yaml")))
            printed = len(out[-1].stdout)
            print(f"  one line of {len(text.encode()):>7} bytes, {n} findings: {ms:8.1f} ms "
                  f"({printed} bytes printed)")


def integers(hotfix, runs):
    for n in (200_000, 400_000):
        with tempfile.TemporaryDirectory() as work:
            for base, text in (("16", "0x" + "f" * n), ("8", "0" + "7" * n),
                               ("2", "0b" + "1" * n), ("10", "1" * n)):
                with open(os.path.join(work, "t.yaml"), "w") as f:
                    f.write(f"heat_template_version: rocky\ndescription: {text}\n")
                ms = best_of(runs, lambda: lint(hotfix, work, "t.yaml"))
                print(f"  an integer of {n} digits in base {base:>2}: {ms:8.1f} ms")


class Server:
    def __init__(self, hotfix):
        self.proc = subprocess.Popen([hotfix, "server"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0

    def send(self, message):
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self):
        length = None
        while True:
            got = self.proc.stdout.readline()
            if not got:
                sys.exit("bench-hostile: the server closed its output")
            got = got.strip()
            if not got:
                break
            if got.lower().startswith(b"content-length:"):
                length = int(got.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = self.read()
            if message.get("id") == self.next_id and "method" not in message:
                return message

    def close(self):
        self.request("shutdown", None)
        self.send({"jsonrpc": "2.0", "method": "exit"})
        self.proc.wait(timeout=30)


def did_change(hotfix, runs):
    for n in (10_000, 20_000):
        with tempfile.TemporaryDirectory() as work:
            path = os.path.join(work, "t.yaml")
            text = json.dumps({"heat_template_version": "rocky", "description": "é" + "x" * 400_000})
            with open(path, "w") as f:
                f.write(text)
            uri = "file://" + path
            # The end of the line, in UTF-16 units (as the protocol counts by default).
            end = len(text.encode("utf-16-le")) // 2

            def once():
                server = Server(hotfix)
                server.request("initialize", {"processId": None, "rootUri": "file://" + work,
                                              "capabilities": {}})
                server.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
                server.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
                    "textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                                     "text": text}}})
                changes = [{"range": {"start": {"line": 0, "character": end + i},
                                      "end": {"line": 0, "character": end + i}}, "text": "#"}
                           for i in range(n)]
                start = time.perf_counter()
                server.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                    "textDocument": {"uri": uri, "version": 2}, "contentChanges": changes}})
                server.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                      "position": {"line": 0, "character": 2}})
                elapsed = (time.perf_counter() - start) * 1e3
                server.close()
                return elapsed

            ms = min(once() for _ in range(runs))
            print(f"  didChange of {n} changes at the end of a {len(text)}-character line: "
                  f"{ms:8.1f} ms")


CASES = {"chain": chain, "line": line, "integers": integers, "did-change": did_change}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hotfix", default="target/release/hotfix")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("cases", nargs="*", metavar="CASE", help=", ".join(CASES))
    args = parser.parse_args()
    hotfix = os.path.abspath(args.hotfix)
    for name in args.cases or CASES:
        if name not in CASES:
            sys.exit(f"bench-hostile: no case {name!r} (cases: {', '.join(CASES)})")
        print(f"{name}:")
        CASES[name](hotfix, args.runs)


if __name__ == "__main__":
    main()
