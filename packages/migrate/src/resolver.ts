import { NotFoundError } from '@partner-print/client/errors';
import { type Catalog, createCatalog } from './catalog.ts';
import { createLimiter, describeError, type MigrateClient, statusOf } from './client.ts';
import { explainSharing, type SharedItemInfo } from './sharing.ts';
import { type ParsedLegacySku, parseLegacySku } from './sku.ts';

export type { SharedItemInfo } from './sharing.ts';

export const LOOKUP_PRODUCT_PATH = '/utilities/lookup-product-by-legacy-sku';

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
  /**
   * Whether the product is a print product (its orderlines need an image), when the catalog says: only
   * when GET /products carries a boolean `print` (not a documented field) and `printProducts` is on.
   */
  print?: boolean;
}
export interface UnresolvedSku extends Base {
  status: 'unknown' | 'invalid' | 'error';
  productReference?: undefined;
  error?: { name: string; message: string; status?: number; code?: string };
  /** The error the lookup threw (a `PartnerPrintError` from the client), for `instanceof` checks. */
  cause?: unknown;
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
  /** Read GET /products (once) to tell print products apart (`print` on a resolution; default true). */
  printProducts?: boolean;
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

/** A legacy SKU no product carries: a `NotFoundError` (status 404) with `code: 'unknown_sku'`. */
export class UnknownSkuError extends NotFoundError {
  override name = 'UnknownSkuError';
  readonly sku: string;
  constructor(sku: string, note: string) {
    super(`Unknown legacy SKU ${JSON.stringify(sku)}: ${note}`, { status: 404, code: 'unknown_sku' });
    this.sku = sku;
  }
}

export interface SkuResolver {
  /** Never throws for an unknown SKU: see `status`. */
  resolve(sku: string): Promise<SkuResolution>;
  /** The product reference, or throws {@link UnknownSkuError} / the lookup's error. */
  resolveProductReference(sku: string): Promise<string>;
  /** Whether a product is a print product, when the catalog says (GET /products, read once). */
  isPrintProduct(productReference: string): Promise<boolean | undefined>;
  stats(): SkuResolverStats;
}

interface Deps {
  client: MigrateClient;
  options: SkuResolverOptions;
  catalog: Catalog;
  limit: <T>(fn: () => Promise<T>) => Promise<T>;
  stats: SkuResolverStats;
}

const printOf = async (deps: Deps, ref: string) =>
  deps.options.printProducts === false ? undefined : (await deps.catalog.products())?.get(ref)?.print;

function failed(deps: Deps, sku: string, parsed: ParsedLegacySku, e: unknown): UnresolvedSku {
  if (e instanceof NotFoundError || statusOf(e) === 404) {
    deps.stats.unknown++;
    return {
      sku,
      status: 'unknown',
      parsed,
      note: `No product carries the legacy SKU ${sku} (404). Check it against GET /products (legacyItemSKU); references and SKUs differ between test and production.`,
    };
  }
  deps.stats.errors++;
  const error = describeError(e);
  const status = statusOf(e) === 400 ? 'invalid' : 'error';
  return { sku, status, parsed, error, cause: e, note: `The lookup failed: ${error.message}` };
}

async function fromCache(deps: Deps, sku: string, parsed: ParsedLegacySku): Promise<ResolvedSku | undefined> {
  const cached = await deps.options.cache?.get(sku);
  if (!cached?.productReference) return undefined;
  deps.stats.cacheHits++;
  deps.stats.resolved++;
  const print = await printOf(deps, cached.productReference);
  return {
    sku,
    status: 'resolved',
    productReference: cached.productReference,
    source: 'cache',
    parsed,
    note: cached.note ?? parsed.note,
    ...(cached.shared ? { shared: cached.shared } : {}),
    ...(print !== undefined ? { print } : {}),
  };
}

async function lookup(deps: Deps, sku: string): Promise<SkuResolution> {
  const parsed = parseLegacySku(sku);
  if (parsed.kind === 'invalid') {
    deps.stats.unknown++;
    return { sku, status: 'invalid', parsed, note: parsed.note };
  }
  const cached = await fromCache(deps, sku, parsed);
  if (cached) return cached;
  let productReference: string;
  try {
    const data = await deps.limit(() => {
      deps.stats.lookups++;
      return deps.client.get(LOOKUP_PRODUCT_PATH, { params: { query: { legacyItemSku: sku } } });
    });
    productReference = data.productReference;
  } catch (e) {
    return failed(deps, sku, parsed, e);
  }
  const explained =
    deps.options.detectSharing === false
      ? { parsed, note: parsed.note }
      : await explainSharing(deps.catalog, sku, parsed, productReference);
  deps.stats.resolved++;
  const shared = explained.shared ? { shared: explained.shared } : {};
  await deps.options.cache?.set(sku, { productReference, note: explained.note, ...shared });
  const print = await printOf(deps, productReference);
  return {
    sku,
    status: 'resolved',
    productReference,
    source: 'lookup',
    parsed: explained.parsed,
    note: explained.note,
    ...shared,
    ...(print !== undefined ? { print } : {}),
  };
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
  const deps: Deps = { client, options, catalog: createCatalog(client, limit), limit, stats };

  function resolve(sku: string): Promise<SkuResolution> {
    const existing = memo.get(sku);
    if (existing) {
      stats.memoHits++;
      return existing;
    }
    stats.distinct++;
    const p = lookup(deps, sku);
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
      if (r.status === 'error' && r.cause !== undefined) throw r.cause;
      throw new UnknownSkuError(sku, r.note);
    },
    isPrintProduct: (ref) => printOf(deps, ref),
    stats: () => ({ ...stats }),
  };
}
