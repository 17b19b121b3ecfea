/**
 * What V1 `GET /stock` answered, as far as it can be tied to V2 without guessing. The reference shows no V1
 * response; it says V1 is snake_case with top-level resource data, that V1 identifies by SKUs, and that V1 stock
 * is split into products, productgroups and warehouse items in V2. From that, and only that, this model assumes:
 * the answer is the list of stock entries itself (no wrapper); an entry's `sku` is its legacy (V1) SKU; its
 * quantities are the snake_case names of the item's documented quantities. Any other field has no documented V2
 * equivalent.
 */

export type V2StockList = '/products' | '/items';

export interface V1StockField {
  /** The V1 field of a stock entry. */
  readonly v1: string;
  /** The V2 list whose entries carry it, and its name there. */
  readonly list: V2StockList;
  readonly v2: string;
  readonly note: string;
}

export const V1_STOCK_FIELDS: readonly V1StockField[] = [
  {
    v1: 'sku',
    list: '/products',
    v2: 'legacyItemSKU',
    note: "A product's legacyItemSKU carries the legacy (V1) SKU.",
  },
  {
    v1: 'logical_quantity',
    list: '/items',
    v2: 'logicalQuantity',
    note: 'Quantities are on warehouse items (only when the partner stores stock with the service).',
  },
  {
    v1: 'physical_quantity',
    list: '/items',
    v2: 'physicalQuantity',
    note: 'Quantities are on warehouse items (only when the partner stores stock with the service).',
  },
];

/**
 * Why a V1 `sku` read next to quantities does not carry over: on an item, `sku` is the warehouse identifier,
 * which differs from the product's legacy SKU for products created from 2026-03-22 (`<item_sku>P<3 digits>`).
 */
export const ITEM_SKU_NOTE =
  "reads `sku` next to quantities: a V2 item's sku is the warehouse identifier, not the legacy SKU of its products (products created from 2026-03-22 have <item_sku>P<3 digits>); match through the item's products and their legacyItemSKU (GET /products).";
