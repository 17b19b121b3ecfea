/**
 * The scheduler's own cost per request against the in-process sandbox, as a ratio to bare openapi-fetch
 * measured in the same run: blocks of requests per variant, in a fresh random order per round; the ratio is
 * the median over rounds of the two block times (wall time). `pnpm bench ratelimit` runs it through
 * overhead-built.ts: in a process of its own, on the built packages.
 */
import type { paths } from '@partner-print/openapi';
import { createScheduler } from '@partner-print/ratelimit';
import { createSandbox } from '@partner-print/sandbox';
import createFetchClient from 'openapi-fetch';

export async function overheadBench(
  rounds = 20,
  block = 500,
): Promise<{ ratio: number; iqr: [number, number]; bareUs: number; scheduledUs: number }> {
  // A quota no run exhausts: the sandbox still sends rate-limit headers, which the scheduler reads.
  const sandbox = createSandbox({ rateLimits: { default: { q: 1_000_000_000, w: 60 } } });
  const transport = (request: Request) => sandbox.fetch(request);
  const headers = { 'X-Service-Secret-Key': sandbox.keys.primary };
  const bare = createFetchClient<paths>({ baseUrl: sandbox.baseUrl, fetch: transport, headers });
  const scheduler = createScheduler({ fetch: transport, clock: sandbox.clock });
  const scheduled = createFetchClient<paths>({ baseUrl: sandbox.baseUrl, fetch: scheduler.fetch, headers });
  const variants: Record<string, () => Promise<unknown>> = {
    bare: () => bare.GET('/claimcategories'),
    scheduled: () => scheduled.GET('/claimcategories'),
  };
  const samples: Record<string, number[]> = { bare: [], scheduled: [] };
  for (const run of Object.values(variants)) for (let i = 0; i < 2 * block; i++) await run();
  for (let round = 0; round < rounds; round++) {
    const order = Math.random() < 0.5 ? ['bare', 'scheduled'] : ['scheduled', 'bare'];
    for (const name of order) {
      const run = variants[name];
      if (!run) continue;
      const t0 = performance.now();
      for (let i = 0; i < block; i++) await run();
      samples[name]?.push(((performance.now() - t0) * 1000) / block);
    }
  }
  sandbox.close();
  const b = samples.bare ?? [];
  const s = samples.scheduled ?? [];
  const ratios = s.map((v, i) => v / (b[i] ?? v));
  return {
    ratio: quantile(ratios, 0.5),
    iqr: [quantile(ratios, 0.25), quantile(ratios, 0.75)],
    bareUs: quantile(b, 0.5),
    scheduledUs: quantile(s, 0.5),
  };
}

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * q;
  const lo = s[Math.floor(i)] ?? 0;
  const hi = s[Math.ceil(i)] ?? lo;
  return lo + (hi - lo) * (i - Math.floor(i));
}
