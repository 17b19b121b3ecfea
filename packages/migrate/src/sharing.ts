import type { Catalog, ItemEntry, ProductEntry } from './catalog.ts';
import { type ParsedLegacySku, parseLegacySku, SUFFIXED_SKU_SINCE } from './sku.ts';

export interface SharedItemInfo {
  itemReference: string;
  itemSku: string;
  /** Every product linked to the item (from GET /items). */
  productReferences: string[];
  /** Legacy SKUs of those products, when GET /products could be read (suffixed ones identify one product). */
  productSkus?: Record<string, string>;
}

export interface SharingExplanation {
  parsed: ParsedLegacySku;
  shared?: SharedItemInfo;
  note: string;
}

const skuOf = (products: Map<string, ProductEntry>, ref: string) => products.get(ref)?.legacyItemSKU;

/** The plain SKU belongs to one product: name the item's other products and their SKUs. */
function notShared(
  settled: ParsedLegacySku,
  sku: string,
  item: ItemEntry,
  carriers: string[],
  products: Map<string, ProductEntry>,
): SharingExplanation {
  const others = item.products
    .filter((ref) => !carriers.includes(ref))
    .map((ref) => `${skuOf(products, ref) ?? '?'} → ${ref}`);
  return {
    parsed: settled,
    note:
      `${settled.note} The plain SKU ${sku} belongs to one product of item ${item.reference}` +
      (others.length ? `; the item's other products have their own SKUs: ${others.join(', ')}.` : '.'),
  };
}

/** Two or more products carry the plain SKU (or that cannot be told): the lookup picked one of them. */
function shared(
  settled: ParsedLegacySku,
  sku: string,
  item: ItemEntry,
  carriers: string[] | undefined,
  products: Map<string, ProductEntry> | undefined,
  productReference: string,
): SharingExplanation {
  const info: SharedItemInfo = {
    itemReference: item.reference,
    itemSku: item.sku,
    productReferences: item.products,
  };
  const suffixed: string[] = [];
  if (products) {
    info.productSkus = {};
    for (const ref of item.products) {
      const s = skuOf(products, ref);
      if (!s) continue;
      info.productSkus[ref] = s;
      if (s !== sku) suffixed.push(`${s} → ${ref}`);
    }
  }
  const sharing = carriers
    ? `is carried by ${carriers.length} of the ${item.products.length} products of item ${item.reference}`
    : `may be shared: item ${item.reference} has ${item.products.length} products and their SKUs could not be read (GET /products)`;
  const note =
    `The plain item SKU ${sku} ${sharing}; ` +
    `the lookup resolves a plain SKU to one of them (${productReference}). Products created from ${SUFFIXED_SKU_SINCE} ` +
    `have suffixed SKUs <item_sku>P<3 digits> that identify exactly one product; use them to order a specific product` +
    (suffixed.length ? `: ${suffixed.join(', ')}.` : '.');
  return { parsed: settled, shared: info, note };
}

/**
 * Explains a resolved SKU against the catalog. Products created before the cutoff carry the plain item
 * SKU, later ones a suffixed SKU: a plain SKU is shared only when two or more of the item's products carry
 * it (unknown without GET /products). The item SKUs also settle an ambiguous reading.
 */
export async function explainSharing(
  catalog: Catalog,
  sku: string,
  parsed: ParsedLegacySku,
  productReference: string,
): Promise<SharingExplanation> {
  const index = await catalog.items();
  if ('error' in index) {
    return {
      parsed,
      note: `${parsed.note} Sharing could not be checked: GET /items failed (${index.error}); items are only listed for partners who store stock with the service.`,
    };
  }
  const settled =
    parsed.kind === 'ambiguous'
      ? parseLegacySku(sku, { itemSkus: { has: (s) => index.bySku.has(s) } })
      : parsed;
  const item = index.bySku.get(sku);
  if (settled.kind !== 'plain' || !item || item.products.length < 2)
    return { parsed: settled, note: settled.note };
  const products = await catalog.products();
  const carriers = products ? item.products.filter((ref) => skuOf(products, ref) === sku) : undefined;
  if (products && carriers && carriers.length < 2) return notShared(settled, sku, item, carriers, products);
  return shared(settled, sku, item, carriers, products, productReference);
}
