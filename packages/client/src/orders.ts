import { type AnyInit, ambiguous, coreOf, type Loose } from './core.ts';
import { AmbiguousOutcomeError, NotFoundError, type PartnerPrintError } from './errors.ts';

/** The order reference for a custom identifier, or null when no order has it. */
export async function lookupOrderReference(
  client: object,
  customIdentifier: string,
  init?: AnyInit,
): Promise<string | null> {
  let data: Loose;
  try {
    data = await coreOf(client).call('GET', '/utilities/lookup-order-reference-by-custom-identifier', {
      ...init,
      params: { query: { customIdentifier } },
    });
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
  // The reference does not name this response's fields: accept the likely shapes.
  const found =
    data?.orderReference ?? data?.order?.reference ?? data?.order?.orderReference ?? data?.reference;
  return typeof found === 'string' && found ? found : null;
}

/**
 * POST /orders, never blindly repeated: after a network error, timeout or 5xx it looks the order up by
 * `customIdentifier` and returns the one that exists, or creates it if absent. Without a
 * customIdentifier such a failure throws AmbiguousOutcomeError.
 */
export async function createOrder(
  client: object,
  order: Record<string, unknown>,
  init?: AnyInit,
): Promise<Loose> {
  const { call, retry } = coreOf(client);
  const id = order?.customIdentifier as string | undefined;
  for (let round = 1; ; round++) {
    try {
      return await call('POST', '/orders', { ...init, body: { order } });
    } catch (error) {
      if (!(error instanceof AmbiguousOutcomeError)) throw error;
      if (!id)
        throw ambiguous(
          error.cause as PartnerPrintError,
          ' (with a customIdentifier, createOrder checks and reconciles)',
        );
      // Reconcile: the lookup tells whether the failed attempt created the order. The reference does
      // not say identifiers are unique, so the order found must also have this request's content
      // (as far as its read payload shows it) before it is taken for this request's order.
      const reference = await lookupOrderReference(client, id, init);
      if (reference) {
        const found = await call('GET', '/orders/{orderReference}', {
          ...init,
          params: { path: { orderReference: reference } },
        });
        if (!sameContent(order, found?.order))
          throw ambiguous(
            error.cause as PartnerPrintError,
            ` (${reference} has this customIdentifier but other content)`,
          );
        return { order: { reference } };
      }
      if (round >= retry.attempts) throw error;
    }
  }
}

// Compares what the order's read payload shows (its fields beyond `reference` are not documented, so an
// absent field is not a difference); orderlines are compared in order.
const same = (sent: Loose, found: Loose, keys: string[]) =>
  keys.every((k) => found?.[k] == null || found[k] === sent?.[k]);

function sameContent(sent: Loose, found: Loose): boolean {
  const lines = found?.orderlines;
  return (
    same(sent, found, ['storeReference', 'shippingKind']) &&
    (!Array.isArray(lines) ||
      (lines.length === sent.orderlines?.length &&
        lines.every((line, i) =>
          same(sent.orderlines[i], line, ['productReference', 'quantity', 'imageReference']),
        )))
  );
}
