// Lints files through the WebAssembly module, each alone in its tree under its own name, as
// `hotfix lint --format json NAME` lints a copy of it alone in a folder:
//
//   node lint-files.mjs MODULE.wasm < [[NAME, PATH], …]  →  {PATH: {kind, findings}, …}
//
// tests/playground.rs compares the answers with the command line's, file by file.
import { readFileSync } from "node:fs";
import { Hotfix } from "../hotfix.mjs";

const hotfix = await Hotfix.load(readFileSync(process.argv[2]));
const files = JSON.parse(readFileSync(0, "utf8"));
const answers = {};
for (const [name, path] of files) {
  const text = readFileSync(path, "utf8");
  try {
    const { kind, findings } = hotfix.call({ op: "lint", files: { [name]: text }, path: name });
    answers[path] = { kind, findings };
  } catch (err) {
    answers[path] = { error: String(err) };
  }
}
process.stdout.write(JSON.stringify(answers));
