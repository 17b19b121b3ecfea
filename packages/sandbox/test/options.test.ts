import { describe, expect, it } from 'vitest';
import { createSandbox, type SandboxOptions } from '../src/index.ts';

describe('createSandbox checks its options', () => {
  // Each was taken as given: `pageSize: Number(process.env.PAGE_SIZE)` with the variable unset (NaN), or 0,
  // listed no products at all with `nextCursor: null`, so a partner's pagination test passed on an empty
  // catalog; a negative one listed everything on one page; a NaN rendertokenLimit answered `limit: null`,
  // which the spec does not allow; a misspelt option (from the CLI's --seed JSON file too) was ignored.
  it.each<[string, Record<string, unknown>]>([
    ['pageSize', { pageSize: Number.NaN }],
    ['pageSize', { pageSize: 0 }],
    ['pageSize', { pageSize: -3 }],
    ['pageSize', { pageSize: 2.5 }],
    ['pageSize', { pageSize: '10' }],
    ['jitter', { jitter: Number.NaN }],
    ['renderProcessingMs', { renderProcessingMs: Number.NaN }],
    ['renderProcessingMs', { renderProcessingMs: -1 }],
    ['rendertokenLimit', { rendertokenLimit: Number.NaN }],
    ['callbackTimeoutMs', { callbackTimeoutMs: Number.POSITIVE_INFINITY }],
    ['callbackRetryMs', { callbackRetryMs: Number.NaN }],
    ['clock', { clock: 'wall' }],
    ['pagesize', { pagesize: 3 }],
  ])('refuses %s in %j with a RangeError that names it', (name, bad) => {
    expect(() => createSandbox(bad as SandboxOptions)).toThrow(
      expect.objectContaining({ name: 'RangeError', message: expect.stringContaining(name) }),
    );
  });

  it('takes what it documents, undefined as the default', async () => {
    for (const options of [
      {},
      {
        pageSize: 1,
        jitter: 0,
        renderProcessingMs: 0,
        rendertokenLimit: 0,
        callbackTimeoutMs: 1,
        callbackRetryMs: 0,
      },
      { pageSize: undefined, clock: 'real' as const, seed: 's', origin: 'http://127.0.0.1:1' },
    ]) {
      const sandbox = createSandbox(options);
      const res = await sandbox.fetch(`${sandbox.baseUrl}/products`, {
        headers: { 'X-Service-Secret-Key': sandbox.keys.primary },
      });
      expect(res.status).toBe(200);
      sandbox.close?.();
    }
  });
});
