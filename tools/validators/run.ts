/**
 * Independent validators of the spec, the sandbox and the SDK (issue 23), none written here:
 * - Spectral with its `spectral:oas` ruleset on the bundled spec;
 * - @hey-api/openapi-ts generating a second client from the bundled spec, type-checked strict;
 * - Prism as a validating proxy in front of the sandbox while the demo and the docs examples run.
 * Run: `npx tsx tools/validators/run.ts [--only spectral,hey-api,prism] [--document bundled.json]`
 * (`--document` validates another bundled spec, e.g. an older one, instead of bundling spec/). Exits 1 on any
 * finding.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleSpec, type OpenApiDocument } from '../codegen/bundle.ts';
import { loadCodegenConfig } from '../codegen/config.ts';
import { collectOperations } from '../codegen/render.ts';
import { ROOT, type ValidatorReport } from './exec.ts';
import { runHeyApi } from './hey-api.ts';
import { runPrism } from './prism.ts';
import { runSpectral } from './spectral.ts';

const ALL = ['spectral', 'hey-api', 'prism'] as const;

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}

async function bundled(work: string): Promise<{ document: string; doc: OpenApiDocument }> {
  const given = option('--document');
  if (given) {
    const document = path.resolve(given);
    return { document, doc: JSON.parse(await readFile(document, 'utf8')) as OpenApiDocument };
  }
  const doc = await bundleSpec(await loadCodegenConfig(ROOT));
  const document = path.join(work, 'openapi.json');
  await writeFile(document, JSON.stringify(doc, null, 2));
  return { document, doc };
}

function print(report: ValidatorReport): void {
  const verdict = report.findings.length === 0 ? 'ok' : `${report.findings.length} finding(s)`;
  console.log(`\n${report.name}: ${verdict} (${(report.ms / 1000).toFixed(1)} s)`);
  for (const note of report.notes) console.log(`  ${note}`);
  for (const finding of report.findings) console.log(`  ✗ ${finding}`);
}

async function main(): Promise<number> {
  const start = performance.now();
  const work = await mkdtemp(path.join(tmpdir(), 'partner-print-validators-'));
  try {
    const { document, doc } = await bundled(work);
    const operations = [...collectOperations(doc).values()].map((o) => `${o.method.toUpperCase()} ${o.path}`);
    const only = option('--only')?.split(',') ?? ALL;
    const runs: Promise<ValidatorReport>[] = [];
    if (only.includes('spectral')) runs.push(runSpectral(document));
    if (only.includes('hey-api')) runs.push(runHeyApi(document, path.join(work, 'hey-api')));
    if (only.includes('prism')) runs.push(runPrism(document, operations));
    const reports = await Promise.all(runs);
    reports.forEach(print);
    const findings = reports.reduce((n, r) => n + r.findings.length, 0);
    const seconds = ((performance.now() - start) / 1000).toFixed(1);
    console.log(`\nvalidators: ${findings} finding(s) in ${seconds} s`);
    return findings === 0 ? 0 : 1;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 2;
  },
);
