/** How long and how much of an error body {@link errorCodeOf} reads before giving up. */
export const ERROR_CODE_READ = { timeoutMs: 1_000, maxBytes: 65_536 } as const;

/**
 * The `code` of an error answer's JSON body (`{ code, message }`), read from a copy so the body stays for
 * the caller. Bounded: a body that does not arrive within `timeoutMs` or is larger than `maxBytes` has no
 * code here (a hostile or stalled server must not hold a request or its memory). Undefined when there is none.
 */
export async function errorCodeOf(
  response: Response,
  limits: { timeoutMs?: number; maxBytes?: number } = {},
): Promise<string | undefined> {
  if (!response.body) return undefined;
  const { timeoutMs = ERROR_CODE_READ.timeoutMs, maxBytes = ERROR_CODE_READ.maxBytes } = limits;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const copy = response.clone();
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      void copy.body?.cancel().catch(() => {});
      resolve(undefined);
    }, timeoutMs);
  });
  try {
    const text = await Promise.race([copy.text(), late]);
    if (text === undefined || text.length > maxBytes) return undefined;
    const body: { code?: unknown } | null = JSON.parse(text);
    return typeof body?.code === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
