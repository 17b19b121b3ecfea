import type { Reference } from '@partner-print/openapi';
import type { Clock } from '@partner-print/openapi/wire';
import { coreOf, sharedMap, traced } from '../core.ts';
import { AmbiguousOutcomeError, NotFoundError, PartnerPrintError } from '../errors.ts';
import { checkInit, checkTimeout, HELPER_KEYS, readableInit, retryPolicy } from '../options.ts';
import { fieldOf } from '../response.ts';
import { abortOf } from '../transport.ts';
import type { CallInit, PartnerPrintBaseClient } from '../types.ts';
import { memoryOrderClaims, type OrderClaim, type OrderClaims, type RecordedOrder } from './claims.ts';
import {
  contentKey,
  type OrderRead,
  type OrderRequest,
  type OrderRequestOf,
  type ShippingKind,
  sameOrderContent,
} from './content.ts';
import { IdentifierConflictError } from './errors.ts';
import { AmbiguousOrderError, notCreated, OrderHistory } from './history.ts';
import { type Found, settle, settleWindowOf } from './settle.ts';

export interface CreateOrderInit extends CallInit {
  /**
   * Look the customIdentifier up before posting (default true): an order with the same content is
   * returned with `created: false`, one with other content is an IdentifierConflictError. Turn it off
   * only when every identifier is fresh (it saves one request per order).
   */
  lookupFirst?: boolean;
  /**
   * After an attempt whose outcome is unknown, how long (ms) to keep looking the identifier up before
   * posting again. Default max(2 × how long the failed attempt ran, 30 000).
   */
  settleWindowMs?: number;
  /** Who may post an identifier now; default: one in-process store per client. */
  claims?: OrderClaims;
}

export interface OrderResult {
  order: { reference: OrderReference };
  /** false when the order existed already (created earlier, by another call, or by another process). */
  created: boolean;
}

type Client = PartnerPrintBaseClient;
type OrderReference = Reference<'Order'>;
/** References are opaque: an order's is recognised by its prefix only. */
const isOrderReference = (value: unknown): value is OrderReference =>
  typeof value === 'string' && value.startsWith('Order_') && value.length > 6;
interface Flight {
  content: string;
  result: Promise<OrderResult>;
}
interface ClientState {
  flights: Map<string, Flight>;
  claims: OrderClaims;
}
// One process's calls for one customIdentifier share a flight and the claims whichever copy of the package each
// goes through (see sharedMap).
const states = sharedMap<ClientState>('partner-print.client.orders.1');

function stateOf(client: Client, clock: Clock): ClientState {
  const known = states.get(client);
  if (known) return known;
  const state = { flights: new Map(), claims: memoryOrderClaims({ now: clock.now }) };
  states.set(client, state);
  return state;
}

/** What createOrder passes on to each request: the caller's per-call options without its own. */
function requestInit({ lookupFirst: _l, settleWindowMs: _s, claims: _c, ...init }: CreateOrderInit = {}) {
  return init;
}

/**
 * POST /orders at most once per customIdentifier. Concurrent calls with one identifier in one process
 * share one flight (the later ones get `created: false`); see the README's "Orders" section for what
 * holds and what does not.
 */
export function createOrder<K extends ShippingKind>(
  client: Client,
  order: OrderRequestOf<K> & { shippingKind: K },
  init: CreateOrderInit = {},
): Promise<OrderResult> {
  // Async: a refused option rejects (createOne still starts within this call, so flights are shared as before).
  const core = coreOf(client);
  return traced(core, 'createOrder', async () => {
    // A header collection openapi-fetch cannot read, copied once for the check and every request.
    const readable = readableInit(init);
    // The options, before any claim or request: a `settleWindowMs` of NaN (an unset setting read with
    // `Number`) would never end, and its waits of NaN ms none at all (a loop of lookups).
    checkInit(requestInit(readable), 'createOrder', HELPER_KEYS);
    checkTimeout(init.settleWindowMs, 'createOrder: settleWindowMs');
    return createOne(client, order, readable);
  }).catch((error: unknown) => {
    // Every error, those built here from 2xx data (an order reference, a lookup's answer) and their `history`
    // included, without the key: a server may echo it anywhere. In place, so a flight's callers share one.
    throw core.redact ? core.redact(error) : error;
  });
}

// Generic over the shipping kind so that a type error names the one request type the order was meant
// to be (`Property 'dropshipAddress' is missing … in type 'DropshipOrderRequest'`), not the union.
function createOne(client: Client, order: OrderRequest, init: CreateOrderInit): Promise<OrderResult> {
  const { clock } = coreOf(client);
  const id = order.customIdentifier;
  if (id === undefined || id === '') return postAnonymous(client, order, init, clock);
  const state = stateOf(client, clock);
  const content = contentKey(order);
  const flight = state.flights.get(id);
  if (flight) {
    // The same order in flight: share its outcome. Other content: wait for it, then go through the
    // same checks as any later call (which will find its order and refuse a conflict).
    if (flight.content === content) return flight.result.then((r) => ({ order: r.order, created: false }));
    return flight.result.then(
      () => createOne(client, order, init),
      () => createOne(client, order, init),
    );
  }
  const result = createIdentified(client, order, id, content, init, clock, init.claims ?? state.claims);
  state.flights.set(id, { content, result });
  const done = () => {
    if (state.flights.get(id)?.result === result) state.flights.delete(id);
  };
  result.then(done, done);
  return result;
}

async function postAnonymous(client: Client, order: OrderRequest, init: CreateOrderInit, clock: Clock) {
  const history = new OrderHistory(undefined, clock.now());
  try {
    const data = await client.post('/orders', { ...requestInit(init), body: { order } });
    return { order: { reference: data.order.reference }, created: true };
  } catch (error) {
    if (!(error instanceof AmbiguousOutcomeError)) throw error;
    history.post(1, clock.now(), 'unknown', error.cause ?? error);
    throw new AmbiguousOrderError(
      history,
      'and without a customIdentifier it cannot be looked up (give orders one, and createOrder checks and reconciles)',
      error.cause ?? error,
    );
  }
}

/** One identified createOrder call: its client, order, options and what it has learned so far. */
interface Call {
  client: Client;
  order: OrderRequest;
  id: string;
  content: string;
  init: CreateOrderInit;
  clock: Clock;
  history: OrderHistory;
  claim: OrderClaim;
  find: () => Promise<Found>;
  /** An earlier holder's unsettled POST has been waited out (the lookup answered within the window). */
  settled?: boolean;
}

async function createIdentified(
  client: Client,
  order: OrderRequest,
  id: string,
  content: string,
  init: CreateOrderInit,
  clock: Clock,
  claims: OrderClaims,
): Promise<OrderResult> {
  const claim = await claims.acquire(id, init.signal);
  const history = new OrderHistory(id, clock.now());
  const find = () => findOrder(client, order, id, requestInit(init));
  const call: Call = { client, order, id, content, init, clock, history, claim, find };
  try {
    const result = (await existingOrder(call)) ?? (await postUntilKnown(call));
    await claim.release({ created: { reference: result.order.reference, content } }).catch(() => {});
    return result;
  } catch (error) {
    // An earlier holder's unsettled mark that this call did not wait out (it was aborted, or failed, first)
    // is kept: the next caller still waits out a settle window before posting.
    const unsettled = error instanceof AmbiguousOutcomeError || (claim.unsettled && !call.settled);
    await claim.release({ unsettled }).catch(() => {});
    throw error;
  }
}

/** The order this identifier already has (recorded by the claim store, or found by the lookup), if any. */
async function existingOrder(call: Call): Promise<OrderResult | undefined> {
  const { claim, clock, history, init } = call;
  const recorded = claim.recorded && (await fromRecord(call, claim.recorded));
  if (recorded) return recorded;
  let found: Found | { kind: 'unknown'; cause: unknown };
  if (claim.unsettled) {
    // An earlier holder's POST may still land: wait it out before deciding to post.
    try {
      found = await settle(
        call.find,
        clock,
        history,
        clock.now(),
        settleWindowOf(0, init.settleWindowMs),
        init.signal,
      );
    } catch (reason) {
      // Aborted while waiting: this call posted nothing, so an AbortedError (attempts: 0) as any call's.
      throw unsent(call, reason);
    }
    call.settled = found.kind !== 'unknown';
    if (found.kind === 'unknown')
      throw new AmbiguousOrderError(
        history,
        "an earlier holder's attempt is unsettled and the lookup failed",
        found.cause,
      );
  } else if (init.lookupFirst !== false) {
    found = await call.find();
    history.lookup(clock.now(), found.kind, found.kind === 'absent' ? undefined : found.reference);
  } else return undefined;
  if (found.kind === 'other') throw conflict(call, found.reference);
  return found.kind === 'same' ? { order: { reference: found.reference }, created: false } : undefined;
}

async function fromRecord(call: Call, recorded: RecordedOrder): Promise<OrderResult | undefined> {
  const { reference } = recorded;
  if (!isOrderReference(reference)) return undefined;
  if (recorded.content === call.content) return { order: { reference }, created: false };
  let found: OrderRead;
  try {
    found = await readOrder(call.client, reference, requestInit(call.init));
  } catch (error) {
    if (error instanceof NotFoundError) return undefined; // not this organization's: ignore the record
    throw error;
  }
  if (!sameOrderContent(call.order, found)) throw conflict(call, reference);
  return { order: { reference }, created: false };
}

/** The caller's abort before any POST of this call: an AbortedError (or TimeoutError) that sent nothing. */
function unsent({ client }: Call, reason: unknown): PartnerPrintError {
  const error = abortOf(reason, coreOf(client).context('POST', '/orders'));
  return error.attempts === undefined ? Object.assign(error, { attempts: 0 }) : error;
}

function conflict({ id }: Call, reference: string): IdentifierConflictError {
  return new IdentifierConflictError(
    `createOrder: customIdentifier ${JSON.stringify(id)} belongs to ${reference}, an order with other content; nothing was created`,
    {
      // operation: createOrder, the error's own.
      method: 'POST',
      path: '/orders',
      customIdentifier: id,
      orderReference: reference,
    },
  );
}

/** POST, and after each unknown outcome wait out the settle window before the next attempt. */
async function postUntilKnown(call: Call): Promise<OrderResult> {
  const { client, order, clock, history, claim, init } = call;
  // The call's own `retry` (merged over the client's, `false`: one POST) bounds its POSTs.
  const { attempts } = retryPolicy(coreOf(client).retry, init.retry);
  let last: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (!(await claim.beforePost()))
      throw notCreated(
        history,
        last,
        'the claim on its customIdentifier was lost, so it was not posted again',
      );
    const started = clock.now();
    try {
      const data = await client.post('/orders', { ...requestInit(init), body: { order } });
      history.post(attempt, clock.now(), 'created', data.order.reference);
      return { order: { reference: data.order.reference }, created: true };
    } catch (error) {
      if (error instanceof PartnerPrintError && error.attempts === 0) {
        // Not sent (a signal aborted before the POST, a refusal before sending): it cannot have taken effect.
        if (attempt === 1) throw error;
        throw notCreated(history, error, `POST ${attempt} was not sent`);
      }
      if (init.signal?.aborted) {
        // The request may have reached the service; without the caller's signal nothing more can be learned.
        history.post(attempt, clock.now(), 'unknown', error);
        throw new AmbiguousOrderError(history, 'the call was aborted while its POST was in flight', error);
      }
      if (!(error instanceof AmbiguousOutcomeError)) {
        history.post(attempt, clock.now(), 'refused', error);
        throw attempt === 1 ? error : notCreated(history, error, 'the service refused it');
      }
      last = error.cause ?? error;
      history.post(attempt, clock.now(), 'unknown', last);
    }
    const found = await settleAfter(call, started, last);
    if (found.kind === 'same') return { order: { reference: found.reference }, created: true };
    if (found.kind === 'other')
      throw new AmbiguousOrderError(
        history,
        `the lookup shows ${found.reference}, an order with other content`,
        last,
      );
  }
  return Promise.reject(
    notCreated(
      history,
      last,
      `${attempts} attempts; after each, the lookup found no order within the settle window`,
    ),
  );
}

async function settleAfter(
  { clock, history, init, find }: Call,
  started: number,
  cause: unknown,
): Promise<Found> {
  const windowMs = settleWindowOf(clock.now() - started, init.settleWindowMs);
  let found: Found | { kind: 'unknown'; cause: unknown };
  try {
    found = await settle(find, clock, history, clock.now(), windowMs, init.signal);
  } catch (abort) {
    throw new AmbiguousOrderError(history, 'the call was aborted before the outcome was known', abort);
  }
  if (found.kind === 'unknown')
    throw new AmbiguousOrderError(
      history,
      `the lookup still failed at the end of the ${windowMs} ms settle window`,
      found.cause ?? cause,
    );
  return found;
}

/** The order with this identifier and whether it has `order`'s content; absent when there is none. */
async function findOrder(client: Client, order: OrderRequest, id: string, init: CallInit): Promise<Found> {
  const reference = await lookupOrderReference(client, id, init);
  if (!reference) return { kind: 'absent' };
  const found = await readOrder(client, reference, init);
  return { kind: sameOrderContent(order, found) ? 'same' : 'other', reference };
}

/**
 * GET /orders/{orderReference}'s `order`. An answer without an order object is a PartnerPrintError
 * (`unexpected_response`) naming the request, not a TypeError from the comparison that would follow.
 */
async function readOrder(client: Client, reference: OrderReference, init: CallInit): Promise<OrderRead> {
  const data = await client.get('/orders/{orderReference}', {
    ...init,
    params: { path: { orderReference: reference } },
  });
  const order = fieldOf(data, 'order');
  if (order && typeof order === 'object' && !Array.isArray(order)) return order as OrderRead;
  throw new PartnerPrintError(
    `getOrder: GET /orders/${reference} answered without an order object, so createOrder cannot compare the order found for the customIdentifier with the one to create`,
    { code: 'unexpected_response', operation: 'getOrder', method: 'GET', path: `/orders/${reference}` },
  );
}

/** The order reference for a custom identifier, or null when no order has it. */
export async function lookupOrderReference(
  client: Client,
  customIdentifier: string,
  init?: CallInit,
): Promise<OrderReference | null> {
  let data: unknown;
  try {
    data = await client.get('/utilities/lookup-order-reference-by-custom-identifier', {
      ...init,
      params: { query: { customIdentifier } },
    });
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
  // The reference does not name this response's fields: accept the likely shapes.
  const order = fieldOf(data, 'order');
  const found =
    fieldOf(data, 'orderReference') ??
    fieldOf(order, 'reference') ??
    fieldOf(order, 'orderReference') ??
    fieldOf(data, 'reference');
  return isOrderReference(found) ? found : null;
}
