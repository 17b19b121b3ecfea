import { createSandbox, type Sandbox, type SandboxOptions } from '@partner-print/sandbox';
import { type ClientEvent, type ClientOptions, createClient, type Fetch } from '../src/index.ts';

export { samplePng } from '../../../docs/examples/steps/sample-image.ts';

/**
 * The sandbox's fetch, passing the client's per-attempt signal on as `fetch(request, init)` would.
 * (sandbox.fetch(request, init) builds the request from `init` alone, dropping the request's headers.)
 */
export const withSignal =
  (sandbox: Pick<Sandbox, 'fetch'>): Fetch =>
  (request, init) =>
    sandbox.fetch(init ? new Request(request, init) : request);

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
  return { sandbox, client, attempts, seed: sandbox.seed };
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
