import type { SandboxClock } from './clock.ts';
import type { OrderChange } from './context.ts';
import type { OrderRecord, StoreRecord } from './model.ts';

export interface DeliveryAttempt {
  at: string;
  /** HTTP status of the answer, or null when the endpoint was unreachable or timed out. */
  status: number | null;
  error: string | null;
  ok: boolean;
}

export interface Delivery {
  id: number;
  organization: string;
  storeReference: string;
  orderReference: string;
  change: OrderChange;
  url: string;
  state: 'pending' | 'delivered';
  created: string;
  nextAttemptAt: string | null;
  attempts: DeliveryAttempt[];
}

interface Pending {
  delivery: Delivery;
  due: number;
  running: boolean;
}

export interface CallbackOptions {
  clock: SandboxClock;
  fetch: typeof fetch;
  timeoutMs: number;
  retryMs: number;
  environment: string;
}

/**
 * Builds the legacy order-updated callback URL from the reference's query parameters,
 * merged into the configured URL's own query; on a name collision the service's value wins.
 */
export function callbackUrl(
  base: string,
  store: StoreRecord,
  order: OrderRecord,
  environment: string,
): string {
  const url = new URL(base);
  const params: [string, string][] = [
    ['environment', environment],
    ['order_reference', order.legacyOrderCode],
    ['order_reference_v2', order.reference],
    ['store_code', store.code],
    ['partner_code', store.code],
  ];
  if (order.customIdentifier !== null) {
    params.push(['custom_reference', order.customIdentifier], ['partner_reference', order.customIdentifier]);
  }
  if (store.viaStoreCode !== null) {
    params.push(['via_store_code', store.viaStoreCode], ['via_partner_code', store.viaStoreCode]);
  }
  // The configured query is kept byte for byte (partners may compare or sign it); only pairs whose
  // name the service sends are dropped, and the service's pairs are appended.
  const sent = new Set(params.map(([name]) => name));
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && !sent.has(decodeName(pair.split('=', 1)[0]!)));
  url.search = [...kept, new URLSearchParams(params).toString()].join('&');
  return url.toString();
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** Delivers callbacks at least once, retrying every `retryMs` of sandbox time until a 2xx. */
export class CallbackDeliverer {
  private log: Delivery[] = [];
  private queue: Pending[] = [];
  private inFlight = new Set<Promise<void>>();
  private nextId = 1;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: CallbackOptions) {
    options.clock.onAdvance(() => {
      void this.runDue();
    });
  }

  enqueue(organization: string, store: StoreRecord, order: OrderRecord, change: OrderChange): void {
    if (!store.callbackUrl) return;
    const now = this.options.clock.now();
    const delivery: Delivery = {
      id: this.nextId++,
      organization,
      storeReference: store.reference,
      orderReference: order.reference,
      change,
      url: callbackUrl(store.callbackUrl, store, order, this.options.environment),
      state: 'pending',
      created: new Date(now).toISOString(),
      nextAttemptAt: new Date(now).toISOString(),
      attempts: [],
    };
    this.log.push(delivery);
    const pending: Pending = { delivery, due: now, running: false };
    this.queue.push(pending);
    this.track(this.attempt(pending));
  }

  deliveries(): Delivery[] {
    return structuredClone(this.log);
  }

  /** Attempts every delivery whose retry time has come, and waits for all attempts in flight. */
  async runDue(): Promise<void> {
    const now = this.options.clock.now();
    for (const p of this.queue) if (!p.running && p.due <= now) this.track(this.attempt(p));
    await this.idle();
  }

  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  reset(): void {
    this.log = [];
    this.queue = [];
    clearTimeout(this.timer);
  }

  close(): void {
    clearTimeout(this.timer);
  }

  private track(p: Promise<void>) {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  private async attempt(p: Pending): Promise<void> {
    p.running = true;
    const { clock } = this.options;
    const started = clock.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await this.options.fetch(p.delivery.url, {
        method: 'GET',
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      status = res.status;
      await res.body?.cancel().catch(() => {});
    } catch (e) {
      error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    }
    const ok = status !== null && status >= 200 && status < 300;
    p.delivery.attempts.push({ at: new Date(started).toISOString(), status, error, ok });
    p.running = false;
    if (ok) {
      p.delivery.state = 'delivered';
      p.delivery.nextAttemptAt = null;
      this.queue = this.queue.filter((q) => q !== p);
      return;
    }
    p.due = clock.now() + this.options.retryMs;
    p.delivery.nextAttemptAt = new Date(p.due).toISOString();
    if (clock.kind === 'real') this.schedule();
  }

  private schedule() {
    clearTimeout(this.timer);
    if (this.queue.length === 0) return;
    const next = Math.min(...this.queue.map((q) => q.due));
    this.timer = setTimeout(() => void this.runDue(), Math.max(0, next - Date.now()));
    (this.timer as { unref?: () => void }).unref?.();
  }
}
