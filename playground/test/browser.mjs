// The playground in a real browser: serves target/playground (scripts/build-playground.sh) on
// localhost, opens it in Debian's headless Chromium (never a downloaded one), pastes a template
// with known findings, applies a fix, fixes all, runs an upgrade, then opens the shared link in
// a new page and finds the same state; opens a link to a stack (a template, its environment,
// a nested template, a get_file target) and reads its evaluation and its graph. Measures the site's size, gzipped (at most 3 MB), and
// the time from a keystroke to its findings on the page (at most 100 ms, the median of 20).
//
//   node playground/test/browser.mjs [SITE]     (scripts/playground-check.sh runs it)
import { createServer } from "node:http";
import { readFileSync, readdirSync } from "node:fs";
import { join, extname } from "node:path";
import { deflateRawSync, gzipSync } from "node:zlib";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

const site = process.argv[2] ?? "target/playground";
// Never a hung CI step: the whole test has two minutes.
setTimeout(() => {
  console.error("browser test: timed out after 120 s");
  process.exit(1);
}, 120_000).unref();
const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };

let gzipped = 0;
for (const name of readdirSync(site)) gzipped += gzipSync(readFileSync(join(site, name)), { level: 9 }).length;
console.log(`site: ${(gzipped / 1e6).toFixed(2)} MB gzipped`);
assert.ok(gzipped <= 3e6, `the site is ${gzipped} bytes gzipped, over 3 MB`);

const requests = [];
const server = createServer((req, res) => {
  requests.push(req.url);
  const path = new URL(req.url, "http://localhost").pathname;
  const name = path === "/" ? "index.html" : path.slice(1);
  try {
    const body = readFileSync(join(site, name));
    res.writeHead(200, { "content-type": types[extname(name)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

const TEMPLATE = `heat_template_version: 2016-10-14
parameters:
  net:
    type: string
resources:
  port:
    type: OS::Neutron::Port
    properties:
      network_id: {get_param: net}
      name: {get_param: nmae}
`;

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: ["--no-sandbox"] });
let failed = false;
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30000 });
  const codes = () => page.$$eval("#findings li", (items) => items.map((i) => i.dataset.code));

  // Paste a template with known findings: an undefined parameter (H301) and a deprecated
  // property whose fix renames it.
  await page.fill("#editor", TEMPLATE);
  let found = await codes();
  assert.ok(found.includes("H301"), `H301 among the findings: ${found}`);
  const frames = await page.$$eval("#findings pre", (p) => p.map((e) => e.textContent));
  assert.ok(frames.some((f) => f.includes("get_param: nmae")), "a code frame shows the line");

  // The fix of one finding.
  const before = found.length;
  await page.click("#findings button.fix");
  const fixed = await page.inputValue("#editor");
  assert.ok(fixed.includes("      network: {get_param: net}"), `the fix renamed network_id:\n${fixed}`);
  found = await codes();
  assert.equal(found.length, before - 1, `one finding fewer: ${found}`);

  // A rule's documentation from its link.
  await page.click("#findings li[data-code=H301] a");
  assert.match(await page.textContent("#rule-doc"), /H301 .*\n\n## What it does/);

  // An upgrade, shown as a diff, then applied.
  await page.fill("#editor", "heat_template_version: 2013-05-23\nresources: {}\n");
  await page.selectOption("#target", "2018-08-31");
  await page.click("#upgrade");
  assert.match(await page.textContent("#upgrade-message"), /upgraded 2013-05-23 → 2018-08-31/);
  assert.deepEqual(await page.$$eval("#diff .diff-add", (s) => s.map((e) => e.textContent)), ["+ heat_template_version: 2018-08-31\n"]);
  await page.click("#apply-upgrade");
  assert.equal(await page.inputValue("#editor"), "heat_template_version: 2018-08-31\nresources: {}\n");

  // Keystroke to findings: type one character at the end of a typical template and wait for
  // the findings it changes (the median of 20 runs, each a real key press).
  await page.fill("#editor", TEMPLATE);
  const times = [];
  for (let i = 0; i < 20; i++) {
    await page.fill("#editor", TEMPLATE.replace("nmae", "nma"));
    await page.focus("#editor");
    await page.evaluate(() => {
      const editor = document.getElementById("editor");
      const at = editor.value.indexOf("nma}") + 3;
      editor.setSelectionRange(at, at);
    });
    const start = await page.evaluate(() => performance.now());
    await page.keyboard.type("e");
    const end = await page.evaluate(() =>
      new Promise((resolve, reject) => {
        const done = () => [...document.querySelectorAll("#findings li")].some((li) => li.textContent.includes("`nmae`"));
        if (done()) return resolve(performance.now());
        setTimeout(() => reject(new Error("no finding names `nmae` 5 s after the keystroke")), 5000);
        new MutationObserver((_, observer) => {
          if (done()) {
            observer.disconnect();
            resolve(performance.now());
          }
        }).observe(document.getElementById("findings"), { childList: true, subtree: true });
      }));
    times.push(end - start);
  }
  times.sort((a, b) => a - b);
  const median = times[10];
  console.log(`keystroke to findings: median ${median.toFixed(1)} ms, max ${times[19].toFixed(1)} ms (20 runs)`);
  assert.ok(median <= 100, `findings ${median} ms after the keystroke, over 100 ms`);

  // Settings, and the shared link: a new page opened at the URL shows the same state.
  await page.fill("#ignore", "H301");
  await page.dispatchEvent("#ignore", "change");
  found = await codes();
  assert.ok(!found.includes("H301"), `H301 ignored: ${found}`);
  await page.click("#share");
  const shared = page.url();
  assert.ok(shared.includes("#"), `the state is in the URL: ${shared}`);
  const other = await browser.newPage();
  await other.goto(shared);
  await other.waitForSelector("body[data-ready=true]");
  assert.equal(await other.inputValue("#editor"), await page.inputValue("#editor"));
  assert.equal(await other.inputValue("#ignore"), "H301");
  assert.deepEqual(await other.$$eval("#findings li", (i) => i.map((e) => e.dataset.code)), found);

  // The template highlighted under the editor: a function, a key, a comment.
  await page.fill("#editor", "heat_template_version: 2016-10-14 # v\noutputs:\n  o: {value: {get_param: x}}\n");
  assert.deepEqual(await page.$$eval("#highlight .hl-function", (s) => s.map((e) => e.textContent)), ["get_param"]);
  assert.ok((await page.$$eval("#highlight .hl-key", (s) => s.map((e) => e.textContent))).includes("heat_template_version"));
  assert.deepEqual(await page.$$eval("#highlight .hl-comment", (s) => s.map((e) => e.textContent)), ["# v"]);
  assert.equal(await page.textContent("#highlight"), (await page.inputValue("#editor")) + "\n");

  // A link to a stack, written as the page writes its state (JSON, deflated, base64url):
  // evaluated with its environment and a parameter, then drawn.
  const stack = {
    files: {
      "top.yaml": "heat_template_version: 2016-10-14\nparameters:\n  size: {type: number, default: 1}\n  name: {type: string}\nresources:\n  config:\n    type: OS::Heat::SoftwareConfig\n    properties:\n      config: {get_file: boot.sh}\n  app:\n    type: My::App\n    properties:\n      count: {get_param: size}\noutputs:\n  greeting:\n    value:\n      str_replace: {template: N-S, params: {N: {get_param: name}, S: {get_param: size}}}\n",
      "app.yaml": "heat_template_version: 2016-10-14\nparameters:\n  count: {type: number}\n",
      "env.yaml": "parameters:\n  size: 3\nresource_registry:\n  My::App: app.yaml\n",
      "boot.sh": "#!/bin/sh\n",
    },
    current: "top.yaml",
    settings: { heat_release: "", select: "", ignore: "", environments: "env.yaml", parameters: "name=web" },
    view: "eval",
  };
  const fragment = deflateRawSync(Buffer.from(JSON.stringify(stack))).toString("base64url");
  const stackPage = await browser.newPage();
  stackPage.on("pageerror", (err) => errors.push(String(err)));
  await stackPage.goto(`${url}#${fragment}`);
  await stackPage.waitForSelector("body[data-ready=true]");
  assert.equal(await stackPage.isVisible("#view-eval"), true);
  const evaluated = await stackPage.textContent("#eval-output");
  assert.match(evaluated, /greeting:\n\s+value: web-3\n/, evaluated);
  assert.match(evaluated, /config: "#!\/bin\/sh\\n"/, evaluated);
  assert.deepEqual(await stackPage.$$eval("#eval-problems li", (l) => l.map((e) => e.textContent)), []);
  await stackPage.fill("#parameters", "");
  await stackPage.dispatchEvent("#parameters", "change");
  assert.match(await stackPage.textContent("#eval-problems"), /name/, "a parameter without a value is a problem");
  await stackPage.click("#views button[data-view=graph]");
  const nodes = await stackPage.$$eval("#graph-picture g.node", (g) => g.map((e) => e.dataset.id));
  assert.ok(nodes.includes("app.yaml") && nodes.includes("boot.sh") && nodes.includes("env.yaml"), `the files drawn: ${nodes}`);
  assert.equal(await stackPage.$$eval("#graph-picture path.edge-nested_by_registry", (p) => p.length), 1);
  assert.equal(await stackPage.$$eval("#graph-picture path.edge-get_file", (p) => p.length), 1);
  assert.match(await stackPage.textContent("#graph-dot"), /^digraph hotfix \{/);

  assert.deepEqual(errors, [], "no error on the page");
  // Nothing leaves the browser: only the site's own files were asked for.
  const asked = new Set(requests.map((r) => new URL(r, url).pathname));
  for (const path of asked) assert.ok(["/", "/app.js", "/hotfix.mjs", "/style.css", "/hotfix_wasm.wasm", "/favicon.ico"].includes(path), `asked for ${path}`);
  console.log("browser test: passed");
} catch (err) {
  failed = true;
  console.error(err);
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
