import { describe, expect, it } from 'vitest';
import { ConfigurationError, createClient } from '../src/index.ts';
import { createClient as createLiteClient } from '../src/lite.ts';

const secretKey = 'sk_test_client_options';
const baseUrl = 'http://127.0.0.1:1/v2';

const thrown = (make: () => unknown): unknown => {
  try {
    make();
  } catch (e) {
    return e;
  }
  return undefined;
};

describe('createClient refuses options it does not take', () => {
  // A misspelt option was ignored: `timeoutms: 5000` kept the 30 s default, `maxElapsedMs` at the top level
  // (it belongs in `retry`) did nothing, `logLevel: 'warning'` logged every debug line. Per-call options were
  // already refused this way; stripe-node refuses unknown config keys too.
  it.each<[string, Record<string, unknown>]>([
    ['timeoutms', { timeoutms: 5000 }],
    ['maxElapsedMs', { maxElapsedMs: 1000 }],
    ['redirect', { redirect: 'follow' }],
    ['apiKey', { apiKey: 'sk_live_not_to_be_printed' }],
    ['logLevel', { logLevel: 'warning' }],
  ])('refuses %s with a ConfigurationError (invalid_option) that names it', (name, extra) => {
    for (const make of [createClient, createLiteClient]) {
      const error = thrown(() => make({ secretKey, baseUrl, ...extra } as never));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error).toMatchObject({ code: 'invalid_option', message: expect.stringContaining(name) });
      // Only the name: a value put in the wrong place may be a key.
      expect((error as Error).message).not.toContain('sk_live');
      expect((error as Error).message).not.toContain(secretKey);
    }
  });

  it('takes every option it documents, undefined ones included', () => {
    const all = {
      secretKey,
      baseUrl,
      fetch: globalThis.fetch,
      retry: { attempts: 2 },
      timeoutMs: 1000,
      userAgent: 'partner/1.0',
      hooks: {},
      logger: console,
      logLevel: 'warn' as const,
      clock: undefined,
    };
    expect(() => createClient({ ...all, rateLimit: false, telemetry: false })).not.toThrow();
    expect(() => createLiteClient({ ...all, rateLimit: undefined, operations: undefined })).not.toThrow();
  });
});
