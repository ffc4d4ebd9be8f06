// A stand-in for the `vscode` module, enough for vscode-languageclient 9 and the extension to run
// in Node.js without VS Code: documents, settings, diagnostics, commands and workspace edits
// are held in memory, where the test reads and changes them. Names the client only refers to
// (its classes for providers the test does not use) are empty classes, made on first use.
'use strict';

class Disposable {
  constructor(callback) {
    this.callback = callback;
  }
  static from(...items) {
    return new Disposable(() => items.forEach((item) => item && item.dispose && item.dispose()));
  }
  dispose() {
    if (this.callback) this.callback();
    this.callback = undefined;
  }
}

class EventEmitter {
  constructor() {
    this.listeners = new Set();
    this.event = (listener, thisArg) => {
      const bound = thisArg ? listener.bind(thisArg) : listener;
      this.listeners.add(bound);
      return new Disposable(() => this.listeners.delete(bound));
    };
  }
  fire(value) {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose() {
    this.listeners.clear();
  }
}

class CancellationTokenSource {
  constructor() {
    const cancelled = new EventEmitter();
    this.emitter = cancelled;
    this.token = { isCancellationRequested: false, onCancellationRequested: cancelled.event };
  }
  cancel() {
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose() {}
}

class Uri {
  constructor(scheme, path, query = '', fragment = '', authority = '') {
    this.scheme = scheme;
    this.path = path;
    this.query = query;
    this.fragment = fragment;
    this.authority = authority;
  }
  static file(path) {
    return new Uri('file', path);
  }
  static parse(text) {
    const url = new URL(text);
    if (url.protocol === 'file:') return Uri.file(decodeURIComponent(url.pathname));
    return new Uri(url.protocol.slice(0, -1), url.pathname, url.search.slice(1), url.hash.slice(1), url.host);
  }
  get fsPath() {
    return this.path;
  }
  with(change) {
    return new Uri(change.scheme ?? this.scheme, change.path ?? this.path, change.query ?? this.query,
      change.fragment ?? this.fragment, change.authority ?? this.authority);
  }
  toString() {
    if (this.scheme === 'file') return require('node:url').pathToFileURL(this.path).href;
    return `${this.scheme}://${this.authority}${this.path}${this.query ? `?${this.query}` : ''}`;
  }
  toJSON() {
    return this.toString();
  }
}

class Position {
  constructor(line, character) {
    this.line = line;
    this.character = character;
  }
  isBefore(other) {
    return this.line < other.line || (this.line === other.line && this.character < other.character);
  }
  isAfter(other) {
    return other.isBefore(this);
  }
}

class Range {
  constructor(a, b, c, d) {
    if (typeof a === 'number') {
      this.start = new Position(a, b);
      this.end = new Position(c, d);
    } else {
      this.start = a;
      this.end = b;
    }
  }
  contains(position) {
    const p = position.start ?? position;
    return !p.isBefore(this.start) && !this.end.isBefore(p);
  }
  get isEmpty() {
    return this.start.line === this.end.line && this.start.character === this.end.character;
  }
}

class Selection extends Range {
  get active() {
    return this.end;
  }
}

class Location {
  constructor(uri, range) {
    this.uri = uri;
    this.range = range;
  }
}

class Diagnostic {
  constructor(range, message, severity = 0) {
    this.range = range;
    this.message = message;
    this.severity = severity;
  }
}

class DiagnosticRelatedInformation {
  constructor(location, message) {
    this.location = location;
    this.message = message;
  }
}

class TextEdit {
  constructor(range, newText) {
    this.range = range;
    this.newText = newText;
  }
  static replace(range, newText) {
    return new TextEdit(range, newText);
  }
  static insert(position, newText) {
    return new TextEdit(new Range(position, position), newText);
  }
  static delete(range) {
    return new TextEdit(range, '');
  }
}

class WorkspaceEdit {
  constructor() {
    this.edits = new Map();
  }
  #list(uri) {
    const key = uri.toString();
    if (!this.edits.has(key)) this.edits.set(key, { uri, edits: [] });
    return this.edits.get(key).edits;
  }
  replace(uri, range, newText) {
    this.#list(uri).push(new TextEdit(range, newText));
  }
  insert(uri, position, newText) {
    this.#list(uri).push(TextEdit.insert(position, newText));
  }
  delete(uri, range) {
    this.#list(uri).push(TextEdit.delete(range));
  }
  set(uri, edits) {
    const list = this.#list(uri);
    list.length = 0;
    for (const edit of edits || []) list.push(Array.isArray(edit) ? edit[0] : edit);
  }
  has(uri) {
    return this.edits.has(uri.toString());
  }
  entries() {
    return [...this.edits.values()].map(({ uri, edits }) => [uri, edits]);
  }
  get size() {
    return this.edits.size;
  }
}

class CodeActionKind {
  constructor(value) {
    this.value = value;
  }
  append(part) {
    return new CodeActionKind(this.value ? `${this.value}.${part}` : part);
  }
  contains(other) {
    return this.value === other.value || other.value.startsWith(`${this.value}.`);
  }
  intersects(other) {
    return this.contains(other) || other.contains(this);
  }
}
CodeActionKind.Empty = new CodeActionKind('');
CodeActionKind.QuickFix = new CodeActionKind('quickfix');
CodeActionKind.Refactor = new CodeActionKind('refactor');
CodeActionKind.RefactorExtract = new CodeActionKind('refactor.extract');
CodeActionKind.RefactorInline = new CodeActionKind('refactor.inline');
CodeActionKind.RefactorRewrite = new CodeActionKind('refactor.rewrite');
CodeActionKind.Source = new CodeActionKind('source');
CodeActionKind.SourceOrganizeImports = new CodeActionKind('source.organizeImports');
CodeActionKind.SourceFixAll = new CodeActionKind('source.fixAll');

class CodeAction {
  constructor(title, kind) {
    this.title = title;
    this.kind = kind;
  }
}

class MarkdownString {
  constructor(value = '') {
    this.value = value;
  }
  appendMarkdown(text) {
    this.value += text;
    return this;
  }
}

/** A text document held in memory. */
class TextDocument {
  constructor(uri, languageId, text) {
    this.uri = uri;
    this.languageId = languageId;
    this.version = 1;
    this.text = text;
    this.isClosed = false;
    this.isDirty = false;
    this.isUntitled = uri.scheme === 'untitled';
    this.eol = 1;
  }
  get fileName() {
    return this.uri.fsPath;
  }
  getText(range) {
    if (!range) return this.text;
    return this.text.slice(this.offsetAt(range.start), this.offsetAt(range.end));
  }
  get lines() {
    return this.text.split('\n');
  }
  get lineCount() {
    return this.lines.length;
  }
  lineAt(line) {
    const text = this.lines[typeof line === 'number' ? line : line.line];
    const number = typeof line === 'number' ? line : line.line;
    return { text, lineNumber: number, range: new Range(number, 0, number, text.length) };
  }
  offsetAt(position) {
    const lines = this.lines;
    let offset = 0;
    for (let i = 0; i < position.line && i < lines.length; i++) offset += lines[i].length + 1;
    return offset + position.character;
  }
  positionAt(offset) {
    const before = this.text.slice(0, offset).split('\n');
    return new Position(before.length - 1, before[before.length - 1].length);
  }
  /** Applies edits (their ranges in the text before any of them), last first. */
  apply(edits) {
    const sorted = [...edits].sort((a, b) => this.offsetAt(b.range.start) - this.offsetAt(a.range.start));
    const changes = [];
    for (const edit of sorted) {
      const start = this.offsetAt(edit.range.start);
      const end = this.offsetAt(edit.range.end);
      this.text = this.text.slice(0, start) + edit.newText + this.text.slice(end);
      changes.push({ range: edit.range, rangeOffset: start, rangeLength: end - start, text: edit.newText });
    }
    this.version += 1;
    return changes;
  }
}

/** What the test reads and drives. */
const state = {
  settings: {},
  documents: [],
  diagnostics: new Map(),
  commands: new Map(),
  messages: [],
  opened: [],
  onDiagnostics: new EventEmitter(),
  events: {
    open: new EventEmitter(),
    close: new EventEmitter(),
    change: new EventEmitter(),
    save: new EventEmitter(),
    configuration: new EventEmitter(),
  },
  activeTextEditor: undefined,
};

function configuration(section) {
  return {
    get(key, fallback) {
      const value = state.settings[section ? `${section}.${key}` : key];
      return value === undefined ? fallback : value;
    },
    has(key) {
      return state.settings[section ? `${section}.${key}` : key] !== undefined;
    },
    inspect() {
      return undefined;
    },
    update() {
      return Promise.resolve();
    },
  };
}

const none = () => new Disposable();
const event = () => none;

function match(selector, document) {
  const selectors = Array.isArray(selector) ? selector : [selector];
  return selectors.some((s) => {
    if (typeof s === 'string') return s === document.languageId;
    return (!s.language || s.language === document.languageId) &&
      (!s.scheme || s.scheme === document.uri.scheme) && !s.pattern;
  }) ? 10 : 0;
}

const workspace = {
  get workspaceFolders() {
    return state.folder ? [{ uri: Uri.file(state.folder), name: 'folder', index: 0 }] : undefined;
  },
  getWorkspaceFolder(uri) {
    return state.folder && uri.fsPath.startsWith(state.folder) ? workspace.workspaceFolders[0] : undefined;
  },
  get textDocuments() {
    return state.documents;
  },
  notebookDocuments: [],
  getConfiguration: configuration,
  onDidChangeConfiguration: state.events.configuration.event,
  onDidOpenTextDocument: state.events.open.event,
  onDidCloseTextDocument: state.events.close.event,
  onDidChangeTextDocument: state.events.change.event,
  onDidSaveTextDocument: state.events.save.event,
  onWillSaveTextDocument: event(),
  onDidOpenNotebookDocument: event(),
  onDidCloseNotebookDocument: event(),
  onDidChangeNotebookDocument: event(),
  onDidSaveNotebookDocument: event(),
  onDidChangeWorkspaceFolders: event(),
  onDidCreateFiles: event(),
  onDidRenameFiles: event(),
  onDidDeleteFiles: event(),
  onWillCreateFiles: event(),
  onWillRenameFiles: event(),
  onWillDeleteFiles: event(),
  createFileSystemWatcher() {
    return { onDidCreate: event(), onDidChange: event(), onDidDelete: event(), dispose() {} };
  },
  async applyEdit(edit) {
    for (const [uri, edits] of edit.entries()) {
      const document = state.documents.find((d) => d.uri.toString() === uri.toString());
      if (!document) return false;
      const contentChanges = document.apply(edits);
      state.events.change.fire({ document, contentChanges, reason: undefined });
    }
    return true;
  },
  async openTextDocument(options) {
    const document = new TextDocument(new Uri('untitled', `/Untitled-${state.opened.length + 1}`),
      options.language ?? 'plaintext', options.content ?? '');
    state.opened.push(document);
    return document;
  },
};

const window = {
  get activeTextEditor() {
    return state.activeTextEditor;
  },
  get visibleTextEditors() {
    return state.activeTextEditor ? [state.activeTextEditor] : [];
  },
  onDidChangeActiveTextEditor: event(),
  onDidChangeVisibleTextEditors: event(),
  tabGroups: { all: [], onDidChangeTabs: event(), onDidChangeTabGroups: event() },
  createOutputChannel(name) {
    const channel = { name, text: '', append(t) { channel.text += t; }, appendLine(t) { channel.text += `${t}\n`; },
      replace(t) { channel.text = t; }, clear() { channel.text = ''; }, show() {}, hide() {}, dispose() {} };
    state.output = channel;
    return channel;
  },
  showErrorMessage(message) {
    state.messages.push(`error: ${message}`);
    return Promise.resolve(undefined);
  },
  showWarningMessage(message) {
    state.messages.push(`warning: ${message}`);
    return Promise.resolve(undefined);
  },
  showInformationMessage(message) {
    state.messages.push(`information: ${message}`);
    return Promise.resolve(undefined);
  },
  showQuickPick(items) {
    return Promise.resolve(state.pick ? state.pick(items) : undefined);
  },
  showInputBox() {
    return Promise.resolve(state.input);
  },
  showTextDocument(document) {
    return Promise.resolve({ document });
  },
  withProgress(_options, task) {
    return task({ report() {} }, { isCancellationRequested: false, onCancellationRequested: event() });
  },
  createStatusBarItem() {
    return { show() {}, hide() {}, dispose() {} };
  },
};

const languages = new Proxy({
  match,
  createDiagnosticCollection(name) {
    const collection = {
      name,
      set(uri, diagnostics) {
        if (Array.isArray(uri)) {
          for (const [u, d] of uri) collection.set(u, d);
          return;
        }
        state.diagnostics.set(uri.toString(), diagnostics || []);
        state.onDiagnostics.fire({ uri: uri.toString(), diagnostics: diagnostics || [] });
      },
      delete(uri) {
        state.diagnostics.delete(uri.toString());
      },
      clear() {
        state.diagnostics.clear();
      },
      get(uri) {
        return state.diagnostics.get(uri.toString());
      },
      forEach() {},
      dispose() {},
    };
    return collection;
  },
  getDiagnostics(uri) {
    return state.diagnostics.get(uri.toString()) || [];
  },
}, {
  // registerHoverProvider, registerCodeActionsProvider, …: accepted, not used.
  get(target, name) {
    if (name in target) return target[name];
    if (typeof name === 'string' && name.startsWith('register')) return none;
    if (typeof name === 'string' && name.startsWith('onDid')) return event();
    return undefined;
  },
});

const commands = {
  registerCommand(name, callback) {
    state.commands.set(name, callback);
    return new Disposable(() => state.commands.delete(name));
  },
  executeCommand(name, ...args) {
    const command = state.commands.get(name);
    return Promise.resolve(command ? command(...args) : undefined);
  },
};

const known = {
  version: '1.95.0',
  env: { machineId: 'test', sessionId: 'test', language: 'en', appName: 'stand-in', uiKind: 1, appRoot: '' },
  UIKind: { Desktop: 1, Web: 2 },
  Disposable,
  EventEmitter,
  CancellationTokenSource,
  Uri,
  Position,
  Range,
  Selection,
  Location,
  Diagnostic,
  DiagnosticRelatedInformation,
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  DiagnosticTag: { Unnecessary: 1, Deprecated: 2 },
  TextEdit,
  WorkspaceEdit,
  CodeAction,
  CodeActionKind,
  CodeActionTriggerKind: { Invoke: 1, Automatic: 2 },
  MarkdownString,
  ViewColumn: { Active: -1, Beside: -2, One: 1 },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  TextDocumentSaveReason: { Manual: 1, AfterDelay: 2, FocusOut: 3 },
  EndOfLine: { LF: 1, CRLF: 2 },
  workspace,
  window,
  languages,
  commands,
  extensions: { all: [], getExtension() { return undefined; }, onDidChange: event() },
  l10n: { t: (message, ...args) => (typeof message === 'string' ? message.replace(/\{(\d+)\}/g, (_, i) => String(args[i])) : message.message) },
  TextDocument,
  state,
};

const made = new Map();
module.exports = new Proxy(known, {
  get(target, name) {
    if (name in target) return target[name];
    if (typeof name === 'string' && /^[A-Z]/.test(name)) {
      // A class (or enum) the client names but the test does not use.
      if (!made.has(name)) made.set(name, { [name]: class {} }[name]);
      return made.get(name);
    }
    return undefined;
  },
});
