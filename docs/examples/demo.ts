// `pnpm demo`: a walkthrough of the Partner Print V2 API against an in-process sandbox, with
// nothing to configure. Each step lives in ./steps; add a step by adding it to ./steps/index.ts.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient } from '@partner-print/client';
import { createSandbox, type SandboxOptions } from '@partner-print/sandbox';
import { type DemoContext, type DemoStep, steps as defaultSteps } from './steps/index.ts';

export interface DemoOptions {
  log?: (line: string) => void;
  steps?: DemoStep[];
  sandbox?: SandboxOptions;
  outDir?: string;
}

export async function runDemo(options: DemoOptions = {}): Promise<DemoContext> {
  const log = options.log ?? ((line: string) => console.log(line));
  // Small pages, so paging shows; the virtual clock makes waits (Retry-After, 48 hours) instant.
  const sandbox = createSandbox({ pageSize: 2, ...options.sandbox });
  let requests = 0;
  const client = createClient({
    secretKey: sandbox.keys.primary,
    baseUrl: sandbox.baseUrl, // http://sandbox.localhost/v2: plain http is allowed for loopback hosts only
    fetch: (request) => sandbox.fetch(request),
    clock: sandbox.clock,
    hooks: { request: () => void requests++ },
  });
  const ctx: DemoContext = {
    client,
    sandbox,
    seed: sandbox.seed,
    log: (line) => log(`   ${line}`),
    outDir: options.outDir ?? join(tmpdir(), 'partner-print-demo'),
    requests: () => requests,
    state: {},
  };
  log(
    `Partner Print SDK demo — sandbox at ${sandbox.baseUrl}, organization "${sandbox.seed.organization.name}"`,
  );
  const list = options.steps ?? defaultSteps;
  try {
    for (const [i, step] of list.entries()) {
      log(`\n${i + 1}. ${step.title}`);
      await step.run(ctx);
    }
  } finally {
    sandbox.close();
  }
  log(`\nDone: ${list.length} steps, ${requests} requests.`);
  return ctx;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runDemo().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
