import {
  isV1CredentialHeader,
  V1_CREDENTIAL_HEADERS,
  V2_SECRET_KEY_HEADER,
} from '@partner-print/openapi/wire';
import { describe, expect, it } from 'vitest';
import { detectV1Credentials } from './auth.ts';
import { ENDPOINT_MAP, mapV1Endpoint } from './endpoints.ts';

describe('endpoint map', () => {
  it('maps every V1 operation of the reference', () => {
    expect(mapV1Endpoint('GET', '/stock')?.v2.map((e) => e.path)).toEqual([
      '/products',
      '/productgroups',
      '/items',
    ]);
    expect(mapV1Endpoint('get', 'https://api.example.com/v1/stock?x=1')?.id).toBe('stock');
    expect(mapV1Endpoint('GET', '/v1/stock-attributes')?.v2).toEqual([]);
    expect(mapV1Endpoint('POST', '/v1/orders/AB1-100001/cancel-all-lines')?.kind).toBe('no-equivalent');
    // Their methods are not in the reference: any method gets the answer.
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      expect(mapV1Endpoint(method, '/v1/orders/AB1-100001/cancel-all-lines')?.id).toBe('cancel-all-lines');
      expect(mapV1Endpoint(method, '/v1/stock_attributes')?.id).toBe('stock-attributes');
    }
    // A documented path keeps its method: DELETE /stock is not GET /stock.
    expect(mapV1Endpoint('DELETE', '/v1/stock')).toBeUndefined();
    expect(mapV1Endpoint('POST', '/render')?.v2[0]?.path).toBe('/renders');
    expect(mapV1Endpoint('POST', '/images')?.kind).toBe('same-name');
    expect(mapV1Endpoint('POST', '/orders')?.id).toBe('create-order');
    expect(mapV1Endpoint('GET', '/orders/AB1-100001')?.id).toBe('get-order');
    expect(mapV1Endpoint('GET', '/v1/orders?partner_reference=PO-1')?.id).toBe('lookup-by-partner-reference');
    expect(mapV1Endpoint('GET', '/orders/by-partner-reference/PO-1')?.id).toBe('lookup-by-partner-reference');
    expect(mapV1Endpoint('DELETE', '/nothing')).toBeUndefined();
    expect(ENDPOINT_MAP.filter((e) => e.kind === 'no-equivalent').map((e) => e.id)).toEqual([
      'stock-attributes',
      'cancel-all-lines',
    ]);
  });
});

describe('V1 credentials', () => {
  it('detects plausible header pairs case-insensitively', () => {
    for (const [code, key] of [
      ['X-Partner-Code', 'X-Api-Key'],
      ['partner-code', 'api-key'],
      ['x-store-code', 'x-apikey'],
      ['PARTNERCODE', 'X-PARTNER-API-KEY'],
    ] as const) {
      const r = detectV1Credentials({ [code]: 'AB', [key]: 'v1-key-value', Accept: 'application/json' });
      expect(r.detected).toBe(true);
      expect(r.partnerCodeHeader).toBe(code);
      expect(r.apiKeyHeader).toBe(key);
      expect(r.note).toContain(V2_SECRET_KEY_HEADER);
      expect(r.note).not.toContain('v1-key-value');
    }
    const h = new Headers({ 'x-partner-code': 'AB', 'x-api-key': 'k' });
    expect(detectV1Credentials(h).detected).toBe(true);
    expect(detectV1Credentials({ 'X-Service-Secret-Key': 'k' })).toMatchObject({
      detected: false,
      hasV2Key: true,
    });
    expect(detectV1Credentials([['x-api-key', 'k']]).detected).toBe(false);
  });
});

describe('detectV1Credentials and the wire module agree on the V1 header names', () => {
  it('flags exactly the names of V1_CREDENTIAL_HEADERS, case-insensitively', () => {
    for (const name of V1_CREDENTIAL_HEADERS) {
      const r = detectV1Credentials({ [name.toUpperCase()]: 'x' });
      expect(r.partnerCodeHeader ?? r.apiKeyHeader).toBe(name.toUpperCase());
      expect(isV1CredentialHeader(name)).toBe(true);
    }
    // The names the issue found disagreeing between the client's guard and this detector.
    expect(detectV1Credentials({ 'X-Partner-Key': 'k', 'Store-Code': 'c' })).toMatchObject({
      detected: true,
      apiKeyHeader: 'X-Partner-Key',
      partnerCodeHeader: 'Store-Code',
    });
    const other = detectV1Credentials({ 'X-Request-Id': '1', Authorization: 'Bearer x' });
    expect(other.partnerCodeHeader ?? other.apiKeyHeader).toBeUndefined();
  });
});
