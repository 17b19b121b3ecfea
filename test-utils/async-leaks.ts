/**
 * A vitest setup file that fails a test file which leaves async work running after its last hook: a timer,
 * an immediate, a socket, a server, a child process or a request that the file started (ref'd or not) and
 * that is still alive after the file's `afterAll` hooks, a grace period and a garbage collection. For the
 * files that share a worker (see vitest.base.ts), e.g. in a package:
 *   ASYNC_LEAKS=1 vitest run --mode=timed [files]
 *
 * Unlike vitest's `--detectAsyncLeaks`, it keeps no stack per promise (a pending promise runs nothing by
 * itself, and a stack for each made client's Redis fleets and 1,000-order batches run for many minutes)
 * and it sees sockets and unref'd timers, which that detector leaves out. A resource's stack is captured
 * when it is created and formatted only if it outlives the file.
 */
import { createHook } from 'node:async_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, afterEach, beforeEach } from 'vitest';

interface Created {
  type: string;
  /** The resource alive when this one was made (a socket whose close event starts a timer, say). */
  parent: Created | undefined;
  test: string;
  /** Its stack, captured at creation and formatted only when reported. */
  where: { stack?: string };
  resource: WeakRef<object>;
}

/**
 * What can run work later: timers, immediates, handles (sockets, servers, pipes, child processes, signal
 * and file watchers, message ports) and requests in flight (connects, writes, DNS, fs callbacks). Not
 * promises, open FileHandles or JS AsyncResources (an HTTP message, a bound function): they run nothing
 * unless one of those does.
 */
const RUNS =
  /^(Timeout|Immediate|STATWATCHER|FSEVENTWRAP|MESSAGEPORT|WORKER|HTTP2SESSION|\w*WRAP|\w*REQ\w*)$/;
// Never destroyed by node (crypto.randomUUID's entropy refills, say), so never a sign of a leak (vitest's
// detector leaves them out too); and a listener for a signal (`process.on('SIGINT')`, which tsdown's
// dependencies add on import), which runs nothing until a signal comes.
const IGNORED = new Set([
  'DNSCHANNEL',
  'FILEHANDLECLOSEREQ',
  'RANDOMBYTESREQUEST',
  'SIGNALWRAP',
  'SIGNREQUEST',
  'STREAM_END_OF_STREAM',
]);
const leaves = (type: string) => RUNS.test(type) && !IGNORED.has(type);
/**
 * `AbortSignal.timeout(ms)`'s own timer (unref'd) lives for `ms` after the fetch it bounded has ended, and
 * then only aborts that signal: what would act on it is a request still in flight, reported for itself.
 */
const isSignalTimeout = (created: Created) => /at AbortSignal\.timeout /.test(created.where.stack ?? '');
/** How long a resource may take to close after the file's last hook (a socket's close, a child's exit). */
const GRACE_MS = 1_000;

interface Tracker {
  alive: Map<number, Created>;
  test: string;
  on: boolean;
}

// One hook per worker: in a shared worker this file is evaluated again before each test file.
const key = Symbol.for('partner-print.async-leaks');
const slot = globalThis as { [key]?: Tracker };
slot[key] ??= install();
const tracker = slot[key];

function install(): Tracker {
  const t: Tracker = { alive: new Map(), test: '(file)', on: false };
  createHook({
    init(id, type, trigger, resource) {
      // No promise: see above. Every other resource is kept while alive, so that what it starts (a tick
      // that opens a server, say) can name where it came from.
      if (!t.on || type === 'PROMISE') return;
      const where: { stack?: string } = {};
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 30;
      Error.captureStackTrace(where); // cheap until `stack` is read
      Error.stackTraceLimit = limit;
      const parent = t.alive.get(trigger);
      t.alive.set(id, { type, parent, test: t.test, where, resource: new WeakRef(resource) });
    },
    destroy(id) {
      t.alive.delete(id);
    },
  }).enable();
  return t;
}

tracker.alive.clear();
tracker.test = '(file)';
tracker.on = true;

beforeEach((context) => {
  tracker.test = context.task.name;
});
afterEach(() => {
  tracker.test = '(file)';
});

/** Frames of this repository's code (not its dependencies', not node's, not vitest's). */
const ownFrames = (stack = '') =>
  stack
    .split('\n')
    .slice(1)
    .map((line) => line.trim().replace(/^at /, ''))
    .filter((line) => line.includes('/') && !/node_modules|node:|async-leaks\.ts/.test(line));

/** Where a resource was created: its own frames, else those of the resource that triggered it. */
function origin(created: Created): string[] {
  for (let c: Created | undefined = created; c; c = c.parent) {
    const frames = ownFrames(c.where.stack);
    if (frames.length > 0) return frames.slice(0, 4);
  }
  return (created.where.stack ?? '')
    .split('\n')
    .slice(1, 5)
    .map((line) => line.trim());
}

/** Whether vitest itself made it (its RPC with the main process), not the file. */
const isVitests = (created: Created) =>
  /node_modules\/(\.pnpm\/)?(vitest|@vitest|tinypool|birpc)/.test(created.where.stack ?? '') &&
  ownFrames(created.where.stack).length === 0;

const isLeak = (created: Created) => leaves(created.type) && !isVitests(created) && !isSignalTimeout(created);

const hasRef = (resource: object | undefined) =>
  resource && 'hasRef' in resource && typeof resource.hasRef === 'function'
    ? (resource.hasRef() as boolean)
    : undefined;

let gc: (() => void) | undefined;
function collectGarbage() {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

// Registered first, so it runs after the file's own afterAll hooks.
afterAll(async () => {
  tracker.test = "(after the file's last hook: work that goes on)";
  const ends = Date.now() + GRACE_MS;
  const leaking = () => [...tracker.alive.values()].some(isLeak);
  while (Date.now() < ends && leaking()) await sleep(50);
  tracker.on = false;
  collectGarbage(); // resources that end when collected report it after it
  await sleep(50); // destroy hooks run a tick after the resource ended
  const leaks = [...tracker.alive.values()].filter(isLeak);
  tracker.alive.clear();
  if (leaks.length === 0) return;
  const lines = leaks.map((c) => {
    const ref = hasRef(c.resource.deref());
    const state = ref === undefined ? '' : ref ? ' (ref)' : ' (unref)';
    return `${c.type}${state}, created in "${c.test}"\n      ${origin(c).join('\n      ')}`;
  });
  // A loop an earlier file left running makes a new timer in each later file: the first file reported is
  // the one to fix.
  throw new Error(
    `${leaks.length} async resource(s) still alive ${GRACE_MS} ms after the file's last hook:\n  ${lines.join('\n  ')}`,
  );
}, GRACE_MS + 10_000);
