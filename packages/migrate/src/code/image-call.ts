import { type N, objectProps, propName } from './ast.ts';
import { LeftOnV1, type ReadMapper } from './consumers.ts';
import { Slots } from './slots.ts';
import type { PlanContext } from './v2-calls.ts';

/** The fields a V1 image travels in (the order conversion's names): base64 text in JSON. */
export const IMAGE_KEYS = ['image', 'image_base64'] as const;

/**
 * The bytes of a V1 base64 image uploaded through the client: an image written out in the code is decoded
 * here and uploaded once per flow (`ctx.image`); one known only at run time goes through the adapter's
 * `uploadImage`, which decodes and checks it as `convertV1Order` does and uploads the same bytes once.
 */
export function imageReference(image: N, ctx: PlanContext, slots: Slots): string {
  const bound = ctx.image(image);
  if (bound) return bound;
  slots.needsAdapter = true;
  return `await ${ctx.names.adapter}.uploadImage(${slots.slot(image)})`;
}

/** The fields of a request body written out in the code as an object; undefined for any other body. */
export function bodyProps(body: N | 'opaque' | undefined, ctx: PlanContext): Map<string, N> | undefined {
  return body && body !== 'opaque' ? objectProps(ctx.b.resolve(body)) : undefined;
}

/**
 * `POST /images` with `{ image: <base64> }` (or `image_base64`) → the Image_ reference of its bytes. Assumed V1
 * shape (the reference shows none): the body's one field is the base64 text; the answer is the image resource
 * at top level, so its `reference` is what V2 wraps as `image.reference`, which `uploadImage` returns itself.
 */
export function planImageUpload(
  body: N | 'opaque' | undefined,
  ctx: PlanContext,
): { code: string; slots: Slots } | string {
  const props = bodyProps(body, ctx);
  if (!props) return 'the upload body is not an object written out in the code';
  const keys = [...props.keys()];
  if (keys.length !== 1 || !(IMAGE_KEYS as readonly string[]).includes(keys[0]!))
    return `its body (${keys.join(', ') || 'empty'}) is not one base64 image field (image or image_base64)`;
  const image = props.get(keys[0]!)!;
  const slots = new Slots();
  const literal = ctx.staticBytes(image);
  if (!literal) slots.needsAdapter = true;
  const code = literal
    ? `await ${ctx.names.client}.uploadImage(${literal.bytes.replace('__pp0__', slots.slot(image))})`
    : `await ${ctx.names.adapter}.uploadImage(${slots.slot(image)})`;
  return { code, slots };
}

/**
 * Reads of the V1 upload answer: `reference` is the value itself now. Any other use (another field, the answer
 * used whole) would read undefined or another shape from that reference: the call stays on V1 (`LeftOnV1`).
 */
export const imageReads: ReadMapper = (uses) => {
  for (const { node, links } of uses) {
    const m = links.get(node)?.parent;
    const field =
      m?.type === 'MemberExpression' && m.object === node && !m.computed ? propName(m) : undefined;
    if (field === 'reference' || links.get(node)?.parent.type === 'ExpressionStatement') continue;
    throw new LeftOnV1(
      field
        ? `it reads \`${field}\` of the V1 upload answer; V2 answers { image: { reference } } only, and uploadImage returns that Image_ reference.`
        : 'it uses the V1 upload answer as a whole; V2 answers { image: { reference } }, and uploadImage returns that Image_ reference itself.',
    );
  }
  // Every use is a `reference` read or a statement of its own: each read becomes the value.
  for (const { node, links } of uses) {
    const m = links.get(node)?.parent;
    if (m?.type !== 'MemberExpression' || m.object !== node) continue;
    const l = links.get(m)!;
    if (l.index === undefined) l.parent[l.key] = node;
    else l.parent[l.key][l.index] = node;
  }
  return [];
};
