import { describe, expect, it } from 'vitest';
import { isV1CredentialHeader, V1_CREDENTIAL_HEADERS, v1CredentialKind } from './v1-credentials.ts';

describe('V1 credential header names (sandbox list)', () => {
  it('recognises the partner-code and API-key spellings, with or without x-, in any case', () => {
    for (const name of [
      'X-Partner-Code',
      'Partner-Code',
      'partner_code',
      'PARTNERCODE',
      'Store-Code',
      'x-store_code',
    ]) {
      expect(v1CredentialKind(name), name).toBe('partner-code');
    }
    for (const name of [
      'X-Api-Key',
      'api_key',
      'ApiKey',
      'X-Partner-Key',
      'partner-key',
      'x-partner-api-key',
    ]) {
      expect(v1CredentialKind(name), name).toBe('api-key');
    }
  });

  it('does not take V2 or unrelated headers for V1 credentials', () => {
    for (const name of [
      'X-Service-Secret-Key',
      'Authorization',
      'key',
      'code',
      'X-Api',
      'x-partner',
      'xapi-key',
    ]) {
      expect(isV1CredentialHeader(name), name).toBe(false);
    }
  });

  it('lists every recognised name once, lowercase', () => {
    expect(new Set(V1_CREDENTIAL_HEADERS).size).toBe(V1_CREDENTIAL_HEADERS.length);
    for (const name of V1_CREDENTIAL_HEADERS) {
      expect(name).toBe(name.toLowerCase());
      expect(isV1CredentialHeader(name)).toBe(true);
    }
    expect(V1_CREDENTIAL_HEADERS).toHaveLength(30);
  });
});
