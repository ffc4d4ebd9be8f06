#!/usr/bin/env python3
"""How fast `hotfix server` answers an editor, and how much memory it holds.

    python3 scripts/bench_server.py [--hotfix target/release/hotfix] [--edits 60] [TREE]

TREE is ../shared/corpus by default. It starts the server as an editor does (stdio, LSP
framing) and prints:

- diagnostics after a change to the largest template of TREE: the time from sending an edit
  (`didChange`, then `didSave` so that the server lints at once instead of after its 150 ms
  quiet time) to receiving that template's diagnostics, median and worst of EDITS edits (each
  edit inserts or removes a comment line in the middle of the file);
- the same with `didChange` alone, which includes the quiet time;
- the server's peak resident memory (VmHWM) with every template of TREE open.

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

    def diagnostics_for(self, uri):
        while True:
            message = self.read()
            if (message.get("method") == "textDocument/publishDiagnostics"
                    and message["params"]["uri"] == uri):
                return message["params"]["diagnostics"]

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
    parser.add_argument("tree", nargs="?", default=os.path.join(
        os.environ.get("HOTFIX_SHARED", "../shared"), "corpus"))
    args = parser.parse_args()
    paths = templates(args.hotfix, args.tree)
    largest = max(paths, key=os.path.getsize)
    with open(largest, encoding="utf-8", errors="replace") as f:
        text = f.read()

    server = Server(args.hotfix)
    server.request("initialize", {"processId": os.getpid(), "capabilities": {}})
    server.notify("initialized", {})
    target = uri(largest)
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": target, "languageId": "yaml", "version": 1, "text": text}})
    server.diagnostics_for(target)
    middle = text.count("\n") // 2
    timings = {"saved": [], "typed": []}
    version = 1
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

    for path in paths:
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
    print("  diagnostics after an edit and save:  %s (%d edits)" % (ms(timings["saved"]), len(timings["saved"])))
    print("  diagnostics after an edit (150 ms quiet time included): %s (%d edits)"
          % (ms(timings["typed"]), len(timings["typed"])))
    print("every template open (%d): peak memory %.1f MB" % (len(paths), peak / 1024))


if __name__ == "__main__":
    main()
