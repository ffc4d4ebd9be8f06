// A minimal Language Server Protocol client over stdio, enough to drive yaml-language-server
// as an editor does: requests, notifications, and the diagnostics it publishes per document.
import { spawn } from 'node:child_process';

export class Client {
  constructor(command, args, options = {}) {
    this.process = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], ...options });
    this.nextId = 1;
    this.pending = new Map();
    this.diagnostics = new Map();
    this.waiters = [];
    this.stderr = '';
    this.exited = null;
    this.buffer = Buffer.alloc(0);
    this.handlers = new Map();
    this.process.stdout.on('data', (chunk) => this.#receive(chunk));
    this.process.stderr.on('data', (chunk) => {
      this.stderr += chunk;
    });
    this.process.on('exit', (code, signal) => {
      this.exited = { code, signal };
      for (const { reject } of this.pending.values()) {
        reject(new Error(`the server exited (${code ?? signal}): ${this.stderr}`));
      }
      this.pending.clear();
    });
  }

  /** Answers the server's requests of this method with `handler(params)`. */
  onRequest(method, handler) {
    this.handlers.set(method, handler);
  }

  request(method, params) {
    const id = this.nextId++;
    this.#send({ jsonrpc: '2.0', id, method, params });
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  notify(method, params) {
    this.#send({ jsonrpc: '2.0', method, params });
  }

  /** The next diagnostics published for `uri` after `since` (a count of publications). */
  diagnosticsFor(uri, timeoutMs = 20000) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`no diagnostics for ${uri} in ${timeoutMs} ms; stderr: ${this.stderr}`));
      }, timeoutMs);
      this.waiters.push({
        uri,
        resolve: (diagnostics) => {
          clearTimeout(timer);
          resolve(diagnostics);
        },
      });
    });
  }

  async shutdown() {
    if (this.exited) return;
    try {
      await Promise.race([this.request('shutdown', null), sleep(5000)]);
      this.notify('exit', null);
    } catch {
      // Gone already.
    }
    await Promise.race([new Promise((r) => this.process.once('exit', r)), sleep(5000)]);
    if (!this.exited) this.process.kill();
  }

  #send(message) {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.process.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.process.stdin.write(body);
  }

  #receive(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const header = this.buffer.subarray(0, end).toString('ascii');
      const match = /Content-Length: *(\d+)/i.exec(header);
      if (!match) throw new Error(`a message without Content-Length: ${header}`);
      const length = Number(match[1]);
      if (this.buffer.length < end + 4 + length) return;
      const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(end + 4 + length);
      this.#dispatch(JSON.parse(body));
    }
  }

  #dispatch(message) {
    if (message.id !== undefined && message.method === undefined) {
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (!waiter) return;
      if (message.error) waiter.reject(new Error(JSON.stringify(message.error)));
      else waiter.resolve(message.result);
    } else if (message.id !== undefined) {
      const handler = this.handlers.get(message.method);
      const result = handler ? handler(message.params) : null;
      this.#send({ jsonrpc: '2.0', id: message.id, result });
    } else if (message.method === 'textDocument/publishDiagnostics') {
      const { uri, diagnostics } = message.params;
      this.diagnostics.set(uri, diagnostics);
      const index = this.waiters.findIndex((w) => w.uri === uri);
      if (index >= 0) this.waiters.splice(index, 1)[0].resolve(diagnostics);
    }
  }
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
