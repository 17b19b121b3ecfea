import { createHash } from 'node:crypto';
import { basename, dirname, extname, join } from 'node:path';
import { describeError } from '../client.ts';
import { type ConversionError, convertV1Order, type ReportEntry, type V2OrderRequest } from '../convert.ts';
import { createImageUploader, decodeBase64Image } from '../image.ts';
import { lookupOrderByCustomIdentifier } from '../references.ts';
import { createSkuResolver } from '../resolver.ts';
import { type ConnectionOptions, connect, KEY_REFUSED } from './connect.ts';
import { createFileSkuCache } from './file-cache.ts';
import { assertReadableFile, type JsonLine, readJsonLines, UsageError } from './files.ts';
import { type CliIO, openBufferedWriter } from './io.ts';
import { createOrderedPipeline } from './ordered.ts';
import { countLines, createProgress } from './progress.ts';
import { EXIT } from './skus.ts';
import { acquireLock } from './state.ts';

export interface OrdersOptions extends ConnectionOptions {
  submit?: boolean;
  output?: string;
  report?: string;
  storeReference?: string;
  store?: string[];
  cache?: string;
  progress?: boolean;
  json?: boolean;
}

export type OrderLineStatus = 'converted' | 'created' | 'existing' | 'failed';

export interface OrderLineReport {
  line: number;
  status: OrderLineStatus;
  customIdentifier?: string;
  /** Where the custom identifier came from. */
  customIdentifierSource?: 'custom_identifier' | 'partner_reference' | 'derived';
  orderReference?: string;
  errors: Array<Pick<ConversionError, 'path' | 'message'> & { code: string }>;
  report: ReportEntry[];
}

/**
 * A custom identifier derived from the line's content, so a rerun of the same file derives the same
 * identifiers (and finds the orders it created). Identical lines get the same identifier: they are
 * taken to be the same order exported twice.
 */
export function deriveCustomIdentifier(raw: string): string {
  // node:crypto here (the Node entry): synchronous, and much cheaper per line than Web Crypto.
  return `v1-${createHash('sha256').update(raw.trim()).digest('hex').slice(0, 32)}`;
}

function parseStoreMap(entries: string[] | undefined): Map<string, string> {
  const m = new Map<string, string>();
  for (const e of entries ?? []) {
    for (const pair of e.split(',')) {
      const [code, ref] = pair.split('=');
      if (!code || !ref) throw new UsageError(`--store expects <store_code>=<Store_reference>, got ${pair}`);
      m.set(code.trim(), ref.trim());
    }
  }
  return m;
}

export async function runOrders(file: string, opts: OrdersOptions, io: CliIO): Promise<number> {
  await assertReadableFile(file);
  const stem = join(dirname(file), basename(file, extname(file)));
  const output = opts.output ?? `${stem}.v2.jsonl`;
  const reportPath = opts.report ?? `${stem}.report.jsonl`;
  const storeMap = parseStoreMap(opts.store);

  // Lookup-then-create is exactly once for one submitter: the reference does not say whether POST /orders
  // refuses a customIdentifier it already has, so two runs submitting at once are kept apart here.
  const release = opts.submit ? await acquireLock(reportPath) : undefined;
  try {
    return await submitFile(file, output, reportPath, storeMap, opts, io);
  } finally {
    await release?.();
  }
}

async function submitFile(
  file: string,
  output: string,
  reportPath: string,
  storeMap: Map<string, string>,
  opts: OrdersOptions,
  io: CliIO,
): Promise<number> {
  const conn = await connect(opts, io);
  const client = conn.client;
  if (conn.sandbox) {
    // The embedded sandbox's store codes, so V1 files with store_code work out of the box.
    const { storeCodes, stores } = conn.sandbox.seed;
    for (const role of Object.keys(storeCodes)) {
      const code = storeCodes[role];
      const ref = stores[role];
      if (code && ref && !storeMap.has(code)) storeMap.set(code, ref);
    }
  }
  const storeReference = (code: string) => storeMap.get(code) ?? opts.storeReference;
  const cache = opts.cache ? await createFileSkuCache(opts.cache) : undefined;
  const resolver = createSkuResolver(client, { concurrency: opts.concurrency, ...(cache ? { cache } : {}) });
  const uploader = createImageUploader((bytes) => client.uploadImage(bytes));
  // A dry run changes nothing: images are decoded and checked, not uploaded.
  const checkImage = async (b64: string) =>
    `dry-run:sha256:${createHash('sha256').update(decodeBase64Image(b64).bytes).digest('hex')}`;

  const out = await openBufferedWriter(output, 'w');
  const report = await openBufferedWriter(reportPath, 'w');
  const showProgress = opts.progress !== false && !opts.json && io.stderr.isTTY === true;
  const bar = showProgress ? createProgress(io.stderr, await countLines(file), 0) : undefined;

  // One submission per custom identifier, so duplicate lines in one run create one order. A line
  // whose identifier an earlier-submitted line of this run used for other content is not submitted:
  // the lookup would report the other order as "existing", passing it off as this line's.
  const submissions = new Map<
    string,
    { content: string; result: Promise<{ status: 'created' | 'existing'; orderReference: string }> }
  >();
  type LineResult = OrderLineReport & { output?: unknown };

  async function submit(order: V2OrderRequest) {
    const id = order.customIdentifier!;
    const content = JSON.stringify(order);
    const known = submissions.get(id);
    if (known) {
      if (known.content !== content) {
        throw Object.assign(
          new Error(
            `customIdentifier ${JSON.stringify(id)} is used by another order of this file with other content; not submitted`,
          ),
          { code: 'identifier_conflict' },
        );
      }
      return { status: 'existing' as const, orderReference: (await known.result).orderReference };
    }
    const result = (async () => {
      const existing = await lookupOrderByCustomIdentifier(client, id);
      if (existing) return { status: 'existing' as const, orderReference: existing };
      const created = await client.createOrder(order);
      const ref = created.order?.reference;
      if (!ref) throw new Error('POST /orders returned no order reference');
      return { status: 'created' as const, orderReference: ref };
    })();
    submissions.set(id, { content, result });
    result.catch(() => submissions.delete(id));
    return result;
  }

  async function processLine(l: JsonLine): Promise<LineResult> {
    if (l.error) {
      return {
        line: l.line,
        status: 'failed',
        errors: [{ path: '', code: 'malformed', message: l.error }],
        report: [],
      };
    }
    const v = l.value as Record<string, unknown> | null;
    const src = v && typeof v === 'object' && 'order' in v && Object.keys(v).length === 1 ? v.order : v;
    const rec = (src && typeof src === 'object' ? src : {}) as Record<string, unknown>;
    const idSource =
      typeof rec.custom_identifier === 'string' && rec.custom_identifier
        ? ('custom_identifier' as const)
        : typeof rec.partner_reference === 'string' && rec.partner_reference
          ? ('partner_reference' as const)
          : ('derived' as const);
    const derived = idSource === 'derived' ? deriveCustomIdentifier(l.raw) : undefined;
    const conv = await convertV1Order(l.value, {
      resolveSku: (sku) => resolver.resolve(sku),
      uploadImage: opts.submit ? (b64) => uploader.uploadBase64(b64) : checkImage,
      storeReference,
      ...(opts.storeReference ? { defaultStoreReference: opts.storeReference } : {}),
      ...(derived ? { customIdentifier: derived } : {}),
    });
    const base = {
      line: l.line,
      ...(conv.order.customIdentifier ? { customIdentifier: conv.order.customIdentifier } : {}),
      customIdentifierSource: idSource,
      report: conv.report,
    };
    if (!conv.ok) return { ...base, status: 'failed', errors: conv.errors };
    if (!opts.submit) {
      return { ...base, status: 'converted', errors: [], output: { line: l.line, order: conv.order } };
    }
    try {
      const r = await submit(conv.order);
      return {
        ...base,
        status: r.status,
        orderReference: r.orderReference,
        errors: [],
        output: { line: l.line, order: conv.order, orderReference: r.orderReference },
      };
    } catch (e) {
      const d = describeError(e);
      if (d.status === 401 || d.name === 'AuthenticationError' || d.name === 'V1CredentialsError') throw e;
      return {
        ...base,
        status: 'failed',
        errors: [{ path: '', code: d.code ?? d.name, message: d.message }],
      };
    }
  }

  const counts: Record<string, number> = {};
  const problems: string[] = [];
  const pipeline = createOrderedPipeline<LineResult>({
    concurrency: opts.concurrency,
    async emit({ output: v2, ...r }) {
      if (v2) out.write(`${JSON.stringify(v2)}\n`);
      counts[r.status] = (counts[r.status] ?? 0) + 1;
      if (r.status === 'failed' && problems.length < 1000) {
        problems.push(
          `line ${r.line}: ${r.errors.map((e) => `${e.path ? `${e.path}: ` : ''}${e.message}`).join('; ')}`,
        );
      }
      report.write(`${JSON.stringify(r)}\n`);
      bar?.update(r.line);
      await out.backpressure();
      await report.backpressure();
    },
  });

  let fatal: unknown;
  try {
    for await (const l of readJsonLines(file, io.signal ? { signal: io.signal } : {})) {
      if (io.signal?.aborted || conn.keyRefused()) break;
      await pipeline.push(() => processLine(l));
    }
    await pipeline.drain();
  } catch (e) {
    fatal = e;
  }
  if (conn.keyRefused()) fatal ??= new Error(KEY_REFUSED);
  await out.close();
  await report.close();
  bar?.stop();
  conn.close();

  const failed = counts.failed ?? 0;
  const summary = {
    command: 'orders',
    mode: opts.submit ? 'submit' : 'dry-run',
    input: file,
    output,
    report: reportPath,
    counts,
    lookups: resolver.stats().lookups,
    uploads: uploader.stats().uploads,
    complete: !fatal && !io.signal?.aborted,
    ...(fatal ? { error: (fatal as Error).message } : {}),
    /** The first problems, with line numbers (all of them are in the output/report file). */
    problems: problems.slice(0, 20),
  };
  if (opts.json) io.stdout.write(`${JSON.stringify(summary)}\n`);
  else {
    for (const p of problems.slice(0, 20)) io.stderr.write(`${p}\n`);
    if (failed > 20) io.stderr.write(`… and ${failed - 20} more; see ${reportPath}\n`);
    const parts = Object.entries(counts).map(([k, v]) => `${v} ${k}`);
    io.stdout.write(
      `${opts.submit ? 'Submitted' : 'Dry run (nothing created; pass --submit to create the orders; images were checked, not uploaded)'}: ${parts.join(', ') || 'no orders'}. V2 requests: ${output}. Report: ${reportPath}\n`,
    );
    if (fatal) io.stderr.write(`Stopped: ${(fatal as Error).message}\n`);
  }
  if (fatal) {
    const d = describeError(fatal);
    return conn.keyRefused() || d.status === 401 || d.name === 'AuthenticationError'
      ? EXIT.usage
      : EXIT.failures;
  }
  if (io.signal?.aborted) return EXIT.interrupted;
  return failed > 0 ? EXIT.failures : EXIT.ok;
}
