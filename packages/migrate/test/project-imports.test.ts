// A callback read switched to order_reference_v2 on a query typed by an imported type: the project's own type
// (a relative import, a tsconfig/jsconfig `paths` alias, a module under `baseUrl`) may lack order_reference_v2 and is
// marked to add it there; a package's type (`qs`'s ParsedQs) takes any key and is not. The run reads the nearest
// tsconfig.json or jsconfig.json above each file (its `extends` followed, comments and trailing commas allowed) to
// tell them apart; where it finds none (or cannot follow its `extends`) it cannot, and marks every import.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateCode } from '../src/code/run.ts';
import { formatCodeReport } from '../src/node/code.ts';
import { tempDir } from './helpers.ts';
import { todos } from './rewrite.ts';

const HEAD = `const BASE = 'https://api.partner-print.example/v1';\nconst headers = { 'X-Partner-Code': 'ACME1', 'X-Api-Key': process.env.PP_API_KEY ?? '' };\n`;
/** A callback handler whose query is typed by `query` (imported by `imports`), reading its V1 order by it. */
const handler = (imports: string, query: string) =>
  `${imports}\nimport type { Request } from 'express';\n${HEAD}export async function onCallback(req: Request<Record<string, string>, unknown, unknown, ${query}>) {\n  const order = await (await fetch(\`\${BASE}/orders/\${req.query.order_reference}\`, { headers })).json();\n  return order.order_reference;\n}\n`;
const PARSED_QS = handler("import type { ParsedQs } from 'qs';", 'ParsedQs');

/** A project of these files (path → text) in a new folder. */
function project(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** Writes the project's files, runs `code` over `src` twice, and returns the callback file's query-type findings. */
async function run(files: Record<string, string>, file = 'src/callback.ts') {
  const dir = project(files);
  const first = await migrateCode([join(dir, 'src')], { cwd: dir, mode: 'write' });
  const after = readFileSync(join(dir, file), 'utf8');
  const again = await migrateCode([join(dir, 'src')], { cwd: dir, mode: 'write' });
  expect(again.totals.changed).toBe(0);
  const findings = first.files.find((f) => f.path === join(...file.split('/')))!.findings;
  expect(findings.map((f) => f.what)).toContain('legacy callback: order_reference');
  expect(after).toContain('orderReference(req.query.order_reference_v2)');
  return { marked: findings.filter((f) => f.what === 'legacy callback: query type'), after, first };
}

// Comments, trailing commas, `extends`: what TypeScript reads.
const BASE_CONFIG = `{
  // The project's aliases.
  "compilerOptions": {
    "strict": true,
    "paths": { "@app/*": ["./src/*"], "~/*": ["./src/*"], },
  },
}
`;
const CONFIG = `/* The app's own config. */\n{ "extends": "./tsconfig.base.json", "include": ["src"], }\n`;

describe("a callback's query typed by an imported type", () => {
  it("a package's type (qs's ParsedQs) in a project whose tsconfig names its aliases: not marked, it takes any key", async () => {
    const r = await run({
      'tsconfig.base.json': BASE_CONFIG,
      'tsconfig.json': CONFIG,
      'src/callback.ts': PARSED_QS,
    });
    expect(r.marked).toEqual([]);
    expect(todos(r.after)).toBe(0);
  });

  it.each([
    [
      'a paths alias of the extended config',
      "import type { CallbackQuery } from '@app/types';",
      '@app/types',
    ],
    ['another paths alias', "import type { CallbackQuery } from '~/types';", '~/types'],
    ['a relative import', "import type { CallbackQuery } from './types';", './types'],
    ['a package.json imports name', "import type { CallbackQuery } from '#types';", '#types'],
  ])("the project's own type (%s): marked to add order_reference_v2 there", async (_, imports, from) => {
    const r = await run({
      'tsconfig.base.json': BASE_CONFIG,
      'tsconfig.json': CONFIG,
      'src/types.ts': 'export interface CallbackQuery {\n  order_reference: string;\n}\n',
      'src/callback.ts': handler(imports, 'CallbackQuery'),
    });
    expect(r.marked.map((f) => f.detail)).toEqual([
      expect.stringContaining(`query typed by \`CallbackQuery\` of ${from}: add it there`),
    ]);
    expect(todos(r.after)).toBe(1);
  });

  it("the request's own type from a paths alias (req: Req of '@app/types'): the project's, marked; Express's Request is not", async () => {
    const r = await run({
      'tsconfig.base.json': BASE_CONFIG,
      'tsconfig.json': CONFIG,
      'src/callback.ts': `import type { Req } from '@app/types';\n${HEAD}export async function onCallback(req: Req) {\n  const order = await (await fetch(\`\${BASE}/orders/\${req.query.order_reference}\`, { headers })).json();\n  return order.order_reference;\n}\n`,
    });
    expect(r.marked.map((f) => f.detail)).toEqual([
      expect.stringContaining('query typed by `Req` of @app/types: add it there'),
    ]);
  });

  it("in JavaScript, a JSDoc import('…') type of the query: a package's is not marked, the project's is", async () => {
    const js = (type: string) =>
      `${HEAD}/** @param {{ query: ${type} }} req */\nexport async function onCallback(req) {\n  const order = await (await fetch(\`\${BASE}/orders/\${req.query.order_reference}\`, { headers })).json();\n  return order.order_reference;\n}\n`;
    const files = { 'tsconfig.base.json': BASE_CONFIG, 'tsconfig.json': CONFIG };
    const pkg = await run({ ...files, 'src/callback.js': js("import('qs').ParsedQs") }, 'src/callback.js');
    expect(pkg.marked).toEqual([]);
    const own = await run(
      { ...files, 'src/callback.js': js("import('@app/types').Query") },
      'src/callback.js',
    );
    expect(own.marked.map((f) => f.detail)).toEqual([
      expect.stringContaining("query typed by `import('@app/types').Query`: add it there"),
    ]);
    // Without a config: marked, as a path alias is not told from a package.
    const bare = await run({ 'src/callback.js': js("import('qs').ParsedQs") }, 'src/callback.js');
    expect(bare.marked).toHaveLength(1);
  });

  it('under baseUrl: a module of the project is marked, a package (no such file under it) is not', async () => {
    const config = '{ "compilerOptions": { "baseUrl": "src" } }\n';
    const own = await run({
      'tsconfig.json': config,
      'src/types/callback.ts': 'export interface CallbackQuery {\n  order_reference: string;\n}\n',
      'src/callback.ts': handler("import type { CallbackQuery } from 'types/callback';", 'CallbackQuery'),
    });
    expect(own.marked.map((f) => f.detail)).toEqual([
      expect.stringContaining('query typed by `CallbackQuery` of types/callback: add it there'),
    ]);
    const pkg = await run({ 'tsconfig.json': config, 'src/callback.ts': PARSED_QS });
    expect(pkg.marked).toEqual([]);
  });

  it('a jsconfig.json is read as a tsconfig.json is (the nearest of the two above the file)', async () => {
    const config = '{ "compilerOptions": { "paths": { "@/*": ["./src/*"] } } }\n';
    const own = await run({
      'jsconfig.json': config,
      'src/callback.ts': handler("import type { CallbackQuery } from '@/types';", 'CallbackQuery'),
    });
    expect(own.marked).toHaveLength(1);
    expect((await run({ 'jsconfig.json': config, 'src/callback.ts': PARSED_QS })).marked).toEqual([]);
    // A nearer tsconfig.json (src/) without aliases: @/types is a package's there.
    const nearer = await run({
      'jsconfig.json': config,
      'src/tsconfig.json': '{}\n',
      'src/callback.ts': handler("import type { CallbackQuery } from '@/types';", 'CallbackQuery'),
    });
    expect(nearer.marked).toEqual([]);
  });

  it('a config with a syntax error (its own, or in the config it extends): named in the report, and read as no config (every import marked)', async () => {
    // A stray word after the paths get-tsconfig would still read (and a key-like string the report must not show).
    const broken = `{\n  "compilerOptions": {\n    "paths": { "@app/*": ["./src/*"] } "sk_live_notInTheReport"\n  }\n}\n`;
    for (const [files, path, where] of [
      [{ 'tsconfig.json': broken }, 'tsconfig.json', 'line 3, column 40'],
      [{ 'jsconfig.json': broken }, 'jsconfig.json', 'line 3, column 40'],
      [{ 'tsconfig.json': CONFIG, 'tsconfig.base.json': broken }, 'tsconfig.base.json', 'line 3, column 40'],
      [{ 'tsconfig.json': '{ "compilerOptions": { "strict": true }\n' }, 'tsconfig.json', 'line 2, column 1'],
    ] as const) {
      const r = await run({ ...files, 'src/callback.ts': PARSED_QS });
      expect(r.marked.map((f) => f.detail)).toEqual([
        expect.stringContaining('query typed by `ParsedQs` of qs: add it there'),
      ]);
      expect(r.first.configs.map((c) => c.path)).toEqual([path]);
      const report = formatCodeReport(r.first, 'write');
      const line = report.split('\n').find((l) => l.startsWith(path));
      expect(line).toMatch(/ warning {3}could not be read fully \(a syntax error at /);
      expect(line).toContain(where);
      expect(report).not.toMatch(/sk_live|compilerOptions|@app/);
    }
    // The same config above several files: named once.
    const two = await run({
      'tsconfig.json': broken,
      'src/callback.ts': PARSED_QS,
      'src/other.ts': PARSED_QS,
    });
    expect(two.first.configs).toHaveLength(1);
  });

  it('a `paths` pattern TypeScript refuses (two `*`, TS5061): the run goes on, the config named and read as no config', async () => {
    // The run stopped at the first file under it: "Pattern '@a/*/*' can have at most one '*' character."
    const bad = '"baseUrl": ".", "paths": { "@a/*/*": ["./src/*/*"] }';
    for (const config of [
      `{ "compilerOptions": { ${bad} } }\n`,
      `{ "extends": "./tsconfig.missing.json", "compilerOptions": { ${bad} } }\n`,
    ]) {
      const r = await run({ 'tsconfig.json': config, 'src/callback.ts': PARSED_QS });
      expect(r.marked.map((f) => f.detail)).toEqual([
        expect.stringContaining('query typed by `ParsedQs` of qs: add it there'),
      ]);
      expect(r.first.configs.map((c) => [c.path, c.warning])).toEqual([
        [
          'tsconfig.json',
          expect.stringMatching(
            /a `paths` pattern TypeScript refuses .*: the files under it are rewritten as without a config/,
          ),
        ],
      ]);
      expect(JSON.stringify(r.first)).not.toContain('@a/');
    }
  });

  it('a config whose `extends` is not found or has a syntax error, writing `paths` and `baseUrl` itself: those are used, as tsc does, the config still named', async () => {
    // tsc reports the error (TS5083, TS1005) and resolves the config's own options, which no base would change.
    const own = (base: string) =>
      `{\n  "extends": "${base}",\n  "compilerOptions": { "baseUrl": ".", "paths": { "@app/*": ["./src/*"] } },\n}\n`;
    const broken = '{ "compilerOptions": { "strict": true } "sk_live_notInTheReport" }\n';
    for (const [files, path, warning] of [
      [
        { 'tsconfig.json': own('./tsconfig.missing.json') },
        'tsconfig.json',
        /an `extends` it names is not found/,
      ],
      [
        { 'tsconfig.json': own('./tsconfig.base.json'), 'tsconfig.base.json': broken },
        'tsconfig.base.json',
        /a syntax error at line 1, column 41; extended by tsconfig.json\): the files under it are rewritten with the `paths` and `baseUrl` tsconfig.json writes itself/,
      ],
    ] as const) {
      const pkg = await run({ ...files, 'src/callback.ts': PARSED_QS });
      expect(pkg.marked).toEqual([]);
      expect(pkg.first.configs.map((c) => [c.path, c.warning])).toEqual([
        [path, expect.stringMatching(warning)],
      ]);
      expect(JSON.stringify(pkg.first)).not.toMatch(/missing|sk_live/);
      const alias = await run({
        ...files,
        'src/types.ts': 'export interface CallbackQuery {\n  order_reference: string;\n}\n',
        'src/callback.ts': handler("import type { CallbackQuery } from '@app/types';", 'CallbackQuery'),
      });
      expect(alias.marked.map((f) => f.detail)).toEqual([
        expect.stringContaining('query typed by `CallbackQuery` of @app/types: add it there'),
      ]);
    }
    // Only one of the two its own (the base may set the other: a `baseUrl` its paths resolve under, `paths`), or the
    // config itself broken: as no config, every import marked.
    for (const files of [
      {
        'tsconfig.json':
          '{ "extends": "./tsconfig.missing.json", "compilerOptions": { "paths": { "@app/*": ["./src/*"] } } }\n',
      },
      {
        'tsconfig.json': '{ "extends": "./tsconfig.missing.json", "compilerOptions": { "baseUrl": "." } }\n',
      },
      {
        'tsconfig.json': own('./tsconfig.base.json').replace('"."', '"." "x"'),
        'tsconfig.base.json': '{}\n',
      },
    ] as Array<Record<string, string>>) {
      const r = await run({ ...files, 'src/callback.ts': PARSED_QS });
      expect(r.marked.map((f) => f.detail)).toEqual([
        expect.stringContaining('query typed by `ParsedQs` of qs: add it there'),
      ]);
      expect(r.first.configs.map((c) => c.path)).toEqual(['tsconfig.json']);
    }
  });

  it("a JSDoc @typedef of the callback's query that another module of the run names: marked, not widened; a module outside the run is not seen", async () => {
    const handlers = `// @ts-check\n${HEAD}/** @typedef {{ order_reference: string }} Query */\n/** @param {{ query: Query }} req */\nexport async function onCallback(req) {\n  const order = await (await fetch(\`\${BASE}/orders/\${req.query.order_reference}\`, { headers })).json();\n  return order.order_reference;\n}\n`;
    const typedef = '/** @typedef {{ order_reference: string }} Query */';
    for (const [file, other] of [
      [
        'src/fixtures.js',
        "/** @type {import('./handlers').Query} */\nexport const sample = { order_reference: 'ACME1-1' };\n",
      ],
      [
        'src/fixtures.js',
        "/** @import { Query } from './handlers.js' */\n/** @type {Query} */\nexport const sample = { order_reference: 'ACME1-1' };\n",
      ],
      [
        'test/fixture.ts',
        "import type { Query } from '../src/handlers.js';\nexport const sample: Query = { order_reference: 'ACME1-1' };\n",
      ],
      [
        'test/fixture.ts',
        "import type * as H from '../src/handlers';\nexport const sample: H.Query = { order_reference: 'ACME1-1' };\n",
      ],
      ['src/index.ts', "export type { Query } from './handlers.js';\n"],
      ['src/index.ts', "export * from './handlers.js';\n"],
    ] as const) {
      const dir = project({ 'src/handlers.js': handlers, [file]: other });
      const r = await migrateCode([dir], { cwd: dir, mode: 'write' });
      const after = readFileSync(join(dir, 'src/handlers.js'), 'utf8');
      expect(after, other).toContain('orderReference(req.query.order_reference_v2)');
      expect(after, other).toContain(typedef);
      const found = r.files.find((f) => f.path === join('src', 'handlers.js'))!.findings;
      expect(found.filter((f) => f.what === 'legacy callback: query type').map((f) => f.detail)).toEqual([
        expect.stringContaining(
          `\`Query\` of this file, which ${join(...file.split('/'))} of the run names too`,
        ),
      ]);
      expect(readFileSync(join(dir, file), 'utf8')).toBe(other);
      // The other module left out of the run: not seen, the typedef widened as before.
      const alone = project({ 'src/handlers.js': handlers, [file]: other });
      await migrateCode([join(alone, 'src/handlers.js')], { cwd: alone, mode: 'write' });
      expect(readFileSync(join(alone, 'src/handlers.js'), 'utf8')).toContain(
        '/** @typedef {{ order_reference: string, order_reference_v2: string }} Query */',
      );
    }
  });

  it('no tsconfig.json or jsconfig.json above the file (or one whose extends is not found, without paths and baseUrl of its own): every import may be an alias, marked', async () => {
    const configs: Array<Record<string, string>> = [
      {},
      { 'tsconfig.json': '{ "extends": "./tsconfig.missing.json" }\n' },
    ];
    for (const files of configs) {
      const r = await run({ ...files, 'src/callback.ts': PARSED_QS });
      expect(r.marked.map((f) => f.detail)).toEqual([
        expect.stringContaining('query typed by `ParsedQs` of qs: add it there'),
      ]);
      // The config whose extends is not found is named (not what it extends); no config at all is no warning.
      expect(r.first.configs.map((c) => [c.path, c.warning])).toEqual(
        Object.keys(files).map((path) => [
          path,
          expect.stringMatching(/^could not be read fully \(an `extends` it names is not found\)/),
        ]),
      );
      expect(JSON.stringify(r.first)).not.toContain('missing');
    }
  });
});
