// The playground's engine: crates/hotfix_wasm built for WebAssembly (scripts/build-wasm.sh),
// in Node or a browser. One call: a JSON request in, a JSON answer out (the requests are
// described in crates/hotfix_wasm/src/lib.rs).

export class Hotfix {
  // `bytes`: the module (hotfix_wasm.wasm).
  static async load(bytes) {
    const module = await WebAssembly.compile(bytes);
    return new Hotfix(module, await WebAssembly.instantiate(module, {}));
  }

  constructor(module, instance) {
    this.module = module;
    this.exports = instance.exports;
  }

  call(request) {
    const input = new TextEncoder().encode(JSON.stringify(request));
    const exports = this.exports;
    let answer;
    try {
      const ptr = exports.hotfix_alloc(input.length);
      new Uint8Array(exports.memory.buffer, ptr, input.length).set(input);
      const length = exports.hotfix_call(ptr, input.length);
      const at = exports.hotfix_output();
      answer = new TextDecoder().decode(new Uint8Array(exports.memory.buffer, at, length));
    } catch (err) {
      // A panic aborts: the instance's memory may be left half-changed, so a fresh one
      // answers the next call.
      this.exports = new WebAssembly.Instance(this.module, {}).exports;
      throw new Error(`hotfix failed on this request (a bug): ${err}`);
    }
    const value = JSON.parse(answer);
    if (value.error !== undefined) throw new Error(value.error);
    return value;
  }
}
