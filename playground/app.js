// The playground page: files in an editor, hotfix's findings as one types, fixes, upgrades,
// what Heat computes (eval) and the stack drawn (graph).
// The whole state (files, settings) lives in the URL's fragment, compressed, so that a link
// shares exactly what one sees; nothing leaves the browser.
import { Hotfix } from "./hotfix.mjs";

const $ = (id) => document.getElementById(id);
const EXAMPLE = `heat_template_version: 2016-10-14
description: Paste a Heat template here.
parameters:
  net:
    type: string
resources:
  port:
    type: OS::Neutron::Port
    properties:
      network_id: {get_param: network}
outputs:
  ip:
    value: {get_attr: [port, fixed_ips, 0, ip_address]}
`;

const state = {
  files: { "template.yaml": EXAMPLE },
  current: "template.yaml",
  settings: { heat_release: "", select: "", ignore: "", environments: "", parameters: "" },
  view: "lint",
};
let hotfix;
let rules = new Map();
let upgraded = null;

// --- the URL fragment: JSON, deflated, base64url ---------------------------------------
async function encode(value) {
  const stream = new Blob([JSON.stringify(value)]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}
async function decode(text) {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return JSON.parse(await new Response(stream).text());
}
let saving = Promise.resolve();
function save() {
  saving = saving.then(async () => {
    history.replaceState(null, "", "#" + (await encode(state)));
  });
  return saving;
}
async function restore() {
  const fragment = location.hash.slice(1);
  if (!fragment) return;
  try {
    const saved = await decode(fragment);
    if (saved && typeof saved.files === "object" && Object.keys(saved.files).length > 0) {
      state.files = saved.files;
      state.current = saved.files[saved.current] !== undefined ? saved.current : Object.keys(saved.files)[0];
      state.settings = { ...state.settings, ...saved.settings };
      if (["lint", "eval", "graph"].includes(saved.view)) state.view = saved.view;
    }
  } catch (err) {
    status(`The link's state cannot be read (${err.message}): showing the example.`);
  }
}

// --- requests ------------------------------------------------------------------------
function selectors(text) {
  return text.split(/[\s,]+/).filter(Boolean);
}
function request(op, extra = {}) {
  return hotfix.call({
    op,
    files: state.files,
    path: state.current,
    settings: {
      heat_release: state.settings.heat_release,
      select: selectors(state.settings.select),
      ignore: selectors(state.settings.ignore),
    },
    unsafe_fixes: $("unsafe").checked,
    environments: selectors(state.settings.environments),
    ...extra,
  });
}
// `name=value;other=value`, as `hotfix eval -P` takes them.
function parameters(text) {
  const out = {};
  for (const pair of text.split(";")) {
    const at = pair.indexOf("=");
    if (at > 0) out[pair.slice(0, at).trim()] = pair.slice(at + 1);
  }
  return out;
}
function status(text) {
  $("status").textContent = text;
}

// --- rendering -------------------------------------------------------------------------
function renderTabs() {
  const tabs = $("tabs");
  tabs.replaceChildren();
  for (const path of Object.keys(state.files).sort()) {
    const tab = document.createElement("button");
    tab.type = "button";
    tab.textContent = path;
    tab.className = path === state.current ? "current" : "";
    tab.onclick = () => {
      state.current = path;
      showCurrent();
    };
    tabs.append(tab);
  }
}
function showCurrent() {
  $("editor").value = state.files[state.current];
  highlight();
  renderTabs();
  refresh();
  save();
}
// The view shown, brought up to date with the files (the hidden ones wait until shown).
function refresh() {
  if (state.view === "eval") evaluate();
  else if (state.view === "graph") graph();
  else lint();
}
function renderView() {
  for (const button of $("views").children) button.className = button.dataset.view === state.view ? "current" : "";
  for (const name of ["lint", "eval", "graph"]) $(`view-${name}`).hidden = name !== state.view;
}
function showView(view) {
  state.view = view;
  renderView();
  refresh();
  save();
}

// --- YAML highlighting: a <pre> under the transparent text area ------------------------------
const FUNCTIONS = new Set(["get_param", "get_resource", "get_attr", "get_file", "list_join", "str_replace", "str_replace_strict", "str_replace_vstrict", "str_split", "repeat", "digest", "resource_facade", "map_merge", "map_replace", "yaql", "equals", "if", "not", "and", "or", "contains", "filter", "make_url", "list_concat", "list_concat_unique", "get_attr", "Fn::GetAZs", "Ref", "Fn::Join", "Fn::Select", "Fn::Split", "Fn::Replace", "Fn::GetAtt", "Fn::Base64", "Fn::MemberListToMap", "Fn::ResourceFacade"]);
function span(kind, text) {
  const element = document.createElement("span");
  element.className = `hl-${kind}`;
  element.textContent = text;
  return element;
}
// One line's tokens: a comment, quoted strings, keys (`name:`), numbers, flow punctuation.
// A reading aid only: hotfix's own reader decides what the file means.
const TOKEN = /(#.*$)|("(?:[^"\\]|\\.)*"?|'(?:[^']|'')*'?)|((?!-\s)[^\s{}\[\],:#'"][^{}\[\],:#]*?|"[^"]*"|'[^']*')(?=\s*:(?:\s|$))|(-?\b\d[\d._:eE+-]*\b)|([{}\[\],:|>-])/g;
function highlightLine(line, parent) {
  let last = 0;
  for (const match of line.matchAll(TOKEN)) {
    if (match[1] && match.index > 0 && !/\s/.test(line[match.index - 1])) continue;
    if (match.index > last) parent.append(line.slice(last, match.index));
    const [text, comment, quoted, key, number] = match;
    const kind = comment ? "comment" : quoted ? "string" : key ? (FUNCTIONS.has(key.trim()) ? "function" : "key") : number ? "number" : "punct";
    parent.append(span(kind, text));
    last = match.index + text.length;
  }
  if (last < line.length) parent.append(line.slice(last));
}
function highlight() {
  const pre = $("highlight");
  const lines = $("editor").value.split("\n");
  const fragment = document.createDocumentFragment();
  lines.forEach((line, i) => {
    // Very long files: highlighting is not worth the time past 5,000 lines.
    if (i < 5000) highlightLine(line, fragment);
    else fragment.append(line);
    fragment.append("\n");
  });
  pre.replaceChildren(fragment);
  syncScroll();
}
function syncScroll() {
  $("highlight").scrollTop = $("editor").scrollTop;
  $("highlight").scrollLeft = $("editor").scrollLeft;
}

// --- eval and graph -------------------------------------------------------------------------
function evaluate() {
  let answer;
  try {
    answer = request("eval", { parameters: parameters(state.settings.parameters) });
  } catch (err) {
    answer = { error: err.message };
  }
  const problems = $("eval-problems");
  problems.replaceChildren();
  if (answer.error) {
    $("eval-output").textContent = "";
    const item = document.createElement("li");
    item.className = "severity-error";
    item.textContent = answer.error;
    problems.append(item);
    return;
  }
  for (const problem of answer.problems) {
    const item = document.createElement("li");
    item.className = "severity-error";
    const at = problem.line ? `${problem.line}:${problem.column} ` : "";
    item.textContent = `${at}${problem.path}: ${problem.message} (${problem.class})`;
    problems.append(item);
  }
  $("eval-output").textContent = answer.yaml;
}
const EDGE_COLOURS = { depends_on: "#1d1d1f", implicit: "#6e7781", nested: "#0550ae", nested_by_registry: "#8250df", registry: "#9a6700", get_file: "#6e7781" };
// The graph drawn left to right: each node in the column of its longest chain of edges from a
// node nothing points to; edges as curves with arrowheads, coloured by kind.
function drawGraph(graph) {
  const svgNS = "http://www.w3.org/2000/svg";
  const make = (name, attributes, text) => {
    const element = document.createElementNS(svgNS, name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    if (text !== undefined) element.textContent = text;
    return element;
  };
  const column = new Map(graph.nodes.map((n) => [n.id, 0]));
  for (let round = 0; round < graph.nodes.length; round++) {
    let moved = false;
    for (const edge of graph.edges) {
      const next = (column.get(edge.from) ?? 0) + 1;
      if (column.has(edge.to) && next > column.get(edge.to) && next < graph.nodes.length) {
        column.set(edge.to, next);
        moved = true;
      }
    }
    if (!moved) break;
  }
  const label = (node) => node.kind === "resource" ? [node.name ?? node.id, node.type ?? ""] : [node.path ?? node.id, `(${node.kind})`];
  const width = (node) => Math.max(...label(node).map((l) => l.length)) * 6.5 + 16;
  const columns = [];
  for (const node of graph.nodes) (columns[column.get(node.id)] ??= []).push(node);
  const place = new Map();
  let x = 10;
  let height = 0;
  for (const nodes of columns) {
    if (!nodes) continue;
    const w = Math.max(...nodes.map(width));
    nodes.forEach((node, i) => place.set(node.id, { x, y: 10 + i * 50, w, h: 36 }));
    height = Math.max(height, 10 + nodes.length * 50);
    x += w + 60;
  }
  const svg = make("svg", { viewBox: `0 0 ${x} ${height}`, width: x, height, role: "img", "aria-label": "stack graph" });
  const defs = make("defs", {});
  const marker = make("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" });
  marker.append(make("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#6e7781" }));
  defs.append(marker);
  svg.append(defs);
  for (const edge of graph.edges) {
    const from = place.get(edge.from);
    const to = place.get(edge.to);
    if (!from || !to) continue;
    const x1 = from.x + from.w;
    const y1 = from.y + from.h / 2;
    const x2 = to.x;
    const y2 = to.y + to.h / 2;
    const bend = Math.max(30, Math.abs(x2 - x1) / 2);
    const path = make("path", { class: `edge edge-${edge.kind}`, d: `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}`, fill: "none", stroke: EDGE_COLOURS[edge.kind] ?? "#6e7781", "stroke-dasharray": edge.kind === "implicit" || edge.kind === "registry" ? "4 3" : "", "marker-end": "url(#arrow)" });
    path.append(make("title", {}, `${edge.kind}${edge.type ? ` ${edge.type}` : ""}${edge.via ? ` (${edge.via})` : ""}`));
    svg.append(path);
  }
  for (const node of graph.nodes) {
    const at = place.get(node.id);
    const group = make("g", { class: `node node-${node.kind}`, "data-id": node.id });
    const missing = node.kind === "missing" || node.kind === "unloadable";
    group.append(make("rect", { x: at.x, y: at.y, width: at.w, height: at.h, rx: node.kind === "resource" ? 8 : 2, fill: node.kind === "environment" ? "#fff8c5" : node.kind === "template" ? "#ddf4ff" : "#fff", stroke: missing ? "#b00020" : "#6e7781", "stroke-dasharray": missing ? "4 3" : "" }));
    const [first, second] = label(node);
    group.append(make("text", { x: at.x + 8, y: at.y + 15 }, first));
    group.append(make("text", { x: at.x + 8, y: at.y + 29, fill: "#6e7781" }, second));
    group.append(make("title", {}, node.message ?? node.id));
    svg.append(group);
  }
  return svg;
}
function graph() {
  let answer;
  try {
    answer = request("graph");
  } catch (err) {
    answer = { error: err.message };
  }
  const picture = $("graph-picture");
  if (answer.error) {
    picture.textContent = answer.error;
    $("graph-dot").textContent = "";
    return;
  }
  picture.replaceChildren(drawGraph(answer.graph));
  $("graph-dot").textContent = answer.dot;
}
function lint() {
  let answer;
  try {
    answer = request("lint");
  } catch (err) {
    status(err.message);
    $("findings").replaceChildren();
    return;
  }
  const list = $("findings");
  list.replaceChildren();
  answer.findings.forEach((finding, index) => {
    const item = document.createElement("li");
    item.className = "finding";
    item.dataset.code = finding.code;
    const head = document.createElement("div");
    head.className = `finding-head severity-${finding.severity}`;
    const link = document.createElement("a");
    link.href = `#rule-${finding.code}`;
    link.textContent = `${finding.code} ${finding.name}`;
    link.onclick = (event) => {
      event.preventDefault();
      showRule(finding.code);
    };
    head.append(link, ` ${finding.start.line}:${finding.start.column} ${finding.message}`);
    const frame = document.createElement("pre");
    frame.textContent = answer.frames[index];
    item.append(head, frame);
    if (finding.fix) {
      const fix = document.createElement("button");
      fix.type = "button";
      fix.className = "fix";
      fix.textContent = `Fix: ${finding.fix.message}`;
      fix.onclick = () => setText(request("apply", { index }).text);
      item.append(fix);
    }
    list.append(item);
  });
  const count = answer.findings.length;
  status(answer.kind === "other"
    ? `${state.current} is not a template or an environment file: nothing to check.`
    : `${count} finding${count === 1 ? "" : "s"} in ${state.current} (${answer.kind}).`);
}
function showRule(code) {
  const rule = rules.get(code);
  const doc = $("rule-doc");
  doc.hidden = !rule;
  if (rule) doc.textContent = `${rule.code} ${rule.name} (${rule.severity})\n\n${rule.doc}`;
}
function setText(text) {
  state.files[state.current] = text;
  $("editor").value = text;
  highlight();
  refresh();
  save();
}

// A line diff (longest common subsequence): what the upgrade changes.
function diff(before, after) {
  const a = before.split("\n");
  const b = after.split("\n");
  const m = a.length;
  const n = b.length;
  const table = Array.from({ length: m + 1 }, () => new Uint32Array(n + 1));
  for (let i = m - 1; i >= 0; i--)
    for (let j = n - 1; j >= 0; j--)
      table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
  const out = [];
  let i = 0;
  let j = 0;
  while (i < m || j < n) {
    if (i < m && j < n && a[i] === b[j]) {
      out.push([" ", a[i++]]);
      j++;
    } else if (j < n && (i === m || table[i][j + 1] >= table[i + 1][j])) {
      out.push(["+", b[j++]]);
    } else {
      out.push(["-", a[i++]]);
    }
  }
  return out;
}
function upgrade() {
  const answer = request("upgrade", { to: $("target").value });
  $("upgrade-result").hidden = false;
  $("upgrade-message").textContent = answer.message;
  const pre = $("diff");
  pre.replaceChildren();
  upgraded = answer.text ?? null;
  $("apply-upgrade").hidden = upgraded === null || upgraded === state.files[state.current];
  if (upgraded === null) return;
  for (const [sign, line] of diff(state.files[state.current], upgraded)) {
    const span = document.createElement("span");
    span.className = sign === "+" ? "diff-add" : sign === "-" ? "diff-del" : "";
    span.textContent = `${sign} ${line}\n`;
    pre.append(span);
  }
}

// --- files: new, rename, remove, dropped ----------------------------------------------------
function addFile(path, text) {
  state.files[path] = text;
  state.current = path;
  showCurrent();
}
async function dropped(event) {
  event.preventDefault();
  const entries = [...event.dataTransfer.items].map((i) => i.webkitGetAsEntry?.()).filter(Boolean);
  const read = (entry, prefix) =>
    new Promise((resolve) => {
      if (entry.isFile) {
        entry.file(async (file) => {
          if (file.size < 1_000_000) state.files[prefix + entry.name] = await file.text();
          resolve();
        }, resolve);
      } else {
        entry.createReader().readEntries(async (children) => {
          for (const child of children) await read(child, `${prefix}${entry.name}/`);
          resolve();
        }, resolve);
      }
    });
  for (const entry of entries) await read(entry, "");
  state.current = Object.keys(state.files).find((p) => /\.ya?ml$/.test(p)) ?? state.current;
  showCurrent();
}

// --- start -----------------------------------------------------------------------------------
async function start() {
  hotfix = await Hotfix.load(await (await fetch("hotfix_wasm.wasm")).arrayBuffer());
  const known = hotfix.call({ op: "rules" });
  rules = new Map(known.rules.map((r) => [r.code, r]));
  for (const release of known.releases) $("release").append(new Option(release, release));
  for (const version of known.versions) $("target").append(new Option(version, version));
  $("target").value = known.versions[known.versions.length - 1];
  await restore();
  $("release").value = state.settings.heat_release;
  $("select").value = state.settings.select;
  $("ignore").value = state.settings.ignore;
  $("environments").value = state.settings.environments;
  $("parameters").value = state.settings.parameters;
  $("editor").addEventListener("input", () => {
    state.files[state.current] = $("editor").value;
    highlight();
    refresh();
    save();
  });
  $("editor").addEventListener("scroll", syncScroll);
  for (const id of ["release", "select", "ignore", "environments", "parameters"]) {
    $(id).addEventListener("change", () => {
      state.settings[id === "release" ? "heat_release" : id] = $(id).value;
      refresh();
      save();
    });
  }
  for (const button of $("views").children) button.onclick = () => showView(button.dataset.view);
  $("fix-all").onclick = () => {
    const answer = request("fix");
    setText(answer.text);
    status(`${answer.applied} fix${answer.applied === 1 ? "" : "es"} applied; ${$("status").textContent}`);
  };
  $("upgrade").onclick = upgrade;
  $("apply-upgrade").onclick = () => {
    if (upgraded !== null) setText(upgraded);
    $("upgrade-result").hidden = true;
  };
  $("add").onclick = () => {
    const path = prompt("Path of the new file (e.g. nested/server.yaml)");
    if (path && state.files[path] === undefined) addFile(path, "heat_template_version: 2016-10-14\n");
  };
  $("rename").onclick = () => {
    const path = prompt("New path", state.current);
    if (!path || state.files[path] !== undefined) return;
    state.files[path] = state.files[state.current];
    delete state.files[state.current];
    state.current = path;
    showCurrent();
  };
  $("remove").onclick = () => {
    if (Object.keys(state.files).length === 1) return;
    delete state.files[state.current];
    state.current = Object.keys(state.files)[0];
    showCurrent();
  };
  $("share").onclick = async () => {
    await save();
    // Not awaited: a browser may never answer (a permission it does not ask for).
    navigator.clipboard?.writeText(location.href).catch(() => {});
    status("The link to this state is in the address bar (and copied).");
  };
  $("editor-pane").addEventListener("dragover", (e) => e.preventDefault());
  $("editor-pane").addEventListener("drop", dropped);
  renderView();
  showCurrent();
  document.body.dataset.ready = "true";
}
start().catch((err) => status(`The playground cannot start: ${err.message}`));
