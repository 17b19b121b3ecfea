/**
 * Calls code of the caller's (a hook, a listener, a logger) whose failure is its own: a throw, or the rejection
 * of the promise an `async` one returns, which left unhandled would end a Node.js process by default.
 */
export function quietly(call: () => unknown): void {
  try {
    const result = call();
    if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function')
      Promise.resolve(result).catch(() => {});
  } catch {
    // the caller's failure is its own
  }
}
