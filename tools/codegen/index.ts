/**
 * Generates packages/openapi/src/generated/* from spec/ (`pnpm codegen`), or checks that the committed files
 * are current (`pnpm codegen --check`).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleSpec } from './bundle.ts';
import { loadCodegenConfig } from './config.ts';
import {
  renderOperationsModule,
  renderRateLimitRoutesModule,
  renderReferencePrefixesModule,
  renderSchemaModule,
  renderSpecModule,
} from './render.ts';
import { generateTypes } from './types.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  const config = await loadCodegenConfig(root);
  const doc = await bundleSpec(config);
  const generatedDir = path.dirname(config.schemaOutput);
  const files = new Map<string, string>([
    [config.schemaOutput, renderSchemaModule(await generateTypes(doc))],
    [path.join(generatedDir, 'spec.ts'), renderSpecModule(doc)],
    [path.join(generatedDir, 'operations.ts'), renderOperationsModule(doc)],
    [path.join(generatedDir, 'rate-limit-routes.ts'), renderRateLimitRoutesModule(doc)],
    [path.join(generatedDir, 'reference-prefixes.ts'), renderReferencePrefixesModule(doc)],
  ]);

  if (check) {
    const stale: string[] = [];
    for (const [file, content] of files) {
      const current = await readFile(file, 'utf8').catch(() => undefined);
      if (current !== content) stale.push(path.relative(root, file));
    }
    if (stale.length > 0) {
      console.error(`codegen --check: generated files are out of date with spec/:\n  ${stale.join('\n  ')}`);
      console.error('Run `pnpm codegen` and commit the result.');
      return 1;
    }
    console.log(`codegen --check: ${files.size} generated files are up to date.`);
    return 0;
  }

  await mkdir(generatedDir, { recursive: true });
  for (const [file, content] of files) {
    await writeFile(file, content);
    console.log(`wrote ${path.relative(root, file)}`);
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  },
);
