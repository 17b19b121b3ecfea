import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../tools/docs/lib/paths.ts';
import { type DocsServer, resolveDocsFile, serveDocs } from '../../tools/docs/server.ts';

describe('the docs server', () => {
  let site: DocsServer;
  beforeAll(async () => {
    site = await serveDocs({ dir: PATHS.dist, basePath: '/docs' });
  });
  afterAll(() => site.close());

  it('listens on 127.0.0.1 and serves the page under its base path', async () => {
    expect(site.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/docs\/$/);
    const page = await fetch(site.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<div id="redoc"');
    const bare = await fetch(site.url.replace(/\/$/, ''), { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/docs/');
    expect((await fetch(new URL('/elsewhere', site.url))).status).toBe(404);
  });

  it('never serves a file outside its directory', () => {
    expect(resolveDocsFile(PATHS.dist, '/index.html')).toBe(PATHS.html);
    expect(resolveDocsFile(PATHS.dist, '/')).toBe(PATHS.html);
    expect(resolveDocsFile(PATHS.dist, '/../package.json')).toBeUndefined();
    expect(resolveDocsFile(PATHS.dist, '/%2e%2e/%2e%2e/package.json')).toBeUndefined();
    expect(resolveDocsFile(PATHS.dist, '/docs/index.html', '/docs')).toBe(PATHS.html);
    expect(resolveDocsFile(PATHS.dist, '/other/index.html', '/docs')).toBeUndefined();
  });
});
