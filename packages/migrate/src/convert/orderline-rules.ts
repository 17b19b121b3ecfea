import { NotFoundError } from '@partner-print/client/errors';
import { InvalidImageError } from '../image.ts';
import { errorMessage, hasPrefix, isRecord, ReportBuilder, summarise } from './report.ts';
import type { ConvertOptions, SkuResolutionLike, V2Orderline } from './types.ts';

/** One orderline being converted: its V1 fields, the V2 line so far, and what the rules learnt. */
interface LineContext<I extends string> {
  line: Record<string, unknown>;
  /** `orderlines[<i>]`. */
  base: string;
  out: Partial<V2Orderline<I>>;
  report: ReportBuilder;
  options: ConvertOptions<I>;
  /** Whether the line's product is a print product, when the SKU resolution said so. */
  print?: boolean;
}

interface OrderlineRule {
  readonly fields: readonly string[];
  apply<I extends string>(ctx: LineContext<I>): void | Promise<void>;
}

/** The first of `keys` present on the line. */
const firstKey = (line: Record<string, unknown>, keys: readonly string[]) => keys.find((k) => k in line);

/** Reports the fields of `keys` other than `used` as dropped, with `note`. */
function dropOthers<I extends string>(
  ctx: LineContext<I>,
  keys: readonly string[],
  used: string,
  note: string,
  image = false,
) {
  for (const k of keys) {
    if (k !== used && k in ctx.line) ctx.report.dropped(`${ctx.base}.${k}`, ctx.line[k], note, image);
  }
}

const statusOf = (e: unknown) => (isRecord(e) || e instanceof Error ? Reflect.get(e, 'status') : undefined);

function resolutionFailure(r: Exclude<SkuResolutionLike, string>, sku: string) {
  const note = r.note ?? '';
  if (r.status === 'unknown') return { code: 'unknown_sku', message: `Unknown SKU ${sku}. ${note}` } as const;
  if (r.status === 'invalid')
    return { code: 'invalid_value', message: `Invalid SKU ${sku}. ${note}` } as const;
  return { code: 'lookup_failed', message: `SKU lookup failed for ${sku}. ${note}` } as const;
}

async function resolveSkuInto<I extends string>(ctx: LineContext<I>, path: string, sku: string) {
  const { report, options, out } = ctx;
  if (!options.resolveSku) {
    report.fail(path, 'lookup_failed', 'No resolveSku given: cannot turn the SKU into a product reference.');
    report.dropped(path, sku, 'No SKU resolver.');
    return;
  }
  try {
    const r = await options.resolveSku(sku);
    const ref = typeof r === 'string' ? r : r.status === 'resolved' ? r.productReference : undefined;
    if (ref && !hasPrefix('Product', ref)) {
      report.fail(path, 'lookup_failed', `The SKU lookup gave ${ref} for ${sku}: not a Product_ reference.`);
      report.dropped(path, sku, 'The lookup result is not a Product_ reference.');
      return;
    }
    if (hasPrefix('Product', ref)) {
      out.productReference = ref;
      if (typeof r !== 'string' && r.status === 'resolved' && r.print !== undefined) ctx.print = r.print;
      const note = typeof r === 'string' ? undefined : r.note;
      const extra = note ? ` ${note}` : '';
      report.converted(
        path,
        sku,
        `${ctx.base}.productReference`,
        ref,
        `Legacy SKU resolved through the lookup (removed in V3).${extra}`,
      );
      return;
    }
    const failure = resolutionFailure(typeof r === 'string' ? { status: 'error' } : r, sku);
    report.fail(path, failure.code, failure.message.trim());
    report.dropped(path, sku, (typeof r === 'string' ? undefined : r.note) || 'Unknown SKU.');
  } catch (e) {
    const unknown = e instanceof NotFoundError || statusOf(e) === 404;
    const what = unknown ? 'Unknown SKU' : 'SKU lookup failed';
    report.fail(path, unknown ? 'unknown_sku' : 'lookup_failed', `${what} ${sku}: ${errorMessage(e)}`);
    report.dropped(path, sku, errorMessage(e));
  }
}

const PRODUCT_KEYS = ['product_reference', 'sku', 'legacy_sku'] as const;

const product: OrderlineRule = {
  fields: PRODUCT_KEYS,
  async apply(ctx) {
    const { line, base, report } = ctx;
    const given = line.product_reference;
    if (hasPrefix('Product', given)) {
      ctx.out.productReference = given;
      report.mapped(`${base}.product_reference`, given, `${base}.productReference`);
      dropOthers(
        ctx,
        PRODUCT_KEYS,
        'product_reference',
        'product_reference is set; the SKU was not looked up.',
      );
      return;
    }
    if ('product_reference' in line) {
      report.reference(`${base}.product_reference`, given, 'Product');
      return;
    }
    const skuKey = firstKey(line, ['sku', 'legacy_sku']);
    if (!skuKey) {
      report.fail(
        `${base}.product_reference`,
        'missing_field',
        'The orderline has neither product_reference nor sku.',
      );
      return;
    }
    dropOthers(ctx, ['legacy_sku'], skuKey, 'sku is set and was used.');
    const sku = line[skuKey];
    const path = `${base}.${skuKey}`;
    if (typeof sku === 'string' && sku.length > 0) await resolveSkuInto(ctx, path, sku);
    else {
      report.fail(path, 'invalid_value', 'Must be a non-empty string.');
      report.dropped(path, sku);
    }
  },
};

async function uploadInto<I extends string>(ctx: LineContext<I>, path: string, b64: string) {
  const { report, options } = ctx;
  if (!options.uploadImage) {
    report.fail(path, 'upload_failed', 'No uploadImage given: cannot upload the base64 image.');
    report.dropped(path, b64, 'No image uploader.', true);
    return;
  }
  try {
    const ref = await options.uploadImage(b64);
    ctx.out.imageReference = ref;
    report.converted(
      path,
      summarise(b64, true),
      `${ctx.base}.imageReference`,
      ref,
      'Base64 decoded and uploaded as raw bytes (POST /images); identical images are uploaded once.',
    );
  } catch (e) {
    report.fail(path, e instanceof InvalidImageError ? 'invalid_image' : 'upload_failed', errorMessage(e));
    report.dropped(path, b64, errorMessage(e), true);
  }
}

const IMAGE_KEYS = ['image_reference', 'image', 'image_base64'] as const;

const image: OrderlineRule = {
  fields: IMAGE_KEYS,
  async apply(ctx) {
    const { line, base, report } = ctx;
    const given = line.image_reference;
    if (hasPrefix('Image', given)) {
      ctx.out.imageReference = given;
      report.mapped(`${base}.image_reference`, given, `${base}.imageReference`);
      dropOthers(
        ctx,
        IMAGE_KEYS,
        'image_reference',
        'image_reference is set; the base64 image was not uploaded.',
        true,
      );
      return;
    }
    if ('image_reference' in line && given !== null) {
      report.reference(`${base}.image_reference`, given, 'Image');
      return;
    }
    const imageKey = firstKey(line, ['image', 'image_base64']);
    if (!imageKey) return;
    dropOthers(ctx, ['image_base64'], imageKey, 'image is set and was used.', true);
    const b64 = line[imageKey];
    const path = `${base}.${imageKey}`;
    if (b64 === null || b64 === undefined || b64 === '') {
      report.dropped(path, b64, 'Empty image (non-print products have none).');
    } else if (typeof b64 !== 'string') {
      report.fail(path, 'invalid_image', 'Must be a base64 string.');
      report.dropped(path, b64, 'Not a string.');
    } else await uploadInto(ctx, path, b64);
  },
};

const quantity: OrderlineRule = {
  fields: ['quantity'],
  apply({ line, base, out, report }) {
    const q = line.quantity;
    const path = `${base}.quantity`;
    if (typeof q === 'number' && Number.isInteger(q) && q > 0) {
      out.quantity = q;
      report.mapped(path, q, path);
    } else if (typeof q === 'string' && /^[1-9]\d*$/.test(q.trim())) {
      out.quantity = Number(q.trim());
      report.converted(path, q, path, out.quantity, 'String → integer.');
    } else if (q === undefined) {
      report.fail(path, 'missing_field', 'Missing: every orderline needs a quantity (a positive integer).');
    } else {
      report.fail(path, 'invalid_value', 'Must be a positive integer.');
      report.dropped(path, q, 'Not a positive integer.');
    }
  },
};

/**
 * The orderline image rule: a print product needs an image, a non-print product must not have one. Checked
 * only when the catalog says which kind the product is (the SKU resolution's `print`, or `isPrintProduct`).
 */
const printRule: OrderlineRule = {
  fields: [],
  async apply(ctx) {
    const ref = ctx.out.productReference;
    if (!ref || ctx.report.errors.length > 0) return;
    const print = ctx.print ?? (await ctx.options.isPrintProduct?.(ref));
    const hasImage = ctx.out.imageReference !== undefined;
    if (print === true && !hasImage) {
      ctx.report.fail(
        ctx.base,
        'missing_image_reference',
        `${ref} is a print product and needs an image (image, image_base64 or image_reference); V2 would refuse it with missing_image_reference.`,
      );
    } else if (print === false && hasImage) {
      ctx.report.fail(
        ctx.base,
        'unexpected_image_reference',
        `${ref} is not a print product (e.g. a screen protector) and must not have an image; remove it from the orderline.`,
      );
    }
  },
};

const ORDERLINE_RULES: readonly OrderlineRule[] = [product, image, quantity, printRule];

/** Every V1 orderline field conversion accepts (from the rules). */
export const V1_ORDERLINE_FIELDS: readonly string[] = ORDERLINE_RULES.flatMap((r) => r.fields);

export async function convertOrderline<I extends string>(
  line: unknown,
  i: number,
  options: ConvertOptions<I>,
): Promise<{ line: Partial<V2Orderline<I>>; report: ReportBuilder }> {
  const base = `orderlines[${i}]`;
  const report = new ReportBuilder();
  const out: Partial<V2Orderline<I>> = {};
  if (!isRecord(line)) {
    report.fail(base, 'invalid_value', 'An orderline must be an object.');
    report.dropped(base, line, 'Not an object.');
    return { line: out, report };
  }
  for (const [k, v] of Object.entries(line)) {
    if (!V1_ORDERLINE_FIELDS.includes(k)) {
      report.unknown(`${base}.${k}`, v, 'Not an accepted V1 orderline field; left out of the V2 request.');
    }
  }
  const ctx: LineContext<I> = { line, base, out, report, options };
  for (const rule of ORDERLINE_RULES) await rule.apply(ctx);
  return { line: out, report };
}
