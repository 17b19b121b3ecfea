/**
 * A fleet of callback receivers on 127.0.0.1 for tests and the bench: an order API that counts every
 * GET /orders/{orderReference} (with a delay, like a busy upstream), N receiver processes, and a sender
 * that spreads notifications over the receivers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { workerScript } from '../../../../test-utils/worker-script.ts';
import { buildCallbackUrl } from '../../src/index.ts';
import type { ReceiverMessage, ReceiverTask } from './receiver.ts';

export const orderRef = (i: number): string => `Order_FLEET${String(i).padStart(21, '0')}`;

/** Every order fetch the API saw: which order, and when it started (ms, this process's clock). */
export interface Fetch {
  order: string;
  at: number;
}

async function startOrderApi(delayMs: number) {
  const fetches: Fetch[] = [];
  let gate: Promise<void> = Promise.resolve();
  // Long keep-alive: a socket the server closes while a receiver reuses it fails that fetch.
  const server = createServer({ keepAliveTimeout: 120_000 }, (req, res) => {
    const match = /^\/v2\/orders\/(Order_[A-Za-z0-9]+)$/.exec(req.url ?? '');
    if (!match?.[1]) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"not_found","message":"no"}');
      return;
    }
    const order = match[1];
    fetches.push({ order, at: Date.now() });
    const answer = () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ order: { reference: order, status: { state: 'open' } } }));
    };
    void gate.then(() => setTimeout(answer, delayMs));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v2`,
    fetches,
    /** Holds every order answer until `open()`: a busy upstream while a storm arrives. */
    hold(): () => void {
      let open!: () => void;
      gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      return open;
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A receiver process: boots once, then serves one configuration (task) after another. */
class ReceiverProcess {
  readonly child: ChildProcess;
  /** The current configuration's endpoint, coalescer events and arrivals. */
  url = '';
  events: string[] = [];
  arrived = 0;
  /** When each notification of the current burst arrived here, by order (ms, this machine's clock). */
  arrivals = new Map<string, number[]>();
  /** The longest a notification waited here for its answer since the burst began (ms, without its stalls). */
  slowestMs = 0;
  readonly #waiting = new Map<string, (message: ReceiverMessage) => void>();
  /** Rejects when the process exits: every wait on it races this. */
  readonly #exited: Promise<never>;
  readonly booted: Promise<void>;

  constructor(script: string) {
    this.child = spawn(process.execPath, [script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const exited = new Promise<never>((_, reject) => {
      this.child.once('exit', (code) => reject(new Error(`receiver exited with ${code}`)));
    });
    exited.catch(() => {});
    this.child.on('message', (message: ReceiverMessage) => {
      if (message.type === 'event') this.events.push(message.event);
      if (message.type === 'arrived') this.arrived = message.count;
      if (message.type === 'answered') this.slowestMs = Math.max(this.slowestMs, message.slowestMs);
      if (message.type === 'arrivals') {
        for (const [order, at] of message.arrivals)
          this.arrivals.set(order, [...(this.arrivals.get(order) ?? []), at]);
      }
      this.#waiting.get(message.type)?.(message);
    });
    this.booted = Promise.race([this.#next('booted').then(() => {}), exited]);
    this.#exited = exited;
  }

  #next(type: ReceiverMessage['type']): Promise<ReceiverMessage> {
    return new Promise((resolve) => {
      this.#waiting.set(type, (message) => {
        this.#waiting.delete(type);
        resolve(message);
      });
    });
  }

  /** Serves `task` on a fresh port, with fresh counters. */
  async serve(task: ReceiverTask): Promise<void> {
    this.events = [];
    this.arrived = 0;
    const ready = this.#next('ready');
    this.child.send(task);
    const message = await Promise.race([ready, this.#exited]);
    if (message.type === 'ready') this.url = `http://127.0.0.1:${message.port}/hooks/print`;
  }

  /** Closes the current configuration's server (and its Redis client). */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const stopped = this.#next('stopped');
    this.child.send('stop');
    await Promise.race([stopped, this.#exited]);
  }

  async exit(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.send('exit');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

/** N receiver processes, booted once (the SDK, bundled: see test-utils/worker-script.ts). */
export async function startReceivers(count: number) {
  const script = workerScript(new URL('./receiver.ts', import.meta.url));
  const processes = Array.from({ length: count }, () => new ReceiverProcess(script));
  try {
    await Promise.all(processes.map((p) => p.booted));
  } catch (error) {
    await Promise.all(processes.map((p) => p.exit()));
    throw error;
  }
  return {
    processes,
    /** Configures every process for one fleet (see {@link startFleet}). */
    fleet: (options: Omit<FleetOptions, 'receivers'>) => configureFleet(processes, options),
    close: () => Promise.all(processes.map((p) => p.exit())).then(() => {}),
  };
}

export interface FleetOptions {
  receivers: number;
  redisUrl?: string;
  windowMs: number;
  /** How long the order API takes to answer. */
  apiDelayMs?: number;
  commandTimeoutMs?: number;
  /** The coalescer's lease. Default 120 000 ms: a loaded test machine can stall a process for seconds. */
  leaseMs?: number;
}

export interface BurstResult {
  statuses: Record<number, number>;
  /** Order fetches during the burst, per order. */
  fetchesPerOrder: Map<string, number>;
  /** Orders whose last successful fetch did not start after their last notification was sent. */
  lost: string[];
  ms: number;
  /** The longest a notification waited in its receiver for the answer (ms, without the receiver's stalls). */
  slowestMs: number;
  /** When each notification arrived in its receiver, by order, over all receivers (ms, sorted). */
  arrivals: Map<string, number[]>;
  /** How long the storm took to arrive: first to last arrival over all orders (ms). */
  arrivalMs: number;
}

/** Boots `options.receivers` processes for this fleet alone; `stop()` ends them too. */
export async function startFleet(options: FleetOptions) {
  const pool = await startReceivers(options.receivers);
  const fleet = await configureFleet(pool.processes, options);
  return {
    ...fleet,
    stop: async () => {
      await fleet.stop();
      await pool.close();
    },
  };
}

export type Fleet = Awaited<ReturnType<typeof configureFleet>>;

async function configureFleet(receivers: ReceiverProcess[], options: Omit<FleetOptions, 'receivers'>) {
  const api = await startOrderApi(options.apiDelayMs ?? 50);
  const task: ReceiverTask = {
    kind: 'receiver',
    apiUrl: api.url,
    windowMs: options.windowMs,
    commandTimeoutMs: options.commandTimeoutMs ?? 5_000,
    leaseMs: options.leaseMs ?? 120_000,
    ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}),
  };
  await Promise.all(receivers.map((r) => r.serve(task)));
  // One socket per notification in flight: a receiver answers only once a round covering it finished,
  // so a socket cap (Node's default pool, or 256 per receiver) would hold the rest of the burst back
  // until the held order API opens, and the burst would arrive in slices, each one a round.
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

  const get = (url: string) =>
    new Promise<number>((resolve) => {
      const req = request(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', () => resolve(0));
      req.end();
    });

  const arrivedInAll = () => receivers.reduce((sum, r) => sum + r.arrived, 0);

  /** Opens the held order API once every notification sent has reached its receiver, plus `settleMs`. */
  async function openWhenArrived(open: () => void, expected: number, settleMs: number): Promise<void> {
    const giveUp = Date.now() + 600_000;
    let logged = 0;
    while (arrivedInAll() < expected && Date.now() < giveUp) {
      await new Promise((r) => setTimeout(r, 20));
      if (process.env.FLEET_DEBUG && Date.now() - logged > 1_000) {
        logged = Date.now();
        process.stderr.write(`fleet: ${arrivedInAll()}/${expected} arrived, ${api.fetches.length} fetches\n`);
      }
    }
    await new Promise((r) => setTimeout(r, settleMs));
    open();
  }

  /**
   * Sends `perReceiver` notifications for `orders` orders to every receiver, in `waves` waves spread
   * over `spreadMs`; `during()` runs once halfway. With `hold`, the order API answers nothing until
   * every notification has arrived (a storm on a busy upstream). Resolves when every one is answered.
   */
  async function burst(
    perReceiver: number,
    orders: number,
    spread: { waves: number; spreadMs: number; hold?: boolean },
    during?: () => Promise<void> | void,
  ): Promise<BurstResult> {
    const first = api.fetches.length;
    for (const r of receivers) {
      r.slowestMs = 0;
      r.arrivals = new Map();
    }
    const expected = arrivedInAll() + perReceiver * receivers.length;
    const opened = spread.hold ? openWhenArrived(api.hold(), expected, 300) : Promise.resolve();
    const started = Date.now();
    const lastSent = new Map<string, number>();
    const answers: Promise<number>[] = [];
    const perWave = Math.ceil(perReceiver / spread.waves);
    for (let wave = 0; wave < spread.waves; wave++) {
      if (wave === Math.floor(spread.waves / 2)) await during?.();
      for (const receiver of receivers) {
        for (let i = wave * perWave; i < Math.min(perReceiver, (wave + 1) * perWave); i++) {
          const order = orderRef(i % orders);
          lastSent.set(order, Date.now());
          const url = buildCallbackUrl(receiver.url, {
            environment: 'test',
            orderReference: `FLEET-${i % orders}`,
            orderReferenceV2: order,
            storeCode: 'FLEET',
          });
          answers.push(get(url));
        }
      }
      await new Promise((r) => setTimeout(r, spread.spreadMs / spread.waves));
    }
    const codes = await Promise.all(answers);
    await opened;
    await new Promise((r) => setTimeout(r, 100)); // the receivers' last reports (every 20 ms)
    const slowestMs = Math.max(...receivers.map((r) => r.slowestMs));
    const statuses: Record<number, number> = {};
    for (const code of codes) statuses[code] = (statuses[code] ?? 0) + 1;
    const fetches = api.fetches.slice(first);
    const fetchesPerOrder = new Map<string, number>();
    const lastFetch = new Map<string, number>();
    for (const f of fetches) {
      fetchesPerOrder.set(f.order, (fetchesPerOrder.get(f.order) ?? 0) + 1);
      lastFetch.set(f.order, Math.max(lastFetch.get(f.order) ?? 0, f.at));
    }
    const lost = [...lastSent].filter(([order, at]) => (lastFetch.get(order) ?? 0) < at).map(([o]) => o);
    const arrivals = new Map<string, number[]>();
    for (const r of receivers) {
      for (const [order, times] of r.arrivals)
        arrivals.set(order, [...(arrivals.get(order) ?? []), ...times]);
    }
    for (const times of arrivals.values()) times.sort((x, y) => x - y);
    const all = [...arrivals.values()].flat();
    const arrivalMs = all.length ? Math.max(...all) - Math.min(...all) : 0;
    return { statuses, fetchesPerOrder, lost, ms: Date.now() - started, slowestMs, arrivals, arrivalMs };
  }

  /** Closes this configuration: the receivers' servers and Redis clients, and the order API. */
  async function stop(): Promise<void> {
    agent.destroy();
    await Promise.all(receivers.map((r) => r.stop()));
    await api.close();
  }

  return { api, receivers, burst, stop };
}
