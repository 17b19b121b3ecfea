import { describe, expect, it } from 'vitest';
import { ConfigurationError, createClient } from '../src/index.ts';

const secretKey = 'sk_test_rate_limit_options';
const baseUrl = 'http://127.0.0.1:1/v2';

describe('createClient checks the scheduler options it is given', () => {
  // `rateLimit: { concurrency: Number(process.env.PP_CONCURRENCY) }` with the variable unset: NaN was taken as
  // given, the scheduler admitted one request and every later call stayed pending for ever; a NaN maxRetries
  // retried a 429 without end; a typo was ignored.
  it.each<[string, object]>([
    ['concurrency', { concurrency: Number.NaN }],
    ['maxRetries', { maxRetries: Number.NaN }],
    ['storeTimeoutMs', { storeTimeoutMs: Number.POSITIVE_INFINITY }],
    ['concurency', { concurency: 4 }],
  ])('refuses %s with a ConfigurationError (invalid_option) that names it', (name, rateLimit) => {
    const error = (() => {
      try {
        createClient({ secretKey, baseUrl, rateLimit });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ code: 'invalid_option', message: expect.stringContaining(`rateLimit: `) });
    expect((error as Error).message).toContain(name);
    expect((error as Error).message).not.toContain(secretKey);
  });

  it('takes the options it documents', () => {
    expect(() =>
      createClient({ secretKey, baseUrl, rateLimit: { concurrency: 4, maxRetries: undefined } }),
    ).not.toThrow();
  });
});
