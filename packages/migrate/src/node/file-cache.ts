import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CachedSku, SkuCache } from '../resolver.ts';

export interface FileSkuCache extends SkuCache {
  readonly size: number;
}

/**
 * A persistent SKU cache in an append-only JSONL file (`{"sku": …, "productReference": …}` per line),
 * so an interrupted run never corrupts it. Loaded once on open; a later line for the same SKU wins.
 * A truncated last line (a crash mid-write) is ignored.
 */
export async function createFileSkuCache(path: string): Promise<FileSkuCache> {
  const map = new Map<string, CachedSku>();
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    await mkdir(dirname(path), { recursive: true });
  }
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const { sku, ...value } = JSON.parse(line) as CachedSku & { sku: string };
      if (typeof sku === 'string' && typeof value.productReference === 'string') map.set(sku, value);
    } catch {
      // A partial line from an interrupted write.
    }
  }
  let chain: Promise<void> = Promise.resolve();
  // A crash may have left the file without a final newline: start appends on a fresh line.
  let needsNewline = text.length > 0 && !text.endsWith('\n');
  return {
    get size() {
      return map.size;
    },
    get: (sku) => map.get(sku),
    set(sku, value) {
      map.set(sku, value);
      const prefix = needsNewline ? '\n' : '';
      needsNewline = false;
      chain = chain.then(() => appendFile(path, `${prefix}${JSON.stringify({ sku, ...value })}\n`));
      return chain;
    },
  };
}
