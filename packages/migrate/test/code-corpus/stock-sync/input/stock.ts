// Nightly stock sync: the shop's inventory follows what Partner Print holds in its warehouse.
import ky from 'ky';

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
  const stock = await api.get('stock').json<V1StockEntry[]>();
  const available = new Map<string, number>();
  for (const entry of stock) {
    available.set(entry.sku, entry.logical_quantity);
  }
  return available;
}

/** The SKUs the shop may offer. */
export async function orderableSkus() {
  const stock = await api.get('stock').json<V1StockEntry[]>();
  return stock.map((entry: V1StockEntry) => entry.sku);
}

/** Entries to recount: fewer on the shelf than the books say. */
export async function toRecount(): Promise<unknown[]> {
  const stock = await api.get('stock').json<V1StockEntry[]>();
  return stock
    .filter((e) => e.physical_quantity < e.logical_quantity)
    .map((e) => e.bin_location);
}

/** The raw stock list, for the admin screen. */
export async function stockDump() {
  return api.get('stock').json();
}

export async function stockForAdmin() {
  const all = await api.get('stock').json<V1StockEntry[]>();
  return all;
}
