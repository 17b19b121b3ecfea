import { createLimiter, describeError, listAll, type MigrateClient, statusOf } from './client.ts';
import { type ParsedLegacySku, parseLegacySku, SUFFIXED_SKU_SINCE } from './sku.ts';

export const LOOKUP_PRODUCT_PATH = '/utilities/lookup-product-by-legacy-sku';

export interface SharedItemInfo {
  itemReference: string;
  itemSku: string;
  /** Every product linked to the item (from GET /items). */
  productReferences: string[];
  /** Legacy SKUs of those products, when GET /products could be read (suffixed ones identify one product). */
  productSkus?: Record<string, string>;
}

interface Base {
  sku: string;
  parsed: ParsedLegacySku;
  note: string;
}
export interface ResolvedSku extends Base {
  status: 'resolved';
  productReference: string;
  source: 'lookup' | 'cache';
  /** Set when a plain item SKU is shared by several products: the lookup picked one of them. */
  shared?: SharedItemInfo;
}
export interface UnresolvedSku extends Base {
  status: 'unknown' | 'invalid' | 'error';
  productReference?: undefined;
  error?: { name: string; message: string; status?: number; code?: string };
}
export type SkuResolution = ResolvedSku | UnresolvedSku;

/** What the persistent cache keeps for a resolved SKU. Unknown SKUs are not persisted (they may appear). */
export interface CachedSku {
  productReference: string;
  shared?: SharedItemInfo;
  note?: string;
}

/** A persistent cache: any async key-value store (a file store is in `@partner-print/migrate/node`). */
export interface SkuCache {
  get(sku: string): Promise<CachedSku | undefined> | CachedSku | undefined;
  set(sku: string, value: CachedSku): Promise<void> | void;
}

export interface SkuResolverOptions {
  cache?: SkuCache;
  /** Lookups in flight at once (default 8). The client's scheduler keeps to the rate limit. */
  concurrency?: number;
  /** Read GET /items (once) to detect plain SKUs shared by several products (default true). */
  detectSharing?: boolean;
}

export interface SkuResolverStats {
  /** Distinct SKUs asked for. */
  distinct: number;
  /** HTTP lookups made. */
  lookups: number;
  cacheHits: number;
  /** Calls answered by an earlier or concurrent call for the same SKU. */
  memoHits: number;
  resolved: number;
  unknown: number;
  errors: number;
}

export class UnknownSkuError extends Error {
  override readonly name = 'UnknownSkuError';
  readonly sku: string;
  readonly status = 404;
  constructor(sku: string, note: string) {
    super(`Unknown legacy SKU ${JSON.stringify(sku)}: ${note}`);
    this.sku = sku;
  }
}

export interface SkuResolver {
  /** Never throws for an unknown SKU: see `status`. */
  resolve(sku: string): Promise<SkuResolution>;
  /** The product reference, or throws {@link UnknownSkuError} / the lookup's error. */
  resolveProductReference(sku: string): Promise<string>;
  stats(): SkuResolverStats;
}

interface ItemIndex {
  bySku: Map<string, { reference: string; sku: string; products: string[] }>;
}

export function createSkuResolver(client: MigrateClient, options: SkuResolverOptions = {}): SkuResolver {
  const limit = createLimiter(options.concurrency ?? 8);
  const memo = new Map<string, Promise<SkuResolution>>();
  const stats: SkuResolverStats = {
    distinct: 0,
    lookups: 0,
    cacheHits: 0,
    memoHits: 0,
    resolved: 0,
    unknown: 0,
    errors: 0,
  };
  let items: Promise<ItemIndex | { error: string }> | undefined;
  let productSkus: Promise<Map<string, string> | undefined> | undefined;

  function itemIndex() {
    items ??= limit(async () => {
      try {
        const bySku: ItemIndex['bySku'] = new Map();
        for await (const it of listAll<{ reference: string; sku: string; products?: unknown[] }>(
          client,
          '/items',
          'items',
        )) {
          const products = (it.products ?? [])
            .map((p) => (typeof p === 'string' ? p : (p as { reference?: string })?.reference))
            .filter((r): r is string => typeof r === 'string');
          bySku.set(it.sku, { reference: it.reference, sku: it.sku, products });
        }
        return { bySku };
      } catch (e) {
        return { error: describeError(e).message };
      }
    });
    return items;
  }

  function productSkuIndex() {
    productSkus ??= limit(async () => {
      try {
        const m = new Map<string, string>();
        for await (const p of listAll<{ reference: string; legacyItemSKU?: string }>(
          client,
          '/products',
          'products',
        )) {
          if (typeof p.legacyItemSKU === 'string') m.set(p.reference, p.legacyItemSKU);
        }
        return m;
      } catch {
        return undefined;
      }
    });
    return productSkus;
  }

  async function explainSharing(
    sku: string,
    parsed: ParsedLegacySku,
    productReference: string,
  ): Promise<{ parsed: ParsedLegacySku; shared?: SharedItemInfo; note: string }> {
    if (options.detectSharing === false) return { parsed, note: parsed.note };
    const index = await itemIndex();
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
    if (settled.kind !== 'plain' || !item || item.products.length < 2) {
      return { parsed: settled, note: settled.note };
    }
    const skus = await productSkuIndex();
    // Products created before the cutoff carry the plain item SKU, later ones a suffixed SKU: the plain
    // SKU is shared only when two or more of the item's products carry it (unknown without GET /products).
    const plainCarriers = skus ? item.products.filter((ref) => skus.get(ref) === sku) : undefined;
    if (plainCarriers && plainCarriers.length < 2) {
      const others = item.products
        .filter((ref) => !plainCarriers.includes(ref))
        .map((ref) => `${skus!.get(ref) ?? '?'} → ${ref}`);
      return {
        parsed: settled,
        note:
          `${settled.note} The plain SKU ${sku} belongs to one product of item ${item.reference}` +
          (others.length ? `; the item's other products have their own SKUs: ${others.join(', ')}.` : '.'),
      };
    }
    const shared: SharedItemInfo = {
      itemReference: item.reference,
      itemSku: item.sku,
      productReferences: item.products,
    };
    const suffixed: string[] = [];
    if (skus) {
      shared.productSkus = {};
      for (const ref of item.products) {
        const s = skus.get(ref);
        if (s) {
          shared.productSkus[ref] = s;
          if (s !== sku) suffixed.push(`${s} → ${ref}`);
        }
      }
    }
    const sharing = plainCarriers
      ? `is carried by ${plainCarriers.length} of the ${item.products.length} products of item ${item.reference}`
      : `may be shared: item ${item.reference} has ${item.products.length} products and their SKUs could not be read (GET /products)`;
    const note =
      `The plain item SKU ${sku} ${sharing}; ` +
      `the lookup resolves a plain SKU to one of them (${productReference}). Products created from ${SUFFIXED_SKU_SINCE} ` +
      `have suffixed SKUs <item_sku>P<3 digits> that identify exactly one product; use them to order a specific product` +
      (suffixed.length ? `: ${suffixed.join(', ')}.` : '.');
    return { parsed: settled, shared, note };
  }

  async function lookup(sku: string): Promise<SkuResolution> {
    const parsed = parseLegacySku(sku);
    if (parsed.kind === 'invalid') {
      stats.unknown++;
      return { sku, status: 'invalid', parsed, note: parsed.note };
    }
    const cached = await options.cache?.get(sku);
    if (cached?.productReference) {
      stats.cacheHits++;
      stats.resolved++;
      return {
        sku,
        status: 'resolved',
        productReference: cached.productReference,
        source: 'cache',
        parsed,
        note: cached.note ?? parsed.note,
        ...(cached.shared ? { shared: cached.shared } : {}),
      };
    }
    let productReference: string;
    try {
      const data = await limit(() => {
        stats.lookups++;
        return client.get(LOOKUP_PRODUCT_PATH, { params: { query: { legacyItemSku: sku } } });
      });
      productReference = (data as { productReference?: string })?.productReference as string;
      if (typeof productReference !== 'string')
        throw new Error('The lookup response has no productReference');
    } catch (e) {
      const status = statusOf(e);
      if (status === 404) {
        stats.unknown++;
        return {
          sku,
          status: 'unknown',
          parsed,
          note: `No product carries the legacy SKU ${sku} (404). Check it against GET /products (legacyItemSKU); references and SKUs differ between test and production.`,
        };
      }
      stats.errors++;
      const error = describeError(e);
      return {
        sku,
        status: status === 400 ? 'invalid' : 'error',
        parsed,
        error,
        note: `The lookup failed: ${error.message}`,
      };
    }
    const explained = await explainSharing(sku, parsed, productReference);
    stats.resolved++;
    const result: ResolvedSku = {
      sku,
      status: 'resolved',
      productReference,
      source: 'lookup',
      parsed: explained.parsed,
      note: explained.note,
      ...(explained.shared ? { shared: explained.shared } : {}),
    };
    await options.cache?.set(sku, {
      productReference,
      note: explained.note,
      ...(explained.shared ? { shared: explained.shared } : {}),
    });
    return result;
  }

  function resolve(sku: string): Promise<SkuResolution> {
    const existing = memo.get(sku);
    if (existing) {
      stats.memoHits++;
      return existing;
    }
    stats.distinct++;
    const p = lookup(sku);
    memo.set(sku, p);
    // Transient failures are not remembered: a later call for the same SKU tries again.
    p.then((r) => {
      if (r.status === 'error') memo.delete(sku);
    });
    return p;
  }

  return {
    resolve,
    async resolveProductReference(sku) {
      const r = await resolve(sku);
      if (r.status === 'resolved') return r.productReference;
      if (r.status === 'error') throw Object.assign(new Error(r.note), r.error ?? {});
      throw new UnknownSkuError(sku, r.note);
    },
    stats: () => ({ ...stats }),
  };
}
