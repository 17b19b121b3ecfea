// Nightly stock sync: the shop's inventory follows what Partner Print holds in its warehouse.
import ky from 'ky';

import { createClient } from '@partner-print/client';
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });

// TODO(partner-print v2): the V1 base URL is still used by code this tool did not rewrite. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
const api = ky.create({
  prefixUrl: 'https://api.partner-print.example/v1',
  headers: { 'X-Partner-Code': process.env.PP_PARTNER_CODE, 'X-Api-Key': process.env.PP_API_KEY },
});

interface V1StockEntry {
  sku: string;
  logical_quantity: number;
  physical_quantity: number;
  bin_location?: string;
}

/** What can be sold now, per warehouse SKU. */
export async function availableBySku(): Promise<Map<string, number>> {
  const stock = await partnerPrint.collect('/items');
  const available = new Map<string, number>();
  for (const entry of stock) {
    // TODO(partner-print v2): reads `sku` next to quantities: a V2 item's sku is the warehouse identifier, not the legacy SKU of its products (products created from 2026-03-22 have <item_sku>P<3 digits>); match through the item's products and their legacyItemSKU (GET /products). — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
    available.set(entry.sku, entry.logicalQuantity);
  }
  return available;
}

/** The SKUs the shop may offer. */
export async function orderableSkus() {
  const stock = await partnerPrint.collect('/products');
  return stock.map((entry) => entry.legacyItemSKU);
}

/** Entries to recount: fewer on the shelf than the books say. */
export async function toRecount(): Promise<unknown[]> {
  // TODO(partner-print v2): V1 call left as it is: it reads `bin_location` of a V1 stock entry, which has no documented V2 equivalent (a V2 product documents reference, legacyItemSKU and its productgroup; a warehouse item reference, sku, logicalQuantity, physicalQuantity and products). V1 GET /stock maps to GET /products, GET /productgroups and GET /items (`client.collect(…)` of each): move this code to the list it needs by hand. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  const stock = await api.get('stock').json<V1StockEntry[]>();
  return stock
    .filter((e) => e.physical_quantity < e.logical_quantity)
    .map((e) => e.bin_location);
}

/** The raw stock list, for the admin screen. */
export async function stockDump() {
  // TODO(partner-print v2): V1 call left as it is: its response is read in a way this tool does not follow. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  return api.get('stock').json();
}

export async function stockForAdmin() {
  // TODO(partner-print v2): V1 call left as it is: it uses the V1 stock list as a whole (destructured, indexed, its length, returned or passed on), and V2 has no one list of that shape. V1 GET /stock maps to GET /products, GET /productgroups and GET /items (`client.collect(…)` of each): move this code to the list it needs by hand. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  const all = await api.get('stock').json<V1StockEntry[]>();
  return all;
}
