/**
 * `tsx tools/docs/measure.ts [--runs 7] [page.html …]`: the weight of documentation pages and their time to
 * first render in headless Chromium, several runs each, interleaved so that every page sees the same machine
 * load. Default pages: `.tmp/docs-baseline/index.html` (a copy of an earlier build, when present), the current
 * build with the runner taken out (`.tmp/docs-no-runner/`), and `docs/dist/index.html`.
 *
 * - weight: bytes of the HTML file and its gzip size (the page makes no other request);
 * - first contentful paint (FCP), from the browser's paint timing;
 * - first render: the moment the navigation's first entry is in the DOM (Redoc renders on the client, so FCP
 *   alone can be a blank frame), measured in the page by a MutationObserver set up before any script runs;
 * - load: the load event.
 *
 * Pages are opened as files (`file://`, the way the single offline page is meant to work) so that no server in
 * this process, competing for the CPU with the browser, adds its own noise; `--http` serves them from
 * 127.0.0.1 instead. Ratios are taken run by run (each run loads every page once, one after the other) and
 * reported as median, interquartile range and min–max.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { PATHS } from './lib/paths.ts';
import { serveDocs } from './server.ts';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface Sample {
  fcp: number;
  firstRender: number;
  load: number;
  /** Main-thread busy time until the load event (Chromium's TaskDuration): less sensitive to machine load. */
  busy: number;
  /** The runner's part of the page was in the DOM at first render. */
  runnerParsed: boolean;
}

const OBSERVE = `(() => {
  const mark = () => {
    if (document.querySelector('[data-component-name="Menu/MenuItem"]')) {
      window.__firstRender = performance.now();
      // Had the parser reached the runner's part of the page (at the end of <body>) by then?
      window.__runnerParsed = document.getElementById('pp-runner-code') !== null;
      return true;
    }
    return false;
  };
  const observer = new MutationObserver(() => { if (mark()) observer.disconnect(); });
  observer.observe(document, { childList: true, subtree: true });
})();`;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

/** The current build without what the runner adds (styles, payload, loader): the runner's own cost. */
function withoutRunner(): string {
  const html = readFileSync(PATHS.html, 'utf8')
    .replace(/<style id="pp-page-style">[\s\S]*?<\/style>\n?/, '')
    .replace(/<script type="application\/octet-stream" id="pp-runner-code">[\s\S]*?<\/script>\n?/, '')
    .replace(/<script>\(\(\) => \{\nconst RUNNABLE[\s\S]*?<\/script>\n?/, '');
  if (html.includes('pp-runner')) throw new Error('could not take the runner out of the page');
  const dir = join(PATHS.root, '.tmp/docs-no-runner');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), html);
  return join(dir, 'index.html');
}

function pages(): string[] {
  const given = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--runs');
  if (given.length) return given;
  const baseline = join(PATHS.root, '.tmp/docs-baseline/index.html');
  return [...(existsSync(baseline) ? [baseline] : []), withoutRunner(), PATHS.html];
}

/** Median, interquartile range and min–max of per-run ratios. */
function spread(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))]!;
  const f = (v: number) => v.toFixed(3);
  return `median ${f(at(0.5))} (IQR ${f(at(0.25))}–${f(at(0.75))}, min ${f(sorted[0]!)}, max ${f(sorted.at(-1)!)})`;
}

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `median ${median.toFixed(0)} ms (min ${sorted[0]!.toFixed(0)}, max ${sorted.at(-1)!.toFixed(0)})`;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const runs = option('--runs', 7);
  const files = pages();
  const http = process.argv.includes('--http');
  const servers = await Promise.all(
    files.map(async (file) => {
      if (!http) return { file, url: pathToFileURL(file).href, close: async () => {} };
      const s = await serveDocs({ dir: join(file, '..'), port: 0 });
      return { file, url: `${s.url.replace(/\/$/, '')}/${basename(file)}`, close: () => s.close() };
    }),
  );
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  const samples = new Map<string, Sample[]>(files.map((f) => [f, []]));
  try {
    for (let run = 0; run < runs + 1; run++) {
      for (const { file, url } of servers) {
        const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
        const page = await context.newPage();
        await page.addInitScript(OBSERVE);
        const cdp = await context.newCDPSession(page);
        await cdp.send('Performance.enable');
        await page.goto(url, { waitUntil: 'load' });
        await page.waitForFunction(() => (window as { __firstRender?: number }).__firstRender !== undefined);
        const metrics = await cdp.send('Performance.getMetrics');
        const busy = (metrics.metrics.find((m) => m.name === 'TaskDuration')?.value ?? Number.NaN) * 1000;
        const timing = await page.evaluate(() => ({
          fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
          firstRender: (window as { __firstRender?: number }).__firstRender ?? Number.NaN,
          runnerParsed: (window as { __runnerParsed?: boolean }).__runnerParsed === true,
          load:
            (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)
              ?.loadEventStart ?? Number.NaN,
        }));
        // The first round warms the browser up and is not counted.
        if (run > 0) samples.get(file)!.push({ ...timing, busy });
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await Promise.all(servers.map((s) => s.close()));
  }
  const anchor = samples.get(files[0]!)!;
  for (const file of files) {
    const html = readFileSync(file);
    const list = samples.get(file)!;
    console.log(file);
    console.log(`  weight        ${html.byteLength} bytes, gzip ${gzipSync(html).byteLength} bytes`);
    console.log(`  FCP           ${stats(list.map((s) => s.fcp))}`);
    console.log(`  first render  ${stats(list.map((s) => s.firstRender))}`);
    console.log(`  load          ${stats(list.map((s) => s.load))}`);
    console.log(`  busy to load  ${stats(list.map((s) => s.busy))}`);
    const parsed = list.filter((s) => s.runnerParsed).length;
    console.log(`  runner part in the DOM at first render: ${parsed} of ${list.length} runs`);
    const index = files.indexOf(file);
    const anchors = index === 0 ? [] : [[files[0]!, anchor] as const];
    if (index > 1) anchors.push([files[index - 1]!, samples.get(files[index - 1]!)!]);
    for (const [name, base] of anchors) {
      for (const key of ['firstRender', 'fcp', 'busy'] as const) {
        const ratios = list.map((s, i) => s[key] / base[i]![key]);
        const ofMedians = median(list.map((s) => s[key])) / median(base.map((s) => s[key]));
        console.log(
          `  ${key} / ${basename(join(name, '..'))}: per run ${spread(ratios)}; ratio of medians ${ofMedians.toFixed(3)}`,
        );
      }
    }
  }
}

await main();
