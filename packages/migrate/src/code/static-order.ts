import { v2FieldName } from '../case.ts';
import { V1_ORDER_FIELDS, V1_ORDERLINE_FIELDS } from '../convert.ts';
import { bare, isString, type N, objectProps, singleQuoted } from './ast.ts';
import { IMAGE_KEYS as IMAGE_FIELDS } from './image-call.ts';
import type { Names } from './v2-calls.ts';
import type { Bindings } from './values.ts';

/**
 * A V1 order body written out in the code becomes the V2 body in the code, when every field of it converts
 * without running: names through the conversion's tables (`partner_reference` → `customIdentifier`,
 * `shipping_kind` → `shippingKind`), `store_code` through the `--store` map (a literal code), each orderline's
 * `sku` through the `--skus` mapping when it is a literal SKU there, else through the legacy-SKU look-up where
 * the code runs; an `image` (or `image_base64`) written out in the code that is provably a JPEG or PNG (plain
 * base64, base64url or a data URL) is uploaded first, once per flow (`images.ts`), and its reference goes on the
 * line. Anything else (an address, an image only known at run time, a store code only known at run time, a
 * computed list of lines) is converted at run time by `convertV1Order`.
 */
export interface StaticOrder {
  code: string;
  nodes: N[];
  /** Whether the code calls the run-time V1 adapter (a SKU not in the mapping). */
  needsAdapter: boolean;
}

/** What converts without running: the `--store` and `--skus` maps. */
export interface StaticMaps {
  stores: Readonly<Record<string, string>>;
  /** Legacy SKU → `Product_` reference, as `skus` resolved it. */
  products: Readonly<Record<string, string>>;
}

interface Lines {
  b: Bindings;
  maps: StaticMaps;
  names: Names;
  nodes: N[];
  needsAdapter: boolean;
  /** The name a written-out image's upload is bound to; undefined when it is only known at run time. */
  image(image: N): string | undefined;
}

/** A literal SKU in the mapping is its reference; anything else is looked up where the code runs. */
function productReference(sku: N, at: Lines): string {
  const value = at.b.resolve(sku);
  const known = isString(value) && Object.hasOwn(at.maps.products, value.value);
  if (known) return singleQuoted(at.maps.products[value.value] as string);
  at.needsAdapter = true;
  return `await ${at.names.adapter}.productReference(__pp${at.nodes.push(sku) - 1}__)`;
}

const SKU_KEYS = new Set(['sku', 'legacy_sku']);
const IMAGE_KEYS = new Set<string>(IMAGE_FIELDS);

function orderline(line: N, at: Lines): string | undefined {
  const props = objectProps(bare(line));
  const known = (k: string) => SKU_KEYS.has(k) || IMAGE_KEYS.has(k) || k === 'quantity';
  if (!props || ![...props.keys()].every((k) => V1_ORDERLINE_FIELDS.includes(k) && known(k)))
    return undefined;
  const sku = props.get('sku') ?? props.get('legacy_sku');
  const quantity = props.get('quantity');
  if (!sku || !quantity || (props.has('sku') && props.has('legacy_sku'))) return undefined;
  if (props.has('image') && props.has('image_base64')) return undefined;
  const imageNode = props.get('image') ?? props.get('image_base64');
  const product = productReference(sku, at);
  const qAt = at.nodes.push(quantity) - 1;
  const image = imageNode && at.image(imageNode);
  if (imageNode && !image) return undefined;
  return `{ productReference: ${product}, ${v2FieldName('quantity')}: __pp${qAt}__${image ? `, ${v2FieldName('image_reference')}: ${image}` : ''} }`;
}

export function staticOrder(
  body: N,
  b: Bindings,
  maps: StaticMaps,
  names: Names,
  image: (image: N) => string | undefined,
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
  const store = code && isString(code) ? maps.stores[code.value] : undefined;
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
  const at: Lines = { b, maps, names, nodes: [], needsAdapter: false, image };
  const converted = lines.elements.map((l: N) => orderline(l, at));
  if (converted.some((l: string | undefined) => l === undefined)) return undefined;
  const id = props.get('partner_reference') ?? props.get('custom_identifier');
  const idPart = id
    ? `, ${v2FieldName(props.has('partner_reference') ? 'partner_reference' : 'custom_identifier')}: __pp${at.nodes.push(id) - 1}__`
    : '';
  return {
    code: `{ storeReference: ${singleQuoted(store)}, ${v2FieldName('shipping_kind')}: 'combined'${idPart}, orderlines: [${converted.join(', ')}] }`,
    nodes: at.nodes,
    needsAdapter: at.needsAdapter,
  };
}
