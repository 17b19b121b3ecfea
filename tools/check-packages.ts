// Packs every publishable package the way `pnpm publish` would (publishConfig applied),
// then runs publint --strict and attw (every resolution: node10, node16 ESM and CommonJS, bundler) on the tarball,
// so what we check is what ships.
// `--keep-tarballs DIR` packs into DIR and leaves the tarballs there (pnpm test hands them to the
// consumer projects, `test:consumers --tarballs DIR`, instead of packing again).
// Both run in this process through their APIs (publint's `publint()`, `@arethetypeswrong/core`): their
// CLIs through npx cost a process per package and tool, each loading TypeScript again.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { problemKindInfo } from '@arethetypeswrong/core/problems';
import type { Problem } from '@arethetypeswrong/core/types';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { packAll } from './consumers/pack.ts';

const root = new URL('..', import.meta.url).pathname;

interface Outcome {
  ok: boolean;
  output: string;
}

/** publint --strict: warnings count as errors; suggestions are listed with them but fail nothing. */
async function lint(data: Uint8Array): Promise<Outcome> {
  const tarball = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
  const { messages, pkg } = await publint({ pack: { tarball }, strict: true });
  const lines = messages.map((m) => `${m.type}: ${formatMessage(m, pkg, { color: false }) ?? m.code}`);
  return { ok: !messages.some((m) => m.type === 'error'), output: lines.join('\n') };
}

const WHERE = ['entrypoint', 'resolutionKind', 'typesFileName', 'implementationFileName', 'fileName'];

/** One problem: its title, where it is (entry point, resolution, files), what it means and its page. */
function describe(problem: Problem): string {
  const info = problemKindInfo[problem.kind];
  const where = Object.entries(problem)
    .filter(([key, value]) => WHERE.includes(key) && typeof value === 'string')
    .map(([, value]) => String(value));
  return `${info.title} (${where.join(', ')}): ${info.description} ${info.docsUrl}`;
}

/**
 * attw's analysis; fails on any problem, in every resolution kind (its CLI's default profile, `strict`). node10 too
 * (TypeScript's `moduleResolution: node`, what `module: commonjs` without a moduleResolution gets: NestJS's default
 * tsconfig): it knows no `exports`, so the root's types come from the top-level `types` and each subpath's from
 * `typesVersions`, the CommonJS declarations (.d.cts) such a project requires at run time. node16-esm and
 * bundler get the ESM files and their .d.ts, node16-cjs the CommonJS files and their .d.cts.
 */
async function types(data: Uint8Array): Promise<Outcome> {
  const analysis = await checkPackage(createPackageFromTarballData(data));
  if (!analysis.types) return { ok: true, output: 'no types' };
  const { problems } = analysis;
  return { ok: problems.length === 0, output: problems.map(describe).join('\n') };
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const keepAt = args.indexOf('--keep-tarballs');
  const only = args.filter((a, i) => !a.startsWith('--') && i !== keepAt + 1);
  const kept = keepAt >= 0 ? args[keepAt + 1] : undefined;
  const out = kept ?? mkdtempSync(join(tmpdir(), 'pp-pack-'));
  const failures: string[] = [];
  try {
    const packed = await packAll(root, out).catch((error: unknown) => {
      const e = error as Error & { stdout?: string; stderr?: string };
      failures.push(`pnpm pack failed\n${e.stdout ?? ''}${e.stderr ?? ''}${e.message}`);
      return [];
    });
    for (const { name, dir, tarball } of packed) {
      if (only.length > 0 && !only.some((o) => dir.endsWith(`/packages/${o}`))) continue;
      const data = new Uint8Array(readFileSync(tarball));
      const [linted, typed] = [await lint(data), await types(data)];
      const status = (ok: boolean) => (ok ? 'ok' : 'FAIL');
      console.log(`${name.padEnd(28)} publint ${status(linted.ok)}  attw ${status(typed.ok)}`);
      if (!linted.ok) failures.push(`${name}: publint\n${linted.output}`);
      if (!typed.ok) failures.push(`${name}: attw\n${typed.output}`);
    }
  } finally {
    if (!kept) rmSync(out, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    console.error(`\n${failures.join('\n\n')}`);
    return 1;
  }
  console.log('package checks passed');
  return 0;
}

process.exitCode = await main();
