import { type N, propName } from './ast.ts';
import { LeftOnV1, type ReadMapper } from './consumers.ts';
import { bodyProps, IMAGE_KEYS, imageReference } from './image-call.ts';
import { Slots } from './slots.ts';
import type { PlanContext } from './v2-calls.ts';

/**
 * `POST /render` → `renderMockup` of `@partner-print/render` (composition look-up, one render per composition
 * and image, polling, download). The reference shows no V1 render body; a V2 render is a composition (a scene,
 * a product and a perspective) and an image. So a body is rewritten only when its fields name exactly those, in
 * V1's snake_case: `scene_reference`, `perspective_reference`, the product as `product_reference` or as its
 * legacy `sku` (looked up where the code runs), and the image as `image_reference` or base64 `image` /
 * `image_base64` (uploaded first). Anything else is marked with what is missing or extra.
 */
const REFS = ['scene_reference', 'perspective_reference'] as const;
const PRODUCT = ['product_reference', 'sku'] as const;
const IMAGE = ['image_reference', ...IMAGE_KEYS] as const;
const KNOWN = new Set<string>([...REFS, ...PRODUCT, ...IMAGE]);

function problem(keys: string[]): string | undefined {
  if (keys.includes('composition_reference'))
    return 'it names a composition_reference: renderMockup finds the composition by scene, product and perspective, which a composition reference alone does not name';
  const extra = keys.filter((k) => !KNOWN.has(k));
  if (extra.length) return `its body has fields with no V2 render equivalent (${extra.join(', ')})`;
  const missing = REFS.filter((k) => !keys.includes(k));
  if (missing.length)
    return `a V2 render needs a composition (a scene, a product and a perspective); the body does not name ${missing.join(' or ')}`;
  const one = (group: readonly string[], what: string) => {
    const n = keys.filter((k) => group.includes(k)).length;
    return n === 1 ? undefined : `it names ${n ? 'more than one' : 'no'} ${what} (${group.join(', ')})`;
  };
  return one(PRODUCT, 'product') ?? one(IMAGE, 'image');
}

export function planRender(
  body: N | 'opaque' | undefined,
  ctx: PlanContext,
): { code: string; slots: Slots } | string {
  const props = bodyProps(body, ctx);
  if (!props) return 'the render body is not an object written out in the code';
  const why = problem([...props.keys()]);
  if (why) return why;
  const slots = new Slots();
  const at = (k: string) => slots.slot(props.get(k));
  const sku = props.get('sku');
  if (sku) slots.needsAdapter = true;
  const product = sku ? `await ${ctx.names.adapter}.productReference(${at('sku')})` : at('product_reference');
  const imageKey = IMAGE.find((k) => props.has(k))!;
  const image =
    imageKey === 'image_reference' ? at(imageKey) : imageReference(props.get(imageKey), ctx, slots);
  const options = `{ sceneReference: ${at('scene_reference')}, productReference: ${product}, perspectiveReference: ${at('perspective_reference')}, image: ${image} }`;
  return { code: `await ${ctx.names.render}(${ctx.names.client}, ${options})`, slots };
}

/**
 * The V1 render answer is not in the reference, and `renderMockup`'s result is not it: any use of the answer (a
 * field read, the answer used whole) would read undefined or another shape, so the call stays on V1 (`LeftOnV1`).
 * An answer only awaited (`await res.json();`) is rewritten.
 */
export const renderReads: ReadMapper = (uses) => {
  for (const { node, links } of uses) {
    const l = links.get(node);
    if (l?.parent.type === 'ExpressionStatement') continue;
    const m = l?.parent.type === 'MemberExpression' && l.key === 'object' ? l.parent : undefined;
    const field = m && !m.computed ? propName(m) : undefined;
    throw new LeftOnV1(
      `${field ? `it reads \`${field}\` of` : 'it uses'} the V1 render answer${field ? '' : ' as a whole (returned, passed on, spread)'}, whose shape the reference does not show; renderMockup gives { render (reference, status, …), media, thumbnail, placeholder, imageReference, tokensSpent }: move this code to those by hand.`,
    );
  }
  return [];
};
