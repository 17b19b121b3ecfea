import { V1_CREDENTIAL_HEADERS } from '@partner-print/openapi/wire';
import { describe, expect, it } from 'vitest';
import { checkBaseUrl, checkHeaders, checkKey, MIGRATION_GUIDE, readableHeaders } from './config.ts';
import { ConfigurationError, V1CredentialsError } from './errors.ts';

describe('checkBaseUrl', () => {
  it('accepts https URLs ending in /v2 and drops a trailing slash', () => {
    expect(checkBaseUrl('https://api.example.com/v2')).toBe('https://api.example.com/v2');
    expect(checkBaseUrl('https://api.example.com/prefix/v2/')).toBe('https://api.example.com/prefix/v2');
  });

  it.each([
    'http://localhost/v2',
    'http://localhost:8080/v2',
    'http://sandbox.localhost/v2',
    'http://127.0.0.1:3000/v2',
    'http://127.4.5.6/v2',
    'http://[::1]:9000/v2',
  ])('accepts plain http for the loopback host %s', (url) => {
    expect(checkBaseUrl(url)).toBe(url);
  });

  it.each([
    'http://api.example.com/v2',
    'http://10.0.0.1/v2',
    'http://localhost.example.com/v2',
    'http://128.0.0.1/v2',
    'ftp://localhost/v2',
  ])('refuses %s', (url) => {
    expect(() => checkBaseUrl(url)).toThrow(ConfigurationError);
    expect(() => checkBaseUrl(url)).toThrow(/https/);
  });

  it.each([
    'https://api.example.com',
    'https://api.example.com/v3',
    'https://api.example.com/v2x',
    'nope',
    '/v2',
  ])('requires the /v2 segment: %s', (url) => {
    expect(() => checkBaseUrl(url)).toThrow(ConfigurationError);
  });

  it('points a /v1 URL at the migration guide', () => {
    expect(() => checkBaseUrl('https://api.example.com/v1')).toThrow(V1CredentialsError);
    expect(() => checkBaseUrl('https://api.example.com/v1/')).toThrow(MIGRATION_GUIDE);
    expect(() => checkBaseUrl('https://api.example.com/v1')).toThrow(/X-Service-Secret-Key/);
  });
});

describe('checkHeaders', () => {
  it.each(['X-Partner-Code', 'partner_code', 'X-Api-Key', 'apikey'])('refuses the V1 header %s', (name) => {
    const headers = new Headers({ [name]: 'x' });
    expect(() => checkHeaders(headers)).toThrow(V1CredentialsError);
    expect(() => checkHeaders(headers)).toThrow(MIGRATION_GUIDE);
  });

  it('lets V2 headers through', () => {
    expect(() =>
      checkHeaders(new Headers({ 'X-Service-Secret-Key': 'k', Accept: 'application/json' })),
    ).not.toThrow();
  });
});

describe('readableHeaders', () => {
  it('passes a record, a global Headers and no headers as they are: no copy on the common path', () => {
    for (const headers of [{ 'x-a': '1' }, Object.create(null), new Headers({ 'x-a': '1' }), undefined])
      expect(readableHeaders(headers)).toBe(headers);
  });

  it('copies pairs, a Map and a forEach-only collection into a global Headers', () => {
    const forEachOnly = { forEach: (f: (v: string, k: string) => void) => f('1', 'x-a') };
    for (const headers of [[['x-a', '1']], new Map([['x-a', '1']]), forEachOnly]) {
      const read = readableHeaders(headers);
      expect(read).toBeInstanceOf(Headers);
      expect([...(read as Headers)]).toEqual([['x-a', '1']]);
    }
  });

  it('refuses one it cannot read, naming where it was given, never a name or value', () => {
    const error = (() => {
      try {
        readableHeaders([['x-a', 'sk_live_SECRET\r\nX: 1']], 'params.header');
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error?.message).toMatch(/^params\.header cannot be read/);
    expect(error?.message).not.toContain('SECRET');
  });
});

describe('checkKey', () => {
  const SECRET = 'sk_test_SECRET123';
  it.each([
    ['empty', '', /empty/],
    ['NUL', `${SECRET}\0`, /NUL character at position 18/],
    ['CR/LF', `${SECRET}\r\nX-Injected: 1`, /line break/],
    ['a leading space', ` ${SECRET}`, /space at position 1/],
    ['a trailing space', `${SECRET} `, /space/],
    ['non-ASCII', `${SECRET}é`, /non-ASCII/],
    ['a tab', `${SECRET}\t`, /control character/],
  ])('refuses a key with %s, without the value in the error', (_, key, message) => {
    const error = (() => {
      try {
        checkKey(key);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(message);
    if (key) expect(JSON.stringify(error) + String(error) + (error as Error).stack).not.toContain(SECRET);
  });

  it.each([undefined, null, 42, {}])('refuses %s as a key', (key) => {
    expect(() => checkKey(key)).toThrow(ConfigurationError);
  });

  it('accepts visible ASCII', () => {
    expect(() => checkKey('sk_test_!#$%&*+-.^_`|~0123456789')).not.toThrow();
  });
});

describe('checkBaseUrl never echoes what it was given', () => {
  it('reports a value that is not a URL by its length (a key pasted in the wrong setting)', () => {
    const error = (() => {
      try {
        checkBaseUrl('sk_live_abcdefghijklmnop');
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error?.message).toMatch(/not a URL \(a string of 24 characters\); expected https:\/\//);
    expect(`${error?.message}${error?.stack}`).not.toContain('sk_live');
  });

  it('names only the scheme and host of a URL it refuses, never its path, query or credentials', () => {
    for (const url of [
      'http://api.example.com/v2?token=sk_secret',
      'https://user:sk_secret@api.example.com/v2',
      'https://api.example.com/sk_secret',
    ]) {
      const message = (() => {
        try {
          checkBaseUrl(url);
        } catch (e) {
          return (e as Error).message;
        }
      })();
      expect(message).toContain('api.example.com');
      expect(message).not.toContain('sk_secret');
    }
  });

  it('refuses undefined', () => {
    expect(() => checkBaseUrl(undefined)).toThrow(/not a URL \(undefined\)/);
  });
});

describe('the V1 guard uses the shared list of V1 header names', () => {
  it.each(['X-Partner-Key', 'Store-Code', 'x-store-code', 'Partner-Api-Key', 'API_KEY'])(
    'refuses %s',
    (name) => {
      expect(() => checkHeaders({ [name]: 'v' })).toThrow(V1CredentialsError);
    },
  );
  it('agrees with isV1CredentialHeader for every name of V1_CREDENTIAL_HEADERS', () => {
    for (const name of V1_CREDENTIAL_HEADERS)
      expect(() => checkHeaders([[name, 'v']])).toThrow(V1CredentialsError);
  });
});
