import { describe, expect, it } from 'vitest';
import { json } from './contract.ts';
import { pngBytes, SECOND, setup } from './fixtures.ts';

describe('rate limits', () => {
  it('sends both headers in structured-field list syntax on every authenticated response', async () => {
    const { a, seed } = setup();
    const res = await a.get('/claimcategories');
    expect(res.headers.get('x-ratelimit-policy')).toBe('"default";q=3000;w=60');
    expect(res.headers.get('x-ratelimit')).toBe('"default";r=2999;t=0');
    const up = await a.upload('/images', pngBytes(1));
    expect(up.headers.get('x-ratelimit-policy')).toBe('"default";q=3000;w=60, "uploads";q=5000;w=86400');
    expect(up.headers.get('x-ratelimit')).toBe('"default";r=2998;t=0, "uploads";r=4999;t=0');
    const media = await a.get(`/products/${seed.products.print}/media/front.png`);
    expect(media.headers.get('x-ratelimit-policy')).toBe(
      '"default";q=3000;w=60, "downloads";q=100000;w=86400',
    );
    const notFound = await a.get('/orders/Order_00000000000000000000000000');
    expect(notFound.headers.get('x-ratelimit')).toBe('"default";r=2996;t=0');
    const unauthenticated = await a.get('/orders', null);
    expect(unauthenticated.headers.has('x-ratelimit')).toBe(false);
  });

  it('a HEAD of a download spends the downloads bucket like its GET (it is the GET without the body)', async () => {
    const { sandbox, seed } = setup();
    const url = `${sandbox.baseUrl}/products/${seed.products.print}/media/front.png`;
    const headers = { 'X-Service-Secret-Key': sandbox.keys.primary };
    const head = await sandbox.fetch(url, { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-ratelimit-policy')).toBe(
      '"default";q=3000;w=60, "downloads";q=100000;w=86400',
    );
    expect(head.headers.get('x-ratelimit')).toBe('"default";r=2999;t=0, "downloads";r=99999;t=0');
  });

  it('answers 429 rate_limited with Retry-After and both headers when a bucket is empty; it refills continuously', async () => {
    const { a, sandbox } = setup({ rateLimits: { default: { q: 3, w: 60 } } });
    for (let i = 0; i < 3; i++) expect((await a.get('/claimcategories')).status).toBe(200);
    const res = await a.get('/claimcategories');
    expect(res.status).toBe(429);
    expect(await json(res)).toMatchObject({ code: 'rate_limited' });
    expect(res.headers.get('retry-after')).toBe('20');
    expect(res.headers.get('x-ratelimit-policy')).toBe('"default";q=3;w=60');
    expect(res.headers.get('x-ratelimit')).toBe('"default";r=0;t=20');
    await sandbox.clock.sleep(10 * SECOND);
    const half = await a.get('/claimcategories');
    expect(half.status).toBe(429);
    expect(half.headers.get('retry-after')).toBe('10');
    await sandbox.clock.sleep(10 * SECOND);
    const ok = await a.get('/claimcategories');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit')).toBe('"default";r=0;t=20');
    await sandbox.clock.sleep(3600 * SECOND);
    expect((await a.get('/claimcategories')).headers.get('x-ratelimit')).toBe('"default";r=2;t=0');
  });

  it('shares one budget between the keys of an organization, not across organizations', async () => {
    const { a, b } = setup({ rateLimits: { default: { q: 2, w: 60 } } });
    expect((await a.get('/items')).status).toBe(200);
    expect((await a.get('/items', 'secondary')).status).toBe(200);
    expect((await a.get('/items')).status).toBe(429);
    expect((await a.get('/items', 'secondary')).status).toBe(429);
    expect((await b.get('/items')).status).toBe(200);
  });

  it('limits uploads with their own bucket and takes no default token when refusing', async () => {
    const { a } = setup({ rateLimits: { uploads: { q: 2, w: 86_400 } } });
    await a.upload('/images', pngBytes(1));
    await a.upload('/evidence', pngBytes(2));
    const res = await a.upload('/images', pngBytes(3));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('43200');
    expect(res.headers.get('x-ratelimit')).toBe('"default";r=2998;t=0, "uploads";r=0;t=43200');
    const next = await a.get('/items');
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit')).toBe('"default";r=2997;t=0');
  });

  it('limits downloads with their own bucket', async () => {
    const { a, seed } = setup({ rateLimits: { downloads: { q: 1, w: 1 } } });
    expect((await a.get(`/products/${seed.products.print}/media/front.png`)).status).toBe(200);
    const res = await a.get(`/products/${seed.products.print}/media/back.png`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
  });

  it('adds up to `jitter` seconds to Retry-After', async () => {
    const { a } = setup({ rateLimits: { default: { q: 1, w: 60 } }, jitter: 3 });
    await a.get('/items');
    const seen = new Set<number>();
    for (let i = 0; i < 40; i++) seen.add(Number((await a.get('/items')).headers.get('retry-after')));
    for (const v of seen) expect(v).toBeGreaterThanOrEqual(60);
    for (const v of seen) expect(v).toBeLessThanOrEqual(63);
    expect(seen.size).toBeGreaterThan(1);
  });

  it('can be turned off, and changed through the control API', async () => {
    const { a, sandbox } = setup({ rateLimits: false });
    const res = await a.get('/items');
    expect(res.headers.has('x-ratelimit')).toBe(false);
    sandbox.control.setRateLimits({ default: { q: 1, w: 10 } });
    expect(sandbox.control.rateLimits()).toMatchObject({ default: { q: 1, w: 10 }, uploads: { q: 5000 } });
    expect((await a.get('/items')).status).toBe(200);
    expect((await a.get('/items')).status).toBe(429);
    sandbox.control.setRateLimits(false);
    expect((await a.get('/items')).status).toBe(200);
    expect(() => sandbox.control.setRateLimits({ default: { q: 0 } })).toThrow(/invalid rate-limit policy/);
  });

  it('answers 429 on every kind of endpoint the spec documents it for', async () => {
    const s = setup({ rateLimits: { default: { q: 1, w: 600 } } });
    const imageReference = await s.image();
    const order = s.a; // every following request finds the default bucket empty
    const paths = [
      '/claimcategories',
      '/claims',
      '/claims/Claim_00000000000000000000000000',
      '/orders',
      '/orders/Order_00000000000000000000000000',
      '/shipments/Shipment_00000000000000000000000000',
      '/items',
      '/products',
      '/productgroups',
      `/products/${s.seed.products.print}/media/front.png`,
      '/utilities/lookup-product-by-legacy-sku?legacyItemSku=x',
      '/utilities/lookup-order-reference-by-custom-identifier?customIdentifier=x',
      '/scenes',
      `/scenes/${s.seed.scenes.studio}`,
      '/perspectives',
      `/perspectives/${s.seed.perspectives.studioFront}`,
      `/lookup-composition?sceneReference=a&productReference=b&perspectiveReference=c`,
      `/compositions/${s.seed.compositions.available}`,
      '/renders/Render_00000000000000000000000000',
      '/renders/Render_00000000000000000000000000/media',
      '/renders/Render_00000000000000000000000000/thumbnail',
      '/rendertokens',
    ];
    for (const path of paths) expect((await order.get(path)).status).toBe(429);
    for (const path of [
      '/orders',
      '/claim-package-missing',
      '/claim-item-issues',
      '/renders',
      '/claims/Claim_00000000000000000000000000/retract',
    ]) {
      expect((await order.post(path, {})).status).toBe(429);
    }
    expect((await order.upload('/images', pngBytes(9))).status).toBe(429);
    expect((await order.upload('/evidence', pngBytes(9))).status).toBe(429);
    void imageReference;
  });
});
