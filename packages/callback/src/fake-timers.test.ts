// A partner's test on fake timers (vitest's vi.useFakeTimers(), Jest's, sinon's): the handler's window sleeps on
// its clock, the system clock by default, so the answer waits for the fake time to pass the window. What the
// README's "Tests on fake timers" tells them to do.
import { createSandbox } from '@partner-print/sandbox';
import { afterEach, expect, it, vi } from 'vitest';
import { buildCallbackUrl } from './build-url.ts';
import { createOrderUpdatedHandler } from './handler.ts';
import type { OrderFetcher } from './options.ts';

const ORDER = `Order_${'0'.repeat(25)}1`;
const request = () =>
  new Request(
    buildCallbackUrl('https://shop.example/hook', {
      environment: 'test',
      orderReference: 'ACME-1',
      orderReferenceV2: ORDER,
      storeCode: 'ACME',
    }),
  );
const client: OrderFetcher<{ reference: string }> = {
  get: async () => ({ order: { reference: ORDER } }),
};
const handlerWith = (options: { windowMs?: number; clock?: ReturnType<typeof createSandbox>['clock'] }) =>
  createOrderUpdatedHandler({ client, environment: 'test', onOrderUpdated: () => {}, ...options });

afterEach(() => {
  vi.useRealTimers();
});

it('under fake timers, the default window answers once the fake time passes it', async () => {
  vi.useFakeTimers();
  let answered = false;
  const answer = handlerWith({})(request()).finally(() => {
    answered = true;
  });
  await vi.advanceTimersByTimeAsync(999);
  expect(answered).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect((await answer).status).toBe(204);
});

it('under fake timers, a handler with windowMs: 0 answers without advancing them', async () => {
  vi.useFakeTimers();
  expect((await handlerWith({ windowMs: 0 })(request())).status).toBe(204);
});

it("under fake timers, a handler on the sandbox's clock answers without advancing them", async () => {
  const sandbox = createSandbox();
  try {
    vi.useFakeTimers();
    expect((await handlerWith({ clock: sandbox.clock })(request())).status).toBe(204);
  } finally {
    sandbox.close();
  }
});
