import { describe, expect, it } from 'vitest';
import { checkBaseUrl, checkHeaders, MIGRATION_GUIDE } from './config.ts';
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
