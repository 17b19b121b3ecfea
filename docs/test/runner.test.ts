/**
 * The runnable samples in a real browser (headless Debian chromium, playwright-core): every operation's Run
 * succeeds in the page with a documented status, state carries from one operation to the next, Reset starts
 * over, nothing logs an error and no request leaves the page — served from 127.0.0.1, opened as a file, and
 * served by the sandbox's own server at /docs. Screenshots at desktop and phone widths land in `.tmp/docs/`.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startSandboxServer } from '@partner-print/sandbox/node';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../tools/docs/lib/build.ts';
import { PATHS } from '../../tools/docs/lib/paths.ts';
import { type DocsServer, serveDocs } from '../../tools/docs/server.ts';
import { readManifest } from './site-files.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const SHOTS = join(PATHS.root, '.tmp/docs');
const pageFile = pathToFileURL(PATHS.html).href;

let site: DocsServer;
let context: BrowserContext;
let page: Page;
let profile: string;
let manifest: Manifest;
const requested: string[] = [];
const errors: string[] = [];

function watch(p: Page): void {
  p.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  p.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no chromium at ${CHROMIUM}: run tools/ci/install-chromium.sh`);
  mkdirSync(SHOTS, { recursive: true });
  manifest = readManifest();
  site = await serveDocs({ dir: PATHS.dist });
  profile = mkdtempSync(join(tmpdir(), 'docs-runner-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1400, height: 900 },
  });
  // The page is heavy (2.9 MB, hydrated by Redoc): on a loaded machine a load can take tens of seconds.
  context.setDefaultTimeout(90_000);
  context.setDefaultNavigationTimeout(120_000);
  // Every request is recorded; only the page's own origin (or its file) gets an answer.
  await context.route('**/*', (route) => {
    const url = route.request().url();
    requested.push(url);
    const own = url.startsWith(site.url) || url.startsWith(pageFile) || url.startsWith('http://127.0.0.1:');
    return own ? route.continue() : route.abort('blockedbyclient');
  });
  page = context.pages()[0] ?? (await context.newPage());
  watch(page);
  await page.goto(site.url, { waitUntil: 'load' });
});

afterAll(async () => {
  await context?.close();
  await site?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

interface RunOutcome {
  state: string;
  exchanges: { method: string; path: string; status: number; operation: string }[];
  console: string[];
  steps: string[];
  error: string | null;
}

async function go(p: Page, route: string): Promise<void> {
  await p.evaluate((r) => {
    location.hash = r;
  }, route);
}

const READ_PANEL = () => {
  const root = document.getElementById('pp-runner')!;
  const all = (s: string) => [...root.querySelectorAll<HTMLElement>(s)];
  return {
    state: root.querySelector('.pp-status')!.getAttribute('data-state')!,
    exchanges: all('.pp-exchange').map((x) => ({
      method: x.dataset.method!,
      path: x.dataset.path!,
      status: Number(x.dataset.status),
      operation: x.dataset.operation!,
    })),
    console: all('.pp-console').map((x) => x.textContent ?? ''),
    steps: all('.pp-step').map((x) => x.textContent ?? ''),
    error: root.querySelector('.pp-error')?.textContent ?? null,
  };
};

/** Empties the panel's log and status, so that only the next run's events are read. */
async function clearPanel(p: Page): Promise<void> {
  await p.evaluate(() => {
    document.querySelector('#pp-runner .pp-log')?.replaceChildren();
    document.querySelector('#pp-runner .pp-status')?.setAttribute('data-state', 'waiting');
  });
}

async function finished(p: Page): Promise<RunOutcome> {
  await p.waitForFunction(
    () =>
      /^(done|failed)$/.test(
        document.querySelector('#pp-runner .pp-status')?.getAttribute('data-state') ?? '',
      ),
    undefined,
    { timeout: 90_000 },
  );
  return p.evaluate(READ_PANEL);
}

/** Opens the operation, clicks its Run button, waits for the run to end and reads the panel. */
async function run(p: Page, route: string, id: string): Promise<RunOutcome> {
  const close = p.locator('#pp-runner:not([hidden]) [data-action="close"]');
  if (await close.count()) await close.click();
  await go(p, route);
  const button = p.locator(`[data-pp-run="${id}"]`).first();
  await button.waitFor({ state: 'attached', timeout: 90_000 });
  await clearPanel(p);
  await button.scrollIntoViewIfNeeded();
  await button.click();
  return finished(p);
}

/** The same run the button starts, through the page's runner (no navigation: the page is heavy to route). */
async function runDirect(p: Page, id: string): Promise<RunOutcome> {
  await clearPanel(p);
  await p.evaluate((sample) => {
    (
      window as unknown as { PartnerPrintRunner: { runner: { open(id: string): void } } }
    ).PartnerPrintRunner.runner.open(sample);
  }, id);
  return finished(p);
}

/** The panel over an operation, one exchange open, at desktop and phone widths (files in .tmp/docs). */
async function screenshots(): Promise<void> {
  await page
    .locator('#pp-runner details.pp-exchange')
    .last()
    .evaluate((d) => {
      (d as HTMLDetailsElement).open = true;
    });
  await page.screenshot({ path: join(SHOTS, 'runner-desktop.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SHOTS, 'runner-phone.png') });
  await page.locator('#pp-runner [data-action="close"]').click();
  await page.screenshot({ path: join(SHOTS, 'operation-phone.png') });
  await page.setViewportSize({ width: 1400, height: 900 });
}

function expectDocumented(op: Manifest['operations'][number], outcome: RunOutcome): void {
  expect(outcome.error, op.operationId).toBeNull();
  expect(outcome.state, op.operationId).toBe('done');
  if (op.statuses.length) {
    const own = outcome.exchanges.filter((x) => x.operation === op.operationId);
    expect(own.length, `${op.operationId} made its request`).toBeGreaterThan(0);
    expect(op.statuses, op.operationId).toContain(own.at(-1)!.status);
  }
}

describe('runnable samples in Chromium', () => {
  it('has a Run button on SDK samples (in the samples panel and in a webhook description), and it runs', async () => {
    const runnable = manifest.operations.filter((op) => op.runnable);
    expect(runnable.length).toBe(manifest.operations.length);
    // Every operation's button is the same loader code on the same Redoc component; routing to each of the 30
    // costs seconds apiece in this heavy page, so one per kind of place is clicked and the others run below.
    const createOrder = runnable.find((o) => o.operationId === 'createOrder')!;
    expectDocumented(createOrder, await run(page, createOrder.route, 'op:createOrder'));
    await screenshots();
    const webhook = runnable.find((o) => o.operationId === 'orderUpdated')!;
    expectDocumented(webhook, await run(page, webhook.route, 'op:orderUpdated'));
    expect(errors).toEqual([]);
  }, 300_000);

  it('every operation runs in the page with a documented status', async () => {
    for (const op of manifest.operations) expectDocumented(op, await runDirect(page, `op:${op.operationId}`));
    expect(errors).toEqual([]);
  }, 240_000);

  it('carries state from "Create an order" to "Get an order"; Reset starts over', async () => {
    const created = await runDirect(page, 'op:createOrder');
    const reference = created.console.join('\n').match(/Order_[0-9A-Za-z]+/)?.[0];
    expect(reference).toBeDefined();
    const read = await runDirect(page, 'op:getOrder');
    expect(read.steps).toEqual([]);
    expect(read.exchanges).toEqual([
      { method: 'GET', path: `/orders/${reference}`, status: 200, operation: 'getOrder' },
    ]);
    await page.locator('#pp-runner [data-action="reset"]').click();
    await page.locator('#pp-runner .pp-step', { hasText: 'Sandbox reset' }).waitFor();
    const listed = await runDirect(page, 'op:listOrders');
    expect(listed.console).toEqual([]);
    const again = await runDirect(page, 'op:getOrder');
    expect(again.steps.join('\n')).toMatch(/No order in this session yet: running "Create an order" first/);
    expect(errors).toEqual([]);
  }, 120_000);

  it('advances the clock and ships from the panel, visibly', async () => {
    const panel = page.locator('#pp-runner');
    const clock = await panel.locator('.pp-clock').textContent();
    await panel.locator('[data-action="advance-hour"]').click();
    await expect.poll(() => panel.locator('.pp-clock').textContent()).not.toBe(clock);
    await panel.locator('[data-action="ship"]').click();
    await expect
      .poll(() => panel.locator('.pp-log').textContent())
      .toMatch(/Sandbox control: shipped Order_\w+ → Shipment_\w+/);
    expect(errors).toEqual([]);
  });

  it('runs from the page opened as a file', async () => {
    const offline = await context.newPage();
    watch(offline);
    try {
      const op = manifest.operations.find((o) => o.operationId === 'createOrder')!;
      await offline.goto(`${pageFile}${op.route}`, { waitUntil: 'load' });
      const outcome = await run(offline, op.route, 'op:createOrder');
      expect(outcome.state).toBe('done');
      expect(outcome.exchanges.at(-1)).toMatchObject({ operation: 'createOrder', status: 200 });
    } finally {
      await offline.close();
    }
    expect(errors).toEqual([]);
  }, 240_000);

  it("runs from the sandbox server's /docs", async () => {
    const server = await startSandboxServer({ port: 0, docsFile: PATHS.html });
    const served = await context.newPage();
    watch(served);
    try {
      const op = manifest.operations.find((o) => o.operationId === 'listProducts')!;
      await served.goto(`${server.origin}/docs${op.route}`, { waitUntil: 'load' });
      const outcome = await run(served, op.route, 'op:listProducts');
      expect(outcome.state).toBe('done');
      expect(outcome.exchanges.at(-1)).toMatchObject({ operation: 'listProducts', status: 200 });
    } finally {
      await served.close();
      await server.close();
    }
    expect(errors).toEqual([]);
  }, 240_000);

  it('lays guides out on the whole width, without words broken inside', async () => {
    const guide = manifest.guides.find((g) => g.file === 'getting-started.md')!;
    await go(page, guide.route);
    const section = page.locator(`[data-section-id="${guide.route.slice(1)}"]`);
    await section.waitFor();
    const widths = await section.evaluate((s) => ({
      section: s.getBoundingClientRect().width,
      text: s.querySelector('[data-testid="middle-panel"]')!.getBoundingClientRect().width,
    }));
    expect(widths.text / widths.section).toBeGreaterThan(0.9);
    // Each line of a package name in a table ends at a hyphen or slash, never inside a word.
    const lines = await section.evaluate((s) =>
      [...s.querySelectorAll('td code')]
        .filter((c) => c.textContent?.startsWith('@partner-print/'))
        .map((code) => {
          const text = code.firstChild!;
          const tops: number[] = [];
          for (let i = 0; i < (text.textContent ?? '').length; i++) {
            const range = document.createRange();
            range.setStart(text, i);
            range.setEnd(text, i + 1);
            tops.push(Math.round(range.getBoundingClientRect().top));
          }
          const chars = [...(text.textContent ?? '')];
          const before: string[] = [];
          for (let i = 1; i < chars.length; i++) if (tops[i] !== tops[i - 1]) before.push(chars[i - 1]!);
          return before;
        }),
    );
    expect(lines.length).toBeGreaterThan(3);
    for (const breaks of lines) for (const before of breaks) expect(before).toMatch(/[-/]/);
  });

  it('search snippets keep the spaces between table cells and wrapped lines', async () => {
    await page.locator('[data-testid="search-trigger"]', { hasText: 'Search' }).waitFor();
    await page.locator('[data-testid="search-trigger"]').click();
    await page.locator('[data-testid="search-dialog"] input').first().fill('shippingKind yes dropship');
    const items = page.locator('[data-component-name="Search/SearchItem"]');
    await expect
      .poll(async () => (await items.allTextContents()).join('\n'), { timeout: 15_000 })
      .toMatch(/shippingKind\s+yes\s+dropship/);
    expect((await items.allTextContents()).join('\n')).not.toMatch(/shippingKindyes|acombined/);
    await page.keyboard.press('Escape');
  });

  it('names the request body schema instead of "any"', async () => {
    const op = manifest.operations.find((o) => o.operationId === 'createOrder')!;
    await go(page, op.route);
    const body = page.locator('main', { hasText: '(OrderRequest)' }).first();
    await body.waitFor();
    const text = (await page.locator(`[data-section-id="${op.route.slice(1)}"]`).textContent()) ?? '';
    expect(text).toMatch(/order\s*object,?\s*\(OrderRequest\)/);
    expect(text).not.toMatch(/order\s*any/);
  });

  it('never requested anything but the page itself', () => {
    expect(requested.filter((url) => url.includes('favicon'))).toEqual([]);
    expect(requested.length).toBeGreaterThan(0);
    const foreign = requested.filter(
      (url) =>
        !(
          url.startsWith(site.url) ||
          url.startsWith(pageFile) ||
          /^http:\/\/127\.0\.0\.1:\d+\/docs(#.*)?$/.test(url)
        ),
    );
    expect(foreign).toEqual([]);
  });
});
