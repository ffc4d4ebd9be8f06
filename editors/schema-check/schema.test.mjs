// `hotfix schema` with the client editors use: Red Hat's yaml-language-server (pinned in
// package.json, installed by scripts/editors-check.sh), started over stdio as VS Code starts it,
// validating templates against the generated schemas.
//
// HOTFIX: the hotfix binary (default: target/debug/hotfix). The corpus test needs the shared
// folder (HOTFIX_SHARED, default ../shared beside the repository): without it the test is
// skipped, by name, unless HOTFIX_REQUIRE_SHARED=1, which makes its absence a failure.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from './lsp.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repository = resolve(here, '../..');
const hotfix = process.env.HOTFIX ?? join(repository, 'target/debug/hotfix');
const shared = resolve(repository, process.env.HOTFIX_SHARED ?? '../shared');
const server = join(here, 'node_modules/yaml-language-server/bin/yaml-language-server');

/** hotfix's standard output. */
function run(args, options = {}) {
  return execFileSync(hotfix, args, { maxBuffer: 1 << 30, ...options });
}

let work;
let schemas;
let client;

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'hotfix-schema-check-'));
  schemas = {
    template: join(work, 'hot.schema.json'),
    environment: join(work, 'environment.schema.json'),
    queens: join(work, 'queens.schema.json'),
  };
  writeFileSync(schemas.template, run(['schema']));
  writeFileSync(schemas.environment, run(['schema', '--environment']));
  writeFileSync(schemas.queens, run(['schema', '--heat-release', 'queens']));
  client = new Client(process.execPath, [server, '--stdio']);
  const settings = {
    yaml: {
      validate: true,
      // Heat reads YAML 1.1 (PyYAML): `yes` is a boolean, `2016-10-14` a date.
      yamlVersion: '1.1',
      schemaStore: { enable: false },
      schemas: {
        [pathToFileURL(schemas.template).href]: ['*.hot.yaml'],
        [pathToFileURL(schemas.environment).href]: ['*.env.yaml'],
      },
    },
  };
  client.onRequest('workspace/configuration', (params) =>
    params.items.map((item) => (item.section ? settings[item.section] ?? null : settings)),
  );
  await client.request('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(work).href,
    capabilities: {
      textDocument: { publishDiagnostics: {}, completion: { completionItem: { snippetSupport: false } } },
    },
  });
  client.notify('initialized', {});
  client.notify('workspace/didChangeConfiguration', { settings });
});

after(async () => {
  await client?.shutdown();
  if (work) rmSync(work, { recursive: true, force: true });
});

let version = 0;
/** Opens `text` as the file `path` and returns the diagnostics the server publishes. */
async function diagnostics(path, text) {
  const uri = pathToFileURL(path).href;
  const published = client.diagnosticsFor(uri);
  client.notify('textDocument/didOpen', {
    textDocument: { uri, languageId: 'yaml', version: ++version, text },
  });
  const found = await published;
  client.notify('textDocument/didClose', { textDocument: { uri } });
  return found;
}

/** `line:column message` of each diagnostic (one-based), sorted. */
function shown(found) {
  return found
    .map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message}`)
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
}

const MISTAKES = `heat_template_version: 2018-08-31
resources:
  volume:
    type: OS::Cinder::Volume
    properties:
      size: 1
      sise: 2
  port:
    type: OS::Neutron::Port
    properties:
      network: private
      admin_state_up: [true]
  server:
    type: OS::Nova::Server
    properties:
      image: cirros
  other:
    type: OS::Nova::Serverr
`;

test('the four mistakes are each reported where they are', async () => {
  const found = shown(await diagnostics(join(work, 'mistakes.hot.yaml'), MISTAKES));
  const lines = found.map((d) => parseInt(d, 10));
  assert.deepEqual(lines, [7, 12, 15, 18], found.join('\n'));
  assert.match(found[0], /Property sise is not allowed/, found.join('\n'));
  assert.match(found[1], /Incorrect type/, found.join('\n'));
  assert.match(found[2], /Missing property "flavor"/, found.join('\n'));
  assert.match(found[3], /OS::Nova::Server/, found.join('\n'));
});

const VALID = `heat_template_version: 2018-08-31
description: A server with a port and a volume.
parameters:
  flavor:
    type: string
    default: m1.small
    constraints:
      - custom_constraint: nova.flavor
  size:
    type: number
    default: 1
conditions:
  big: {equals: [{get_param: size}, 10]}
resources:
  port:
    type: OS::Neutron::Port
    properties:
      network_id: private
      admin_state_up: "True"
      fixed_ips: [{subnet: {get_param: flavor}}]
  server:
    type: OS::Nova::Server
    properties:
      flavor: {get_param: flavor}
      image: cirros
      networks:
        - port: {get_resource: port}
      user_data_format: RAW
    update_policy: {}
  volume:
    type: OS::Cinder::Volume
    condition: big
    deletion_policy: Snapshot
    properties:
      size: {get_param: size}
  group:
    type: OS::Heat::ResourceGroup
    update_policy:
      rolling_update: {max_batch_size: 2}
    properties:
      count: "3"
      resource_def:
        type: server.yaml
  custom:
    type: OS::TripleO::Thing
outputs:
  address:
    value: {get_attr: [server, first_address]}
`;

test('a valid template has no diagnostics', async () => {
  const found = shown(await diagnostics(join(work, 'valid.hot.yaml'), VALID));
  assert.deepEqual(found, []);
});

test('the modeline selects a schema: a release without the type reports it', async () => {
  const text = `# yaml-language-server: $schema=${pathToFileURL(schemas.queens).href}
heat_template_version: queens
resources:
  pause:
    type: OS::Heat::Delay
`;
  const found = shown(await diagnostics(join(work, 'modeline.yaml'), text));
  assert.equal(found.length, 1, found.join('\n'));
  assert.match(found[0], /^5:/, found.join('\n'));
  // The same with the newest release's schema: no finding.
  const newest = text.replace(schemas.queens, schemas.template).replace(
    /\$schema=\S+/,
    `$schema=${pathToFileURL(schemas.template).href}`,
  );
  assert.deepEqual(shown(await diagnostics(join(work, 'modeline-newest.yaml'), newest)), []);
});

test("completion offers the type's properties under `properties:`", async () => {
  const text = `heat_template_version: 2018-08-31
resources:
  server:
    type: OS::Nova::Server
    properties:
      fl
`;
  const uri = pathToFileURL(join(work, 'complete.hot.yaml')).href;
  const published = client.diagnosticsFor(uri);
  client.notify('textDocument/didOpen', {
    textDocument: { uri, languageId: 'yaml', version: ++version, text },
  });
  await published;
  const result = await client.request('textDocument/completion', {
    textDocument: { uri },
    position: { line: 5, character: 8 },
  });
  client.notify('textDocument/didClose', { textDocument: { uri } });
  const labels = (Array.isArray(result) ? result : result.items).map((item) => item.label);
  assert.ok(labels.includes('flavor'), labels.join(', '));
  assert.ok(labels.includes('flavor_update_policy'), labels.join(', '));
  // Another type's properties are not offered.
  assert.ok(!labels.includes('size'), labels.join(', '));
});

test('null is refused where Heat refuses it, and accepted where Heat accepts it', async () => {
  // Heat 27.0.1 (../shared/oracles/heat/stack.py --strict --no-cloud): `Resource nothing
  // description type must be string`, `Condition definitions must be a map`; the null
  // descriptions of the template, a parameter and an output, and null parameter_groups, pass.
  const text = `heat_template_version: 2016-10-14
description:
parameter_groups:
parameters:
  name:
    type: string
    description:
conditions:
resources:
  nothing:
    type: OS::Heat::None
    description:
outputs:
  out:
    description:
    value: x
`;
  const found = shown(await diagnostics(join(work, 'nulls.hot.yaml'), text));
  assert.deepEqual(found.map((d) => parseInt(d, 10)), [8, 12], found.join('\n'));
});

test('an environment file with an unknown section is reported', async () => {
  const text = `parameter_default:
  flavor: m1.small
resource_registry:
  OS::TripleO::Thing: thing.yaml
`;
  const found = shown(await diagnostics(join(work, 'mistake.env.yaml'), text));
  assert.equal(found.length, 1, found.join('\n'));
  assert.match(found[0], /^1:1 Property parameter_default is not allowed/, found.join('\n'));
});

/** Every file under `folder`, recursively. */
function* files(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

const corpus = join(shared, 'corpus');
const haveShared = existsSync(corpus);
if (!haveShared && process.env.HOTFIX_REQUIRE_SHARED === '1') {
  throw new Error(`HOTFIX_REQUIRE_SHARED=1, and ${corpus} is absent`);
}

test(
  'shared_corpus_templates_hotfix_finds_no_error_in_have_no_schema_error',
  { skip: haveShared ? false : `needs ${corpus} (the shared folder)` },
  async () => {
    const lint = run(['lint', '--format', 'json', '--exit-zero', '.'], { cwd: corpus });
    const withErrors = new Set(
      JSON.parse(lint)
        .filter((f) => f.severity === 'error')
        .map((f) => resolve(corpus, f.path)),
    );
    const chosen = [];
    for (const path of files(corpus)) {
      if (!/\.(ya?ml|template)$/.test(path) || /\.j2\.yaml$/.test(path)) continue;
      if (withErrors.has(path)) continue;
      const text = readFileSync(path, 'utf8');
      if (/^heat_template_version\s*:/m.test(text)) chosen.push({ path, text, kind: 'hot' });
      else if (/^(resource_registry|parameter_defaults)\s*:/m.test(text)) {
        chosen.push({ path, text, kind: 'env' });
      }
    }
    const templates = chosen.filter((c) => c.kind === 'hot').length;
    const environments = chosen.length - templates;
    const failures = [];
    // Opened many at a time: the server validates each 200 ms after it opens (its
    // validationDelayMs), and works on one at a time.
    const queue = [...chosen];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { path, text, kind } = next;
        // The schemas are associated by name: the file's text, opened under a name that selects one.
        const found = (await diagnostics(`${path}.${kind}.yaml`, text)).filter((d) =>
          String(d.source ?? '').startsWith('yaml-schema'),
        );
        if (found.length > 0) {
          failures.push(`${relative(corpus, path)}:\n  ${shown(found).join('\n  ')}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    failures.sort();
    console.log(`${templates} templates and ${environments} environment files without errors`);
    assert.ok(templates > 300, `only ${templates} templates`);
    assert.deepEqual(failures, []);
  },
);

test("the patterns of numbers read what Python's int() and float() read", () => {
  const schema = JSON.parse(readFileSync(schemas.template, 'utf8'));
  const properties = schema.definitions['OS::Heat::Delay properties'].properties;
  const pattern = (property) => {
    const [, text] = properties[property].anyOf;
    assert.equal(text.type, 'string');
    return new RegExp(text.pattern, 'u');
  };
  // OS::Heat::Delay has no integer property; OS::Cinder::Volume's size is one.
  const size = schema.definitions['OS::Cinder::Volume properties'].properties.size.anyOf[1];
  const integer = new RegExp(size.pattern, 'u');
  for (const yes of ['1', ' -12 ', '+1_000']) assert.ok(integer.test(yes), yes);
  for (const no of ['1.5', 'x', '', '1__0', '_1']) assert.ok(!integer.test(no), no);
  const number = pattern('min_wait');
  for (const yes of ['1', '1.5', '.5', '1e5', '-2.5E-3', 'inf', ' NaN ', 'Infinity']) {
    assert.ok(number.test(yes), yes);
  }
  for (const no of ['x', '', '1.2.3', 'e5', 'infinite']) assert.ok(!number.test(no), no);
});
