// `partner-print-migrate code`: modes, exit codes, and bad input (a file that does not parse, binary and
// generated files, symlinks out of the given paths, files git lists as modified).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateCode } from '../src/code/index.ts';
import { newSandbox, run, tempDir } from './helpers.ts';

const V1_FILE = `import axios from 'axios';

const api = axios.create({
  baseURL: 'https://api.partner-print.example/v1',
  headers: { 'X-Partner-Code': 'ACME', 'X-Api-Key': process.env.KEY },
});

export async function create(order) {
  const { data } = await api.post('/orders', order);
  return data.reference;
}
`;

function project(files: Record<string, string | Buffer>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('code: modes and exit codes', () => {
  it('dry run (default) prints a unified diff and the report, and changes nothing', async () => {
    const dir = project({ 'src/api.js': V1_FILE });
    const r = await run(['code', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`--- a/${join(dir, 'src/api.js').replace(/^\//, '')}`);
    expect(r.stdout).toMatch(
      /^\+ {2}const data = \(await partnerPrint\.createOrder\(await partnerPrintV1\.toV2Order\(order\)\)\)\.order;$/m,
    );
    expect(r.stdout).toMatch(/api\.js:9:\d+ +rewritten POST \/orders \(axios\)/);
    expect(r.stdout).toMatch(/1 file scanned: 1 would change, 1 V1 use rewritable, 0 marked TODO/);
    expect(readFileSync(join(dir, 'src/api.js'), 'utf8')).toBe(V1_FILE);
  });

  it('--write rewrites in place, keeps the mode, and a second run changes nothing', async () => {
    const dir = project({ 'api.js': V1_FILE });
    const file = join(dir, 'api.js');
    execFileSync('chmod', ['640', file]);
    expect((await run(['code', dir, '--write', '--store', 'ACME=Store_abc'])).code).toBe(0);
    const once = readFileSync(file, 'utf8');
    expect(once).toContain("createV1Adapter(partnerPrint, { stores: { 'ACME': 'Store_abc' } })");
    expect(once).not.toContain('axios');
    expect(statSync(file).mode & 0o777).toBe(0o640);
    const again = await run(['code', dir, '--write']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/0 rewritten, 0 V1 uses rewritable, 0 marked TODO/);
    expect(readFileSync(file, 'utf8')).toBe(once);
  });

  it('--check exits 1 with file:line while V1 usage remains, 0 once it is gone; writes nothing', async () => {
    const dir = project({
      'a.ts': V1_FILE,
      'b.ts': "export const x = 'https://api.stripe.com/v1/charges';\n",
    });
    const r = await run(['code', dir, '--check']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/a\.ts:9:\d+ +rewritten/);
    expect(r.stdout).not.toMatch(/b\.ts/);
    expect(r.stdout).toMatch(/V1 usage remains\./);
    expect(r.stdout).not.toContain('---');
    expect(readFileSync(join(dir, 'a.ts'), 'utf8')).toBe(V1_FILE);
    await run(['code', dir, '--write']);
    const clean = await run(['code', dir, '--check']);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/No V1 usage found\./);
  });

  it('--check keeps failing on code marked TODO, after --write', async () => {
    const dir = project({
      'attrs.ts': V1_FILE.replace("api.post('/orders', order)", "api.get('/stock-attributes')"),
    });
    await run(['code', dir, '--write']);
    const r = await run(['code', dir, '--check']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /attrs\.ts:\d+:\d+ +todo +GET \/stock-attributes \(axios\) — .*TODO already in place/,
    );
  });

  it('--check on the new rewrites: stock, an upload and a render are findings before --write; after it, only what was marked', async () => {
    const body = (fn: string) => V1_FILE.replace(/export async function create[\s\S]*$/, fn);
    const dir = project({
      'stock.ts': body(
        "export async function counts() {\n  const { data } = await api.get('/stock');\n  return data.map((e) => e.logical_quantity);\n}\nexport async function dump() {\n  const { data } = await api.get('/stock');\n  return data;\n}\n",
      ),
      'upload.ts': body(
        "export async function up(b64) {\n  const { data } = await api.post('/images', { image: b64 });\n  return data.reference;\n}\n",
      ),
      'render.ts': body(
        "export async function show(sku, image_reference) {\n  await api.post('/render', { scene_reference: 'Scene_01HZX3M8Q6V2K9T4N7R5B1C0SC', perspective_reference: 'Perspective_01HZX3M8Q6V2K9T4N7R5B1C0PF', sku, image_reference });\n  return true;\n}\nexport async function dump(sku, image_reference) {\n  const { data } = await api.post('/render', { scene_reference: 'Scene_01HZX3M8Q6V2K9T4N7R5B1C0SC', perspective_reference: 'Perspective_01HZX3M8Q6V2K9T4N7R5B1C0PF', sku, image_reference });\n  return data;\n}\n",
      ),
    });
    const before = await run(['code', dir, '--check']);
    expect(before.code).toBe(1);
    expect(before.stdout).toMatch(/stock\.ts:9:\d+ +rewritten +GET \/stock \(axios\) → GET \/items/);
    expect(before.stdout).toMatch(
      /stock\.ts:13:\d+ +todo +GET \/stock \(axios\) — V1 call left as it is: it uses the V1 stock list as a whole/,
    );
    expect(before.stdout).toMatch(/upload\.ts:9:\d+ +rewritten +POST \/images/);
    expect(before.stdout).toMatch(/render\.ts:9:\d+ +rewritten +POST \/render/);
    expect(before.stdout).toMatch(
      /render\.ts:13:\d+ +todo +POST \/render \(axios\) — V1 call left as it is: it uses the V1 render answer as a whole/,
    );
    await run(['code', dir, '--write']);
    const after = await run(['code', dir, '--check']);
    expect(after.code).toBe(1);
    const findings = after.stdout.split('\n').filter((l) => /^\S+\.ts:\d+:\d+ /.test(l));
    expect(findings.every((l) => /todo .*TODO already in place/.test(l))).toBe(true);
    // The render and the stock call whose answers are returned whole, left on V1, and the V1 axios instance each
    // still goes through: four TODOs, nothing else.
    expect(findings.map((l) => l.split(':')[0]?.replace(/^.*\//, '')).sort()).toEqual([
      'render.ts',
      'render.ts',
      'stock.ts',
      'stock.ts',
    ]);
    expect(readFileSync(join(dir, 'stock.ts'), 'utf8')).toContain(
      "const { data } = await api.get('/stock');\n  return data;",
    );
    expect((await run(['code', dir, '--write'])).stdout).not.toContain('---');
    expect(readFileSync(join(dir, 'upload.ts'), 'utf8')).toContain(
      'const data = await partnerPrintV1.uploadImage(b64);',
    );
  });

  it('--key-expression sets where the key is read; a literal is refused', async () => {
    const dir = project({ 'api.js': V1_FILE });
    const r = await run(['code', dir, '--key-expression', 'config.partnerPrint.secretKey']);
    expect(r.stdout).toContain('createClient({ secretKey: config.partnerPrint.secretKey,');
    const bad = await run(['code', dir, '--key-expression', "'sk_live_123'"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not the key/);
    expect(bad.stderr + bad.stdout).not.toContain('sk_live_123');
    expect((await run(['code', dir, '--key-expression', 'a +'])).code).toBe(2);
    // A key written into an expression (a fallback, a concatenation) is a key too.
    for (const expr of [
      "process.env.PP_KEY ?? 'sk_live_9f8e7d6c5b4a'",
      'process.env.PP_KEY || `sk_live_9f8e7d6c5b4a`',
      "'sk_live_' + '9f8e7d6c5b4a'",
    ]) {
      const keyed = await run(['code', dir, '--key-expression', expr]);
      expect(keyed.code, expr).toBe(2);
      expect(keyed.stderr, expr).toMatch(/not the key/);
      expect(keyed.stderr + keyed.stdout, expr).not.toContain('9f8e7d6c5b4a');
    }
    // A short literal (the default's empty fallback) is no key.
    expect((await run(['code', dir, '--key-expression', "process.env.PP_KEY ?? ''"])).code).toBe(0);
  });

  it('a V1 API key or a V2 secret key written in the code never appears in the diff, report or JSON', async () => {
    const v1Key = 'v1key_9f8e7d6c5b4a3210';
    const v2Key = 'sk_live_Zq81nV0pL2xY7wT4';
    const constKey = 'ak_0123456789abcdef';
    const headerKey = 'hk_fedcba9876543210';
    const dir = project({
      'api.js': V1_FILE.replace('process.env.KEY', `'${v1Key}'`),
      'const.js': `import axios from 'axios';\nconst API_KEY = '${constKey}';\nconst api = axios.create({ baseURL: 'https://api.partner-print.example/v1', headers: { 'X-Partner-Code': 'ACME', 'X-Api-Key': API_KEY } });\nexport async function attrs() {\n  const { data } = await api.get('/stock-attributes');\n  return data;\n}\nexport async function create(order) {\n  const { data } = await api.post('/orders', order);\n  return data.reference;\n}\n`,
      'half.ts': `import { createClient } from '@partner-print/client';\nconst v2 = createClient({ secretKey: '${v2Key}', baseUrl: 'https://api.partner-print.example/v2' });\nconst h = new Headers();\nh.set('X-Api-Key', '${headerKey}');\nexport async function f(ref: string) {\n  const res = await fetch(\`https://api.partner-print.example/v1/orders/\${ref}\`, { headers: { 'X-Partner-Code': 'ACME' } });\n  return [v2, h, (await res.json()).reference];\n}\n`,
    });
    for (const args of [[], ['--json'], ['--check']]) {
      const r = await run(['code', dir, ...args]);
      expect(r.stdout, args.join(' ')).toContain('rewritten');
      for (const key of [v1Key, v2Key, constKey, headerKey])
        expect(r.stdout + r.stderr, `${args.join(' ')} ${key}`).not.toContain(key);
    }
    // The dry run's diff shows where the key was.
    expect((await run(['code', dir])).stdout).toContain("'X-Api-Key': '[REDACTED]'");
  });

  it('a key written as a fallback (||, ??), in a ternary, with escapes or in pieces is redacted too, in the diff and --json', async () => {
    const orFallback = 'live_9f8e7d6c5b4a3210';
    const nullish = 'live_0a1b2c3d4e5f6789';
    const branch = 'live_test_77665544332211';
    // Written with a \u escape: the source shows `live_\u0039…`, the value is `live_9…`.
    const escaped = 'live_\\u0039a8b7c6d5e4f3210';
    const pieces = ['live_abcdefgh', '12345678'];
    const dir = project({
      'or.js': V1_FILE.replace('process.env.KEY', `process.env.KEY || '${orFallback}'`),
      'nullish.js': `import axios from 'axios';\nconst KEY = process.env.PP_KEY ?? '${nullish}';\n${V1_FILE.replace("import axios from 'axios';\n", '').replace('process.env.KEY', 'KEY')}`,
      'branch.js': V1_FILE.replace('process.env.KEY', `process.env.PROD ? process.env.KEY : '${branch}'`),
      'escaped.js': `import axios from 'axios';\nconst API_KEY = '${escaped}';\n${V1_FILE.replace("import axios from 'axios';\n", '').replace('process.env.KEY', 'API_KEY')}`,
      'pieces.js': V1_FILE.replace('process.env.KEY', `['${pieces[0]}', '${pieces[1]}'].join('')`),
    });
    const keys = [orFallback, nullish, branch, escaped, 'live_9a8b7c6d5e4f3210', ...pieces];
    for (const args of [[], ['--json']]) {
      const r = await run(['code', dir, ...args]);
      expect(r.stdout, args.join(' ')).toContain('rewritten');
      for (const key of keys) expect(r.stdout + r.stderr, `${args.join(' ')} ${key}`).not.toContain(key);
    }
    const diff = (await run(['code', dir])).stdout;
    expect(diff).toContain("'X-Api-Key': process.env.KEY || '[REDACTED]'");
    expect(diff).toContain("const KEY = process.env.PP_KEY ?? '[REDACTED]';");
    expect(diff).toContain("const API_KEY = '[REDACTED]';");
    expect(diff).toContain("['[REDACTED]', '[REDACTED]'].join('')");
  });

  it('usage errors exit 2: two modes, a bad --store, a missing path', async () => {
    const dir = project({ 'api.js': V1_FILE });
    const two = await run(['code', dir, '--write', '--check']);
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/Choose one of --dry, --write and --check/);
    const store = await run(['code', dir, '--store', 'ACME=42']);
    expect(store.code).toBe(2);
    expect(store.stderr).toMatch(/must be a Store_ reference/);
    const missing = await run(['code', join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Path not found/);
  });

  it('--json gives the result as JSON', async () => {
    const dir = project({ 'api.js': V1_FILE });
    const r = await run(['code', dir, '--json']);
    const j = JSON.parse(r.stdout);
    expect(j.command).toBe('code');
    expect(j.mode).toBe('dry');
    expect(j.totals).toMatchObject({ files: 1, changed: 1, rewritten: 1, todo: 0, errors: 0 });
    expect(j.files[0].diff).toContain('+++ b/');
  });

  it('a tsconfig.json with a syntax error is named (its path and where, none of its text); the run goes on (exit 0)', async () => {
    const dir = project({
      'tsconfig.json': '{ "compilerOptions": { "paths": { "@app/*": ["./src/*"] } "sk_live_notShown" } }\n',
      'src/api.js': V1_FILE,
    });
    const r = await run(['code', join(dir, 'src')]);
    expect(r.code).toBe(0);
    const line = r.stdout.split('\n').find((l) => l.includes('tsconfig.json'));
    expect(line).toMatch(
      /tsconfig\.json +warning +could not be read fully \(a syntax error at line 1, column 59\): the files under it are rewritten as without a config/,
    );
    expect(r.stdout + r.stderr).not.toMatch(/sk_live|compilerOptions|@app/);
    const j = JSON.parse((await run(['code', join(dir, 'src'), '--json'])).stdout);
    expect(j.configs).toEqual([
      { path: expect.stringMatching(/tsconfig\.json$/), warning: expect.any(String) },
    ]);
  });
});

describe('code --skus: the file skus wrote', () => {
  const orderFile = (skus: string[]) =>
    `export async function send(id: string) {\n  const res = await fetch('https://api.partner-print.example/v1/orders', { method: 'POST', headers: { 'X-Partner-Code': 'ACME' }, body: JSON.stringify({ store_code: 'ACME1', shipping_kind: 'combined', partner_reference: id, orderlines: [${skus.map((s) => `{ sku: '${s}', quantity: 1 }`).join(', ')}] }) });\n  return (await res.json()).reference;\n}\n`;

  it.each(['jsonl', 'csv'])(
    'a literal SKU skus resolved (%s) is its Product_ reference; one it did not is looked up',
    async (format) => {
      const sb = newSandbox();
      const { legacySkus, products } = sb.seed;
      const dir = project({
        'skus.csv': `sku\n${legacySkus.nonPrint}\nNO-SUCH-SKU\n`,
        'src/order.ts': orderFile([legacySkus.nonPrint, 'NO-SUCH-SKU']),
      });
      const mapping = join(dir, `skus.products.${format}`);
      const skus = await run(['skus', join(dir, 'skus.csv'), '--sandbox', '-o', mapping], { sandbox: sb });
      expect(skus.code).toBe(1); // NO-SUCH-SKU is unknown
      const r = await run(['code', join(dir, 'src'), '--store', 'ACME1=Store_abc', '--skus', mapping]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(
        `orderlines: [{ productReference: '${products.nonPrint}', quantity: 1 }, { productReference: await partnerPrintV1.productReference('NO-SUCH-SKU'), quantity: 1 }]`,
      );
    },
  );

  it('a file skus did not write, a malformed line or a SKU resolved twice differently is a usage error (exit 2)', async () => {
    const ref = (c: string) => `Product_${c.repeat(26)}`;
    const cases: Array<[string, string, RegExp]> = [
      ['plain.jsonl', '{"sku":"A"}\n', /line 1 has no status; pass the file the skus command wrote/],
      ['bad.jsonl', '{"sku":"A","status":"resolved"\n', /Malformed JSON on line 1/],
      [
        'noref.jsonl',
        '{"sku":"A","status":"resolved","productReference":"Item_1"}\n',
        /line 1 is resolved but holds no Product_ reference/,
      ],
      [
        'twice.jsonl',
        `{"sku":"A","status":"resolved","productReference":"${ref('a')}"}\n{"sku":"A","status":"resolved","productReference":"${ref('b')}"}\n`,
        /SKU A is resolved to both/,
      ],
      ['skus.txt.gz', '', /Cannot tell the format/],
    ];
    for (const [name, text, message] of cases) {
      const dir = project({ [name]: text, 'src/order.ts': orderFile(['A']) });
      const r = await run(['code', join(dir, 'src'), '--skus', join(dir, name)]);
      expect(r.code, name).toBe(2);
      expect(r.stderr, name).toMatch(message);
      expect(readFileSync(join(dir, 'src/order.ts'), 'utf8')).toBe(orderFile(['A']));
    }
    const missing = await run(['code', tempDir(), '--skus', join(tempDir(), 'nope.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/File not found/);
  });
});

describe('code: bad input', () => {
  it('a file that does not parse is reported and left untouched; the run goes on (exit 1)', async () => {
    const broken = 'export const x = {\n  a: 1,\n';
    const dir = project({ 'broken.ts': broken, 'ok.js': V1_FILE });
    const r = await run(['code', dir, '--write']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/broken\.ts +error +does not parse: .*\(left as it is\)/);
    expect(readFileSync(join(dir, 'broken.ts'), 'utf8')).toBe(broken);
    expect(readFileSync(join(dir, 'ok.js'), 'utf8')).toContain('partnerPrint.createOrder');
  });

  it('binary, generated, minified, declaration and dependency files are skipped', async () => {
    const dir = project({
      'bin.js': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0x61, 0x78, 0x69, 0x6f, 0x73]),
      'gen.ts': `// @generated by a tool\n${V1_FILE}`,
      'app.min.js': V1_FILE,
      'types.d.ts': 'declare const x: string;\n',
      'node_modules/lib/index.js': V1_FILE,
      'dist/out.js': V1_FILE,
    });
    const r = await run(['code', dir, '--write']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/bin\.js +skipped +binary/);
    expect(r.stdout).toMatch(/gen\.ts +skipped +generated \(marked as such\)/);
    expect(r.stdout).toMatch(/app\.min\.js +skipped +generated/);
    expect(r.stdout).toMatch(/types\.d\.ts +skipped +generated/);
    expect(r.stdout).not.toMatch(/node_modules|dist/);
    expect(readFileSync(join(dir, 'gen.ts'), 'utf8')).toContain('axios.create');
    expect(readFileSync(join(dir, 'node_modules/lib/index.js'), 'utf8')).toBe(V1_FILE);
  });

  it('symlinks out of the given paths are not followed, and nothing outside them is written', async () => {
    const outside = project({ 'secret.js': V1_FILE, 'dir/other.js': V1_FILE });
    const dir = project({ 'inside.js': V1_FILE });
    symlinkSync(join(outside, 'secret.js'), join(dir, 'link.js'));
    symlinkSync(join(outside, 'dir'), join(dir, 'linked-dir'));
    symlinkSync(join(dir, 'inside.js'), join(dir, 'alias.js'));
    const r = await run(['code', dir, '--write']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/link\.js +skipped +symlink to outside the given paths/);
    expect(r.stdout).toMatch(/linked-dir +skipped +symlink to outside the given paths/);
    expect(readFileSync(join(outside, 'secret.js'), 'utf8')).toBe(V1_FILE);
    expect(readFileSync(join(outside, 'dir/other.js'), 'utf8')).toBe(V1_FILE);
    // A link inside the paths is the same file: rewritten once.
    expect(readFileSync(join(dir, 'inside.js'), 'utf8')).toContain('partnerPrint.createOrder');
    expect(r.stdout).toMatch(/1 file scanned/);
  });

  it('--write warns about files git lists as modified (without running git)', async () => {
    const dir = project({ 'clean.js': V1_FILE, 'dirty.js': V1_FILE });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
    git('init', '-q');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'v1');
    writeFileSync(join(dir, 'dirty.js'), `${V1_FILE}// work in progress\n`);
    writeFileSync(join(dir, 'new.js'), V1_FILE);
    const r = await run(['code', dir, '--write'], { env: { PATH: '' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/dirty\.js +warning +git lists this file as modified/);
    expect(r.stdout).not.toMatch(/clean\.js +warning/);
    expect(r.stdout).not.toMatch(/new\.js +warning/);
  });

  it('a file that cannot be read (removed during the run) is that file’s error; the run goes on', async () => {
    const dir = project({ 'a.js': V1_FILE, 'b.js': V1_FILE, 'c.js': V1_FILE });
    const result = await migrateCode([dir], {
      cwd: dir,
      onFile: (f) => {
        if (f.path === 'a.js') unlinkSync(join(dir, 'b.js'));
      },
    });
    expect(result.files.map((f) => [f.path, f.status])).toEqual([
      ['a.js', 'changed'],
      ['b.js', 'error'],
      ['c.js', 'changed'],
    ]);
    expect(result.files[1]!.error).toMatch(/^not read: ENOENT/);
  });
});
