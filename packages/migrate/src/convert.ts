/**
 * V1 order → V2 order request.
 *
 * The reference does not give V1 request shapes. We accept exactly the V1 fields of the rule tables
 * (`convert/order-rules.ts`, `convert/orderline-rules.ts`: the snake_case forms of the V2 order fields, plus
 * `sku`, a base64 image and `partner_reference`); everything else is reported as `unknown` and left out of
 * the V2 request. The README's table lists them. A V1 body wrapped as `{ order: {...} }` is unwrapped
 * (reported as `converted`).
 */
import type { Reference } from '@partner-print/openapi/wire';
import { ORDER_RULES, V1_ORDER_FIELDS } from './convert/order-rules.ts';
import { isRecord, ReportBuilder, summarise } from './convert/report.ts';
import type {
  ConversionResult,
  ConvertOptions,
  V2OrderDraft,
  V2Orderline,
  V2Orderlines,
  V2OrderRequest,
} from './convert/types.ts';

export { V1_ADDRESS_FIELDS, V1_ORDER_FIELDS } from './convert/order-rules.ts';
export { V1_ORDERLINE_FIELDS } from './convert/orderline-rules.ts';
export type {
  ConversionError,
  ConversionResult,
  ConvertOptions,
  ReportAction,
  ReportEntry,
  SkuResolutionLike,
  V2Address,
  V2OrderDraft,
  V2Orderline,
  V2Orderlines,
  V2OrderRequest,
} from './convert/types.ts';

/** A `{ order: {...} }` body is unwrapped (V1 bodies are top-level). */
function unwrap(v1Order: unknown, report: ReportBuilder): unknown {
  if (isRecord(v1Order) && Object.keys(v1Order).length === 1 && isRecord(v1Order.order)) {
    report.entries.push({
      path: 'order',
      action: 'converted',
      from: summarise(v1Order.order),
      to: null,
      note: 'A wrapped { order } body was unwrapped; V1 bodies are top-level.',
    });
    return v1Order.order;
  }
  return v1Order;
}

const isCompleteLine = <I extends string>(l: Partial<V2Orderline<I>>): l is V2Orderline<I> =>
  typeof l.productReference === 'string' && typeof l.quantity === 'number';

/** Every line complete and at least one (the spec's `minItems: 1`). */
const completeLines = <I extends string>(lines: Array<Partial<V2Orderline<I>>>): lines is V2Orderlines<I> =>
  lines.length > 0 && lines.every(isCompleteLine);

/** The draft as a V2 order request, when it has everything the spec requires; fields in V2 order. */
function complete<I extends string>(d: V2OrderDraft<I>): V2OrderRequest<I> | undefined {
  const { orderlines } = d;
  if (!d.storeReference || !completeLines(orderlines)) return undefined;
  const head = { storeReference: d.storeReference };
  const id = d.customIdentifier !== undefined ? { customIdentifier: d.customIdentifier } : {};
  if (d.shippingKind === 'combined') return { ...head, shippingKind: 'combined', ...id, orderlines };
  if (d.shippingKind !== 'dropship' || !d.dropshipAddress) return undefined;
  const level =
    d.dropshipMinimalShippingLevel !== undefined
      ? { dropshipMinimalShippingLevel: d.dropshipMinimalShippingLevel }
      : {};
  return {
    ...head,
    shippingKind: 'dropship',
    ...id,
    dropshipAddress: d.dropshipAddress,
    ...level,
    orderlines,
  };
}

/** The draft's fields in V2 order, for readable output. */
function ordered<I extends string>(d: V2OrderDraft<I>): V2OrderDraft<I> {
  const keys = [
    'storeReference',
    'shippingKind',
    'customIdentifier',
    'dropshipAddress',
    'dropshipMinimalShippingLevel',
  ] as const;
  const out: V2OrderDraft<I> = { orderlines: d.orderlines };
  for (const k of keys) if (d[k] !== undefined) Object.assign(out, { [k]: d[k] });
  return { ...out, orderlines: d.orderlines };
}

export async function convertV1Order<I extends string = Reference<'Image'>>(
  v1Order: unknown,
  options: ConvertOptions<I> = {},
): Promise<ConversionResult<I>> {
  const report = new ReportBuilder();
  const draft: V2OrderDraft<I> = { orderlines: [] };
  const src = unwrap(v1Order, report);
  if (!isRecord(src)) {
    report.fail('', 'invalid_value', 'A V1 order must be a JSON object.');
    return { ok: false, order: draft, report: report.entries, errors: report.errors };
  }
  // Unknown top-level fields first, so the report lists them whatever else happens.
  for (const [k, v] of Object.entries(src)) {
    if (!V1_ORDER_FIELDS.includes(k)) {
      report.unknown(k, v, 'Not an accepted V1 order field; left out of the V2 request.');
    }
  }
  for (const rule of ORDER_RULES) await rule.apply({ src, draft, report, options });
  const order = report.errors.length === 0 ? complete(draft) : undefined;
  if (order) return { ok: true, order, report: report.entries, errors: report.errors };
  if (report.errors.length === 0) {
    // Every rule that leaves the draft incomplete reports an error; this guards that promise.
    report.fail('', 'missing_field', 'The order is incomplete.');
  }
  return { ok: false, order: ordered(draft), report: report.entries, errors: report.errors };
}
