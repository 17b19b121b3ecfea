import { createSandbox, type Sandbox, type SandboxOptions } from '@partner-print/sandbox';
import { type ClientEvent, type ClientOptions, createClient } from '../src/index.ts';

export { samplePng } from '../../../docs/examples/steps/sample-image.ts';

/** A fresh in-process sandbox and a client on its virtual clock, recording every attempt. */
export function sandboxClient(options: Partial<ClientOptions> = {}, sandboxOptions: SandboxOptions = {}) {
  const sandbox: Sandbox = createSandbox({ jitter: 0, ...sandboxOptions });
  const attempts: ClientEvent[] = [];
  const client = createClient({
    secretKey: sandbox.keys.primary,
    baseUrl: sandbox.baseUrl,
    fetch: (request) => sandbox.fetch(request),
    clock: sandbox.clock,
    hooks: { request: (e) => attempts.push(e) },
    ...options,
  });
  return { sandbox, client, attempts, seed: sandbox.seed };
}

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
