/**
 * The page session: one in-page sandbox, what the session made in it, and the runs of samples against it.
 * A sample's inputs come from `process.env`; the session fills them from the seed and from what earlier
 * samples created, and makes what is missing first (running "Create an order", shipping, advancing the clock),
 * reporting every such step. Web-standard only: the page and the Node tests share it.
 */
import type { Sandbox } from '../../../packages/sandbox/src/index.ts';
import { errorView, execute } from './execute.ts';
import { emptyMemory, learn, type Memory, newest } from './memory.ts';
import { createRecordingFetch, type OperationRoute } from './record.ts';
import type { RunEvent, RunnableSample, RunResult } from './types.ts';

const HOUR = 3_600_000;

/** The modules a sample may import, given the fetch and clock of the session. */
export type ModuleFactory = (context: {
  fetch: typeof fetch;
  clock: Sandbox['clock'];
}) => Record<string, unknown>;

export interface SessionOptions {
  createSandbox(): Sandbox;
  samples: readonly RunnableSample[];
  modules: ModuleFactory;
  routes: readonly OperationRoute[];
}

export interface Session {
  readonly sandbox: Sandbox;
  readonly memory: Memory;
  run(id: string, listener?: (event: RunEvent) => void): Promise<RunResult>;
  reset(): Promise<void>;
  /** Control actions, each reported to the listener as a step. */
  advance(ms: number, listener?: (event: RunEvent) => void): Promise<void>;
  shipNewestOrder(listener?: (event: RunEvent) => void): string;
  decideNewestClaim(outcome: 'refund' | 'rejection', listener?: (event: RunEvent) => void): string;
}

/** Values from the sandbox's seed, by the name a sample reads them under. */
function seeded(sandbox: Sandbox, shopOrderNumber: number): Record<string, string> {
  const seed = sandbox.seed;
  return {
    PARTNER_PRINT_SECRET_KEY: sandbox.keys.primary,
    PARTNER_PRINT_BASE_URL: sandbox.baseUrl,
    STORE_REFERENCE: seed.stores.dropship,
    STORE_CODE: seed.storeCodes.dropship,
    PRODUCT_REFERENCE: seed.products.print,
    PRODUCTGROUP_REFERENCE: seed.productgroups.phoneCases,
    COMPOSITION_REFERENCE: seed.compositions.available,
    SCENE_REFERENCE: seed.scenes.studio,
    PERSPECTIVE_REFERENCE: seed.perspectives.studioFront,
    LEGACY_ITEM_SKU: seed.legacySkus.printNew,
    SHOP_ORDER_NUMBER: String(shopOrderNumber),
  };
}

/** `sk_test_…` and the length: enough to see which kind of key it is, nothing of the key itself. */
export function maskKey(key: string): string {
  const prefix = /^sk_(test|live)_/.exec(key)?.[0] ?? '';
  return `${prefix}… (${key.length} characters, hidden)`;
}

export function createSession(options: SessionOptions): Session {
  const sandbox = options.createSandbox();
  const memory = emptyMemory();
  let shopOrderNumber = 10042;
  const byId = new Map(options.samples.map((s) => [s.id, s]));
  const byOperation = new Map(options.samples.filter((s) => s.operationId).map((s) => [s.operationId!, s]));

  async function runSample(sample: RunnableSample, emit: (event: RunEvent) => void): Promise<RunResult> {
    const started = performance.now();
    const events: RunEvent[] = [];
    const record = (event: RunEvent) => {
      events.push(event);
      emit(event);
    };
    const fetch = createRecordingFetch({
      target: (request) => sandbox.fetch(request),
      baseUrl: sandbox.baseUrl,
      routes: options.routes,
      now: () => sandbox.clock.now(),
      onExchange: (exchange) => {
        learn(memory, exchange);
        record({ kind: 'exchange', exchange });
      },
    });
    let env: Record<string, string> = {};
    try {
      env = await prepare(sample, record);
      if (sample.env.includes('SHOP_ORDER_NUMBER')) shopOrderNumber++;
      await execute(sample.js, {
        modules: options.modules({ fetch, clock: sandbox.clock }),
        env,
        fetch,
        emit: record,
      });
      return { ok: true, events, env: shown(sample, env), ms: performance.now() - started };
    } catch (error) {
      const view = errorView(error);
      record({ kind: 'error', error: view });
      return { ok: false, events, error: view, env: shown(sample, env), ms: performance.now() - started };
    }
  }

  /** The values a sample read, the secret key masked (it is never shown, even the sandbox's). */
  const shown = (sample: RunnableSample, env: Record<string, string>): [string, string][] =>
    sample.env
      .filter((name) => env[name] !== undefined)
      .map((name) => [name, name === 'PARTNER_PRINT_SECRET_KEY' ? maskKey(env[name]!) : env[name]!]);

  /** Runs another operation's sample first, reporting it, and fails when it failed. */
  async function prerequisite(operationId: string, why: string, emit: (e: RunEvent) => void): Promise<void> {
    const sample = byOperation.get(operationId);
    if (!sample) throw new Error(`${why}, and there is no "${operationId}" sample to make one`);
    emit({ kind: 'step', text: `${why}: running "${sample.title}" first.` });
    const result = await runSample(sample, emit);
    if (!result.ok) throw new Error(`"${sample.title}" failed, so this sample has no input`);
  }

  async function anOrder(
    emit: (e: RunEvent) => void,
  ): Promise<{ reference: string; customIdentifier?: string }> {
    if (!newest(memory.orders)) await prerequisite('createOrder', 'No order in this session yet', emit);
    return newest(memory.orders)!;
  }

  function ship(orderReference: string, emit: (e: RunEvent) => void): string {
    const { shipmentReference } = sandbox.control.ship(orderReference);
    memory.shipments.set(orderReference, [
      ...(memory.shipments.get(orderReference) ?? []),
      shipmentReference,
    ]);
    memory.shippedAt.set(shipmentReference, sandbox.clock.now());
    emit({ kind: 'step', text: `Sandbox control: shipped ${orderReference} → ${shipmentReference}.` });
    return shipmentReference;
  }

  /** The newest order's shipment; for a claim, one without a claim, 48 hours old when `aged`. */
  async function aShipment(emit: (e: RunEvent) => void, claim: 'no' | 'any-age' | 'aged') {
    let order = await anOrder(emit);
    let shipment = newest(memory.shipments.get(order.reference) ?? []);
    if (claim !== 'no' && shipment && memory.claimed.has(shipment)) {
      await prerequisite('createOrder', `${shipment} already has a claim`, emit);
      order = newest(memory.orders)!;
      shipment = undefined;
    }
    shipment ??= ship(order.reference, emit);
    const age = sandbox.clock.now() - (memory.shippedAt.get(shipment) ?? sandbox.clock.now());
    if (claim === 'aged' && age < 48 * HOUR) {
      emit({ kind: 'step', text: 'A package-missing claim needs a shipment 48 hours old.' });
      await advance(49 * HOUR - age, emit);
    }
    return { orderReference: order.reference, shipmentReference: shipment };
  }

  async function aClaim(emit: (e: RunEvent) => void, pending: boolean): Promise<string> {
    const claim = newest(memory.claims);
    if (!claim || (pending && claim.status !== 'pending')) {
      const why = claim
        ? `${claim.reference} is ${claim.status}, not pending`
        : 'No claim in this session yet';
      await prerequisite('createPackageMissingClaim', why, emit);
    }
    return newest(memory.claims)!.reference;
  }

  async function aRender(emit: (e: RunEvent) => void): Promise<string> {
    if (!newest(memory.renders)) await prerequisite('createRender', 'No render in this session yet', emit);
    return newest(memory.renders)!;
  }

  /** The sample's `process.env`: seeded values, then what the session made (made first when missing). */
  async function prepare(
    sample: RunnableSample,
    emit: (e: RunEvent) => void,
  ): Promise<Record<string, string>> {
    const env = seeded(sandbox, shopOrderNumber);
    const wants = (name: string) => sample.env.includes(name);
    if (wants('SHIPMENT_REFERENCE')) {
      const claim =
        sample.operationId === 'createPackageMissingClaim'
          ? 'aged'
          : sample.operationId === 'createItemIssuesClaim'
            ? 'any-age'
            : 'no';
      const { orderReference, shipmentReference } = await aShipment(emit, claim);
      env.ORDER_REFERENCE = orderReference;
      env.SHIPMENT_REFERENCE = shipmentReference;
    } else if (wants('ORDER_REFERENCE') || wants('CUSTOM_IDENTIFIER')) {
      const order = await anOrder(emit);
      env.ORDER_REFERENCE = order.reference;
      if (order.customIdentifier) env.CUSTOM_IDENTIFIER = order.customIdentifier;
    }
    if (wants('CLAIM_REFERENCE'))
      env.CLAIM_REFERENCE = await aClaim(emit, sample.operationId === 'retractClaim');
    if (wants('RENDER_REFERENCE')) env.RENDER_REFERENCE = await aRender(emit);
    if (wants('MEDIA_FILENAME')) Object.assign(env, await productMedia());
    return env;
  }

  /** A product that has media and its first file, found by listing the products (not shown as a step). */
  async function productMedia(): Promise<{ PRODUCT_REFERENCE: string; MEDIA_FILENAME: string }> {
    let cursor: string | null | undefined;
    do {
      const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
      const response = await sandbox.fetch(
        new Request(`${sandbox.baseUrl}/products${query}`, {
          headers: { 'X-Service-Secret-Key': sandbox.keys.primary },
        }),
      );
      const page = (await response.json()) as {
        products?: { reference: string; media?: { filename?: string }[] }[];
        nextCursor?: string | null;
      };
      const found = page.products?.find((p) => p.media?.[0]?.filename);
      if (found) return { PRODUCT_REFERENCE: found.reference, MEDIA_FILENAME: found.media![0]!.filename! };
      cursor = page.nextCursor;
    } while (cursor);
    throw new Error('The sandbox has no product with media');
  }

  async function advance(ms: number, emit: (e: RunEvent) => void): Promise<void> {
    await sandbox.control.advance(ms);
    const hours = ms / HOUR;
    const amount = hours >= 1 ? `${Number(hours.toFixed(1))} h` : `${Math.round(ms / 1000)} s`;
    emit({
      kind: 'step',
      text: `Sandbox control: clock advanced ${amount}, now ${new Date(sandbox.clock.now()).toISOString()}.`,
    });
  }

  const quiet = () => {};
  return {
    sandbox,
    memory,
    run(id, listener = quiet) {
      const sample = byId.get(id);
      if (!sample) return Promise.reject(new Error(`no runnable sample ${id}`));
      return runSample(sample, listener);
    },
    async reset() {
      await sandbox.control.reset();
      Object.assign(memory, emptyMemory());
      shopOrderNumber = 10042;
    },
    advance: (ms, listener = quiet) => advance(ms, listener),
    shipNewestOrder(listener = quiet) {
      const order = newest(memory.orders);
      if (!order) throw new Error('No order in this session yet: run "Create an order" first.');
      return ship(order.reference, listener);
    },
    decideNewestClaim(outcome, listener = quiet) {
      const claim = [...memory.claims].reverse().find((c) => c.status === 'pending');
      if (!claim) throw new Error('No pending claim in this session: file one first.');
      sandbox.control.decideClaim(claim.reference, { outcome, comment: 'Decided from the docs panel.' });
      claim.status = outcome === 'rejection' ? 'rejected' : 'resolved';
      listener({ kind: 'step', text: `Sandbox control: decided ${claim.reference} (${outcome}).` });
      return claim.reference;
    },
  };
}
