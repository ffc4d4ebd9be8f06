#!/usr/bin/env python3
"""How fast `hotfix server` answers an editor, and how much memory it holds.

    python3 scripts/bench_server.py [--hotfix target/release/hotfix] [--edits 60]
        [--keys 200] [--template FILE] [TREE]

TREE is ../shared/corpus by default; it is the editor's workspace folder. It starts the server
as an editor does (stdio, LSP framing) and prints:

- keystroke to diagnostics on the largest template of TREE (or FILE): one character typed at
  the end of its middle line, then deleted, KEYS times in all, each `didChange` timed until the
  diagnostics of that version arrive (the project already resolved: the template was opened and
  edited first), median, 95th percentile and worst, with the server's CPU time per keystroke
  (from /proc, which the machine's load does not inflate as it does wall time);
- diagnostics after a change: the time from sending an edit (`didChange`, then `didSave`, which
  lints at once) to receiving that template's diagnostics, median and worst of EDITS edits
  (each edit inserts or removes a comment line in the middle of the file);
- the same with `didChange` alone;
- the server's peak resident memory (VmHWM) with every template of TREE open (not with
  `--template`).

Templates are the files `hotfix lint` checks (from its JUnit report).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import xml.etree.ElementTree as ET


class Server:
    def __init__(self, hotfix):
        self.proc = subprocess.Popen([hotfix, "server"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE)
        self.next_id = 0

    def send(self, message):
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("bench-server: the server closed its output")
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = self.read()
            if message.get("id") == self.next_id and "method" not in message:
                return message

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics_for(self, uri, version=None):
        while True:
            message = self.read()
            if (message.get("method") == "textDocument/publishDiagnostics"
                    and message["params"]["uri"] == uri
                    and (version is None or message["params"].get("version") == version)):
                return message["params"]["diagnostics"]

    def cpu_seconds(self):
        with open("/proc/%d/stat" % self.proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        # utime and stime, fields 14 and 15 of stat(5) (12 and 13 after the name).
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_kb(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return None

    def stop(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.proc.wait(timeout=10)


def templates(hotfix, tree):
    out = subprocess.run([hotfix, "lint", tree, "--no-config", "--exit-zero", "--quiet",
                          "--format", "junit"], capture_output=True, check=False).stdout
    return [s.get("name") for s in ET.fromstring(out).iter("testsuite") if s.get("name")]


def uri(path):
    return "file://" + os.path.abspath(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hotfix", default="target/release/hotfix")
    parser.add_argument("--edits", type=int, default=60)
    parser.add_argument("--keys", type=int, default=200)
    parser.add_argument("--template", help="the template to edit (default: TREE's largest)")
    parser.add_argument("tree", nargs="?", default=os.path.join(
        os.environ.get("HOTFIX_SHARED", "../shared"), "corpus"))
    args = parser.parse_args()
    paths = [args.template] if args.template else templates(args.hotfix, args.tree)
    largest = max(paths, key=os.path.getsize)
    with open(largest, encoding="utf-8", errors="replace") as f:
        text = f.read()

    server = Server(args.hotfix)
    server.request("initialize", {"processId": os.getpid(), "capabilities": {},
                                  "workspaceFolders": [{"uri": uri(args.tree), "name": "tree"}]})
    server.notify("initialized", {})
    target = uri(largest)
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": target, "languageId": "yaml", "version": 1, "text": text}})
    server.diagnostics_for(target)
    middle = text.count("\n") // 2
    version = 1

    # Keystrokes: a character typed at the end of the middle line, then deleted.
    end = len(text.split("\n")[middle])
    keys = []
    cpu = 0.0
    for i in range(args.keys + 20):
        version += 1
        typed = i % 2 == 0
        change = {"range": {"start": {"line": middle, "character": end},
                            "end": {"line": middle, "character": end + (0 if typed else 1)}},
                  "text": "x" if typed else ""}
        before = server.cpu_seconds()
        start = time.perf_counter()
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": target, "version": version}, "contentChanges": [change]})
        server.diagnostics_for(target, version)
        took = time.perf_counter() - start
        if i >= 20:  # the first ones warm the project's caches
            keys.append(took)
            cpu += server.cpu_seconds() - before

    timings = {"saved": [], "typed": []}
    for i in range(args.edits):
        kind = "saved" if i % 2 == 0 else "typed"
        for insert in (True, False):
            version += 1
            end = {"line": middle + (0 if insert else 1), "character": 0}
            change = {"range": {"start": {"line": middle, "character": 0}, "end": end},
                      "text": "# an edit\n" if insert else ""}
            start = time.perf_counter()
            server.notify("textDocument/didChange", {
                "textDocument": {"uri": target, "version": version}, "contentChanges": [change]})
            if kind == "saved":
                server.notify("textDocument/didSave", {"textDocument": {"uri": target}})
            server.diagnostics_for(target)
            timings[kind].append(time.perf_counter() - start)

    for path in [] if args.template else paths:
        if path == largest:
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            body = f.read()
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri(path), "languageId": "yaml", "version": 1, "text": body}})
        server.diagnostics_for(uri(path))
    peak = server.peak_kb()
    server.stop()

    ms = lambda xs: "median %.1f ms, worst %.1f ms" % (statistics.median(xs) * 1e3, max(xs) * 1e3)
    print("largest template: %s (%d bytes, %d lines)" % (largest, len(text.encode()), text.count("\n")))
    keys.sort()
    p95 = keys[min(len(keys) - 1, int(0.95 * len(keys)))] if keys else float("nan")
    print("  keystroke to diagnostics: median %.1f ms, p95 %.1f ms, worst %.1f ms (%d keys);"
          " server CPU %.1f ms a key" % (statistics.median(keys or [0]) * 1e3, p95 * 1e3,
                                         max(keys or [0]) * 1e3, len(keys), cpu / max(1, len(keys)) * 1e3))
    print("  diagnostics after an edit and save:  %s (%d edits)" % (ms(timings["saved"]), len(timings["saved"])))
    print("  diagnostics after an edit (didChange alone): %s (%d edits)"
          % (ms(timings["typed"]), len(timings["typed"])))
    if not args.template:
        print("every template open (%d): peak memory %.1f MB" % (len(paths), peak / 1024))


if __name__ == "__main__":
    main()
