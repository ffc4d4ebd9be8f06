// The packaged extension against the real `hotfix server`: scripts/package-vscode.sh builds the
// .vsix with the debug binary inside (HOTFIX, default target/debug/hotfix), the test unpacks it,
// loads its extension.js with a stand-in for the `vscode` module (test/vscode-stand-in.js) and
// drives it as VS Code would: a template opened, its diagnostics, fix-all applied, the settings
// changed, the rule's documentation shown. VS Code itself is never needed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const repository = resolve(here, '../../..');
const hotfix = process.env.HOTFIX ?? join(repository, 'target/debug/hotfix');
const vscode = require('./vscode-stand-in.js');
const { state } = vscode;

let work;
let extension;
let context;

before(() => {
  work = mkdtempSync(join(tmpdir(), 'hotfix-vscode-'));
  const vsix = join(work, 'hotfix.vsix');
  execFileSync(join(repository, 'scripts/package-vscode.sh'), ['--binary', hotfix, '--out', vsix], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  execFileSync('unzip', ['-q', vsix, '-d', join(work, 'unpacked')]);
  // `require('vscode')` in the unpacked extension and its client gets the stand-in.
  const Module = require('node:module');
  const load = Module._load;
  Module._load = function (request, ...rest) {
    return request === 'vscode' ? vscode : load.call(this, request, ...rest);
  };
  state.folder = join(work, 'project');
  execFileSync('mkdir', ['-p', state.folder]);
});

after(async () => {
  if (extension) await extension.deactivate();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Resolves with the diagnostics of `uri` once `accept(diagnostics)` holds. */
function diagnosticsWhen(uri, accept, timeoutMs = 30000) {
  return new Promise((resolvePromise, reject) => {
    const now = state.diagnostics.get(uri);
    if (now && accept(now)) {
      resolvePromise(now);
      return;
    }
    const timer = setTimeout(() => {
      listener.dispose();
      reject(new Error(`diagnostics of ${uri}: ${JSON.stringify(state.diagnostics.get(uri))}\n` +
        `server output: ${state.output?.text}`));
    }, timeoutMs);
    const listener = state.onDiagnostics.event((published) => {
      if (published.uri === uri && accept(published.diagnostics)) {
        clearTimeout(timer);
        listener.dispose();
        resolvePromise(published.diagnostics);
      }
    });
  });
}

const codes = (diagnostics) =>
  diagnostics.map((d) => (typeof d.code === 'object' ? d.code.value : d.code)).sort();

const TEMPLATE = `heat_template_version: 2016-10-14
resources:
  port:
    type: OS::Neutron::Port
    properties:
      network_id: private
  pause:
    type: OS::Heat::Delay
`;

let document;

test('the packaged extension bundles an executable hotfix', () => {
  accessSync(join(work, 'unpacked/extension/bin/hotfix'), constants.X_OK);
});

test('activated, it starts the bundled server, which reports the open template', async () => {
  document = new vscode.TextDocument(vscode.Uri.file(join(state.folder, 'stack.yaml')), 'yaml', TEMPLATE);
  state.documents.push(document);
  state.activeTextEditor = { document, selection: new vscode.Selection(5, 8, 5, 8) };
  extension = require(join(work, 'unpacked/extension/extension.js'));
  context = { subscriptions: [], extensionPath: join(work, 'unpacked/extension') };
  await extension.activate(context);
  const found = await diagnosticsWhen(document.uri.toString(), (d) => d.length > 0);
  assert.deepEqual(codes(found), ["H612"], state.output?.text);
  const [deprecated] = found;
  assert.equal(deprecated.range.start.line, 5);
  assert.match(deprecated.message, /network_id/);
  assert.equal(deprecated.source, 'hotfix');
});

test('fix all applies the Safe fix, and the finding goes', async () => {
  await vscode.commands.executeCommand('hotfix.fixAll');
  assert.equal(document.getText(), TEMPLATE.replace('network_id: private', 'network: private'));
  await diagnosticsWhen(document.uri.toString(), (d) => d.length === 0);
});

test('the settings change the rules: a release, then an ignored rule', async () => {
  state.settings['hotfix.heatRelease'] = 'queens';
  state.events.configuration.fire({ affectsConfiguration: (section) => section === 'hotfix' });
  const found = await diagnosticsWhen(document.uri.toString(), (d) => d.length > 0);
  assert.deepEqual(codes(found), ['H618']);
  assert.match(found[0].message, /OS::Heat::Delay/);
  state.settings['hotfix.ignore'] = ['H618'];
  state.events.configuration.fire({ affectsConfiguration: (section) => section === 'hotfix' });
  // The restarted server opens the document again; wait for its (empty) diagnostics.
  await new Promise((r) => setTimeout(r, 500));
  await diagnosticsWhen(document.uri.toString(), (d) => d.length === 0);
  assert.deepEqual(state.messages.filter((m) => m.startsWith('error')), []);
});

test('the upgrade command offers the later versions and applies the one picked', async () => {
  state.pick = (items) => items.find((item) => /2021-04-16/.test(item.label));
  await vscode.commands.executeCommand('hotfix.upgrade');
  assert.match(document.getText(), /^heat_template_version: 2021-04-16\n/);
});

test("a rule's documentation opens beside", async () => {
  await vscode.commands.executeCommand('hotfix.showRule', 'H612');
  const shown = state.opened.at(-1);
  assert.equal(shown.languageId, 'markdown');
  assert.match(shown.getText(), /deprecated-property/);
});

test('a binary that cannot start is said, with the setting to change', async () => {
  state.settings['hotfix.path'] = join(work, 'no-such-hotfix');
  state.events.configuration.fire({ affectsConfiguration: (section) => section === 'hotfix' });
  // The client says it could not connect; the extension says what to do.
  const ours = (m) => m.includes('did not start');
  for (let i = 0; i < 100 && !state.messages.some(ours); i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const message = state.messages.find(ours);
  assert.match(message ?? '', /^error: hotfix: `.*no-such-hotfix server .*` did not start .*set hotfix\.path/);
  // Back to the bundled binary.
  delete state.settings['hotfix.path'];
  state.messages.length = 0;
  state.events.configuration.fire({ affectsConfiguration: (section) => section === 'hotfix' });
});

test("the extension's version is the crate's (the release names the .vsix after it)", () => {
  const cargo = require('node:fs').readFileSync(join(repository, 'Cargo.toml'), 'utf8');
  const [, version] = /\[workspace\.package\][^[]*?\nversion = "([^"]+)"/.exec(cargo);
  assert.equal(require(join(here, '../package.json')).version, version);
});
