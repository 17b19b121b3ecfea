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
    { timeout: 30_000 },
  );
  return p.evaluate(READ_PANEL);
}

/** Opens the operation, clicks its Run button, waits for the run to end and reads the panel. */
async function run(p: Page, route: string, id: string): Promise<RunOutcome> {
  const close = p.locator('#pp-runner:not([hidden]) [data-action="close"]');
  if (await close.count()) await close.click();
  await go(p, route);
  const button = p.locator(`[data-pp-run="${id}"]`).first();
  await button.waitFor({ state: 'attached', timeout: 20_000 });
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
    for (const id of ['retractClaim', 'createOrder', 'orderUpdated']) {
      const op = runnable.find((o) => o.operationId === id)!;
      expectDocumented(op, await run(page, op.route, `op:${op.operationId}`));
    }
    expect(errors).toEqual([]);
  }, 120_000);

  it('every operation runs in the page with a documented status', async () => {
    for (const op of manifest.operations) expectDocumented(op, await runDirect(page, `op:${op.operationId}`));
    expect(errors).toEqual([]);
  }, 120_000);

  it('carries state from "Create an order" to "Get an order"; Reset starts over', async () => {
    const route = (id: string) => manifest.operations.find((o) => o.operationId === id)!.route;
    const created = await run(page, route('createOrder'), 'op:createOrder');
    const reference = created.console.join('\n').match(/Order_[0-9A-Za-z]+/)?.[0];
    expect(reference).toBeDefined();
    const read = await run(page, route('getOrder'), 'op:getOrder');
    expect(read.steps).toEqual([]);
    expect(read.exchanges).toEqual([
      { method: 'GET', path: `/orders/${reference}`, status: 200, operation: 'getOrder' },
    ]);
    await page.locator('#pp-runner [data-action="reset"]').click();
    await page.locator('#pp-runner .pp-step', { hasText: 'Sandbox reset' }).waitFor();
    const listed = await run(page, route('listOrders'), 'op:listOrders');
    expect(listed.console).toEqual([]);
    const again = await run(page, route('getOrder'), 'op:getOrder');
    expect(again.steps.join('\n')).toMatch(/No order in this session yet: running "Create an order" first/);
    expect(errors).toEqual([]);
  }, 60_000);

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

  it('looks right at desktop and phone widths', async () => {
    const route = manifest.operations.find((o) => o.operationId === 'createItemIssuesClaim')!.route;
    await run(page, route, 'op:createItemIssuesClaim');
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
    expect(existsSync(join(SHOTS, 'runner-phone.png'))).toBe(true);
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
  }, 60_000);

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
  }, 60_000);

  it('never requested anything but the page itself', () => {
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
