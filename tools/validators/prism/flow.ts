/**
 * Runs the demo and the docs examples with every sandbox call going through Prism as a validating proxy, and
 * prints one JSON summary line (`VALIDATOR-SUMMARY {...}`). Started by run.ts as
 * `node --import tsx --import ./prism/register.mjs prism/flow.ts <bundled spec>`, so that the examples'
 * `@partner-print/sandbox` is the stand-in of sandbox-module.ts.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startBridge } from './bridge.ts';
import { stats } from './calls.ts';
import { usePrism } from './route.ts';
import { startPrism } from './start.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const EXAMPLES = path.join(ROOT, 'docs', 'examples');

interface Outcome {
  name: string;
  ok: boolean;
  ms?: number;
  error?: string;
}

async function attempt(name: string, run: () => Promise<unknown>): Promise<Outcome> {
  const start = performance.now();
  const ms = () => Math.round(performance.now() - start);
  try {
    await run();
    return { name, ok: true, ms: ms() };
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return { name, ok: false, ms: ms(), error: message };
  }
}

const load = (file: string) => import(pathToFileURL(path.join(EXAMPLES, file)).href);

/** The docs site's operation samples, each in a fresh session of the docs runner (tools/docs/runner). */
async function runOperationSamples(): Promise<Outcome[]> {
  // The stand-in that hooks.mjs gives the examples for `@partner-print/sandbox`, named directly here.
  const { createSandbox } = await import('./sandbox-module.ts');
  const { PATHS } = await import('../../docs/lib/paths.ts');
  const { operationRoutes, operationSamples } = await import('../../docs/lib/runnable.ts');
  const { createModules } = await import('../../docs/runner/modules.ts');
  const { createSession } = await import('../../docs/runner/session.ts');
  const { bundled } = await import('./document.ts');
  const spec = bundled<Parameters<typeof operationSamples>[0]>();
  const samples = operationSamples(spec, PATHS.operationExamples);
  const routes = operationRoutes(spec);
  const outcomes: Outcome[] = [];
  for (const sample of samples) {
    outcomes.push(
      await attempt(`sample ${sample.id}`, async () => {
        const session = createSession({
          createSandbox: () => createSandbox({ jitter: 0 }),
          samples,
          modules: createModules,
          routes,
        });
        const result = await session.run(sample.id);
        if (!result.ok) throw new Error(String(result.error ?? 'the sample failed'));
      }),
    );
  }
  return outcomes;
}

async function runExamples(): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const log = () => {};
  outcomes.push(await attempt('demo.ts', async () => (await load('demo.ts')).runDemo({ log })));
  outcomes.push(
    await attempt('client-quickstart.ts', async () => (await load('client-quickstart.ts')).quickstart(log)),
  );
  // Scripts that run on import.
  for (const file of ['render.ts', 'callback.ts']) outcomes.push(await attempt(file, () => load(file)));
  outcomes.push(
    await attempt('agreement probes (spec-invalid orders)', async () =>
      (await import('./probes.ts')).runProbes(),
    ),
  );
  const samples = await runOperationSamples().catch((error: unknown) => [
    { name: 'operation samples', ok: false, error: String(error) },
  ]);
  outcomes.push(...samples);
  return outcomes;
}

async function main(): Promise<void> {
  const document = process.argv[2];
  if (!document) throw new Error('usage: flow.ts <bundled spec>');
  const started = performance.now();
  const bridge = await startBridge();
  const prism = await startPrism(document, `${bridge.url}/v2`);
  usePrism(prism.origin);
  const prismStartMs = Math.round(performance.now() - started);
  const log = console.log;
  console.log = () => {};
  let outcomes: Outcome[];
  try {
    outcomes = await runExamples();
  } finally {
    console.log = log;
    usePrism(undefined);
    await prism.stop();
    bridge.server.close();
  }
  const summary = {
    prismStartMs,
    outcomes,
    validated: Object.fromEntries(stats.validated),
    bypassed: Object.fromEntries(stats.bypassed),
    violations: stats.violations,
    refusedInvalidRequests: stats.refusedInvalidRequests,
    prismLog: prism.log.filter((line) => !line.includes('Prism is listening')).slice(0, 50),
  };
  process.stdout.write(`VALIDATOR-SUMMARY ${JSON.stringify(summary)}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
