// One V1 order line: convert it, then (with --submit) create it. The result is what the report records.
import { createHash } from 'node:crypto';
import {
  AmbiguousOutcomeError,
  memoryOrderClaims,
  type OrderClaims,
  type PartnerPrintClient,
} from '@partner-print/client';
import { describeError } from '../client.ts';
import { type ConversionError, type ConversionResult, convertV1Order, type ReportEntry } from '../convert.ts';
import { createImageUploader, decodeBase64Image, type ImageUploader } from '../image.ts';
import { createSkuResolver, type SkuResolver } from '../resolver.ts';
import { createFileSkuCache } from './file-cache.ts';
import type { JsonLine } from './files.ts';
import { isRunWideFailure } from './run-failure.ts';
import { createSubmitter, settleFirst } from './submit.ts';
import { traceLine } from './telemetry.ts';

/** `not-done`: the line was stopped, or failed for a passing reason (network, 5xx, unknown outcome); a rerun does it again. */
export type OrderLineStatus = 'converted' | 'created' | 'existing' | 'failed' | 'not-done';

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
 * `unsettled`: a POST was sent whose outcome is unknown (a rerun waits out a settle window before posting).
 * `runWide`: the line failed for a reason of the whole run (the key, the base URL, the network): the run
 * stops there and records neither it nor any later line.
 */
export type LineResult = OrderLineReport & {
  output?: unknown;
  done: boolean;
  unsettled?: boolean;
  runWide?: unknown;
};

/**
 * A custom identifier derived from the line's content, so a rerun of the same file derives the same
 * identifiers (and finds the orders it created). Identical lines get the same identifier: they are
 * taken to be the same order exported twice.
 */
export function deriveCustomIdentifier(raw: string): string {
  // node:crypto here (the Node entry): synchronous, and much cheaper per line than Web Crypto.
  return `v1-${createHash('sha256').update(raw.trim()).digest('hex').slice(0, 32)}`;
}

/** Where the line's custom identifier comes from, and the value it gives (none when derived). */
function identifierOf(value: unknown): {
  source: 'custom_identifier' | 'partner_reference' | 'derived';
  given?: string;
} {
  const src =
    value && typeof value === 'object' && 'order' in value && Object.keys(value).length === 1
      ? value.order
      : value;
  const field = (name: string) =>
    src && typeof src === 'object' && name in src ? Reflect.get(src, name) : undefined;
  for (const source of ['custom_identifier', 'partner_reference'] as const) {
    const given = field(source);
    if (typeof given === 'string' && given !== '') return { source, given };
  }
  return { source: 'derived' };
}

/**
 * Lines that are one order (the same custom identifier) take their turns at createOrder in file order: the
 * earliest is `created`, the later ones `existing`, whichever line's lookups and uploads finish first (in
 * one run; across runs or processes the claims decide). A turn is taken when the line starts, which the
 * ordered pipeline does in file order, and ends however the line ends.
 */
function fileOrderTurns() {
  const last = new Map<string, Promise<void>>();
  return (key: string) => {
    const before = last.get(key);
    let end = () => {};
    const mine = new Promise<void>((resolve) => {
      end = resolve;
    });
    last.set(key, mine);
    return {
      before,
      end: () => {
        end();
        if (last.get(key) === mine) last.delete(key);
      },
    };
  };
}

export interface LineOptions {
  client: PartnerPrintClient;
  submit: boolean;
  storeReference: (code: string) => string | undefined;
  defaultStoreReference?: string;
  concurrency: number;
  cache?: string;
  claims?: OrderClaims;
  /** Identifiers an earlier run posted without learning the outcome: settle before posting them. */
  unsettled?: ReadonlySet<string>;
  /** Aborted when the run stops: a line not yet submitted is not submitted, one in flight is given up. */
  stop: AbortSignal;
}

/** The first failure of one line's lookups and uploads that would fail every line, if any. */
function runWideWatch() {
  const watch = {
    cause: undefined as unknown,
    note(e: unknown) {
      if (watch.cause === undefined && isRunWideFailure(e)) watch.cause = e;
    },
    /** `fn`, noting what it throws. */
    watched<A extends unknown[], R>(fn: (...args: A) => Promise<R>) {
      return async (...args: A): Promise<R> => {
        try {
          return await fn(...args);
        } catch (e) {
          watch.note(e);
          throw e;
        }
      };
    },
  };
  return watch;
}

/** One line converted, with what the run-wide watch saw while it ran. */
type LineConversion<I extends string> = ConversionResult<I> & { runWide: unknown };

/** The conversion of one line, with images uploaded (--submit) or only checked (dry run). */
export async function createLineConverter(o: LineOptions): Promise<{
  resolver: SkuResolver;
  uploader: ImageUploader;
  /** With the images uploaded: the order is ready for createOrder. */
  forSubmit: (l: JsonLine, id: string | undefined) => Promise<LineConversion<`Image_${string}`>>;
  /** A dry run changes nothing: images are decoded and checked, not uploaded. */
  dry: (l: JsonLine, id: string | undefined) => Promise<LineConversion<string>>;
}> {
  const cache = o.cache ? await createFileSkuCache(o.cache) : undefined;
  const resolver = createSkuResolver(o.client, { concurrency: o.concurrency, ...(cache ? { cache } : {}) });
  const uploader = createImageUploader((bytes) => o.client.uploadImage(bytes));
  const common = (customIdentifier: string | undefined, watch: ReturnType<typeof runWideWatch>) => ({
    resolveSku: async (sku: string) => {
      const r = await resolver.resolve(sku);
      if (r.status === 'error') watch.note(r.cause);
      return r;
    },
    isPrintProduct: watch.watched((ref: string) => resolver.isPrintProduct(ref)),
    storeReference: o.storeReference,
    ...(o.defaultStoreReference ? { defaultStoreReference: o.defaultStoreReference } : {}),
    ...(customIdentifier ? { customIdentifier } : {}),
  });
  /** The conversion, and the first failure of the whole run its requests met (then it says nothing of the line). */
  const convert = async <I extends string>(
    l: JsonLine,
    id: string | undefined,
    upload: (b64: string) => Promise<I>,
  ) => {
    const watch = runWideWatch();
    const conv = await convertV1Order(l.value, { ...common(id, watch), uploadImage: watch.watched(upload) });
    return { ...conv, runWide: watch.cause };
  };
  return {
    resolver,
    uploader,
    /** With the images uploaded: the order is ready for createOrder. */
    forSubmit: (l: JsonLine, id: string | undefined) => convert(l, id, (b64) => uploader.uploadBase64(b64)),
    /** A dry run changes nothing: images are decoded and checked, not uploaded. */
    dry: (l: JsonLine, id: string | undefined) => convert(l, id, dryRunImage),
  };
}

const dryRunImage = async (b64: string) =>
  `dry-run:sha256:${createHash('sha256').update(decodeBase64Image(b64).bytes).digest('hex')}`;

type Base = Omit<OrderLineReport, 'status' | 'errors'>;
const baseOf = (
  l: JsonLine,
  source: Base['customIdentifierSource'],
  c: { order: { customIdentifier?: string }; report: ReportEntry[] },
): Base => ({
  line: l.line,
  ...(c.order.customIdentifier ? { customIdentifier: c.order.customIdentifier } : {}),
  customIdentifierSource: source,
  report: c.report,
});

/** Converts and (with --submit) creates one line; a failure of the whole run comes back as `runWide`. */
export async function createLineProcessor(o: LineOptions): Promise<{
  /** `posting` is called with the line's custom identifier before its POST may be sent. */
  processLine: (l: JsonLine, posting?: (customIdentifier: string) => void) => Promise<LineResult>;
  stats: () => {
    lookups: number;
    uploads: number;
  };
}> {
  const converter = await createLineConverter(o);
  const claims = settleFirst(o.claims ?? memoryOrderClaims(), o.unsettled);
  const submit = createSubmitter(o.client, { signal: o.stop, claims });

  const turns = fileOrderTurns();

  const submitLine = async (
    l: JsonLine,
    id: string | undefined,
    source: Base['customIdentifierSource'],
    before: Promise<void> | undefined,
    posting: ((customIdentifier: string) => void) | undefined,
  ): Promise<LineResult> => {
    const conv = await converter.forSubmit(l, id);
    const base = baseOf(l, source, conv);
    if (conv.runWide !== undefined) return { ...notDone(base, conv.runWide), runWide: conv.runWide };
    if (!conv.ok) return { ...base, status: 'failed', done: true, errors: conv.errors };
    await before;
    if (o.stop.aborted) return notDone(base, o.stop.reason);
    if (conv.order.customIdentifier) posting?.(conv.order.customIdentifier);
    try {
      const r = await submit(conv.order);
      const output = { line: l.line, order: conv.order, orderReference: r.orderReference };
      return { ...base, ...r, errors: [], done: true, output };
    } catch (e) {
      if (o.stop.aborted) return { ...notDone(base, e), unsettled: e instanceof AmbiguousOutcomeError };
      if (isRunWideFailure(e))
        return { ...notDone(base, e), runWide: e, unsettled: e instanceof AmbiguousOutcomeError };
      if (!isDefinite(e)) return { ...notDone(base, e), unsettled: e instanceof AmbiguousOutcomeError };
      const d = describeError(e);
      return {
        ...base,
        status: 'failed',
        done: true,
        errors: [{ path: '', code: d.code ?? d.name, message: d.message }],
      };
    }
  };

  const processLine = async (
    l: JsonLine,
    posting?: (customIdentifier: string) => void,
  ): Promise<LineResult> => {
    if (l.error)
      return {
        line: l.line,
        status: 'failed',
        done: true,
        errors: [{ path: '', code: 'malformed', message: l.error }],
        report: [],
      };
    const { source, given } = identifierOf(l.value);
    const id = source === 'derived' ? deriveCustomIdentifier(l.raw) : undefined;
    if (o.submit) {
      const turn = turns((given ?? id) as string);
      return traceLine(o.client, l.line, () => submitLine(l, id, source, turn.before, posting)).finally(
        turn.end,
      );
    }
    const conv = await converter.dry(l, id);
    const base = baseOf(l, source, conv);
    if (conv.runWide !== undefined) return { ...notDone(base, conv.runWide), runWide: conv.runWide };
    if (!conv.ok) return { ...base, status: 'failed', done: true, errors: conv.errors };
    return {
      ...base,
      status: 'converted',
      done: true,
      errors: [],
      output: { line: l.line, order: conv.order },
    };
  };
  return {
    processLine,
    stats: () => ({
      lookups: converter.resolver.stats().lookups,
      uploads: converter.uploader.stats().uploads,
    }),
  };
}

/** A line failed for a reason of its own (refused, conflict): done; anything else may pass on a rerun. */
function isDefinite(error: unknown): boolean {
  const { status, code } = describeError(error);
  return (
    (status !== undefined && status >= 400 && status < 500 && status !== 429) ||
    code === 'identifier_conflict'
  );
}

function notDone(base: Base, cause: unknown): LineResult {
  const d = describeError(cause);
  return {
    ...base,
    status: 'not-done',
    done: false,
    errors: [{ path: '', code: d.code ?? 'not_done', message: d.message }],
  };
}
