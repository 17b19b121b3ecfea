/**
 * Legacy (V1) SKUs. Products created before 2026-03-22 carry the warehouse item's SKU; products
 * created from 2026-03-22 carry `<item_sku>P<3 digits>`, unique among the products sharing that item.
 *
 * The suffix form cannot be told apart from an item SKU that itself ends in `P` + 3 digits
 * (`MUGP100` could be item `MUG` + suffix `P100`, or item `MUGP100`). Without knowing the item SKUs
 * we report both readings instead of guessing.
 */

/** The date from which new products get suffixed legacy SKUs. */
export const SUFFIXED_SKU_SINCE = '2026-03-22';

export const SUFFIXED_SKU_PATTERN: RegExp = /^(.+)P(\d{3})$/;

export interface SkuReading {
  kind: 'plain' | 'suffixed';
  /** The warehouse item SKU under this reading. */
  itemSku: string;
  /** The 3-digit product suffix (without the `P`), for the suffixed reading. */
  suffix?: string;
}

export interface ParsedLegacySku {
  sku: string;
  /**
   * - `plain`: an item SKU (a product created before 2026-03-22, or the item itself).
   * - `suffixed`: `<item_sku>P<3 digits>`, a product created from 2026-03-22.
   * - `ambiguous`: has the suffix shape, but could also be a plain item SKU ending in P + 3 digits.
   * - `invalid`: empty or with surrounding whitespace / control characters.
   */
  kind: 'plain' | 'suffixed' | 'ambiguous' | 'invalid';
  /** Set when the reading is unambiguous. */
  itemSku?: string;
  suffix?: string;
  /** Every possible reading (one for plain/suffixed, two for ambiguous, none for invalid). */
  readings: SkuReading[];
  note: string;
}

export interface ParseLegacySkuOptions {
  /**
   * Known warehouse item SKUs (for instance from GET /items). They settle the ambiguity: a SKU that is
   * itself an item SKU is plain; one whose prefix is an item SKU (and is not one itself) is suffixed.
   */
  itemSkus?: { has(sku: string): boolean };
}

export function parseLegacySku(sku: string, options: ParseLegacySkuOptions = {}): ParsedLegacySku {
  if (typeof sku !== 'string' || sku.length === 0) {
    return { sku: String(sku ?? ''), kind: 'invalid', readings: [], note: 'Empty SKU.' };
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (sku.trim() !== sku || /[\u0000-\u001f\u007f]/.test(sku)) {
    return {
      sku,
      kind: 'invalid',
      readings: [],
      note: 'The SKU has surrounding whitespace or control characters; legacy SKUs are matched exactly.',
    };
  }
  const m = SUFFIXED_SKU_PATTERN.exec(sku);
  if (!m) {
    return {
      sku,
      kind: 'plain',
      itemSku: sku,
      readings: [{ kind: 'plain', itemSku: sku }],
      note: `A plain item SKU: the SKU of a product created before ${SUFFIXED_SKU_SINCE} (equal to its warehouse item's SKU). If several products created before that date share this item, they all carry it and the lookup returns only one of them.`,
    };
  }
  const itemSku = m[1]!;
  const suffix = m[2]!;
  const plain: SkuReading = { kind: 'plain', itemSku: sku };
  const suffixed: SkuReading = { kind: 'suffixed', itemSku, suffix };
  const items = options.itemSkus;
  if (items?.has(sku)) {
    return {
      sku,
      kind: 'plain',
      itemSku: sku,
      readings: [plain],
      note: `Ends in P + 3 digits, but ${sku} is itself a known warehouse item SKU, so it is a plain item SKU.`,
    };
  }
  if (items?.has(itemSku)) {
    return {
      sku,
      kind: 'suffixed',
      itemSku,
      suffix,
      readings: [suffixed],
      note: `A suffixed product SKU (item ${itemSku}, product suffix P${suffix}): a product created from ${SUFFIXED_SKU_SINCE}.`,
    };
  }
  return {
    sku,
    kind: 'ambiguous',
    readings: [suffixed, plain],
    note: `Has the suffixed shape <item_sku>P<3 digits> (item ${itemSku}, suffix P${suffix}, a product created from ${SUFFIXED_SKU_SINCE}), but it could also be a plain item SKU that ends in P + 3 digits. The lookup endpoint resolves either form; pass the known item SKUs (GET /items) to settle which one it is.`,
  };
}
