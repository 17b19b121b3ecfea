import { type AnyInit, coreOf } from './core.ts';
import { PartnerPrintError } from './errors.ts';

/** Every item of a list endpoint (`{ <items>: [...], nextCursor }`), page after page, until `nextCursor` is null. */
export async function* paginate(
  client: object,
  template: string,
  init?: AnyInit,
): AsyncGenerator<unknown, void, undefined> {
  const { call } = coreOf(client);
  const seen = new Set<unknown>();
  let cursor = init?.params?.query?.cursor;
  for (;;) {
    const query = { ...init?.params?.query, cursor };
    if (cursor === undefined) delete query.cursor;
    const page = await call('GET', template, { ...init, params: { ...init?.params, query } });
    const items = Object.entries(page ?? {}).find(([k, v]) => k !== 'nextCursor' && Array.isArray(v))?.[1];
    if (!items)
      throw new PartnerPrintError(`GET ${template} is not a list`, {
        code: 'not_a_list',
        method: 'GET',
        path: template,
      });
    yield* items as unknown[];
    cursor = page.nextCursor;
    if (typeof cursor !== 'string' || !cursor) return;
    // A cursor is used once; a repeated one would loop forever.
    if (seen.has(cursor))
      throw new PartnerPrintError(`GET ${template}: cursor repeated`, { code: 'cursor_repeated' });
    seen.add(cursor);
  }
}

/** The items of a list endpoint, at most `max`; stops requesting pages once it has them. */
export async function collect(
  client: object,
  template: string,
  init?: AnyInit,
  { max = Number.POSITIVE_INFINITY } = {},
): Promise<unknown[]> {
  const items: unknown[] = [];
  if (max > 0) for await (const item of paginate(client, template, init)) if (items.push(item) >= max) break;
  return items;
}
