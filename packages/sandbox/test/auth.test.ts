import { OPERATIONS } from '@partner-print/openapi';
import { describe, expect, it } from 'vitest';
import { json } from './contract.ts';
import { setup } from './fixtures.ts';

describe('authentication', () => {
  it('answers 401 with the JSON error body when the key is missing', async () => {
    const { a } = setup();
    const res = await a.get('/orders', null);
    expect(res.status).toBe(401);
    expect(await json(res)).toMatchObject({ code: 'unauthorized' });
  });

  it('answers 401 for an unknown key without echoing it', async () => {
    const { a } = setup();
    const res = await a.get('/claims', 'sk_test_not-a-real-key');
    expect(res.status).toBe(401);
    const body = await json<{ message: string }>(res);
    expect(body.message).not.toContain('not-a-real-key');
  });

  it('says that V1 credentials do not work against V2', async () => {
    const { a } = setup();
    const res = await a.raw(
      '/orders',
      { headers: { 'X-Partner-Code': 'ACME', 'X-Api-Key': 'v1-key' } },
      null,
    );
    expect(res.status).toBe(401);
    expect((await json<{ message: string }>(res)).message).toMatch(
      /V1 credentials .* do not work against V2/,
    );
  });

  it('says so for each V1 header spelling alone (X-Partner-Key, Store-Code, api_key, …)', async () => {
    const { a } = setup();
    for (const name of [
      'X-Partner-Key',
      'Store-Code',
      'X-Api-Key',
      'Partner-Code',
      'api_key',
      'x-store_code',
    ]) {
      const res = await a.raw('/orders', { headers: { [name]: 'v1-value' } }, null);
      expect(res.status, name).toBe(401);
      expect((await json<{ message: string }>(res)).message, name).toMatch(/V1 credentials/);
    }
  });

  it('scopes every resource to the organization: another organization gets 404', async () => {
    const { a, b, order } = setup();
    const ref = await order();
    expect((await a.get(`/orders/${ref}`)).status).toBe(200);
    expect((await a.get(`/orders/${ref}`, 'secondary')).status).toBe(200);
    const res = await b.get(`/orders/${ref}`);
    expect(res.status).toBe(404);
    expect(await json(res)).toMatchObject({ code: 'not_found' });
  });

  it('answers 401 on every operation of the spec without a key', async () => {
    const { a } = setup();
    for (const { method, path } of Object.values(OPERATIONS)) {
      const concrete = path
        .replace(
          /\{(\w+)Reference\}/g,
          (_, name: string) => `${name[0]!.toUpperCase()}${name.slice(1)}_00000000000000000000000000`,
        )
        .replace('{filename}', 'front.png');
      const res = await a.raw(concrete, { method: method.toUpperCase() }, null);
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });
});
