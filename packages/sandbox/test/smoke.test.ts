import { describe, expect, it } from 'vitest';
import { createSandbox } from '../src/index.ts';

describe('createSandbox', () => {
  it('exposes the public surface', () => {
    const sandbox = createSandbox();
    expect(sandbox.baseUrl).toBe('http://sandbox.localhost/v2');
    expect(Object.keys(sandbox.keys).sort()).toEqual(['other', 'primary', 'secondary']);
    expect(sandbox.seed.stores.combined).toMatch(/^Store_[0-9A-Za-z]{26}$/);
    expect(sandbox.clock.now()).toBe(Date.parse('2026-11-16T09:00:00Z'));
  });

  it('is deterministic and gives organization B different references', () => {
    const a = createSandbox();
    const b = createSandbox();
    expect(a.seed).toEqual(b.seed);
    expect(a.keys).toEqual(b.keys);
    expect(a.seed.otherOrganization.stores.combined).not.toBe(a.seed.stores.combined);
  });
});

describe('sandbox.fetch inputs', () => {
  it('takes URLs, relative paths, Requests with init, and Request objects of other implementations', async () => {
    const sandbox = createSandbox();
    const headers = { 'X-Service-Secret-Key': sandbox.keys.primary };
    expect((await sandbox.fetch(new URL(`${sandbox.baseUrl}/items`), { headers })).status).toBe(200);
    expect((await sandbox.fetch('/v2/items', { headers })).status).toBe(200);
    expect((await sandbox.fetch(new Request(`${sandbox.baseUrl}/items`), { headers })).status).toBe(200);
    const foreign = { url: `${sandbox.baseUrl}/items`, method: 'GET', headers: new Headers(headers) };
    expect((await sandbox.fetch(foreign as unknown as Request)).status).toBe(200);
    const detached = sandbox.fetch;
    expect((await detached(`${sandbox.baseUrl}/items`, { headers })).status).toBe(200);
  });
});
