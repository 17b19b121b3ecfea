import type { AnyInit, Core } from './core.ts';
import { PartnerPrintError } from './errors.ts';

/** `paginate` and `collect` for any list endpoint: `{ <items>: [...], nextCursor }`. */
export function pagination({ call }: Core) {
  async function* paginate(template: string, init?: AnyInit): AsyncGenerator<unknown, void, undefined> {
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

  async function collect(template: string, init?: AnyInit, { max = Number.POSITIVE_INFINITY } = {}) {
    const items: unknown[] = [];
    if (max > 0) for await (const item of paginate(template, init)) if (items.push(item) >= max) break;
    return items;
  }

  return { paginate, collect };
}
