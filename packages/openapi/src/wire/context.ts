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

/**
 * The async context of a caller, kept for work queued for later: `run(fn)` calls `fn` in it. One object per
 * capture and no closure (Node's `AsyncResource` is the scope itself), for queues that hold one per waiting
 * item (the scheduler's 100,000 queued requests).
 */
export interface ContextScope {
  run<R>(fn: () => R): R;
}

/** Where the runtime has no async context: the function runs as it is. */
const NO_SCOPE: ContextScope = { run: (fn) => fn() };

/**
 * Found at run time, never imported: a main entry must load in runtimes without `node:async_hooks`. The
 * TC39 `AsyncContext.Snapshot` first, then Node's `AsyncResource` (also in Bun, Deno and workerd's Node
 * compatibility), then `AsyncLocalStorage.snapshot()`; where none exists, the function runs as it is.
 */
function findCapture(): () => ContextScope {
  const g = globalThis as ContextGlobals;
  const Snapshot = g.AsyncContext?.Snapshot;
  if (typeof Snapshot === 'function') return () => new Snapshot();
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
  if (typeof Resource === 'function') {
    // The resource is the scope: a closure over it would cost ~100 bytes more per capture (Node 20).
    class Scope extends Resource implements ContextScope {
      run<R>(fn: () => R): R {
        return this.runInAsyncScope(fn);
      }
    }
    return () => new Scope('partner-print');
  }
  const storage = hooks?.AsyncLocalStorage;
  if (typeof storage?.snapshot === 'function') {
    const snapshot = storage.snapshot.bind(storage);
    return () => ({ run: snapshot() });
  }
  return () => NO_SCOPE;
}

let capture: (() => ContextScope) | undefined;

/** The current async context, as a scope to run functions in later (a no-op scope where the runtime has none). */
export function captureScope(): ContextScope {
  capture ??= findCapture();
  return capture();
}

/** A runner bound to the current async context (a no-op runner where the runtime has no async context). */
export function captureContext(): ContextRunner {
  const scope = captureScope();
  return (fn) => scope.run(fn);
}

/** `fn` bound to the current async context: however it is called later, it runs in this one. */
export function bindContext<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const scope = captureScope();
  return (...args) => scope.run(() => fn(...args));
}
