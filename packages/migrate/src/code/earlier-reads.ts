import { memberPath, type N, propName } from './ast.ts';
import { callsOneOf, type Factories } from './factories.ts';
import { orderReferenceKind } from './v2-calls.ts';
import type { Bindings } from './values.ts';

/** Why an earlier run's `orderReference(x)` is marked, where `x` is not known to be an `Order_` reference. */
export const EARLIER_ORDER_REFERENCE =
  "an earlier version of this tool wrote this look-up, and the adapter's orderReference now takes only an Order_ reference (it looked any other value up as a custom identifier, which finds another order for a V1 order code): for a partner reference call orderReferenceByPartnerReference; for a V1 order code use the Order_ reference V2 gives (its POST /orders answer, the callback's order_reference_v2) and a mapping of V1 codes for older orders";

/**
 * How the file names its V1 adapters: the one it binds by `createV1Adapter(…)` (of this package), and those it imports from
 * modules of the run that export one (`imported`, as `v1` or `sdk.v1`).
 */
export function adapterNames(
  adapter: string,
  factories: Factories,
  b: Bindings,
  imported: Iterable<string> = [],
): Set<string> {
  const own = callsOneOf(b.get(adapter), factories.adapter);
  return new Set([...(own ? [adapter] : []), ...imported]);
}

/**
 * The calls `<adapter>.orderReference(x)` of the file's V1 adapters whose `x` is not known to be an `Order_`
 * reference: what earlier versions wrote for any V1 order read, now refused at run time.
 */
export function earlierOrderReferences(nodes: N[], adapters: Set<string>, b: Bindings): N[] {
  return nodes.filter(
    (n) =>
      n.type === 'CallExpression' &&
      n.callee.type === 'MemberExpression' &&
      adapters.has(memberPath(n.callee.object) ?? '') &&
      propName(n.callee) === 'orderReference' &&
      n.arguments.length === 1 &&
      !orderReferenceKind(n.arguments[0], b),
  );
}
