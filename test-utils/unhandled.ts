// Unhandled promise rejections during a piece of a test: by default one ends a Node.js process, so a library
// must leave none (a listener or hook of the caller's that rejects, a queued request settled by a failure).

/**
 * Runs `body` and returns the reasons of the rejections left unhandled meanwhile, including those Node reports
 * just after it (a macrotask later). The listener is removed whatever happens.
 */
export async function unhandledDuring(body: () => Promise<void>): Promise<unknown[]> {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', record);
  try {
    await body();
    await new Promise((resolve) => setTimeout(resolve, 10));
  } finally {
    process.off('unhandledRejection', record);
  }
  return unhandled;
}
