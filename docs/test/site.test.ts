/**
 * The built page in a real browser: headless Debian chromium driven by playwright-core, the page served from
 * 127.0.0.1. Install chromium with tools/ci/install-chromium.sh (or point CHROMIUM_PATH at another binary).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../tools/docs/lib/build.ts';
import { PATHS } from '../../tools/docs/lib/paths.ts';
import { headingRoute } from '../../tools/docs/lib/slug.ts';
import { type DocsServer, serveDocs } from '../../tools/docs/server.ts';
import { type Chromium, launchChromium } from './chromium.ts';
import { readManifest } from './site-files.ts';

const MENU_ITEM = '[data-component-name="Menu/MenuItem"]';
const pageFile = pathToFileURL(PATHS.html).href;

let site: DocsServer;
let context: BrowserContext;
let page: Page;
let browser: Chromium | undefined;
let manifest: Manifest;
const requested: string[] = [];
const consoleErrors: string[] = [];

beforeAll(async () => {
  manifest = readManifest();
  site = await serveDocs({ dir: PATHS.dist });
  browser = await launchChromium('site');
  context = browser.context;
  const origin = new URL(site.url).origin;
  await context.route('**/*', (route) => {
    const url = route.request().url();
    requested.push(url);
    return new URL(url).origin === origin || url === pageFile
      ? route.continue()
      : route.abort('blockedbyclient');
  });
  page = context.pages()[0] ?? (await context.newPage());
  // Every route the page's router sets, for a failed navigation to name (`+` pushed, `~` replaced), and the
  // href of the link each click reached (null: the click reached no link), for `follow` to tell a lost click.
  await page.addInitScript(() => {
    const routes: string[] = [];
    (globalThis as { __routes?: string[] }).__routes = routes;
    const clicks: Array<string | null> = [];
    (globalThis as { __clicks?: Array<string | null> }).__clicks = clicks;
    document.addEventListener(
      'click',
      (event) => {
        const target = event.target as Element | null;
        clicks.push(target?.closest?.('a')?.getAttribute('href') ?? null);
      },
      true,
    );
    for (const name of ['pushState', 'replaceState'] as const) {
      const original = history[name].bind(history);
      history[name] = (data: unknown, unused: string, url?: string | URL | null) => {
        original(data, unused, url);
        routes.push(`${name === 'pushState' ? '+' : '~'}${decodeURIComponent(location.hash)}`);
      };
    }
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
  await page.goto(site.url, { waitUntil: 'networkidle' });
  await page.locator(MENU_ITEM).first().waitFor();
  await page.locator('[data-testid="search-trigger"]', { hasText: 'Search' }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** Hrefs of the navigation, normalised to hash routes (`/claims` and `#/claims` both become `#/claims`). */
async function navRoutes(): Promise<Set<string>> {
  const hrefs = await page.$$eval(`${MENU_ITEM} a[href]`, (as) =>
    as.map((a) => a.getAttribute('href') ?? ''),
  );
  return new Set(hrefs.map((h) => (h.startsWith('#') ? h : `#${h}`)));
}

/** How many routes the page's router has set since it loaded (see the init script in `beforeAll`). */
const routesSet = () => page.evaluate(() => (globalThis as { __routes?: string[] }).__routes?.length ?? 0);

/** Whether `waiting` resolved (a wait that timed out is `false`). */
const settles = (waiting: Promise<unknown>) =>
  waiting.then(
    () => true,
    () => false,
  );

/** Follows the navigation's link to `route` and waits until the page is there (see {@link follow}). */
async function clickNav(route: string): Promise<void> {
  const path = route.slice(1);
  await follow(
    page.locator(`${MENU_ITEM} a[href="${path}"], ${MENU_ITEM} a[href="${route}"]`).first(),
    route,
  );
}

/** The hrefs of the links the page's clicks reached since it loaded, from `from` on (see the init script). */
const clicksSince = (from: number) =>
  page.evaluate((n) => ((globalThis as { __clicks?: Array<string | null> }).__clicks ?? []).slice(n), from);

/**
 * Clicks `link` and waits until the page is at `route`. A click can land while the page re-renders what holds
 * the link (the menu's section just opened: the link under the pointer is replaced between the press and the
 * release, and the click reaches no link): that happened once in CI. So a click that reached no link and after
 * which the router set no route within 5 s is made again, up to three times. A click that reached the link, or
 * that set a route, is never repeated (a second click on a section's link would close it): a starved browser
 * that handles it late gets the whole 30 s. A failure names where the page is and the routes it went through.
 */
async function follow(link: Locator, route: string): Promise<void> {
  const href = await link.getAttribute('href');
  for (let attempt = 1; ; attempt++) {
    const before = await routesSet();
    const clicksBefore = (await clicksSince(0)).length;
    await link.scrollIntoViewIfNeeded();
    await link.click();
    const moved = await settles(
      page.waitForFunction(
        ({ r, n }) =>
          decodeURIComponent(location.hash) === r ||
          ((globalThis as { __routes?: string[] }).__routes?.length ?? 0) > n,
        { r: route, n: before },
        { timeout: 5_000 },
      ),
    );
    const reached = !moved && (await clicksSince(clicksBefore)).some((h) => h !== null && h === href);
    if (!moved && !reached && attempt < 3) continue;
    const there = (r: string) => decodeURIComponent(location.hash) === r;
    if ((moved || reached) && (await settles(page.waitForFunction(there, route, { timeout: 25_000 }))))
      return;
    const hash = await page.evaluate(() => decodeURIComponent(location.hash));
    const seen = await page.evaluate(() => (globalThis as { __routes?: string[] }).__routes ?? []);
    throw new Error(
      `clicked the link to ${route} ${attempt} time(s); the page is at ${hash}; its last routes: ${seen.slice(-8).join(' ')}`,
    );
  }
}

/** A heading whose whole text is `text` (Redoc puts an icon-only deep link inside each heading). */
function heading(text: string) {
  // Prefix match: deprecated operations carry a "Deprecated" badge after the summary.
  const exact = new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
  return page.locator('main h1, main h2').filter({ hasText: exact }).first();
}

async function openOperation(op: Manifest['operations'][number]): Promise<void> {
  const tag = manifest.tags.find((t) => t.name === op.tag);
  if (tag) await clickNav(tag.route);
  await clickNav(op.route);
  await heading(op.summary).waitFor({ state: 'visible' });
}

/**
 * Opens the section at `route` and returns the navigation's routes once every `expected` one is there (or
 * after 10 s, for the caller's assertion to name what is missing): the menu renders a section's items a
 * moment after the hash changes, so one immediate read can miss them.
 */
async function expandAndCollect(route: string, expected: readonly string[]): Promise<Set<string>> {
  await clickNav(route);
  const deadline = Date.now() + 10_000;
  let routes = await navRoutes();
  while (expected.some((r) => !routes.has(r)) && Date.now() < deadline) {
    await page.waitForTimeout(50);
    routes = await navRoutes();
  }
  return routes;
}

describe('the built site in Chromium', () => {
  it('renders the guides and the reference without console errors', async () => {
    await expect(page.title()).resolves.toContain('Partner Print');
    expect(consoleErrors).toEqual([]);
  });

  it('every guide and each of its sections is reachable from the navigation', async () => {
    for (const guide of manifest.guides) {
      const routes = await expandAndCollect(guide.route, [
        guide.route,
        ...guide.headings.map((h) => headingRoute(guide.tag, h)),
      ]);
      expect(routes, guide.file).toContain(guide.route);
      await heading(guide.title).waitFor({ state: 'visible' });
      for (const heading of guide.headings) {
        expect(routes, `${guide.file}: ## ${heading}`).toContain(headingRoute(guide.tag, heading));
      }
    }
    expect(consoleErrors).toEqual([]);
  });

  it('every operation of the spec is reachable from the navigation', async () => {
    const byTag = new Map<string, Manifest['operations']>();
    for (const op of manifest.operations) byTag.set(op.tag, [...(byTag.get(op.tag) ?? []), op]);
    expect(manifest.operations.length).toBeGreaterThan(20);
    for (const [tag, operations] of byTag) {
      const tagRoute = manifest.tags.find((t) => t.name === tag)?.route;
      expect(tagRoute, `tag ${tag} of ${operations[0]!.operationId} is declared`).toBeDefined();
      const routes = await expandAndCollect(
        tagRoute!,
        operations.map((op) => op.route),
      );
      for (const op of operations) expect(routes, `${op.operationId} in the navigation`).toContain(op.route);
      // Following a link costs about a second in this heavy page, so one operation per section is opened;
      // the others' links carry the same kind of route.
      const first = operations[0]!;
      await clickNav(first.route);
      await heading(first.summary).waitFor({ state: 'visible' });
    }
    expect(consoleErrors).toEqual([]);
  });

  it('every in-page link points at a place in the navigation', async () => {
    const known = new Set<string>(['#/']);
    for (const g of manifest.guides) {
      known.add(g.route);
      for (const h of g.headings) known.add(headingRoute(g.tag, h));
    }
    for (const t of manifest.tags) known.add(t.route);
    for (const op of manifest.operations) known.add(op.route);
    const links = await page.$$eval('main a[href^="#/"]', (as) =>
      as.map((a) => a.getAttribute('href') ?? ''),
    );
    expect(links.length).toBeGreaterThan(20);
    const unknown = [...new Set(links)].filter((l) => !known.has(l) && !l.startsWith('#/section/'));
    // Redoc also deep-links fields and responses of operations (`#/<tag>/<operation>#…`); those are its own.
    const ours = unknown.filter(
      (l) =>
        !manifest.operations.some((op) => /^[#/]/.test(l.slice(op.route.length)) && l.startsWith(op.route)),
    );
    expect(ours).toEqual([]);
  });

  it('saves screenshots for review', async () => {
    const claims = manifest.guides.find((g) => g.file === 'claims.md');
    if (claims) await clickNav(claims.route);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(PATHS.dist, 'screenshot.png') });
    const op = manifest.operations.find((o) => o.operationId === 'createOrder') ?? manifest.operations[0]!;
    await openOperation(op);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(PATHS.dist, 'screenshot-operation.png') });
    expect(existsSync(join(PATHS.dist, 'screenshot.png'))).toBe(true);
  });

  it('shows the SDK and curl samples of an operation', async () => {
    const op = manifest.operations.find((o) => o.sdkSample && o.method === 'post') ?? manifest.operations[0]!;
    await openOperation(op);
    // The SDK sample is the default tab (redocly.yaml lists the sample languages), curl the next.
    const panel = page.locator('main');
    await panel.getByText('SDK (TypeScript)', { exact: true }).first().waitFor({ state: 'visible' });
    // Whole samples: the client comes from environment variables, in the setup part the page folds.
    const fold = panel.locator(`[data-pp-fold="op:${op.operationId}"]`).first();
    await fold.locator('summary').waitFor({ state: 'visible' });
    await expect(fold.locator('details > pre').textContent()).resolves.toContain('PARTNER_PRINT_SECRET_KEY');
    await panel.getByText('SDK (TypeScript)', { exact: true }).first().click();
    await page.getByText('curl', { exact: true }).last().click();
    await panel.getByText('PARTNER_PRINT_SECRET_KEY').first().waitFor({ state: 'visible' });
  });

  it('search finds an operation', async () => {
    const op = manifest.operations.find((o) => o.operationId === 'retractClaim') ?? manifest.operations[0]!;
    await page.locator('[data-testid="search-trigger"]').click();
    const input = page.locator('[data-testid="search-dialog"] input').first();
    await input.fill(op.summary);
    const hit = page.locator(`a[data-component-name="Search/SearchItem"][href="${op.route}"]`).first();
    await hit.waitFor();
    await expect(hit.textContent()).resolves.toContain(op.path);
    await follow(hit, op.route);
    expect(consoleErrors).toEqual([]);
  });

  it('works offline, opened as a file', async () => {
    const offline = await context.newPage();
    const errors: string[] = [];
    offline.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    offline.on('pageerror', (error) => errors.push(error.message));
    try {
      await offline.goto(pageFile, { waitUntil: 'load' });
      await offline.locator(`${MENU_ITEM} a[href="/guide-getting-started"]`).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await offline.close();
    }
  });

  it('never requested anything but the page host', () => {
    const origin = new URL(site.url).origin;
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => new URL(url).origin !== origin && url !== pageFile)).toEqual([]);
  });
});
