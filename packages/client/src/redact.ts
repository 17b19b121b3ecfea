// One redaction rule for everything the SDK surfaces (errors, hook events, log lines), exported so that the
// other packages (callback, migrate, render) apply the same one to what they surface.

/**
 * An error of this realm or of another: a Jest test file runs in a vm context of its own, and gets Node's fetch
 * errors and AbortSignal.timeout's reason (a DOMException) from the outer realm, which `instanceof Error`
 * misses. Told by the built-in tag every error of any realm has, not by the shape of a plain object.
 */
export const isError = (e: unknown): e is Error =>
  e instanceof Error || /^\[object (Error|DOMException)\]$/.test(Object.prototype.toString.call(e));

/** What a secret is replaced by. */
export const REDACTED = '[redacted]';

/**
 * `text` with every occurrence of `secret` replaced by `[redacted]`, and of its percent-encoded forms (a URL's:
 * encodeURIComponent's and encodeURI's, hex digits in either case), where a key holding a character a URL
 * encodes (`"`, `<`, `{`, `|`…) went out in a redirect's `url.full` or a hook's `url` as `%22`, `%3C`….
 */
export function redactText(text: string, secret: string): string {
  if (!secret) return text;
  let out = text;
  for (const form of formsOf(secret)) {
    if (typeof form === 'string' ? !out.includes(form) : out.search(form) < 0) continue;
    const once = typeof form === 'string' ? out.split(form).join(REDACTED) : out.replace(form, REDACTED);
    // Replacing can join the parts around an occurrence into a new one ("d]" + "d"…): then nothing is kept.
    if (typeof form === 'string' ? once.includes(form) : once.search(form) >= 0) return REDACTED;
    out = once;
  }
  return out;
}

/** The secret as written, and percent-encoded when that differs (a pattern, any hex case), for the last secret. */
let forms: { secret: string; list: Array<string | RegExp> } | undefined;
function formsOf(secret: string): Array<string | RegExp> {
  if (forms?.secret === secret) return forms.list;
  const list: Array<string | RegExp> = [secret];
  let encoded: string[] = [];
  try {
    encoded = [encodeURIComponent(secret), encodeURI(secret)];
  } catch {
    // A lone surrogate has no percent-encoded form: the secret as written is all there is to find.
  }
  for (const e of new Set(encoded))
    if (e !== secret)
      list.push(
        new RegExp(
          e
            .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
            .replace(/%[0-9A-F]{2}/g, (h) => `(?:${h}|${h.toLowerCase()})`),
          'g',
        ),
      );
  forms = { secret, list };
  return list;
}

/**
 * `value` with every occurrence of each secret replaced by `[redacted]`, in every string it holds: strings,
 * arrays and plain objects are copied; `Headers` are copied; errors are redacted in place (all own properties,
 * enumerable or not: `message`, `stack`, `code`, …, and the `cause` chain), so `instanceof` still holds.
 * Other objects (a Request, a Response, a class instance) are returned as they are.
 */
export function redactSecret<T>(value: T, ...secrets: ReadonlyArray<string | undefined>): T {
  const list = secrets.filter((s): s is string => typeof s === 'string' && s.length > 0);
  if (!list.length) return value;
  const text = (s: string) => list.reduce((t, secret) => redactText(t, secret), s);
  return walk(value, text, new Map());
}

type Text = (s: string) => string;

function walk<T>(value: T, text: Text, seen: Map<object, unknown>): T;
function walk(value: unknown, text: Text, seen: Map<object, unknown>): unknown {
  if (typeof value === 'string') return text(value);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return seen.get(value);
  if (isError(value)) return redactError(value, text, seen);
  if (value instanceof Headers) {
    const copy = new Headers();
    seen.set(value, copy);
    for (const [k, v] of value) copy.append(k, text(v));
    return copy;
  }
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(walk(item, text, seen));
    return copy;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  for (const [k, v] of Object.entries(value)) copy[text(k)] = walk(v, text, seen);
  return copy;
}

function redactError(error: Error, text: Text, seen: Map<object, unknown>): Error {
  seen.set(error, error);
  for (const key of Object.getOwnPropertyNames(error)) {
    const descriptor = Object.getOwnPropertyDescriptor(error, key);
    if (!descriptor || !('value' in descriptor)) continue;
    const redacted = walk(descriptor.value, text, seen);
    if (redacted === descriptor.value) continue;
    try {
      Object.defineProperty(error, key, { ...descriptor, value: redacted });
    } catch {
      // A frozen foreign error: the SDK never surfaces one as it is (transport errors are copied first).
    }
  }
  return error;
}
