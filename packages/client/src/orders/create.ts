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
  /** Who may post an identifier now; default: one in-process store per client (not shared with other clients). */
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
  /** The flight's outcome for one more caller, whose own `signal` stops only its own wait. */
  join(signal: AbortSignal | undefined): Promise<OrderResult>;
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
 * POST /orders at most once per customIdentifier. Concurrent calls with one identifier on one client
 * share one flight (the later ones get `created: false`); clients sharing one `claims` store post it one at a time; see the README's "Orders" section for what
 * holds and what does not.
 */
export function createOrder<K extends ShippingKind>(
  client: Client,
  order: OrderRequestOf<K> & { shippingKind: K },
  init: CreateOrderInit = {},
): Promise<OrderResult> {
  // Async: a refused option rejects (createOne still starts within this call, so flights are shared as before).
  const core = coreOf(client);
  // Every error, those built here from 2xx data (an order reference, a lookup's answer) and their `history`
  // included, without the key (a server may echo it anywhere), before the span records it. In place, so a
  // flight's callers share one.
  const redacted = (error: unknown): never => {
    throw core.redact ? core.redact(error) : error;
  };
  return traced(core, 'createOrder', () =>
    (async () => {
      // A header collection openapi-fetch cannot read, copied once for the check and every request.
      const readable = readableInit(init);
      // The options, before any claim or request: a `settleWindowMs` of NaN (an unset setting read with
      // `Number`) would never end, and its waits of NaN ms none at all (a loop of lookups).
      checkInit(requestInit(readable), 'createOrder', HELPER_KEYS);
      checkTimeout(init.settleWindowMs, 'createOrder: settleWindowMs');
      return createOne(client, order, readable);
    })().catch(redacted),
  );
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
    if (flight.content === content)
      return flight.join(init.signal).then((r) => ({ order: r.order, created: false }));
    return ownWait(client, flight.result, init.signal).then(() => createOne(client, order, init));
  }
  const claims = init.claims ?? state.claims;
  // A signal already aborted: nothing to share, the call fails unsent (attempts: 0) on its own.
  if (init.signal?.aborted) return createIdentified(client, order, id, content, init, clock, claims);
  const history = new OrderHistory(id, clock.now());
  // The flight's requests stop only once every caller sharing it has stopped waiting (see startFlight).
  const controller = new AbortController();
  const result = createIdentified(
    client,
    order,
    id,
    content,
    { ...init, signal: controller.signal },
    clock,
    claims,
    history,
  );
  const started = startFlight(client, content, result, controller, history);
  state.flights.set(id, started);
  const done = () => {
    if (state.flights.get(id)?.result === result) state.flights.delete(id);
  };
  result.then(done, done);
  // Aborted (every caller gave up): a later call does not join it, it takes the claim after it.
  controller.signal.addEventListener('abort', done);
  return started.join(init.signal);
}

/**
 * A flight shared by every concurrent call for its identifier: a caller's abort stops its own wait only (an
 * AbortedError when the flight had not posted, else an AmbiguousOrderError with what is known so far), and the
 * flight's requests are aborted (with the last reason) once no caller waits for them any more.
 */
function startFlight(
  client: Client,
  content: string,
  result: Promise<OrderResult>,
  controller: AbortController,
  history: OrderHistory,
): Flight {
  let forever = false;
  let waiting = 0;
  const join = (signal: AbortSignal | undefined): Promise<OrderResult> => {
    if (!signal) {
      forever = true;
      return result;
    }
    if (signal.aborted) return Promise.reject(unsent(client, signal.reason));
    waiting++;
    return abortable(result, signal, () => {
      waiting--;
      // The last caller: the flight itself is aborted, and its own error (what it knows) is this caller's.
      if (!forever && waiting === 0) return void controller.abort(signal.reason);
      return history.sent > 0
        ? new AmbiguousOrderError(
            history.snapshot(),
            'the call was aborted while the POST it shared with other calls was in flight (it goes on for them)',
            signal.reason,
          )
        : unsent(client, signal.reason);
    });
  };
  return { content, result, join };
}

/** Resolves once `flight` has settled (whichever way); an abort of `signal` rejects first, unsent. */
function ownWait(client: Client, flight: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  const settled = flight.then(
    () => {},
    () => {},
  );
  if (!signal) return settled;
  if (signal.aborted) return Promise.reject(unsent(client, signal.reason));
  return abortable(settled, signal, () => unsent(client, signal.reason));
}

/**
 * `promise`'s outcome for a caller with `signal`: its abort rejects at once with what `onAbort` returns (nothing:
 * the caller keeps waiting for the outcome), and the listener goes once the outcome is in.
 */
function abortable<T>(promise: Promise<T>, signal: AbortSignal, onAbort: () => unknown): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      const error = onAbort();
      if (error !== undefined) reject(error);
    };
    signal.addEventListener('abort', abort, { once: true });
    const off = () => signal.removeEventListener('abort', abort);
    promise.then(
      (value) => {
        off();
        resolve(value);
      },
      (error: unknown) => {
        off();
        reject(error);
      },
    );
  });
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
  history = new OrderHistory(id, clock.now()),
): Promise<OrderResult> {
  let claim: OrderClaim;
  try {
    claim = await claims.acquire(id, init.signal);
  } catch (error) {
    // Aborted while another holder had the identifier: nothing was sent.
    if (init.signal?.aborted) throw unsent(client, init.signal.reason);
    throw error;
  }
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
      throw unsent(call.client, reason);
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
function unsent(client: Client, reason: unknown): PartnerPrintError {
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
    history.sent++;
    try {
      const data = await client.post('/orders', { ...requestInit(init), body: { order } });
      history.post(attempt, clock.now(), 'created', data.order.reference);
      return { order: { reference: data.order.reference }, created: true };
    } catch (error) {
      if (error instanceof PartnerPrintError && error.attempts === 0) {
        // Not sent (a signal aborted before the POST, a refusal before sending): it cannot have taken effect.
        history.sent--;
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
