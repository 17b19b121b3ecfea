import { v2FieldName } from '../case.ts';
import { V1_ORDER_FIELDS, V1_ORDERLINE_FIELDS } from '../convert.ts';
import { bare, isString, type N, objectProps, singleQuoted } from './ast.ts';
import type { Bindings } from './values.ts';

/**
 * A V1 order body written out in the code becomes the V2 body in the code, when every field of it converts
 * without running: names through the conversion's tables (`partner_reference` → `customIdentifier`,
 * `shipping_kind` → `shippingKind`), `store_code` through the `--store` map (a literal code), each orderline's
 * `sku` through the legacy-SKU look-up where the code runs. Anything else (an address, images, a store code
 * only known at run time, a computed list of lines) is converted at run time by `convertV1Order`.
 */
export interface StaticOrder {
  code: string;
  nodes: N[];
}

const SKU_KEYS = new Set(['sku', 'legacy_sku']);

function orderline(line: N, adapter: string, nodes: N[]): string | undefined {
  const props = objectProps(bare(line));
  if (
    !props ||
    ![...props.keys()].every((k) => V1_ORDERLINE_FIELDS.includes(k) && (SKU_KEYS.has(k) || k === 'quantity'))
  )
    return undefined;
  const sku = props.get('sku') ?? props.get('legacy_sku');
  const quantity = props.get('quantity');
  if (!sku || !quantity || (props.has('sku') && props.has('legacy_sku'))) return undefined;
  const skuAt = nodes.push(sku) - 1;
  const qAt = nodes.push(quantity) - 1;
  return `{ productReference: await ${adapter}.productReference(__pp${skuAt}__), ${v2FieldName('quantity')}: __pp${qAt}__ }`;
}

export function staticOrder(
  body: N,
  b: Bindings,
  stores: Readonly<Record<string, string>>,
  adapter: string,
): StaticOrder | undefined {
  const props = objectProps(b.resolve(body));
  const allowed = new Set([
    'store_code',
    'shipping_kind',
    'partner_reference',
    'custom_identifier',
    'orderlines',
  ]);
  if (!props || ![...props.keys()].every((k) => allowed.has(k) && V1_ORDER_FIELDS.includes(k)))
    return undefined;
  const code = props.get('store_code') && b.resolve(props.get('store_code'));
  const store = code && isString(code) ? stores[code.value] : undefined;
  const kind = props.get('shipping_kind') && b.resolve(props.get('shipping_kind'));
  const lines = props.get('orderlines') && bare(props.get('orderlines'));
  // Only combined orders: a dropship order needs its address, which converts at run time.
  if (
    !store ||
    !isString(kind) ||
    kind.value !== 'combined' ||
    lines?.type !== 'ArrayExpression' ||
    !lines.elements.length
  )
    return undefined;
  if (props.has('partner_reference') && props.has('custom_identifier')) return undefined;
  const nodes: N[] = [];
  const converted = lines.elements.map((l: N) => orderline(l, adapter, nodes));
  if (converted.some((l: string | undefined) => l === undefined)) return undefined;
  const id = props.get('partner_reference') ?? props.get('custom_identifier');
  const idPart = id
    ? `, ${v2FieldName(props.has('partner_reference') ? 'partner_reference' : 'custom_identifier')}: __pp${nodes.push(id) - 1}__`
    : '';
  return {
    code: `{ storeReference: ${singleQuoted(store)}, ${v2FieldName('shipping_kind')}: 'combined'${idPart}, orderlines: [${converted.join(', ')}] }`,
    nodes,
  };
}
