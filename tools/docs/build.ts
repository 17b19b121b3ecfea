/**
 * `pnpm docs`: builds docs/dist/index.html — the API reference from spec/ with the guides of docs/guides and the
 * code samples of docs/examples/operations — as one offline page with @redocly/cli `build-docs --inlineBundle`.
 *
 *   --strict-samples   fail when an operation has no SDK sample file
 */
import { buildDocs } from './lib/build.ts';

const started = performance.now();
try {
  await buildDocs({
    strictSamples: process.argv.includes('--strict-samples'),
    log: (line) => console.log(line),
  });
  console.log(`docs built in ${Math.round(performance.now() - started)} ms`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
