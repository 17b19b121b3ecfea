/**
 * The small script that ships in the page itself (the rest loads on the first Run). It finds the code blocks
 * whose text is a runnable sample — an operation's SDK sample, a runnable guide block — by a hash of their
 * text, puts a Run button under each, and on the first click decodes the runner bundle (gzip, base64, in an
 * inert `<script type="application/octet-stream">`) and runs it. It waits for the load event, so the first
 * render does not pay for it.
 */
import type { RunnableSample } from './types.ts';

export const BUNDLE_ELEMENT_ID = 'pp-runner-code';

/** Trailing whitespace of lines and trailing newlines do not count: the page and the source may differ there. */
export function normalizeCode(text: string): string {
  return text
    .replace(/\r/g, '')
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .join('\n')
    .replace(/\n+$/, '');
}

/** FNV-1a over UTF-16 code units, as hex: the loader computes the same in the page. */
export function codeHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16);
}

export interface LoaderEntry {
  id: string;
  /** The code as the page shows it. */
  text: string;
  /** Lines (1-based, inclusive) of its setup part, which the page folds. */
  setup?: [number, number];
}

// The loader's parts, plain ES2020 run in the page (see loaderScript).

/** The same normalisation and hash as normalizeCode and codeHash above. */
const HASH_JS = `const normalizeCode = (text) => text.replace(/\\r/g, '').split('\\n').map((l) => l.replace(/\\s+$/, '')).join('\\n').replace(/\\n+$/, '');
const codeHash = (text) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  return h.toString(16);
};
`;

/** Decodes and runs the runner bundle on the first Run. */
const loadJs = (runnerGlobal: string) => `let runner;
const load = () => runner ??= (async () => {
  const node = document.getElementById(${JSON.stringify(BUNDLE_ELEMENT_ID)});
  if (!node || typeof DecompressionStream === 'undefined') throw new Error('This browser cannot run the samples');
  const bytes = Uint8Array.from(atob(node.textContent.trim()), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  const script = document.createElement('script');
  script.textContent = await new Response(stream).text();
  document.head.append(script);
  return window.${runnerGlobal}.bootOnce(window.${runnerGlobal}.data);
})();
`;

/** The bar under a runnable block: Run, Copy (the whole program) and a note. */
const BAR_JS = `const element = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
};
const bar = (id, pre) => {
  const div = element('div', 'pp-run-bar');
  const button = element('button', '', '\\u25B6 Run');
  button.type = 'button';
  button.dataset.ppRun = id;
  const copy = element('button', 'pp-copy', 'Copy');
  copy.type = 'button';
  copy.dataset.ppCopy = id;
  copy.setAttribute('aria-label', 'Copy the whole sample, setup included');
  const note = element('span', '', 'in a sandbox inside this page: no network, state kept until you reload');
  note.setAttribute('aria-live', 'polite');
  button.addEventListener('click', async () => {
    button.disabled = true;
    button.textContent = 'Loading\\u2026';
    try { (await load()).open(id); } catch (error) { note.textContent = String(error && error.message || error); }
    button.disabled = false;
    button.textContent = '\\u25B6 Run';
  });
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(normalizeCode(pre.textContent || '') + '\\n');
      note.textContent = 'Copied the whole sample, setup included.';
    } catch {
      note.textContent = 'Could not copy: open the setup and select the code.';
    }
  });
  div.append(button, copy, note);
  return div;
};
`;

/** The folded view: the setup lines in a closed <details>, the rest below, cut from Redoc's highlighted block. */
const FOLD_JS = `/** Text node and offset of a character offset in the element's text. */
const position = (root, offset) => {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let seen = 0;
  let last;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (offset <= seen + node.data.length) return [node, offset - seen];
    seen += node.data.length;
    last = node;
  }
  return last ? [last, last.data.length] : [root, 0];
};
/** A copy of the block's characters from..to, highlighting included. */
const part = (pre, from, to) => {
  const range = document.createRange();
  range.setStart(...position(pre, from));
  range.setEnd(...position(pre, to));
  const copy = element('pre', pre.className);
  copy.append(range.cloneContents());
  return copy;
};
const fold = (pre, id, first, last) => {
  const text = pre.textContent || '';
  const lines = text.split('\\n');
  if (last > lines.length) return undefined;
  const start = (line) => lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  const from = start(first);
  const to = start(last + 1);
  const rest = lines[last] === '' ? to + 1 : to;
  const view = element('div', 'pp-fold');
  if (from > 0) view.append(part(pre, 0, from));
  const details = element('details', 'pp-setup');
  const count = last - first + 1;
  details.append(element('summary', '', 'Setup: imports, client and inputs (' + count + ' lines)'), part(pre, from, to - 1));
  view.append(details, part(pre, Math.min(rest, text.length), text.length));
  view.dataset.ppFold = id;
  return view;
};
`;

/** Finds runnable blocks by their text (again whenever the page changes) and adds or removes their views. */
const SCAN_JS = `const views = new Map();
const forget = (pre, entry) => {
  for (const node of entry.nodes) node.remove();
  if (entry.folded && pre.isConnected) pre.hidden = false;
  views.delete(pre);
};
const scan = () => {
  for (const [pre, entry] of views) {
    const found = RUNNABLE[codeHash(normalizeCode(pre.textContent || ''))];
    if (!pre.isConnected || !found || found[0] !== entry.id) forget(pre, entry);
  }
  for (const pre of document.querySelectorAll('pre')) {
    if (views.has(pre) || pre.closest('#pp-runner, .pp-fold')) continue;
    const found = RUNNABLE[codeHash(normalizeCode(pre.textContent || ''))];
    if (!found) continue;
    const [id, first, last] = found;
    const nodes = [];
    const view = first ? fold(pre, id, first, last) : undefined;
    if (view) {
      pre.after(view);
      pre.hidden = true;
      nodes.push(view);
    }
    const div = bar(id, pre);
    (pre.closest('[data-component-name="CodeBlock/CodeBlock"]') || view || pre).after(div);
    nodes.push(div);
    views.set(pre, { id, nodes, folded: Boolean(view) });
  }
};
let queued = false;
const later = () => { if (!queued) { queued = true; setTimeout(() => { queued = false; scan(); }, 120); } };
const start = () => {
  scan();
  new MutationObserver(later).observe(document.body, { childList: true, subtree: true, characterData: true });
};
if (document.readyState === 'complete') start(); else addEventListener('load', start, { once: true });
`;

/**
 * The loader's source (plain ES2020, no imports). Under each runnable code block it puts a bar (Run, Copy) and,
 * when the sample has a setup part, shows the block folded: the setup lines in a closed `<details>` ("Setup:
 * imports, client and inputs"), the rest below, both cut from Redoc's highlighted block, which stays in the page
 * (hidden) so its Copy button and the page's text keep the whole program.
 */
export function loaderScript(entries: readonly LoaderEntry[], runnerGlobal: string): string {
  const table: Record<string, [string] | [string, number, number]> = {};
  for (const e of entries) table[codeHash(normalizeCode(e.text))] = e.setup ? [e.id, ...e.setup] : [e.id];
  return `(() => {
const RUNNABLE = ${JSON.stringify(table)};
${HASH_JS}${loadJs(runnerGlobal)}${BAR_JS}${FOLD_JS}${SCAN_JS}})();`;
}

/** The lazily loaded script: the runner bundle, then the data it boots with. */
export function runnerPayload(
  bundle: string,
  runnerGlobal: string,
  data: { samples: readonly RunnableSample[]; routes: unknown },
): string {
  return `${bundle}\n${runnerGlobal}.data = ${JSON.stringify(data)};\n`;
}
