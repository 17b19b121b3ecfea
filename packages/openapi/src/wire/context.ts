/**
 * Runs a function in the async context captured when the runner was made: what is queued (a scheduled
 * request, a coalesced fetch, a render poll, a submitted line) runs in the context of the caller that queued
 * it, so request-scoped loggers and traces (AsyncLocalStorage, OpenTelemetry) see the right request.
 */
export type ContextRunner = <R>(fn: () => R) => R;

interface SnapshotClass {
  new (): { run<R>(fn: () => R): R };
}
interface AsyncHooksLike {
  AsyncLocalStorage?: { snapshot?: () => <R>(fn: () => R) => R };
  AsyncResource?: { new (type: string): { runInAsyncScope<R>(fn: () => R): R } };
}
interface ContextGlobals {
  AsyncContext?: { Snapshot?: SnapshotClass };
  process?: { getBuiltinModule?: (id: string) => unknown };
}

const direct: ContextRunner = (fn) => fn();

/**
 * Found at run time, never imported: a main entry must load in runtimes without `node:async_hooks`. The
 * TC39 `AsyncContext.Snapshot` first, then Node's `AsyncResource` (also in Bun, Deno and workerd's Node
 * compatibility), then `AsyncLocalStorage.snapshot()`; where none exists, the function runs as it is.
 */
function findCapture(): () => ContextRunner {
  const g = globalThis as ContextGlobals;
  const Snapshot = g.AsyncContext?.Snapshot;
  if (typeof Snapshot === 'function')
    return () => {
      const snapshot = new Snapshot();
      return (fn) => snapshot.run(fn);
    };
  let hooks: AsyncHooksLike | undefined;
  try {
    hooks = g.process?.getBuiltinModule?.('node:async_hooks') as AsyncHooksLike | undefined;
  } catch {
    hooks = undefined;
  }
  // `new AsyncResource` and `runInAsyncScope` before `AsyncLocalStorage.snapshot()`: the snapshot is the same
  // resource plus `bind`, which in Node 20 defines two deprecated accessors on every bound function — about
  // a tenth of the CPU a scheduled request costs. Both carry AsyncLocalStorage stores (OpenTelemetry's too).
  const Resource = hooks?.AsyncResource;
  if (typeof Resource === 'function')
    return () => {
      const resource = new Resource('partner-print');
      return (fn) => resource.runInAsyncScope(fn);
    };
  const storage = hooks?.AsyncLocalStorage;
  if (typeof storage?.snapshot === 'function') {
    const snapshot = storage.snapshot.bind(storage);
    return () => snapshot();
  }
  return () => direct;
}

let capture: (() => ContextRunner) | undefined;

/** A runner bound to the current async context (a no-op runner where the runtime has no async context). */
export function captureContext(): ContextRunner {
  capture ??= findCapture();
  return capture();
}

/** `fn` bound to the current async context: however it is called later, it runs in this one. */
export function bindContext<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const run = captureContext();
  return (...args) => run(() => fn(...args));
}
