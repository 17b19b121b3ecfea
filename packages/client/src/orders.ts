import { type AnyInit, ambiguous, type Core, type Loose } from './core.ts';
import { AmbiguousOutcomeError, NotFoundError, type PartnerPrintError } from './errors.ts';

/** `createOrder`, which is never blindly repeated, and the custom-identifier lookup it reconciles with. */
export function orders({ call, retry }: Core) {
  async function lookupOrderReference(customIdentifier: string, init?: AnyInit): Promise<string | null> {
    let data: Loose;
    try {
      data = await call('GET', '/utilities/lookup-order-reference-by-custom-identifier', {
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

  async function createOrder(order: Record<string, unknown>, init?: AnyInit): Promise<Loose> {
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
        // Reconcile: the lookup tells whether the failed attempt created the order.
        const reference = await lookupOrderReference(id, init);
        if (reference) return { order: { reference } };
        if (round >= retry.attempts) throw error;
      }
    }
  }

  return { createOrder, lookupOrderReference };
}
