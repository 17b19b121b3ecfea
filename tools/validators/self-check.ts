/**
 * Shows that each validator can fail: runs them on copies of the bundled spec with the faults issue 23 found
 * put back, and exits 1 unless every validator reports the fault planted for it.
 * Run: `npx tsx tools/validators/self-check.ts` (about as long as run.ts; not part of the default run).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleSpec, type OpenApiDocument } from '../codegen/bundle.ts';
import { loadCodegenConfig } from '../codegen/config.ts';
import { collectOperations } from '../codegen/render.ts';
import { ROOT, type ValidatorReport } from './exec.ts';
import { runHeyApi } from './hey-api.ts';
import { runPrism } from './prism.ts';
import { runSpectral } from './spectral.ts';

type Json = Record<string, unknown>;

const at = (doc: OpenApiDocument, path: string, method: string) =>
  (doc.paths as Record<string, Record<string, Json>>)[path]![method]! as Json & {
    responses: Record<string, Json>;
  };

/** Issue 23, finding 1: media answered as image/png, declared as application/octet-stream only. */
function octetStreamOnly(doc: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(doc);
  for (const p of ['/renders/{renderReference}/media', '/products/{productReference}/media/{filename}']) {
    const content = at(copy, p, 'get').responses['200']!.content as Json;
    delete content['image/png'];
    delete content['image/jpeg'];
  }
  return copy;
}

/** Issue 23, finding 4: the only server is a bare `{base_url}`. */
function bareServer(doc: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(doc);
  copy.servers = [
    { url: '{base_url}', variables: { base_url: { default: 'https://api.example.invalid/v2' } } },
  ];
  return copy;
}

/** An operation without a description and a tag nobody declared: spectral:oas must see both. */
function undocumentedOperation(doc: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(doc);
  const operation = at(copy, '/rendertokens', 'get');
  delete operation.description;
  operation.tags = ['Undeclared'];
  return copy;
}

interface Case {
  name: string;
  mutate: (doc: OpenApiDocument) => OpenApiDocument;
  run: (document: string, work: string, operations: string[]) => Promise<ValidatorReport>;
  expect: RegExp;
}

const CASES: Case[] = [
  {
    name: 'prism: media declared as application/octet-stream only',
    mutate: octetStreamOnly,
    run: (document, _work, operations) => runPrism(document, operations),
    expect: /media type "image\/png" does not match/,
  },
  {
    name: 'hey-api: a bare {base_url} server',
    mutate: bareServer,
    run: (document, work) => runHeyApi(document, path.join(work, 'hey-api')),
    expect: /baseUrl/,
  },
  {
    name: 'spectral: an undocumented operation with an undeclared tag',
    mutate: undocumentedOperation,
    run: (document) => runSpectral(document),
    expect: /operation-description|operation-tag-defined/,
  },
];

async function main(): Promise<number> {
  const doc = await bundleSpec(await loadCodegenConfig(ROOT));
  const operations = [...collectOperations(doc).values()].map((o) => `${o.method.toUpperCase()} ${o.path}`);
  const results = await Promise.all(
    CASES.map(async (c) => {
      const work = await mkdtemp(path.join(tmpdir(), 'partner-print-self-check-'));
      try {
        const document = path.join(work, 'openapi.json');
        await writeFile(document, JSON.stringify(c.mutate(doc)));
        const report = await c.run(document, work, operations);
        const caught = report.findings.some((f) => c.expect.test(f));
        console.log(`${caught ? 'caught' : 'MISSED'}: ${c.name}`);
        for (const finding of report.findings.slice(0, 5)) console.log(`  ${finding.slice(0, 200)}`);
        return caught;
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    }),
  );
  return results.every(Boolean) ? 0 : 1;
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
