import { NotFoundError } from '@partner-print/client/errors';
import { unreservedReferencePattern } from '@partner-print/openapi/wire';
import { createLimiter, describeError, type MigrateClient, statusOf } from './client.ts';

/**
 * V1 identifies orders by the composite code `<store_code>-<number>` or by the partner's own
 * reference; V2 by `Order_…`. The custom-identifier lookup maps a custom identifier (the V1 partner
 * reference) to an order reference.
 *
 * The reference says the lookup exists (GET /utilities/lookup-order-reference-by-custom-identifier)
 * but does not give its parameter and response names. We send query `customIdentifier` and read
 * `orderReference` (as the spec and sandbox of this SDK do), or use `client.lookupOrderReference`
 * when the client provides it.
 */
export const LOOKUP_ORDER_PATH = '/utilities/lookup-order-reference-by-custom-identifier';

/**
 * `Order_` and 26 opaque characters: the wire rule's pattern with any URL-unreserved character (V1 files
 * and callbacks carry what the service sent; their alphabet is not documented).
 */
export const V2_ORDER_REFERENCE: RegExp = unreservedReferencePattern('Order');
/** `<store_code>-<number>`, split on the last `-`: whether store codes hold hyphens is not documented. */
export const V1_ORDER_CODE: RegExp = /^([A-Za-z0-9_][A-Za-z0-9_-]*)-(\d+)$/;

export interface ParsedOrderReference {
  input: string;
  kind: 'v2' | 'v1-code' | 'partner-reference';
  storeCode?: string;
  /** The order number as written: a string, so leading zeros and long numbers survive. */
  number?: string;
}

/**
 * Classifies an order identifier. A V1 code is `<store_code>-<number>`; anything else that is not an
 * `Order_` reference is treated as a partner reference. A partner reference shaped like
 * `<letters>-<digits>` is indistinguishable from a V1 code: the resolver's `resolve` takes it for a V1 code (V2 has
 * no look-up by one), `resolvePartnerReference` for a partner reference.
 */
export function parseOrderReference(input: string): ParsedOrderReference {
  if (V2_ORDER_REFERENCE.test(input)) return { input, kind: 'v2' };
  const m = V1_ORDER_CODE.exec(input);
  if (m) return { input, kind: 'v1-code', storeCode: m[1]!, number: m[2]! };
  return { input, kind: 'partner-reference' };
}

export interface OrderReferenceResolution {
  input: string;
  parsed: ParsedOrderReference;
  status: 'resolved' | 'not-found' | 'error';
  orderReference?: string;
  /** How it was found: passed through, the custom-identifier lookup, or the legacy code of a listed order. */
  via?: 'v2' | 'custom-identifier' | 'legacy-order-code';
  note: string;
  /** With `status: 'error'`: the error the lookup threw (a `PartnerPrintError` from the client), for `instanceof` checks. */
  cause?: unknown;
}

export interface OrderReferenceResolverOptions {
  concurrency?: number;
  /**
   * Find a V1 code by scanning GET /orders for an order whose `legacyOrderCode` (or `legacyCode`) equals it
   * (a V1 code is never looked up as a custom identifier). The order read payload is not in the reference, so this is opt-in and
   * best effort. Default false.
   */
  scanOrders?: boolean;
}

const isNotFound = (e: unknown) => e instanceof NotFoundError || statusOf(e) === 404;

/** Looks up one custom identifier; `undefined` when no order carries it. */
export async function lookupOrderByCustomIdentifier(
  client: MigrateClient,
  customIdentifier: string,
): Promise<string | undefined> {
  try {
    if (client.lookupOrderReference)
      return (await client.lookupOrderReference(customIdentifier)) ?? undefined;
    const data = await client.get(LOOKUP_ORDER_PATH, { params: { query: { customIdentifier } } });
    return data.orderReference ?? undefined;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/** Legacy order code → order reference, from every listed order (paginated; a repeated cursor is refused). */
async function scanLegacyCodes(client: MigrateClient): Promise<Map<string, string>> {
  const m = new Map<string, string>();
  for await (const o of client.paginate('/orders')) {
    const code = o.legacyOrderCode ?? o.legacyCode;
    if (typeof code === 'string') m.set(code, o.reference);
  }
  return m;
}

function notFoundNote(parsed: ParsedOrderReference, scanOrders: boolean | undefined): string {
  const { input } = parsed;
  if (parsed.kind !== 'v1-code')
    return `No order has the custom identifier ${input} (the V1 partner reference).`;
  const scan = scanOrders ? 'no listed order carries it as legacy code' : 'try scanOrders';
  return `${input} is shaped like a V1 order code, and V2 has no look-up by V1 order code (the custom-identifier look-up would answer another order): ${scan}. For a partner reference of this shape: resolvePartnerReference.`;
}

export function createOrderReferenceResolver(
  client: MigrateClient,
  options: OrderReferenceResolverOptions = {},
) {
  const limit = createLimiter(options.concurrency ?? 8);
  const memo = new Map<string, Promise<OrderReferenceResolution>>();
  let legacyIndex: Promise<Map<string, string>> | undefined;

  async function viaLegacyCode(input: string): Promise<string | undefined> {
    legacyIndex ??= limit(() => scanLegacyCodes(client));
    return (await legacyIndex).get(input);
  }

  /** `partner`: the caller says `input` is a partner reference, whatever its shape. */
  async function run(input: string, partner: boolean): Promise<OrderReferenceResolution> {
    const parsed: ParsedOrderReference = partner
      ? { input, kind: 'partner-reference' }
      : parseOrderReference(input);
    const found = (orderReference: string, via: OrderReferenceResolution['via'], note: string) =>
      ({ input, parsed, status: 'resolved', orderReference, via, note }) as const;
    if (parsed.kind === 'v2') return found(input, 'v2', 'Already a V2 reference.');
    try {
      // A V1 code is never looked up as a custom identifier: that look-up answers another order.
      if (parsed.kind === 'v1-code') {
        const legacy = options.scanOrders ? await viaLegacyCode(input) : undefined;
        if (legacy) {
          const note = 'Found by the legacy order code on GET /orders (a legacy field, removed in V3).';
          return found(legacy, 'legacy-order-code', note);
        }
        return { input, parsed, status: 'not-found', note: notFoundNote(parsed, options.scanOrders) };
      }
      const ref = await limit(() => lookupOrderByCustomIdentifier(client, input));
      if (ref) {
        const note = 'Found through the custom-identifier lookup; read it with GET /orders/{orderReference}.';
        return found(ref, 'custom-identifier', note);
      }
      return { input, parsed, status: 'not-found', note: notFoundNote(parsed, options.scanOrders) };
    } catch (e) {
      return {
        input,
        parsed,
        status: 'error',
        cause: e,
        note: `The lookup failed: ${describeError(e).message}`,
      };
    }
  }

  function memoised(input: string, partner: boolean): Promise<OrderReferenceResolution> {
    const key = `${partner ? 'p' : 'a'}:${input}`;
    let p = memo.get(key);
    if (!p) {
      p = run(input, partner);
      memo.set(key, p);
      p.then((r) => {
        if (r.status !== 'resolved') memo.delete(key);
      });
    }
    return p;
  }

  return {
    /**
     * An `Order_` reference as it is; a V1 order code only by its legacy code on GET /orders (`scanOrders`), never
     * through the custom-identifier look-up; any other text as a partner reference.
     */
    resolve: (input: string): Promise<OrderReferenceResolution> => memoised(input, false),
    /** The order whose custom identifier is `input`, a partner reference whatever its shape. */
    resolvePartnerReference: (input: string): Promise<OrderReferenceResolution> => memoised(input, true),
  };
}
