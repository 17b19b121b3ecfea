// paginate/collect never send a cursor twice (the caller's starting cursor counts as sent), and their
// refusals carry the call's operation, method and path.
import { describe, expect, it } from 'vitest';
import { collect, PartnerPrintError } from '../src/index.ts';
import { json } from './fake.ts';
import { fakeClient } from './helpers.ts';

const clientWith = fakeClient;

const cursorsOf = (seen: { url: string }[]) => seen.map((s) => new URL(s.url).searchParams.get('cursor'));

describe('paginate/collect: a cursor is sent once, the starting one included', () => {
  it("a server answering the caller's starting cursor again: C0 sent once, then cursor_repeated", async () => {
    const { client, seen } = clientWith(() => json({ orders: [{ n: 1 }], nextCursor: 'C0' }));
    const error = await collect(client, '/orders', { params: { query: { cursor: 'C0' } } }).catch(
      (e: unknown) => e,
    );
    expect(cursorsOf(seen)).toEqual(['C0']);
    expect(error).toBeInstanceOf(PartnerPrintError);
    expect(error).toMatchObject({
      code: 'cursor_repeated',
      operation: 'listOrders',
      method: 'GET',
      path: '/orders',
    });
  });

  it('a cursor repeated later (C1, C2, C1): each sent once, the error with the call', async () => {
    const next = ['C1', 'C2', 'C1'];
    const { client, seen } = clientWith((_, n) => json({ orders: [{ n }], nextCursor: next[n - 1] ?? null }));
    const error = await collect(client, '/orders').catch((e: unknown) => e);
    expect(cursorsOf(seen)).toEqual([null, 'C1', 'C2']);
    expect(error).toMatchObject({ code: 'cursor_repeated', operation: 'listOrders', method: 'GET' });
  });

  it('not a list: the error has the operation too', async () => {
    const { client } = clientWith(() => json({ nothing: 1 }));
    await expect(collect(client, '/orders')).rejects.toMatchObject({
      code: 'not_a_list',
      operation: 'listOrders',
      method: 'GET',
      path: '/orders',
    });
  });

  it('a starting cursor the server moves on from is followed as before', async () => {
    const next = ['C1', null];
    const { client, seen } = clientWith((_, n) => json({ orders: [{ n }], nextCursor: next[n - 1] ?? null }));
    expect(await collect(client, '/orders', { params: { query: { cursor: 'C0' } } })).toHaveLength(2);
    expect(cursorsOf(seen)).toEqual(['C0', 'C1']);
  });
});
