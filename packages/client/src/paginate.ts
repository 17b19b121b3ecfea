import type { paths } from '@partner-print/openapi';
import { refuseUnknownOptions } from '@partner-print/openapi/wire';
import { type Core, coreOf } from './core.ts';
import { ConfigurationError, PartnerPrintError } from './errors.ts';
import { readableInit } from './options.ts';
import { fieldOf } from './response.ts';
import type { ClientInit, InitParam, ListItem, ListPaths, PartnerPrintBaseClient } from './types.ts';

/** The `init` of a list endpoint: its query parameters and the per-request options. */
export type ListInit<P extends ListPaths<paths>> = ClientInit<paths[P], 'get'>;

const objectAt = (value: unknown, key: string): Record<string, unknown> => {
  const inner = fieldOf(value, key);
  return inner && typeof inner === 'object' ? { ...inner } : {};
};

/** The page's one array field besides `nextCursor`. */
const itemsOf = (page: unknown): unknown[] | undefined => {
  if (!page || typeof page !== 'object') return undefined;
  return Object.entries(page).find(([k, v]) => k !== 'nextCursor' && Array.isArray(v))?.[1];
};

/** Every item of a list endpoint, page after page, following `nextCursor` until it is null. */
export function paginate<P extends ListPaths<paths>>(
  client: PartnerPrintBaseClient,
  path: P,
  ...init: InitParam<ListInit<P>>
): AsyncGenerator<ListItem<paths, P>, void, undefined>;
export function paginate(client: PartnerPrintBaseClient, template: string, init?: object) {
  return pageItems(client, template, init);
}

async function* pageItems(
  client: PartnerPrintBaseClient,
  template: string,
  init?: object,
): AsyncGenerator<unknown, void, undefined> {
  const { call, operation, context } = coreOf(client);
  // One span for the whole iteration, each page's call under it; ended however the iteration stops.
  const span = operation?.('paginate');
  let failure: unknown;
  try {
    yield* pages(span ? (...args) => span.run(() => call(...args)) : call, context, template, init);
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    span?.end(failure);
  }
}

async function* pages(
  call: Core['call'],
  context: Core['context'],
  template: string,
  init?: object,
): AsyncGenerator<unknown, void, undefined> {
  // Every cursor sent, the caller's starting one included: a server answering it again would have it sent twice.
  const seen = new Set<unknown>();
  // A header collection openapi-fetch cannot read, copied once for every page.
  init = readableInit(init);
  const params = objectAt(init, 'params');
  let cursor: unknown = objectAt(params, 'query').cursor;
  if (cursor !== undefined) seen.add(cursor);
  for (;;) {
    const query = { ...objectAt(params, 'query'), cursor };
    if (cursor === undefined) delete query.cursor;
    const page = await call('GET', template, { ...init, params: { ...params, query } });
    const items = itemsOf(page);
    if (!items)
      throw new PartnerPrintError(`GET ${template} is not a list`, {
        ...context('GET', template, init),
        code: 'not_a_list',
      });
    yield* items;
    cursor = fieldOf(page, 'nextCursor');
    if (typeof cursor !== 'string' || !cursor) return;
    // A cursor is used once; a repeated one would loop forever.
    if (seen.has(cursor))
      throw new PartnerPrintError(`GET ${template}: a cursor sent before came again`, {
        ...context('GET', template, init),
        code: 'cursor_repeated',
      });
    seen.add(cursor);
  }
}

/** The items of a list endpoint, at most `max`; stops requesting pages once it has them. */
export function collect<P extends ListPaths<paths>>(
  client: PartnerPrintBaseClient,
  path: P,
  init?: ListInit<P>,
  options?: { max?: number },
): Promise<ListItem<paths, P>[]>;
export async function collect(
  client: PartnerPrintBaseClient,
  template: string,
  init?: object,
  options: { max?: number } = {},
): Promise<unknown[]> {
  // A call option put here (`signal`) was ignored; NaN (an unset setting read with `Number`) returned no items.
  refuseUnknownOptions(options, ['max'], ConfigurationError, 'collect: ');
  const { max = Infinity } = options;
  if (!(max >= 0)) throw new ConfigurationError('collect: max must be a number ≥ 0');
  const items: unknown[] = [];
  if (max > 0) for await (const item of pageItems(client, template, init)) if (items.push(item) >= max) break;
  return items;
}
