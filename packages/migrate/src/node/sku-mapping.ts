import { unreservedReferencePattern } from '@partner-print/openapi/wire';
import { assertReadableFile, readSkuRecords, type SkuRecord, skuFileFormat, UsageError } from './files.ts';

const PRODUCT_REFERENCE = unreservedReferencePattern('Product');

/** The `Product_` reference of one line of a `skus` output (JSONL `productReference`, CSV `product_reference`). */
function mappedReference(rec: SkuRecord, path: string): string | undefined {
  if (rec.error) throw new UsageError(`${path}: ${rec.error}`);
  const status = rec.extra?.status;
  if (typeof status !== 'string')
    throw new UsageError(
      `${path}: line ${rec.line} has no status; pass the file the skus command wrote (its output)`,
    );
  if (status !== 'resolved') return undefined;
  const ref = rec.extra?.productReference ?? rec.extra?.product_reference;
  if (typeof ref !== 'string' || !PRODUCT_REFERENCE.test(ref))
    throw new UsageError(`${path}: line ${rec.line} is resolved but holds no Product_ reference`);
  return ref;
}

/**
 * Reads the file `skus` writes (JSONL or CSV, told apart by its extension as `skus` does) into legacy SKU →
 * `Product_` reference, for the SKUs it resolved; the others (unknown, invalid, failed look-ups) are left out,
 * so the code still looks them up where it runs. A malformed line, a line without a status, or one SKU
 * resolved to two references is a usage error: the rewrite would otherwise write a guess into the code.
 */
export async function readSkuMapping(path: string): Promise<Record<string, string>> {
  const format = skuFileFormat(path);
  await assertReadableFile(path);
  // A Map, not an object: a SKU named `__proto__` is a SKU like any other.
  const out = new Map<string, string>();
  for await (const rec of readSkuRecords(path, format)) {
    const ref = mappedReference(rec, path);
    if (!ref || rec.sku === undefined) continue;
    const before = out.get(rec.sku);
    if (before !== undefined && before !== ref)
      throw new UsageError(`${path}: SKU ${rec.sku} is resolved to both ${before} and ${ref}`);
    out.set(rec.sku, ref);
  }
  return Object.fromEntries(out);
}
