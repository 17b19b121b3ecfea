import { describe, expect, it } from 'vitest';
import { rewriteTwice } from '../../test/rewrite.ts';

// Error handling written in forms other than a try's catch clause or a `.catch(fn)` callback, each reading the
// V1 library's error (axios's `err.response`): the V2 client throws a PartnerPrintError instead, so each call
// stays on V1, marked.
const HEAD = `import axios from 'axios';\nconst api = axios.create({ baseURL: 'https://api.partner-print.example/v1', headers: { 'X-Partner-Code': 'ACME', 'X-Api-Key': process.env.PP_API_KEY } });\n`;
const GET_ORDER = `async function getOrder(ref: string) {\n  const { data } = await api.get(\`/orders?partner_reference=\${ref}\`);\n  return data.reference;\n}\n`;

const tryAround = (call: string) =>
  `export async function show(ref: string) {\n  try {\n    return await ${call};\n  } catch (e: any) {\n    if (e.response?.status === 404) return null;\n    throw e;\n  }\n}\n`;

const marked = (code: string) => {
  const r = rewriteTwice(`${HEAD}${code}`);
  expect(r.findings.filter((f) => f.kind === 'rewritten')).toEqual([]);
  const call = r.findings.find((f) => f.what.startsWith('GET'));
  expect(call?.kind).toBe('todo');
  expect(call?.detail).toContain('PartnerPrintError');
  return call!.detail!;
};
const rewritten = (code: string) => {
  const r = rewriteTwice(`${HEAD}${code}`);
  expect(r.findings.filter((f) => f.kind === 'rewritten').map((f) => f.what)).toEqual([
    'GET /orders?partner_reference=… (axios)',
  ]);
};

describe('error handlers in other forms that read the V1 error', () => {
  it.each([
    [
      '.then(onOk, onErr) on a call of its function',
      `${GET_ORDER}export function show(ref: string) {\n  return getOrder(ref).then((r) => r, (err) => (err.response?.status === 404 ? null : Promise.reject(err)));\n}\n`,
      '.then',
    ],
    [
      '.then(undefined, onErr) on a call of an arrow constant',
      `const find = async (ref: string) => {\n  const { data } = await api.get(\`/orders?partner_reference=\${ref}\`);\n  return data.reference;\n};\nexport const show = (ref: string) => find(ref).then(undefined, (e) => e.response?.data);\n`,
      '`e.response`',
    ],
    [
      '.catch with a named handler of the file',
      `${GET_ORDER}function onError(err: any) {\n  return err.response?.status === 404 ? null : Promise.reject(err);\n}\nexport function show(ref: string) {\n  return getOrder(ref).catch(onError);\n}\n`,
      'onError',
    ],
    [
      '.then with a named error handler of the file',
      `${GET_ORDER}const onError = (err: any) => err.response?.data;\nexport function show(ref: string) {\n  return getOrder(ref).then((r) => r, onError);\n}\n`,
      'onError',
    ],
    [
      'a catch passing the error to a handler of the file',
      `${GET_ORDER}function handle(e: any) {\n  return e.response?.status === 404 ? null : Promise.reject(e);\n}\nexport async function show(ref: string) {\n  try {\n    return await getOrder(ref);\n  } catch (e) {\n    return handle(e);\n  }\n}\n`,
      'handle',
    ],
    [
      'Promise.allSettled, its results read for reason.response',
      `${GET_ORDER}export async function show(refs: string[]) {\n  const results = await Promise.allSettled(refs.map((r) => getOrder(r)));\n  return results.map((r) => (r.status === 'rejected' ? r.reason.response?.status : r.value));\n}\n`,
      'allSettled',
    ],
    [
      'Promise.allSettled over an async callback making the call',
      `export async function show(refs: string[]) {\n  const results = await Promise.allSettled(\n    refs.map(async (ref) => {\n      const { data } = await api.get(\`/orders?partner_reference=\${ref}\`);\n      return data.reference;\n    }),\n  );\n  return results.map((r: any) => (r.status === 'rejected' ? r.reason?.response?.status : r.value));\n}\n`,
      'allSettled',
    ],
    [
      'util.callbackify, its callback reading err.response',
      `import { callbackify } from 'node:util';\n${GET_ORDER}const getOrderCb = callbackify(getOrder);\nexport function show(ref: string, done: (e: unknown, r?: unknown) => void) {\n  getOrderCb(ref, (err: any, res: unknown) => {\n    if (err && err.response?.status === 404) return done(null, null);\n    done(err, res);\n  });\n}\n`,
      'callbackify',
    ],
    [
      "an Express route passing the error to next(), the file's error middleware reading err.response",
      `${GET_ORDER}export async function route(req: any, res: any, next: any) {\n  try {\n    res.json(await getOrder(req.params.ref));\n  } catch (e) {\n    next(e);\n  }\n}\nexport function onError(err: any, req: any, res: any, next: any) {\n  res.status(err.response?.status ?? 500).json(err.response?.data);\n}\n`,
      'next',
    ],
    [
      'an Express route with .catch(next), the error middleware reading err.response',
      `${GET_ORDER}export function route(req: any, res: any, next: any) {\n  getOrder(req.params.ref).then((o) => res.json(o)).catch(next);\n}\napp.use((err: any, req: any, res: any, _next: any) => {\n  res.status(err.response?.status ?? 500).json(err.response?.data);\n});\n`,
      'next',
    ],
    [
      'a promise kept in a variable, awaited later inside a try',
      `${GET_ORDER}export async function show(ref: string) {\n  const pending = getOrder(ref);\n  console.log('looking up', ref);\n  try {\n    return await pending;\n  } catch (e: any) {\n    if (e.response?.status === 404) return null;\n    throw e;\n  }\n}\n`,
      '`pending`',
    ],
    [
      'a promise kept in a variable, its .catch later',
      `${GET_ORDER}export function show(ref: string) {\n  const pending = getOrder(ref);\n  return pending.catch((e) => (e.response?.status === 404 ? null : Promise.reject(e)));\n}\n`,
      '`pending`',
    ],
    [
      'an await-to-js helper of the file, returning [err, value], err read for response',
      `${GET_ORDER}async function to<T>(p: Promise<T>) {\n  try {\n    return [null, await p] as const;\n  } catch (e) {\n    return [e, null] as const;\n  }\n}\nexport async function show(ref: string) {\n  const [err, order] = await to(getOrder(ref));\n  if ((err as any)?.response?.status === 404) return null;\n  return order;\n}\n`,
      'returns the error',
    ],
    [
      '.then(onOk, onErr) returning the error as a value, read for response',
      `${GET_ORDER}export async function show(ref: string) {\n  const [err, order] = await getOrder(ref).then((o) => [null, o], (e) => [e, null]);\n  if (err?.response?.status === 404) return null;\n  return order;\n}\n`,
      'returns the error',
    ],
    [
      'a function bound to another name (.bind), called inside a try',
      `${GET_ORDER}const find = getOrder.bind(null);\n${tryAround('find(ref)')}`,
      'find',
    ],
    [
      'a function assigned to another name, called inside a try',
      `${GET_ORDER}let find: typeof getOrder;\nfind = getOrder;\n${tryAround('find(ref)')}`,
      'find',
    ],
    [
      'a function put in an object, called as its method inside a try',
      `${GET_ORDER}const orders = { find: getOrder };\n${tryAround('orders.find(ref)')}`,
      'orders.find',
    ],
    [
      'a method named get of an object of the file, called inside a try',
      `const orders = {\n  async get(ref: string) {\n    const { data } = await api.get(\`/orders?partner_reference=\${ref}\`);\n    return data.reference;\n  },\n};\n${tryAround('orders.get(ref)')}`,
      'orders.get',
    ],
    [
      'a call inside a new Promise executor, the promise awaited inside a try',
      `${GET_ORDER}function find(ref: string) {\n  return new Promise((resolve, reject) => {\n    getOrder(ref).then(resolve, reject);\n  });\n}\n${tryAround('find(ref)')}`,
      'find',
    ],
    [
      "a catch matching the V1 library's message (includes)",
      `${GET_ORDER}export async function show(ref: string) {\n  try {\n    return await getOrder(ref);\n  } catch (e: any) {\n    if (e.message.includes('status code 404')) return null;\n    throw e;\n  }\n}\n`,
      '`e.message`',
    ],
    [
      "a catch matching the V1 library's message (a regular expression)",
      `${GET_ORDER}export function show(ref: string) {\n  return getOrder(ref).catch((err) => (/404/.test(err.message) ? null : Promise.reject(err)));\n}\n`,
      '`err.message`',
    ],
    [
      "a catch comparing the V1 library's message",
      `${GET_ORDER}export async function show(ref: string) {\n  try {\n    return await getOrder(ref);\n  } catch (e: any) {\n    if (e.message === 'Request failed with status code 404') return null;\n    throw e;\n  }\n}\n`,
      '`e.message`',
    ],
    [
      'a function passed by name to map, the Promise.all inside a try',
      `${GET_ORDER}export async function show(refs: string[]) {\n  try {\n    return await Promise.all(refs.map(getOrder));\n  } catch (e: any) {\n    if (e.response?.status === 404) return [];\n    throw e;\n  }\n}\n`,
      'map',
    ],
    [
      'a function passed by name to a retry helper of the file whose catch reads the error',
      `${GET_ORDER}async function withRetry<T>(fn: () => Promise<T>): Promise<T> {\n  for (let i = 0; ; i++) {\n    try {\n      return await fn();\n    } catch (e: any) {\n      if (i < 3 && e.response?.status >= 500) continue;\n      throw e;\n    }\n  }\n}\nexport const show = (ref: string) => withRetry(getOrder.bind(null, ref));\n`,
      'fn',
    ],
    [
      'Promise.allSettled over a function passed by name',
      `${GET_ORDER}export async function show(refs: string[]) {\n  const results = await Promise.allSettled(refs.map(getOrder));\n  return results.map((r) => (r.status === 'rejected' ? r.reason.response?.status : r.value));\n}\n`,
      'allSettled',
    ],
    [
      'an async Express route with no try (Express 5 passes its rejection on), the error middleware reading err.response',
      `${GET_ORDER}router.get('/orders/:ref', async (req: any, res: any) => {\n  res.json({ reference: await getOrder(req.params.ref) });\n});\napp.use((err: any, _req: any, res: any, _next: any) => {\n  res.status(err.response?.status ?? 500).end();\n});\n`,
      'error middleware',
    ],
    [
      'an Express route wrapped by an async handler helper, the error middleware reading err.response',
      `${GET_ORDER}router.get(\n  '/orders/:ref',\n  asyncHandler(async (req: any, res: any) => {\n    res.json({ reference: await getOrder(req.params.ref) });\n  }),\n);\nexport function onError(err: any, _req: any, res: any, _next: any) {\n  res.status(err.response?.status ?? 500).end();\n}\n`,
      'error middleware',
    ],
    [
      'a catch giving the error another name (a cast) and reading that',
      `${GET_ORDER}export async function show(ref: string) {\n  try {\n    return await getOrder(ref);\n  } catch (e) {\n    const err = e as AxiosError;\n    if (err.response?.status === 404) return null;\n    throw e;\n  }\n}\n`,
      '`err.response`',
    ],
    [
      'a catch destructuring the error in its body',
      `${GET_ORDER}export async function show(ref: string) {\n  try {\n    return await getOrder(ref);\n  } catch (e: any) {\n    const { response } = e;\n    if (response?.status === 404) return null;\n    throw e;\n  }\n}\n`,
      'destructures',
    ],
    [
      "a catch matching the message through String(…) (a fetch wrapper's own error, thrown on !res.ok)",
      `async function getOrder(ref: string) {\n  const res = await fetch(\`https://api.partner-print.example/v1/orders?partner_reference=\${ref}\`, { headers: { 'X-Partner-Code': 'ACME', 'X-Api-Key': process.env.PP_API_KEY ?? '' } });\n  if (!res.ok) throw new Error(\`HTTP \${res.status}\`);\n  const order = await res.json();\n  return order.order_reference;\n}\nexport async function show(ref: string) {\n  try {\n    return await getOrder(ref);\n  } catch (err: any) {\n    if (String(err.message).startsWith('HTTP 4')) return null;\n    throw err;\n  }\n}\n`,
      '`err.message`',
    ],
    [
      'a catch matching the error as a string',
      `${GET_ORDER}export function show(ref: string) {\n  return getOrder(ref).catch((err) => (String(err).includes('404') ? null : Promise.reject(err)));\n}\n`,
      'text',
    ],
    [
      "an error emitted as 'error' to a listener of the file that reads err.response",
      `import { EventEmitter } from 'node:events';\n${GET_ORDER}export const events = new EventEmitter();\nevents.on('error', (err: any) => {\n  if (err.response?.status === 404) console.warn('unknown order');\n});\nexport function show(ref: string) {\n  return getOrder(ref).catch((e) => events.emit('error', e));\n}\n`,
      "emits it as 'error'",
    ],
    [
      'an error emitted from a catch, the listener a named function of the file',
      `import { EventEmitter } from 'node:events';\n${GET_ORDER}function onFailure(ref: string, err: any) {\n  return err.response?.data;\n}\nexport class Sync extends EventEmitter {\n  constructor() {\n    super();\n    this.on('failed', onFailure);\n  }\n  async run(ref: string) {\n    try {\n      return await getOrder(ref);\n    } catch (e) {\n      this.emit('failed', ref, e);\n    }\n  }\n}\n`,
      "emits it as 'failed'",
    ],
    [
      "a process-level 'unhandledRejection' handler reading reason.response, the call not handled where it is made",
      `${GET_ORDER}process.on('unhandledRejection', (reason: any) => {\n  console.error('V1 said', reason?.response?.status);\n});\nexport function show(ref: string) {\n  return getOrder(ref);\n}\n`,
      'unhandledRejection',
    ],
    [
      "a process-level 'uncaughtException' handler reading err.response, a catch on the way rethrowing",
      `${GET_ORDER}process.on('uncaughtException', (err: any) => {\n  console.error(err.response?.data);\n  process.exit(1);\n});\nexport async function show(ref: string) {\n  try {\n    return await getOrder(ref);\n  } catch (e: any) {\n    console.error(e.message);\n    throw e;\n  }\n}\n`,
      'uncaughtException',
    ],
    [
      'a promise kept in an object, its entry .catch-ed later',
      `${GET_ORDER}export function show(ref: string) {\n  const jobs = { order: getOrder(ref), at: Date.now() };\n  return jobs.order.catch((e) => (e.response?.status === 404 ? null : Promise.reject(e)));\n}\n`,
      'kept in `jobs`',
    ],
    [
      'promises kept in an array, Promise.all of it awaited in a try',
      `${GET_ORDER}export async function show(a: string, b: string) {\n  const pending = [getOrder(a), getOrder(b)];\n  try {\n    return await Promise.all(pending);\n  } catch (e: any) {\n    if (e.response?.status === 404) return [];\n    throw e;\n  }\n}\n`,
      'kept in `pending`',
    ],
    [
      'promises pushed into an array, each awaited in a try in a for … of',
      `${GET_ORDER}export async function show(refs: string[]) {\n  const pending: Promise<string>[] = [];\n  for (const ref of refs) pending.push(getOrder(ref));\n  const out: (string | null)[] = [];\n  for (const p of pending) {\n    try {\n      out.push(await p);\n    } catch (e: any) {\n      out.push(e.response?.status === 404 ? null : 'error');\n    }\n  }\n  return out;\n}\n`,
      'kept in `pending`',
    ],
    [
      'a promise kept in a Map, its entry .catch-ed later',
      `${GET_ORDER}const inFlight = new Map<string, Promise<string>>();\nexport function start(ref: string) {\n  inFlight.set(ref, getOrder(ref));\n}\nexport function result(ref: string) {\n  return inFlight.get(ref)?.catch((e) => e.response?.data);\n}\n`,
      'kept in `inFlight`',
    ],
    [
      'a promise assigned to an entry of an object, the entries mapped to .catch later',
      `${GET_ORDER}const jobs: Record<string, Promise<string>> = {};\nexport function start(ref: string) {\n  jobs[ref] = getOrder(ref);\n}\nexport function settle() {\n  return Object.values(jobs).map((p) => p.catch((e) => e.response?.status));\n}\n`,
      'kept in `jobs`',
    ],
    [
      "Bluebird's .asCallback, its callback reading err.response",
      `import Bluebird from 'bluebird';\n${GET_ORDER}export function show(ref: string, done: (e: unknown, r?: unknown) => void) {\n  Bluebird.resolve(getOrder(ref)).asCallback((err: any, res: unknown) => {\n    if (err?.response?.status === 404) return done(null, null);\n    done(err, res);\n  });\n}\n`,
      'asCallback',
    ],
    [
      "Bluebird's .nodeify given the caller's callback, which reads err.response",
      `import Bluebird from 'bluebird';\n${GET_ORDER}function getOrderCb(ref: string, cb: (e: any, r?: string) => void) {\n  return Bluebird.resolve(getOrder(ref)).nodeify(cb);\n}\nexport function show(ref: string) {\n  getOrderCb(ref, (err, reference) => console.log(err ? err.response?.status : reference));\n}\n`,
      'nodeify hands it to the callback given to `getOrderCb`',
    ],
    [
      "Bluebird's filtered .catch on an error class",
      `import Bluebird from 'bluebird';\nimport { AxiosError } from 'axios';\n${GET_ORDER}export function show(ref: string) {\n  return Bluebird.resolve(getOrder(ref)).catch(AxiosError, () => null);\n}\n`,
      'filters on `AxiosError`',
    ],
    [
      'a .catch given a handler its function takes as a parameter, the caller passing one that reads err.response',
      `${GET_ORDER}function find(ref: string, onError: (e: any) => unknown) {\n  return getOrder(ref).catch(onError);\n}\nexport const show = (ref: string) => find(ref, (e) => (e.response?.status === 404 ? null : Promise.reject(e)));\n`,
      'the callback given to `find`',
    ],
    [
      'an error emitted under an event named by a constant object, the listener naming it through an enum',
      `import { EventEmitter } from 'node:events';\n${GET_ORDER}const EVENTS = { failed: 'order-failed' };\nenum Names {\n  Failed = 'order-failed',\n}\nexport const bus = new EventEmitter();\nbus.on(Names.Failed, (err: any) => console.warn(err.response?.status));\nexport function show(ref: string) {\n  return getOrder(ref).catch((e) => bus.emit(EVENTS.failed, e));\n}\n`,
      "emits it as 'order-failed'",
    ],
    [
      'an error emitted under an event named at run time, a listener of the file reading err.response',
      `import { EventEmitter } from 'node:events';\n${GET_ORDER}export const bus = new EventEmitter();\nbus.on('order-failed', (err: any) => console.warn(err.response?.status));\nexport function show(ref: string, event: string) {\n  return getOrder(ref).catch((e) => bus.emit(event, e));\n}\n`,
      'to a listener that',
    ],
    [
      "a .catch handing the error to the callback its function is given, a caller's callback reading err.response",
      `${GET_ORDER}function find(ref: string, cb: (e: any, r?: string) => void) {\n  getOrder(ref)\n    .then((r) => cb(null, r))\n    .catch((err) => cb(err));\n}\nexport function show(ref: string) {\n  find(ref, (err, reference) => console.log(err ? err.response?.status : reference));\n}\n`,
      'the callback given to `find`',
    ],
    [
      'a class passing the error to its own method (this.handleError(e)), which reads err.response',
      `export class Orders {\n  private api = api;\n  handleError(err: any) {\n    if (err.response?.status === 404) return null;\n    throw err;\n  }\n  async find(ref: string) {\n    try {\n      const { data } = await api.get(\`/orders?partner_reference=\${ref}\`);\n      return data.reference;\n    } catch (e) {\n      return this.handleError(e);\n    }\n  }\n}\n`,
      'this.handleError',
    ],
    [
      '.catch(this.onError.bind(this)), the method reading err.response',
      `export class Orders {\n  onError(err: any) {\n    return err.response?.data;\n  }\n  find(ref: string) {\n    return api.get(\`/orders?partner_reference=\${ref}\`).then((r) => r.data.reference).catch(this.onError.bind(this));\n  }\n}\n`,
      'this.onError',
    ],
    [
      'a .catch whose handler is chosen by a condition, one branch reading err.response',
      `${GET_ORDER}function onError(err: any) {\n  return err.response?.status === 404 ? null : Promise.reject(err);\n}\nexport function show(ref: string, strict: boolean) {\n  return getOrder(ref).catch(strict ? (e: Error) => Promise.reject(e) : onError);\n}\n`,
      'onError',
    ],
    [
      '.catch(handlers[kind]), one handler of a constant object of the file reading err.response',
      `${GET_ORDER}function onMissing(err: any) {\n  return err.response?.status === 404 ? null : Promise.reject(err);\n}\nconst handlers = { strict: (e: Error) => Promise.reject(e), lenient: onMissing };\nexport function show(ref: string, kind: 'strict' | 'lenient') {\n  return getOrder(ref).catch(handlers[kind]);\n}\n`,
      'onMissing',
    ],
    [
      'a catch calling handlers[kind](e), a method of a constant object of the file reading e.response',
      `${GET_ORDER}const handlers = {\n  log(e: any) {\n    console.error(e.message);\n  },\n  notFound(e: any) {\n    return e.response?.status === 404 ? null : undefined;\n  },\n};\nexport async function show(ref: string, kind: keyof typeof handlers) {\n  try {\n    return await getOrder(ref);\n  } catch (e) {\n    return handlers[kind](e);\n  }\n}\n`,
      'e.response',
    ],
  ])('%s: marked, not rewritten', (_, code, named) => {
    expect(marked(code)).toContain(named);
  });

  it.each([
    [
      '.then(onOk, onErr) whose handler logs the message',
      `${GET_ORDER}export function show(ref: string) {\n  return getOrder(ref).then((r) => r, (err) => {\n    console.error(err.message);\n    return null;\n  });\n}\n`,
    ],
    [
      'a named handler that only logs',
      `${GET_ORDER}function onError(err: any) {\n  console.error('failed', err.message);\n  return null;\n}\nexport function show(ref: string) {\n  return getOrder(ref).catch(onError);\n}\n`,
    ],
    [
      'next(e) with no error middleware reading the V1 error in the file',
      `${GET_ORDER}export async function route(req: any, res: any, next: any) {\n  try {\n    res.json(await getOrder(req.params.ref));\n  } catch (e) {\n    next(e);\n  }\n}\n`,
    ],
    [
      'Promise.allSettled whose reasons are only logged',
      `${GET_ORDER}export async function show(refs: string[]) {\n  const results = await Promise.allSettled(refs.map((r) => getOrder(r)));\n  for (const r of results) if (r.status === 'rejected') console.error(r.reason.message);\n  return results.length;\n}\n`,
    ],
    [
      'a handler returning the error in a file that reads no V1 error',
      `${GET_ORDER}export async function show(ref: string) {\n  const [err, order] = await getOrder(ref).then((o) => [null, o], (e) => [e, null]);\n  if (err) console.error((err as Error).message);\n  return order;\n}\n`,
    ],
    [
      'a promise kept in a variable, awaited in a try that only logs',
      `${GET_ORDER}export async function show(ref: string) {\n  const pending = getOrder(ref);\n  try {\n    return await pending;\n  } catch (e: any) {\n    console.error(e.message);\n    return null;\n  }\n}\n`,
    ],
    [
      'a catch putting the message in a log line and an error of its own',
      `${GET_ORDER}export async function show(ref: string) {\n  try {\n    return await getOrder(ref);\n  } catch (e: any) {\n    console.error(\`lookup failed: \${e.message}\`);\n    throw new Error('lookup failed: ' + e.message);\n  }\n}\n`,
    ],
    [
      'an async Express route with no error middleware reading the V1 error',
      `${GET_ORDER}router.get('/orders/:ref', async (req: any, res: any) => {\n  res.json({ reference: await getOrder(req.params.ref) });\n});\n`,
    ],
    [
      'a catch destructuring only the message',
      `${GET_ORDER}export async function show(ref: string) {\n  try {\n    return await getOrder(ref);\n  } catch (e: any) {\n    const { message } = e;\n    console.error(message);\n    return null;\n  }\n}\n`,
    ],
    [
      "an error emitted as 'error' to a listener that only logs its message",
      `import { EventEmitter } from 'node:events';\n${GET_ORDER}export const events = new EventEmitter();\nevents.on('error', (err: any) => console.error(err.message));\nexport function show(ref: string) {\n  return getOrder(ref).catch((e) => events.emit('error', e));\n}\n`,
    ],
    [
      "a process-level 'unhandledRejection' handler reading reason.response, the call in a try whose catch throws nothing",
      `${GET_ORDER}process.on('unhandledRejection', (reason: any) => console.error(reason?.response?.status));\nexport async function show(ref: string) {\n  try {\n    return await getOrder(ref);\n  } catch (e: any) {\n    console.error(e.message);\n    return null;\n  }\n}\n`,
    ],
    [
      'a promise kept in an object, its entry .catch-ed by a handler that only logs',
      `${GET_ORDER}export function show(ref: string) {\n  const jobs = { order: getOrder(ref) };\n  return jobs.order.catch((e) => {\n    console.error(e.message);\n    return null;\n  });\n}\n`,
    ],
    [
      "Bluebird's .asCallback, its callback only logging the message",
      `import Bluebird from 'bluebird';\n${GET_ORDER}export function show(ref: string, done: (e: unknown, r?: unknown) => void) {\n  Bluebird.resolve(getOrder(ref)).asCallback((err: any, res: unknown) => {\n    if (err) console.error(err.message);\n    done(null, res ?? null);\n  });\n}\n`,
    ],
    [
      "an error emitted as 'error', a listener of another event reading err.response",
      `import { EventEmitter } from 'node:events';\n${GET_ORDER}export const bus = new EventEmitter();\nbus.on('order-failed', (err: any) => console.warn(err.response?.status));\nexport function show(ref: string) {\n  return getOrder(ref).catch((e) => bus.emit('error', e));\n}\n`,
    ],
    [
      '.catch(handlers[kind]), every handler of the constant object only logging the message',
      `${GET_ORDER}const handlers = { quiet: () => null, loud: (e: Error) => console.error(e.message) };\nexport function show(ref: string, kind: 'quiet' | 'loud') {\n  return getOrder(ref).catch(handlers[kind]);\n}\n`,
    ],
  ])('%s: rewritten', (_, code) => {
    rewritten(code);
  });
});
