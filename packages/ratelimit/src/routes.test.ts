import { describe, expect, it } from 'vitest';
import { defaultBuckets, REFERENCE_DEFAULTS, routeKey } from './routes.ts';

const ref = (prefix: string) => `${prefix}_${'a1B2c3D4e5F6g7H8i9J0k1L2m3'}`;

describe('routeKey', () => {
  it('takes the path after the version segment and folds references', () => {
    expect(routeKey('post', 'https://api.example/v2/images')).toBe('POST /images');
    expect(routeKey('GET', `https://api.example/prefix/v2/renders/${ref('Render')}/media`)).toBe(
      'GET /renders/*/media',
    );
    expect(routeKey('GET', `http://sandbox.localhost/v2/orders/${ref('Order')}?x=1`)).toBe('GET /orders/*');
    expect(routeKey('GET', `http://h/v2/products/${ref('Product')}/media/front.png`)).toBe(
      'GET /products/*/media/*',
    );
    expect(routeKey('GET', '/v2/claims')).toBe('GET /claims');
  });

  it('folds references whatever their 26 characters are (the alphabet is not documented)', () => {
    expect(routeKey('GET', 'https://api.example/v2/renders/Render_ab-c.d~e_fGHIJKLMNOPQRSTUVW/media')).toBe(
      'GET /renders/*/media',
    );
    expect(
      routeKey('GET', 'https://api.example/v2/renders/Render_%2Babcdefghijklmnopqrstuvwxy/thumbnail'),
    ).toBe('GET /renders/*/thumbnail');
    // Path segments of the API itself are never folded.
    expect(routeKey('GET', 'https://api.example/v2/utilities/lookup-product-by-legacy-sku')).toBe(
      'GET /utilities/lookup-product-by-legacy-sku',
    );
    expect(routeKey('POST', 'https://api.example/v2/claim-item-issues')).toBe('POST /claim-item-issues');
  });

  it('reads the path of absolute URLs with ports, user info, queries and fragments', () => {
    expect(routeKey('GET', 'http://127.0.0.1:4010/v2/orders?cursor=a/b')).toBe('GET /orders');
    expect(routeKey('GET', `https://user:pw@api.example:8443/v2/claims/${ref('Claim')}#top`)).toBe(
      'GET /claims/*',
    );
    expect(routeKey('GET', 'https://api.example?x=/v2/orders')).toBe('GET /');
    expect(routeKey('GET', 'HTTPS://API.EXAMPLE/v2/rendertokens')).toBe('GET /rendertokens');
  });
});

describe('defaultBuckets', () => {
  it('maps uploads and downloads to their dedicated bucket besides default', () => {
    expect(defaultBuckets(REFERENCE_DEFAULTS, 'POST /images')).toEqual(['default', 'uploads']);
    expect(defaultBuckets(REFERENCE_DEFAULTS, 'POST /evidence')).toEqual(['default', 'uploads']);
    expect(defaultBuckets(REFERENCE_DEFAULTS, 'GET /renders/*/thumbnail')).toEqual(['default', 'downloads']);
    expect(defaultBuckets(REFERENCE_DEFAULTS, 'GET /products/*/media/*')).toEqual(['default', 'downloads']);
    expect(defaultBuckets(REFERENCE_DEFAULTS, 'GET /images')).toEqual(['default']);
  });
});
