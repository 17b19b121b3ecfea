import type { MigrateClient } from './client.ts';
import { describeError } from './client.ts';

/** A warehouse item and the products linked to it (GET /items). */
export interface ItemEntry {
  reference: string;
  sku: string;
  products: string[];
}

/** What GET /products says about a product: its legacy SKU, and `print` when the catalog carries it. */
export interface ProductEntry {
  legacyItemSKU?: string;
  /** Not a documented product field: present only when the service sends a boolean `print`. */
  print?: boolean;
}

export type ItemIndex = { bySku: Map<string, ItemEntry> } | { error: string };

/**
 * The catalog, read once per resolver through the client's `paginate` (which refuses a repeated cursor):
 * GET /items for shared items, GET /products for product SKUs and print products. A failed read is
 * remembered as such (items are only listed for partners who store stock with the service).
 */
export function createCatalog(client: MigrateClient, limit: <T>(fn: () => Promise<T>) => Promise<T>) {
  let items: Promise<ItemIndex> | undefined;
  let products: Promise<Map<string, ProductEntry> | undefined> | undefined;

  async function readItems(): Promise<ItemIndex> {
    try {
      const bySku = new Map<string, ItemEntry>();
      for await (const it of client.paginate('/items')) {
        const refs = (it.products ?? []).map((p) => p.reference).filter((r) => typeof r === 'string');
        bySku.set(it.sku, { reference: it.reference, sku: it.sku, products: refs });
      }
      return { bySku };
    } catch (e) {
      return { error: describeError(e).message };
    }
  }

  async function readProducts(): Promise<Map<string, ProductEntry> | undefined> {
    try {
      const m = new Map<string, ProductEntry>();
      for await (const p of client.paginate('/products')) {
        const print = p.print;
        m.set(p.reference, {
          ...(typeof p.legacyItemSKU === 'string' ? { legacyItemSKU: p.legacyItemSKU } : {}),
          ...(typeof print === 'boolean' ? { print } : {}),
        });
      }
      return m;
    } catch {
      return undefined;
    }
  }

  return {
    items: (): Promise<ItemIndex> => (items ??= limit(readItems)),
    products: (): Promise<Map<string, ProductEntry> | undefined> => (products ??= limit(readProducts)),
  };
}

export type Catalog = ReturnType<typeof createCatalog>;
