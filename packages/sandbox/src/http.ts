import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { readLimited, tooLargeMessage } from './body.ts';
import type { Ctx } from './context.ts';
import { isRecord } from './domain/input.ts';
import type { Refusal } from './domain/result.ts';
import { MAX_JSON_BODY_BYTES } from './limits.ts';
import { isReference, type Prefix } from './random.ts';

export function fail(c: Ctx, status: ContentfulStatusCode, code: string, message: string): Response {
  return c.json({ code, message }, status);
}

/** The answer to a domain refusal: its status and `{ code, message }` (and `Retry-After` when it says when). */
export function refuse(c: Ctx, refusal: Refusal): Response {
  const res = fail(c, refusal.status, refusal.code, refusal.message);
  if (refusal.retryAfter !== undefined) res.headers.set('Retry-After', String(refusal.retryAfter));
  return res;
}

/**
 * Reference query parameters (filters and look-up keys): each present one must be a reference of its type,
 * or the answer is 400 `invalid_reference` (an empty value included). Returns that answer, or undefined.
 */
export function badReferenceQuery(c: Ctx, expected: Readonly<Record<string, Prefix>>): Response | undefined {
  for (const [name, prefix] of Object.entries(expected)) {
    const value = c.req.query(name);
    if (value !== undefined && !isReference(value, prefix)) {
      return fail(c, 400, 'invalid_reference', `Query parameter ${name} must be a ${prefix}_ reference`);
    }
  }
  return undefined;
}

/**
 * The answer for a path reference (`/<things>/:<what>Reference`) that names nothing in the organization: 400
 * `invalid_reference` when the value is not a reference of its type at all (the spec's pattern; the service
 * reference shows no answer), else 404 `not_found`, the same for another organization's reference.
 */
export function notFound(c: Ctx, what: Uncapitalize<Prefix>): Response {
  const prefix = `${what.charAt(0).toUpperCase()}${what.slice(1)}` as Prefix;
  const value = c.req.param(`${what}Reference`);
  if (value !== undefined && !isReference(value, prefix)) {
    return fail(
      c,
      400,
      'invalid_reference',
      `Path parameter ${what}Reference must be a ${prefix}_ reference`,
    );
  }
  return fail(c, 404, 'not_found', `No ${what} with this reference exists in your organization`);
}

/** 415 `unsupported_content_type` unless the request's media type (parameters aside) is `expected`. */
export function wrongMediaType(c: Ctx, expected: string): Response | undefined {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === expected) return undefined;
  return fail(c, 415, 'unsupported_content_type', `Send the body with Content-Type: ${expected}`);
}

/**
 * Reads a JSON body `{ <wrapper>: {...} }` (at most MAX_JSON_BODY_BYTES) and returns the wrapped object. The spec
 * declares `application/json` only: a body under another type, or none, is 415 (as uploads under another type).
 */
export async function readWrapped(c: Ctx, wrapper: string): Promise<Record<string, unknown> | Response> {
  const wrong = wrongMediaType(c, 'application/json');
  if (wrong) return wrong;
  const read = await readLimited(c.req.raw, MAX_JSON_BODY_BYTES);
  if (read.kind === 'too_large') return fail(c, 413, 'payload_too_large', tooLargeMessage(read.limit));
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(read.bytes));
  } catch {
    return fail(c, 400, 'invalid_json', 'The request body is not valid JSON');
  }
  const inner = isRecord(body) ? body[wrapper] : undefined;
  if (!isRecord(inner)) {
    return fail(
      c,
      422,
      'invalid_request',
      `The request body must be an object with an \`${wrapper}\` object`,
    );
  }
  return inner;
}

/** A sandbox timestamp: UTC, whole seconds (the clock's milliseconds dropped, never rounded up). */
export function iso(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

// Cursors: opaque to clients; internally "<list>|<org>|<key>" in base64url.
export function encodeCursor(list: string, org: string, key: number): string {
  return btoa(`pp1|${list}|${org}|${key}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function decodeCursor(cursor: string, list: string, org: string): number | undefined {
  try {
    const text = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    const [tag, l, o, key] = text.split('|');
    if (tag !== 'pp1' || l !== list || o !== org) return undefined;
    const n = Number(key);
    return Number.isInteger(n) ? n : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Cursor pagination as the reference describes it: `nextCursor` is set whenever the page is
 * full (so the last page may be empty) and null when fewer items than the page size return.
 * `items` is already in list order; `key` is strictly decreasing along it (newest first).
 */
export function paginate<T>(
  c: Ctx,
  list: string,
  items: readonly T[],
  key: (item: T) => number,
  pageSize: number,
): { page: T[]; nextCursor: string | null } | Response {
  const org = c.get('org').id;
  const cursor = c.req.query('cursor');
  let start = 0;
  if (cursor !== undefined) {
    const after = decodeCursor(cursor, list, org);
    if (after === undefined) return fail(c, 400, 'invalid_cursor', 'The cursor is not valid for this list');
    start = items.findIndex((item) => key(item) < after);
    if (start === -1) start = items.length;
  }
  const page = items.slice(start, start + pageSize);
  const last = page[page.length - 1];
  const nextCursor =
    page.length === pageSize && last !== undefined ? encodeCursor(list, org, key(last)) : null;
  return { page, nextCursor };
}
