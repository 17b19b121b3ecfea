import { createReadStream } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { createInterface } from 'node:readline';
import { ConfigurationError } from '@partner-print/client/errors';
import { parse } from 'csv-parse/sync';

/**
 * A usage problem (exit code 2): a missing file, an unreadable directory, a bad option, a refused key.
 * A `ConfigurationError` with `code: 'usage'`; its message never holds the secret key.
 */
export class UsageError extends ConfigurationError {
  override name = 'UsageError';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: 'usage', ...options });
  }
}

export async function assertReadableFile(path: string): Promise<void> {
  let s: Awaited<ReturnType<typeof stat>>;
  try {
    s = await stat(path);
    await access(path);
  } catch {
    throw new UsageError(`File not found or not readable: ${path}`);
  }
  if (!s.isFile()) throw new UsageError(`Not a file: ${path}`);
}

export interface JsonLine {
  /** 1-based line number in the file. */
  line: number;
  raw: string;
  value?: unknown;
  /** Set for a malformed line. */
  error?: string;
}

/** The non-blank lines of a text file with their 1-based numbers, streamed (a BOM on line 1 is dropped). */
async function* readTextLines(
  path: string,
  signal?: AbortSignal,
): AsyncGenerator<{ line: number; text: string }> {
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  const rl = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  try {
    for await (const raw of rl) {
      line++;
      if (signal?.aborted) return;
      const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
      if (text.trim() !== '') yield { line, text };
    }
  } finally {
    rl.close();
    stream.destroy();
  }
}

/**
 * Streams a JSONL file line by line (memory stays flat whatever the file size). Blank lines are
 * skipped; a malformed line is yielded with `error` so the caller can report it and go on.
 */
export async function* readJsonLines(
  path: string,
  options: { signal?: AbortSignal; skipUntilLine?: number } = {},
): AsyncGenerator<JsonLine> {
  for await (const { line, text } of readTextLines(path, options.signal)) {
    if (options.skipUntilLine !== undefined && line <= options.skipUntilLine) continue;
    try {
      yield { line, raw: text, value: JSON.parse(text) };
    } catch (e) {
      yield { line, raw: text, error: `Malformed JSON on line ${line}: ${(e as Error).message}` };
    }
  }
}

export interface SkuRecord {
  line: number;
  sku?: string;
  /** Other columns/fields of the record, passed through to the output. */
  extra?: Record<string, unknown>;
  error?: string;
}

const SKU_KEYS = ['sku', 'legacy_sku', 'legacySku', 'legacyItemSku', 'legacy_item_sku', 'legacyItemSKU'];

export type SkuFileFormat = 'csv' | 'jsonl';

export function skuFileFormat(path: string, explicit?: string): SkuFileFormat {
  if (explicit) {
    if (explicit !== 'csv' && explicit !== 'jsonl')
      throw new UsageError(`--format must be csv or jsonl, got ${explicit}`);
    return explicit;
  }
  const ext = extname(path).toLowerCase();
  if (ext === '.csv' || ext === '.tsv' || ext === '.txt') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson' || ext === '.json') return 'jsonl';
  throw new UsageError(
    `Cannot tell the format of ${path} from its extension; pass --format csv or --format jsonl`,
  );
}

/** One JSONL line as a SKU record: a JSON string, or an object with a `sku`-like field (the rest is carried). */
function jsonSkuRecord(l: JsonLine): SkuRecord {
  if (l.error) return { line: l.line, error: l.error };
  const v = l.value;
  if (typeof v === 'string') return { line: l.line, sku: v };
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    return { line: l.line, error: `Line ${l.line} is neither a JSON string nor an object with "sku"` };
  }
  const rec: Record<string, unknown> = { ...v };
  const key = SKU_KEYS.find((k) => k in rec);
  const sku = key ? rec[key] : undefined;
  if (!key || typeof sku !== 'string')
    return { line: l.line, error: `Line ${l.line} has no string "sku" field` };
  delete rec[key];
  return { line: l.line, sku, ...(Object.keys(rec).length ? { extra: rec } : {}) };
}

const delimiterOf = (path: string) => (extname(path).toLowerCase() === '.tsv' ? '\t' : ',');

/** One CSV line as one record (SKU files have no multi-line fields); throws on a malformed line. */
function parseCsvLine(text: string, delimiter: string): string[] {
  const rows: string[][] = parse(text, {
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    trim: true,
  });
  if (rows.length !== 1 || !rows[0]) throw new Error('not one record');
  return rows[0];
}

/** The index of the SKU column when `record` is a header row, else -1. */
function skuColumnOf(record: string[]): number {
  const skuKeys = SKU_KEYS.map((k) => k.toLowerCase());
  return record.findIndex((c) => skuKeys.includes(c.toLowerCase()));
}

/**
 * The other columns of a CSV file with a header row, in order (they are carried into the output); empty
 * for a CSV without header and for JSONL (whose extra fields differ per line).
 */
export async function readSkuHeader(path: string, format: SkuFileFormat): Promise<string[]> {
  if (format !== 'csv') return [];
  for await (const { text } of readTextLines(path)) {
    let record: string[];
    try {
      record = parseCsvLine(text, delimiterOf(path));
    } catch {
      return [];
    }
    const skuColumn = skuColumnOf(record);
    return skuColumn < 0 ? [] : record.map((c, i) => c || `column${i + 1}`).filter((_, i) => i !== skuColumn);
  }
  return [];
}

async function* csvSkuRecords(
  path: string,
  options: { signal?: AbortSignal; skipUntilLine?: number },
): AsyncGenerator<SkuRecord> {
  const skip = (line: number) => options.skipUntilLine !== undefined && line <= options.skipUntilLine;
  let header: string[] | undefined;
  let skuColumn = 0;
  let first = true;
  for await (const { line, text } of readTextLines(path, options.signal)) {
    let record: string[];
    try {
      record = parseCsvLine(text, delimiterOf(path));
    } catch (e) {
      first = false;
      if (!skip(line))
        yield { line, error: `Malformed CSV on line ${line}: ${e instanceof Error ? e.message : e}` };
      continue;
    }
    if (first) {
      first = false;
      const idx = skuColumnOf(record);
      if (idx >= 0) {
        [header, skuColumn] = [record, idx];
        continue;
      }
    }
    if (skip(line)) continue;
    const sku = record[skuColumn];
    if (!sku) {
      yield { line, error: `Line ${line} has an empty SKU column` };
      continue;
    }
    const extra: Record<string, unknown> = {};
    if (header && record.length > 1) {
      record.forEach((v, i) => {
        if (i !== skuColumn) extra[header?.[i] || `column${i + 1}`] = v;
      });
    }
    yield { line, sku, ...(Object.keys(extra).length ? { extra } : {}) };
  }
}

/**
 * Streams legacy SKUs from a CSV (a header row with a `sku`-like column, or one SKU per row without a
 * header) or a JSONL file (`{"sku": "…"}` objects or JSON strings). Each CSV line is parsed on its own, so
 * a malformed line (a stray or unclosed quote) is reported with its own number and cannot swallow the
 * lines after it.
 */
export async function* readSkuRecords(
  path: string,
  format: SkuFileFormat,
  options: { signal?: AbortSignal; skipUntilLine?: number } = {},
): AsyncGenerator<SkuRecord> {
  if (format === 'csv') {
    yield* csvSkuRecords(path, options);
    return;
  }
  for await (const l of readJsonLines(path, options)) yield jsonSkuRecord(l);
}
