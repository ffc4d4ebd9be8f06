// hotfix for VS Code: starts `hotfix server` (the language server) for YAML files, passes it the
// extension's settings, and offers its fix-all and upgrade actions and the rules' documentation
// as commands. The findings, fixes, navigation, hover and completion are the server's.
'use strict';

const { execFile } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

/** The binary: the configured one, else the one bundled in `bin/`, else `hotfix` on PATH. */
function binary(context, config) {
  const configured = config.get('path');
  if (configured) return configured;
  const bundled = path.join(context.extensionPath, 'bin', process.platform === 'win32' ? 'hotfix.exe' : 'hotfix');
  return fs.existsSync(bundled) ? bundled : 'hotfix';
}

/** The workspace folder the server runs in (relative settings are read from there). */
function folder() {
  const folders = vscode.workspace.workspaceFolders;
  return folders && folders.length > 0 ? folders[0].uri.fsPath : undefined;
}

/** `hotfix server` and the settings as its options. */
function serverArguments(config) {
  const args = ['server'];
  const release = config.get('heatRelease');
  if (release) args.push('--heat-release', release);
  for (const rule of config.get('select') || []) args.push('--select', rule);
  for (const rule of config.get('ignore') || []) args.push('--ignore', rule);
  const file = config.get('configFile');
  if (file) args.push('--config', folder() ? path.resolve(folder(), file) : file);
  return args;
}

async function start(context) {
  const config = vscode.workspace.getConfiguration('hotfix');
  const serverOptions = {
    command: binary(context, config),
    // Over standard input and output; no transport named, so that no `--stdio` is added.
    args: serverArguments(config),
    options: { cwd: folder() },
  };
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'yaml' },
      { scheme: 'untitled', language: 'yaml' },
    ],
    outputChannelName: 'hotfix',
  };
  client = new LanguageClient('hotfix', 'hotfix', serverOptions, clientOptions);
  try {
    await client.start();
  } catch (error) {
    client = undefined;
    vscode.window.showErrorMessage(
      `hotfix: \`${serverOptions.command} ${serverOptions.args.join(' ')}\` did not start ` +
        `(${error && error.message ? error.message : error}); set hotfix.path to the hotfix ` +
        'binary, or put hotfix on PATH.',
    );
  }
}

async function stop() {
  const running = client;
  client = undefined;
  if (!running) return;
  try {
    await running.stop();
  } catch {
    // It never started (the client has said why) or has stopped already.
  }
}

/** Starts and restarts one after another: a settings change while the server starts waits. */
let queue = Promise.resolve();
function serially(work) {
  queue = queue.then(work, work);
  return queue;
}

/** The server's code actions of `kind` for the whole of the active document. */
async function actions(kind) {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !client) return [];
  const document = editor.document;
  const end = document.lineAt(document.lineCount - 1).range.end;
  const found = await client.sendRequest('textDocument/codeAction', {
    textDocument: { uri: document.uri.toString() },
    range: { start: { line: 0, character: 0 }, end: { line: end.line, character: end.character } },
    context: { diagnostics: [], only: [kind] },
  });
  return (found || []).filter((action) => action.edit);
}

/** Applies a code action's edit; false when there was none or the editor refused it. */
async function apply(action) {
  if (!action) return false;
  const edit = await client.protocol2CodeConverter.asWorkspaceEdit(action.edit);
  return vscode.workspace.applyEdit(edit);
}

async function fixAll() {
  const [action] = await actions('source.fixAll.hotfix');
  if (!(await apply(action))) vscode.window.showInformationMessage('hotfix: no Safe fix to apply.');
}

async function upgrade() {
  const offered = await actions('source.upgrade.hotfix');
  if (offered.length === 0) {
    vscode.window.showInformationMessage('hotfix: no upgrade goes through with Safe rewrites here.');
    return;
  }
  const chosen = offered.length === 1 ? offered[0] : await vscode.window.showQuickPick(
    offered.map((action) => ({ label: action.title, action })),
    { placeHolder: 'Upgrade to' },
  ).then((item) => item && item.action);
  await apply(chosen);
}

/** The documentation of a rule (`hotfix rule CODE`), in a Markdown document beside. */
async function showRule(context, code) {
  if (!code) {
    const editor = vscode.window.activeTextEditor;
    const here = editor && vscode.languages.getDiagnostics(editor.document.uri)
      .find((d) => d.source === 'hotfix' && d.range.contains(editor.selection.active));
    const suggested = here ? String(typeof here.code === 'object' ? here.code.value : here.code) : '';
    code = await vscode.window.showInputBox({ prompt: 'A rule code (H301) or name', value: suggested });
  }
  if (!code) return;
  const config = vscode.workspace.getConfiguration('hotfix');
  const text = await new Promise((resolve) => {
    execFile(binary(context, config), ['rule', code], (error, stdout, stderr) => {
      resolve(error ? String(stderr || error.message) : stdout);
    });
  });
  const document = await vscode.workspace.openTextDocument({ content: text, language: 'markdown' });
  await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside });
}

async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('hotfix.fixAll', fixAll),
    vscode.commands.registerCommand('hotfix.upgrade', upgrade),
    vscode.commands.registerCommand('hotfix.showRule', (code) => showRule(context, code)),
    vscode.commands.registerCommand('hotfix.restart', () =>
      serially(async () => {
        await stop();
        await start(context);
      })),
    // The settings are the server's command line: a change restarts it.
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration('hotfix')) return undefined;
      return serially(async () => {
        await stop();
        await start(context);
      });
    }),
  );
  await serially(() => start(context));
}

function deactivate() {
  return serially(stop);
}

module.exports = { activate, deactivate, client: () => client };
