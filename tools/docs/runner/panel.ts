/**
 * The run panel (browser only): the sample's run with each exchange, its console output and its error, and the
 * sandbox's controls (reset, clock, ship, decide a claim). Built with plain DOM calls; no framework.
 */
import { PANEL_CSS } from './panel-style.ts';
import type { Session } from './session.ts';
import type { ErrorView, Exchange, RunEvent, RunnableSample, RunResult } from './types.ts';

type Child = Node | string;

function el(tag: string, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

function button(label: string, onClick: () => void, attrs: Record<string, string> = {}): HTMLButtonElement {
  const b = el('button', { type: 'button', ...attrs }, label) as HTMLButtonElement;
  b.addEventListener('click', onClick);
  return b;
}

function exchangeView(x: Exchange): HTMLElement {
  const summary = el(
    'summary',
    {},
    el('span', { class: 'pp-method' }, x.method),
    el('span', { class: 'pp-path' }, x.path),
    el('span', { class: 'pp-code', 'data-class': String(x.status).charAt(0) }, String(x.status)),
    el('span', { class: 'pp-op' }, x.operationId ?? ''),
  );
  const body = el('div', { class: 'pp-body' });
  if (x.headers.length) {
    const rows = x.headers.map(([n, v]) => el('tr', {}, el('td', {}, n), el('td', {}, v)));
    body.append(el('h3', {}, 'Response headers'), el('table', {}, el('tbody', {}, ...rows)));
  }
  if (x.requestBody !== undefined) body.append(el('h3', {}, 'Request body'), el('pre', {}, x.requestBody));
  if (x.responseBody !== undefined) body.append(el('h3', {}, 'Response body'), el('pre', {}, x.responseBody));
  const details = el('details', {
    class: 'pp-exchange',
    'data-method': x.method,
    'data-path': x.path,
    'data-status': String(x.status),
    'data-operation': x.operationId ?? '',
  });
  details.append(summary, body);
  return details;
}

function errorBox(error: ErrorView): HTMLElement {
  const rows = error.fields.map(([n, v]) => el('tr', {}, el('td', {}, n), el('td', {}, v)));
  return el(
    'div',
    { class: 'pp-error', 'data-error': error.name },
    el('strong', {}, `${error.name}: ${error.message}`),
    ...(rows.length ? [el('table', {}, el('tbody', {}, ...rows))] : []),
  );
}

export function eventView(event: RunEvent): HTMLElement {
  switch (event.kind) {
    case 'step':
      return el('div', { class: 'pp-step' }, event.text);
    case 'exchange':
      return exchangeView(event.exchange);
    case 'console':
      return el('div', { class: 'pp-console', 'data-level': event.level }, event.text);
    case 'error':
      return errorBox(event.error);
  }
}

export interface Panel {
  open(sample: RunnableSample): void;
}

export function createPanel(session: Session, samples: Map<string, RunnableSample>): Panel {
  const style = el('style', {}, PANEL_CSS);
  document.head.append(style);
  const title = el('h2', {}, '');
  const status = el('p', { class: 'pp-status', 'data-state': 'idle' }, '');
  const env = el('div', { class: 'pp-env' });
  const log = el('div', { class: 'pp-log', 'aria-live': 'polite' });
  const clock = el('span', { class: 'pp-clock' });
  const root = el('aside', { id: 'pp-runner', role: 'dialog', 'aria-label': 'Run the sample', hidden: '' });
  let current: RunnableSample | undefined;
  let busy = false;
  const add = (event: RunEvent) => {
    log.append(eventView(event));
    clock.textContent = new Date(session.sandbox.clock.now()).toISOString().replace('.000Z', 'Z');
  };
  const control = (action: () => void | Promise<void>) => async () => {
    if (busy) return;
    try {
      await action();
    } catch (error) {
      add({
        kind: 'error',
        error: { name: (error as Error).name, message: (error as Error).message, fields: [] },
      });
    }
    log.scrollTop = log.scrollHeight;
  };
  const run = async () => {
    if (!current || busy) return;
    busy = true;
    runButton.disabled = true;
    status.dataset.state = 'running';
    status.textContent = `Running "${current.title}"…`;
    log.append(el('p', { class: 'pp-note' }, `— Run of "${current.title}" —`));
    const result = await session.run(current.id, add);
    finish(result);
    busy = false;
    runButton.disabled = false;
  };
  const finish = (result: RunResult) => {
    status.dataset.state = result.ok ? 'done' : 'failed';
    status.textContent = result.ok
      ? `Done in ${Math.round(result.ms)} ms.`
      : `Failed: ${result.error?.name ?? 'Error'} (the SDK's error, as your code would see it).`;
    env.textContent = result.env.length
      ? `process.env: ${result.env.map(([n, v]) => `${n}=${v}`).join('  ')}`
      : '';
    log.scrollTop = log.scrollHeight;
  };
  const runButton = button('▶ Run', run, { class: 'pp-primary', 'data-action': 'run' });
  const reset = control(async () => {
    await session.reset();
    log.replaceChildren(
      el('div', { class: 'pp-step' }, 'Sandbox reset: back to the seed data and the start time.'),
    );
    status.dataset.state = 'idle';
    status.textContent = '';
    env.textContent = '';
    add({ kind: 'step', text: 'Nothing made in this session any more.' });
  });
  const hour = 3_600_000;
  const bars = [
    el('div', { class: 'pp-bar' }, runButton, button('Reset sandbox', reset, { 'data-action': 'reset' })),
    el(
      'div',
      { class: 'pp-bar' },
      el('span', { class: 'pp-label' }, 'Sandbox clock'),
      clock,
      button(
        '+1 min',
        control(() => session.advance(60_000, add)),
        { 'data-action': 'advance-minute' },
      ),
      button(
        '+1 h',
        control(() => session.advance(hour, add)),
        { 'data-action': 'advance-hour' },
      ),
      button(
        '+2 days',
        control(() => session.advance(48 * hour, add)),
        { 'data-action': 'advance-days' },
      ),
    ),
    el(
      'div',
      { class: 'pp-bar' },
      el('span', { class: 'pp-label' }, 'Service side'),
      button(
        'Ship newest order',
        control(() => void session.shipNewestOrder(add)),
        { 'data-action': 'ship' },
      ),
      button(
        'Refund claim',
        control(() => void session.decideNewestClaim('refund', add)),
        {
          'data-action': 'refund',
        },
      ),
      button(
        'Reject claim',
        control(() => void session.decideNewestClaim('rejection', add)),
        {
          'data-action': 'reject',
        },
      ),
    ),
  ];
  const close = button('×', () => root.setAttribute('hidden', ''), {
    'aria-label': 'Close',
    'data-action': 'close',
  });
  root.append(el('header', {}, title, close), ...bars, el('div', { class: 'pp-summary' }, status, env), log);
  document.body.append(root);
  clock.textContent = new Date(session.sandbox.clock.now()).toISOString().replace('.000Z', 'Z');
  return {
    open(sample) {
      current = samples.get(sample.id) ?? sample;
      title.textContent = `Run: ${sample.title}`;
      root.removeAttribute('hidden');
      void run();
    },
  };
}
