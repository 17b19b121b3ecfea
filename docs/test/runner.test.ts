/**
 * The runnable samples in a real browser (headless Debian chromium, playwright-core): every operation's sample
 * and every runnable guide block runs in the page with its documented status or output, state carries from one
 * operation to the next, Reset starts over, the setup part is folded, nothing logs an error and no request leaves
 * the page — served from 127.0.0.1, opened as a file, and served by the sandbox's own server at /docs.
 * Screenshots at desktop and phone widths land in `.tmp/docs/`.
 *
 * One browser and one page load serve every test but the two that need another origin (run side by side); the
 * samples run all at once in that page, each group in a session of its own (`PartnerPrintRunner.runEach`).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startSandboxServer } from '@partner-print/sandbox/node';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../tools/docs/lib/build.ts';
import { PATHS } from '../../tools/docs/lib/paths.ts';
import { BUNDLE_ELEMENT_ID } from '../../tools/docs/runner/loader.ts';
import type { RunResult } from '../../tools/docs/runner/types.ts';
import { type DocsServer, serveDocs } from '../../tools/docs/server.ts';
import { type Chromium, launchChromium } from './chromium.ts';
import { readManifest } from './site-files.ts';

const SHOTS = join(PATHS.root, '.tmp/docs');
const pageFile = pathToFileURL(PATHS.html).href;

let site: DocsServer;
let context: BrowserContext;
let page: Page;
let browser: Chromium | undefined;
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
  mkdirSync(SHOTS, { recursive: true });
  manifest = readManifest();
  site = await serveDocs({ dir: PATHS.dist });
  browser = await launchChromium('runner');
  context = browser.context;
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
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(site.url).origin });
  watch(page);
  await page.goto(site.url, { waitUntil: 'load' });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
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

/** The panel's view of a run, from a run result (as READ_PANEL reads the panel). */
function outcomeOf(result: RunResult): RunOutcome {
  const outcome: RunOutcome = {
    state: result.ok ? 'done' : 'failed',
    exchanges: [],
    console: [],
    steps: [],
    error: null,
  };
  for (const event of result.events) {
    if (event.kind === 'exchange') {
      const x = event.exchange;
      outcome.exchanges.push({
        method: x.method,
        path: x.path,
        status: x.status,
        operation: x.operationId ?? '',
      });
    } else if (event.kind === 'console') outcome.console.push(event.text);
    else if (event.kind === 'step') outcome.steps.push(event.text);
    else outcome.error = `${event.error.name}: ${event.error.message}`;
  }
  return outcome;
}

/** Loads the runner as a click on Run does (once per page). */
async function loadedRunner(p: Page): Promise<void> {
  await p.evaluate(async (elementId) => {
    if ('PartnerPrintRunner' in window) return;
    const node = document.getElementById(elementId)!;
    const bytes = Uint8Array.from(atob((node.textContent ?? '').trim()), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    const script = document.createElement('script');
    script.textContent = await new Response(stream).text();
    document.head.append(script);
  }, BUNDLE_ELEMENT_ID);
}

/** Runs each group of samples in a fresh session of its own, all groups at once, in the page; by last id. */
async function runEach(p: Page, groups: string[][]): Promise<Record<string, RunResult>> {
  await loadedRunner(p);
  const done = await p.evaluate(
    ({ all, ms }) => {
      type Runner = { data: unknown; runEach(data: unknown, groups: string[][]): Promise<RunResult[][]> };
      const runner = (window as unknown as { PartnerPrintRunner: Runner }).PartnerPrintRunner;
      // A group that never ends is reported as such instead of holding up the others.
      const late = () => new Promise<null>((resolve) => setTimeout(() => resolve(null), ms));
      return Promise.all(
        all.map((ids) => Promise.race([runner.runEach(runner.data, [ids]).then((r) => r[0]!), late()])),
      );
    },
    { all: groups, ms: 120_000 },
  );
  expect(
    groups.filter((_, i) => done[i] === null).map((ids) => ids.at(-1)),
    'runs that never ended',
  ).toEqual([]);
  // Each group's last sample is the one under test; the ones before it made its inputs.
  return Object.fromEntries(groups.map((ids, i) => [ids.at(-1)!, done[i]!.at(-1)!]));
}

/** A new page at the URL (its own load), the sample run from its button, the page closed. */
async function runInNewPage(url: string, route: string, id: string): Promise<RunOutcome> {
  const p = await context.newPage();
  watch(p);
  try {
    await p.goto(url, { waitUntil: 'load' });
    return await run(p, route, id);
  } finally {
    await p.close();
  }
}

/** The folded view of a sample and the block it was cut from. */
async function readFold(p: Page, id: string) {
  const fold = p.locator(`[data-pp-fold="${id}"]`).first();
  await fold.waitFor({ state: 'attached', timeout: 90_000 });
  return fold.evaluate((view) => {
    const original = view.previousElementSibling as HTMLElement;
    const details = view.querySelector('details')!;
    return {
      summary: details.querySelector('summary')!.textContent ?? '',
      open: details.open,
      originalHidden: original.tagName === 'PRE' && original.hidden,
      original: (original.textContent ?? '').replace(/\n+$/, ''),
      setup: details.querySelector('pre')!.textContent ?? '',
      rest: view.querySelector(':scope > pre:last-child')!.textContent ?? '',
    };
  });
}

interface GuideRun {
  /** Samples run first in the same session (what the block lists or reads). */
  after?: string[];
  check(outcome: RunOutcome, id: string): void;
}

const made = (outcome: RunOutcome, operation: string, statuses: number[]) => {
  const own = outcome.exchanges.filter((x) => x.operation === operation);
  expect(own.length, operation).toBeGreaterThan(0);
  expect(statuses, operation).toContain(own.at(-1)!.status);
};

/** What each runnable guide block must do in the page: its requests and its console output. */
const GUIDE_RUNS: Record<string, GuideRun> = {
  'guide:authentication-and-environments.md:key-check': {
    check(o) {
      expect(o.console[0]).toMatch(/^the key works; rendertokens left: \d+$/);
      // The message gives the length and the position, never the key.
      expect(o.console[1]).toMatch(/^secretKey \(\d+ characters\) has a space at position \d+/);
      expect(o.console[1]).not.toMatch(/sk_/);
      expect(o.exchanges).toHaveLength(1);
    },
  },
  'guide:getting-started.md:errors': {
    check(o) {
      expect(o.console.join('\n')).toMatch(/NotFoundError 404/);
      made(o, 'getOrder', [404]);
    },
  },
  'guide:claims.md:item-issues': {
    check(o) {
      made(o, 'createItemIssuesClaim', [200, 201]);
      expect(o.console.at(-1)).toMatch(/^Claim_\w+$/);
    },
  },
  'guide:claims.md:refused': {
    check(o) {
      made(o, 'createPackageMissingClaim', [400, 409, 422]);
      expect(o.console.at(-1)).toMatch(/^refused \(4\d\d shipment_too_recent\): /);
    },
  },
  'guide:claims.md:read': {
    check(o) {
      made(o, 'getClaim', [200]);
      expect(o.console.at(-1)).toMatch(/^Claim_\w+ pending$/);
    },
  },
  'guide:claims.md:retract': {
    check(o) {
      made(o, 'retractClaim', [204]);
      expect(o.console.at(-1)).toMatch(/^Claim_\w+ retracted$/);
    },
  },
  'guide:images-and-evidence.md:upload': {
    check(o) {
      expect(o.console[0]).toMatch(/^Image_\w+ Evidence_\w+$/);
      expect(o.console[1]).toMatch(/JPEG|PNG/);
      // The GIF is refused before anything is sent: one upload of each kind.
      expect(o.exchanges.map((x) => x.operation)).toEqual(['uploadImage', 'uploadEvidence']);
    },
  },
  'guide:images-and-evidence.md:claim-evidence': {
    check(o) {
      expect(o.exchanges.filter((x) => x.operation === 'uploadEvidence')).toHaveLength(3);
      made(o, 'createItemIssuesClaim', [200, 201]);
      expect(o.console.at(-1)).toBe('3 photos uploaded and claimed');
    },
  },
  'guide:legacy-callback.md:parse': {
    check(o) {
      expect(o.console[0]).toBe('Order_01JD2W8ZQ6X4N1R7P3K5M9T2VB');
      expect(o.exchanges).toEqual([]);
    },
  },
  'guide:pagination.md:orders': {
    after: ['op:createOrder'],
    check(o) {
      made(o, 'listOrders', [200]);
      expect(o.console).toHaveLength(1);
      expect(o.console[0]).toMatch(/^Order_\w+$/);
    },
  },
  'guide:pagination.md:claims': {
    after: ['op:createPackageMissingClaim'],
    check(o) {
      made(o, 'listClaims', [200]);
      expect(o.exchanges.at(-1)!.path).toContain('closedAfter=2026-10-01');
      expect(o.console.at(-1)).toMatch(/^open claim Claim_\w+$/);
    },
  },
  'guide:pagination.md:collect': {
    after: ['op:createOrder', 'op:createOrder'],
    check(o) {
      expect(o.console).toEqual(['2 orders']);
    },
  },
  'guide:pagination.md:cursor': {
    after: ['op:createOrder'],
    check(o) {
      made(o, 'listOrders', [200]);
      expect(o.console[0]).toMatch(/^Order_\w+$/);
    },
  },
  'guide:rate-limits.md:scheduler': {
    check(o) {
      made(o, 'listOrders', [200]);
      expect(o.console[0]).toMatch(/^200 /);
      expect(o.console.join('\n')).toMatch(/default/);
    },
  },
  'guide:rendering.md:download': {
    check(o) {
      made(o, 'getRenderMedia', [200]);
      expect(o.console.at(-1)).toMatch(/^image\/png \d+ bytes$/);
    },
  },
  'guide:orders-and-shipments.md:print-and-non-print': {
    check(o) {
      made(o, 'createOrder', [200, 201]);
      expect(o.console.at(-1)).toMatch(/^Order_\w+$/);
    },
  },
  'guide:orders-and-shipments.md:create-once': {
    check(o) {
      // The second call finds the first order by its identifier: one POST, and created: false.
      expect(o.exchanges.filter((x) => x.operation === 'createOrder')).toHaveLength(1);
      const [first, again, created] = (o.console.at(-1) ?? '').split(' ');
      expect(first).toMatch(/^Order_\w+$/);
      expect(again).toBe(first);
      expect(created).toBe('false');
    },
  },
  'guide:migrating-from-v1.md:wrap': {
    check(o) {
      expect(o.exchanges).toEqual([]);
      expect(o.console.join('\n')).toMatch(/customIdentifier/);
      expect(o.console.join('\n')).toMatch(/order/);
    },
  },
  'guide:migrating-from-v1.md:skus': {
    check(o) {
      made(o, 'lookupProductByLegacySku', [200]);
      expect(o.console.join('\n')).toMatch(/Product_\w+ resolved/);
    },
  },
  'guide:migrating-from-v1.md:convert': {
    check(o) {
      made(o, 'createOrder', [200, 201]);
      expect(o.console.at(-1)).toMatch(/^Order_\w+$/);
    },
  },
  'guide:rendering.md:mockup': {
    check(o) {
      made(o, 'createRender', [200, 201, 202]);
      expect(o.console).toContainEqual(expect.stringMatching(/^Render_\w+$/));
      expect(o.console).toContain('completed');
      expect(o.console.at(-1)).toMatch(/^data:image\/png;base64,/);
    },
  },
};

describe('runnable samples in Chromium', () => {
  it('has a Run button on SDK samples (samples panel, webhook description) and guide blocks, and it runs', async () => {
    const runnable = manifest.operations.filter((op) => op.runnable);
    expect(runnable.length).toBe(manifest.operations.length);
    // Every operation's button is the same loader code on the same Redoc component; routing to each of the 30
    // costs seconds apiece in this heavy page, so one per kind of place is clicked and the others run below.
    const createOrder = runnable.find((o) => o.operationId === 'createOrder')!;
    expectDocumented(createOrder, await run(page, createOrder.route, 'op:createOrder'));
    await screenshots();
    const webhook = runnable.find((o) => o.operationId === 'orderUpdated')!;
    expectDocumented(webhook, await run(page, webhook.route, 'op:orderUpdated'));
    // A guide block's button: the guide's own route, its block recognised by its text as shown.
    const guide = manifest.guides.find((g) => g.file === 'pagination.md')!;
    const listed = await run(page, guide.route, 'guide:pagination.md:orders');
    expect(listed.state).toBe('done');
    expect(listed.exchanges.at(-1)).toMatchObject({ operation: 'listOrders', status: 200 });
    expect(listed.console.some((line) => /^Order_\w+$/.test(line))).toBe(true);
    expect(errors).toEqual([]);
  }, 300_000);

  it('every operation and every runnable guide block runs in the page, all at once', async () => {
    const groups = [
      ...manifest.operations.map((op) => [`op:${op.operationId}`]),
      ...Object.entries(GUIDE_RUNS).map(([id, expected]) => [...(expected.after ?? []), id]),
    ];
    const results = await runEach(page, groups);
    for (const op of manifest.operations) expectDocumented(op, outcomeOf(results[`op:${op.operationId}`]!));
    expect(manifest.guideRunnables.map((g) => g.id).sort()).toEqual(Object.keys(GUIDE_RUNS).sort());
    for (const [id, expected] of Object.entries(GUIDE_RUNS)) {
      const outcome = outcomeOf(results[id]!);
      expect(outcome.error, id).toBeNull();
      expected.check(outcome, id);
    }
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

  it("runs from the page opened as a file and from the sandbox server's /docs, side by side", async () => {
    const server = await startSandboxServer({ port: 0, docsFile: PATHS.html });
    const fromFile = manifest.operations.find((o) => o.operationId === 'createOrder')!;
    const fromServer = manifest.operations.find((o) => o.operationId === 'listProducts')!;
    try {
      const [offline, served] = await Promise.all([
        runInNewPage(`${pageFile}${fromFile.route}`, fromFile.route, 'op:createOrder'),
        runInNewPage(`${server.origin}/docs${fromServer.route}`, fromServer.route, 'op:listProducts'),
      ]);
      expect(offline.state).toBe('done');
      expect(offline.exchanges.at(-1)).toMatchObject({ operation: 'createOrder', status: 200 });
      expect(served.state).toBe('done');
      expect(served.exchanges.at(-1)).toMatchObject({ operation: 'listProducts', status: 200 });
    } finally {
      await server.close();
    }
    expect(errors).toEqual([]);
  }, 300_000);

  it('folds the setup part: closed, labelled, opened from the keyboard, copied whole', async () => {
    const close = page.locator('#pp-runner:not([hidden]) [data-action="close"]');
    if (await close.count()) await close.click();
    const op = manifest.operations.find((o) => o.operationId === 'createOrder')!;
    await go(page, op.route);
    const sample = await readFold(page, 'op:createOrder');
    expect(sample.summary).toMatch(/^Setup: imports, client and inputs \(\d+ lines\)$/);
    expect(sample.open).toBe(false);
    expect(sample.originalHidden).toBe(true);
    // The fold shows the whole program: the setup lines, then the rest.
    expect(sample.setup.split('\n').length).toBe(Number(/\((\d+) lines\)/.exec(sample.summary)![1]));
    expect(sample.original.startsWith(`${sample.setup}\n`)).toBe(true);
    expect(sample.original.trimEnd().endsWith(sample.rest.trimEnd())).toBe(true);
    expect(sample.setup).toMatch(/^import /);
    expect(sample.setup).toContain('process.env.PARTNER_PRINT_BASE_URL');
    expect(sample.rest).toContain('client.createOrder(');
    const fold = page.locator('[data-pp-fold="op:createOrder"]');
    await expect.poll(() => fold.locator('details > pre').isVisible()).toBe(false);
    expect(await fold.locator(':scope > pre').isVisible()).toBe(true);
    // A summary is a button for the keyboard and for screen readers.
    await fold.locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => fold.locator('details > pre').isVisible()).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'fold-open-desktop.png') });
    await page.keyboard.press('Enter');
    await expect
      .poll(() => fold.locator('details').evaluate((d) => (d as HTMLDetailsElement).open))
      .toBe(false);
    // Copy takes the whole program, setup included, as Redoc's own block holds it.
    await page.locator('[data-pp-copy="op:createOrder"]').click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(`${sample.original.trimEnd()}\n`);

    const guide = manifest.guides.find((g) => g.file === 'pagination.md')!;
    await go(page, guide.route);
    const block = await readFold(page, 'guide:pagination.md:orders');
    expect(block.open).toBe(false);
    expect(block.setup).toMatch(/^import \{ createClient \}/);
    expect(block.rest).toMatch(/^for await \(const order of client\.paginate/);
    expect(block.original.startsWith(`${block.setup}\n`)).toBe(true);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('[data-pp-fold="guide:pagination.md:orders"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'fold-guide-phone.png') });
    await page.setViewportSize({ width: 1400, height: 900 });
    expect(errors).toEqual([]);
  }, 120_000);

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
