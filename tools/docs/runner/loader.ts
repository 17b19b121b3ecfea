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

/** The loader's source (plain ES2020, no imports); `shown` maps each sample id to the text the page shows. */
export function loaderScript(shown: ReadonlyMap<string, string>, runnerGlobal: string): string {
  const table: Record<string, string> = {};
  for (const [id, text] of shown) table[codeHash(normalizeCode(text))] = id;
  return `(() => {
const RUNNABLE = ${JSON.stringify(table)};
const normalizeCode = (text) => text.replace(/\\r/g, '').split('\\n').map((l) => l.replace(/\\s+$/, '')).join('\\n').replace(/\\n+$/, '');
const codeHash = (text) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  return h.toString(16);
};
let runner;
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
const bars = new Map();
const bar = (id) => {
  const div = document.createElement('div');
  div.className = 'pp-run-bar';
  const button = document.createElement('button');
  button.type = 'button';
  button.dataset.ppRun = id;
  button.textContent = '\\u25B6 Run';
  const note = document.createElement('span');
  note.textContent = 'in a sandbox inside this page: no network, state kept until you reload';
  button.addEventListener('click', async () => {
    button.disabled = true;
    button.textContent = 'Loading\\u2026';
    try { (await load()).open(id); } catch (error) { note.textContent = String(error && error.message || error); }
    button.disabled = false;
    button.textContent = '\\u25B6 Run';
  });
  div.append(button, note);
  return div;
};
const scan = () => {
  for (const [pre, entry] of bars) {
    if (!pre.isConnected || RUNNABLE[codeHash(normalizeCode(pre.textContent || ''))] !== entry.id) {
      entry.div.remove();
      bars.delete(pre);
    }
  }
  for (const pre of document.querySelectorAll('pre')) {
    if (bars.has(pre) || pre.closest('#pp-runner')) continue;
    const id = RUNNABLE[codeHash(normalizeCode(pre.textContent || ''))];
    if (!id) continue;
    const div = bar(id);
    (pre.closest('[data-component-name="CodeBlock/CodeBlock"]') || pre).after(div);
    bars.set(pre, { id, div });
  }
};
let queued = false;
const later = () => { if (!queued) { queued = true; setTimeout(() => { queued = false; scan(); }, 120); } };
const start = () => {
  scan();
  new MutationObserver(later).observe(document.body, { childList: true, subtree: true, characterData: true });
};
if (document.readyState === 'complete') start(); else addEventListener('load', start, { once: true });
})();`;
}

/** The lazily loaded script: the runner bundle, then the data it boots with. */
export function runnerPayload(
  bundle: string,
  runnerGlobal: string,
  data: { samples: readonly RunnableSample[]; routes: unknown },
): string {
  return `${bundle}\n${runnerGlobal}.data = ${JSON.stringify(data)};\n`;
}
