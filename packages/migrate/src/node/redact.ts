/**
 * The CLI's own redaction, beneath the client: whatever a server sends back (headers, JSON, text) has the
 * secret key replaced before the client, the resolver or an output file sees it, so a server that echoes
 * the key cannot get it written anywhere. stdout and stderr are redacted as well.
 */
import type { FetchFn, OutStream } from './io.ts';

export const REDACTED = '[REDACTED]';

/** Replaces every occurrence of each secret (raw and JSON-escaped) in `text`. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (!s) continue;
    out = out.replaceAll(s, REDACTED);
    const escaped = JSON.stringify(s).slice(1, -1);
    if (escaped !== s) out = out.replaceAll(escaped, REDACTED);
  }
  return out;
}

function redactDeep(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redactText(k, secrets)] = redactDeep(v, secrets);
    return out;
  }
  return value;
}

/** A JSON body is parsed and its strings redacted, so a key hidden behind `\u` escapes is caught too. */
function redactBody(text: string, json: boolean, secrets: readonly string[]): string {
  // Fast path: no secret as written and no \u escape that could spell one.
  if (redactText(text, secrets) === text && !text.includes('\\u')) return text;
  if (json) {
    try {
      const parsed: unknown = JSON.parse(text);
      const redacted = JSON.stringify(redactDeep(parsed, secrets));
      return redacted === JSON.stringify(parsed) ? text : redacted;
    } catch {
      // Not JSON after all: redact it as text.
    }
  }
  return redactText(text, secrets);
}

function isText(contentType: string): boolean {
  return /json|^text\/|xml|x-www-form-urlencoded/i.test(contentType) || contentType === '';
}

/** The response with the secrets removed from its headers and (text or JSON) body. */
export async function redactResponse(res: Response, secrets: readonly string[]): Promise<Response> {
  const headers = new Headers();
  let changed = false;
  for (const [name, value] of res.headers) {
    const v = redactText(value, secrets);
    changed ||= v !== value;
    headers.append(name, v);
  }
  const type = res.headers.get('content-type') ?? '';
  if (res.body === null || !isText(type)) {
    return changed
      ? new Response(res.body, { status: res.status, statusText: res.statusText, headers })
      : res;
  }
  const text = await res.text();
  const body = redactBody(text, /json/i.test(type), secrets);
  const statusText = redactText(res.statusText, secrets);
  return new Response(body, { status: res.status, statusText, headers });
}

/** A fetch whose responses carry none of the secrets. */
export function redactingFetch(fetch: FetchFn, secrets: readonly string[]): FetchFn {
  return async (input, init) => redactResponse(await fetch(input, init), secrets);
}

/**
 * An output stream that never writes the secrets. The stream's other members (a terminal's `columns`,
 * `cursorTo`… that the progress bar uses) are reached through the prototype.
 */
export function redactingStream(stream: OutStream, secrets: readonly string[]): OutStream {
  if (secrets.length === 0) return stream;
  const out: OutStream = Object.create(stream);
  out.write = (chunk: string) => stream.write(redactText(chunk, secrets));
  return out;
}

/** The secret keys a CLI invocation may hold: the environment's and `--secret-key`'s. */
export function secretsOf(argv: readonly string[], env: Record<string, string | undefined>): string[] {
  const found = new Set<string>();
  if (env.PARTNER_PRINT_SECRET_KEY) found.add(env.PARTNER_PRINT_SECRET_KEY);
  argv.forEach((arg, i) => {
    if (arg === '--secret-key' && argv[i + 1]) found.add(argv[i + 1]!);
    if (arg.startsWith('--secret-key=')) found.add(arg.slice('--secret-key='.length));
  });
  // Longest first, so a key that contains another is replaced whole.
  return [...found].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
}
