import type { ReferencePrefix } from '@partner-print/openapi';
import { createSandbox, type Sandbox, type SandboxOptions } from '@partner-print/sandbox';
import { type ClientEvent, type ClientOptions, createClient, type Fetch } from '../src/index.ts';
import { createClient as createLiteClient } from '../src/lite.ts';
import { BASE, fakeFetch, KEY, testClock } from './fake.ts';

export { samplePng } from '../../../docs/examples/steps/sample-image.ts';

/**
 * The sandbox's fetch, passing the client's per-attempt signal on as `fetch(request, init)` would.
 * (sandbox.fetch(request, init) builds the request from `init` alone, dropping the request's headers.)
 */
export const withSignal =
  (sandbox: Pick<Sandbox, 'fetch'>): Fetch =>
  (request, init) =>
    sandbox.fetch(init ? new Request(request, init) : request);

/**
 * A client of the main or the lite entry on a fresh in-process sandbox, with the body of every request it sent
 * (an upload's bytes as they went out).
 */
export function bodyRecordingClient(lite: boolean) {
  const sandbox = createSandbox();
  const sent: Uint8Array[] = [];
  const fetch = async (request: Request) => {
    sent.push(new Uint8Array(await request.clone().arrayBuffer()));
    return sandbox.fetch(request);
  };
  const options = { secretKey: sandbox.keys.primary, baseUrl: sandbox.baseUrl, fetch };
  const client = lite ? createLiteClient(options) : createClient(options);
  return { sent, client };
}

/** A fresh in-process sandbox and a client of `create` (either entry's) on its virtual clock, recording every attempt. */
export function sandboxClientOf<O extends Partial<ClientOptions>, C>(
  create: (options: O) => C,
  options: Partial<O> = {},
  sandboxOptions: SandboxOptions = {},
) {
  const sandbox: Sandbox = createSandbox({ jitter: 0, ...sandboxOptions });
  const attempts: ClientEvent[] = [];
  const client = create({
    secretKey: sandbox.keys.primary,
    baseUrl: sandbox.baseUrl,
    fetch: withSignal(sandbox),
    clock: sandbox.clock,
    hooks: { request: (e: ClientEvent) => attempts.push(e) },
    ...options,
  } as unknown as O);
  return { sandbox, client, attempts, seed: typedSeed(sandbox.seed) };
}

/** A reference the sandbox gave as a plain string, checked for its prefix and typed as the spec types it. */
export function ref<P extends ReferencePrefix>(prefix: P, value: string): `${P}_${string}` {
  if (!value.startsWith(`${prefix}_`)) throw new TypeError(`${value} is not a ${prefix}_ reference`);
  return value as `${P}_${string}`;
}

const refs = <P extends ReferencePrefix, S extends Record<string, string>>(prefix: P, values: S) =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, ref(prefix, v)])) as {
    [K in keyof S]: `${P}_${string}`;
  };

/** The sandbox's seed with its references typed (the sandbox keeps plain strings: it shares no code with the SDK). */
export function typedSeed(seed: Sandbox['seed']) {
  return {
    ...seed,
    stores: refs('Store', seed.stores),
    productgroups: refs('Productgroup', seed.productgroups),
    items: refs('Item', seed.items),
    products: refs('Product', seed.products),
    claimcategories: refs('Claimcategory', seed.claimcategories),
    scenes: refs('Scene', seed.scenes),
    perspectives: refs('Perspective', seed.perspectives),
    compositions: refs('Composition', seed.compositions),
  };
}

/** The same with the main entry's client. */
export const sandboxClient = (options: Partial<ClientOptions> = {}, sandboxOptions: SandboxOptions = {}) =>
  sandboxClientOf(createClient, options, sandboxOptions);

export const ADDRESS = {
  firstname: 'Ada',
  lastname: 'Lovelace',
  streetname: 'Keizersgracht',
  housenumber: '1',
  zipcode: '1015 CJ',
  city: 'Amsterdam',
  countryCode: 'NL',
  email: 'ada@example.com',
};

/** A client (main entry, or lite) on a fake fetch answering with `handler`, on a test clock, with no scheduler or telemetry. */
export function fakeClient(handler: (req: Request, n: number) => Response, lite = false) {
  const clock = testClock();
  const { fetch, seen } = fakeFetch(handler);
  const client = (lite ? createLiteClient : createClient)({
    secretKey: KEY,
    baseUrl: BASE,
    fetch,
    clock,
    rateLimit: false,
    telemetry: false,
  });
  return { client, seen, clock };
}
