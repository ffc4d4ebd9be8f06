// The playground page: files in an editor, hotfix's findings as one types, fixes, upgrades.
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
  settings: { heat_release: "", select: "", ignore: "" },
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
    ...extra,
  });
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
  renderTabs();
  lint();
  save();
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
  lint();
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
  $("editor").addEventListener("input", () => {
    state.files[state.current] = $("editor").value;
    lint();
    save();
  });
  for (const id of ["release", "select", "ignore"]) {
    $(id).addEventListener("change", () => {
      state.settings[id === "release" ? "heat_release" : id] = $(id).value;
      lint();
      save();
    });
  }
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
  showCurrent();
  document.body.dataset.ready = "true";
}
start().catch((err) => status(`The playground cannot start: ${err.message}`));
