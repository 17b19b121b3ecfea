/**
 * Contract checks: every response the sandbox sends in the suite is validated against the
 * bundled OpenAPI document of @partner-print/openapi (status, content type, body schema,
 * required headers, rate-limit headers). A mismatch throws, failing the test that caused it.
 * Exercised operation/status pairs are recorded for the coverage report of globalSetup.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { spec } from '@partner-print/openapi';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect, inject } from 'vitest';
import type { Sandbox } from '../src/index.ts';
import { type Json, resolve } from './spec-walk.ts';

const SPEC_ID = 'https://partner-print.invalid/openapi.json';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface Operation {
  id: string;
  method: string;
  template: string;
  pattern: RegExp;
  pointer: string;
  op: Json;
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats.default(ajv);
ajv.addSchema(spec as unknown as Json, SPEC_ID);

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

export const operations: Operation[] = [];
for (const [template, item] of Object.entries(spec.paths)) {
  for (const method of METHODS) {
    const op = (item as Json)[method] as Json | undefined;
    if (!op) continue;
    const source = template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{[^}]+\\\}/g, '[^/]+');
    operations.push({
      id: op.operationId as string,
      method: method.toUpperCase(),
      template,
      pattern: new RegExp(`^${source}$`),
      pointer: `#/paths/${escapePointer(template)}/${method}`,
      op,
    });
  }
}

const validators = new Map<string, ValidateFunction>();
function validator(pointer: string): ValidateFunction {
  let v = validators.get(pointer);
  if (!v) {
    v = ajv.compile({ $ref: `${SPEC_ID}${pointer}` });
    validators.set(pointer, v);
  }
  return v;
}

export function findOperation(method: string, path: string): Operation | undefined {
  return operations.find((o) => o.method === method && o.pattern.test(path));
}

function statusKey(op: Operation, status: number): string | undefined {
  const responses = op.op.responses as Json;
  if (String(status) in responses) return String(status);
  const range = `${String(status)[0]}XX`;
  if (range in responses) return range;
  if ('default' in responses) return 'default';
  return undefined;
}

const SF_LIST =
  /^"[a-z0-9_\-.*]+"(;[a-z*][a-z0-9_\-.*]*=-?\d+)+(, "[a-z0-9_\-.*]+"(;[a-z*][a-z0-9_\-.*]*=-?\d+)+)*$/;

const seen = new Set<string>();
function record(entry: string) {
  if (seen.has(entry)) return;
  seen.add(entry);
  let dir: string | undefined;
  try {
    dir = inject('contractDir');
  } catch {
    dir = undefined;
  }
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, `${process.pid}.log`), `${entry}\n`);
}

export class ContractError extends Error {
  override name = 'ContractError';
}

/** A header value as JSON Schema sees it: a number when the schema wants one and the text is numeric. */
function headerValue(schema: Json, text: string): unknown {
  const numeric = schema.type === 'integer' || schema.type === 'number';
  return numeric && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

/**
 * Each header the response documents: required ones must be there; every one present is validated against its
 * schema and recorded for the coverage table.
 */
function checkHeaders(
  op: Operation,
  res: Json,
  resPointer: string,
  response: Response,
  where: string,
  options: { rateLimited: boolean },
) {
  for (const [name, header] of Object.entries((res.headers as Json | undefined) ?? {})) {
    const [h, pointer] = resolve(header as Json, `${resPointer}/headers/${escapePointer(name)}`);
    const value = response.headers.get(name);
    // With `rateLimits: false` (a sandbox option) there are no buckets, so no rate-limit headers.
    const rateLimitHeader = /^x-ratelimit/i.test(name);
    if (value === null) {
      if (h.required === true && !(rateLimitHeader && !options.rateLimited)) {
        throw new ContractError(`${where}: required header ${name} missing`);
      }
      continue;
    }
    const validate = validator(`${pointer}/schema`);
    if (!validate(headerValue(h.schema as Json, value))) {
      throw new ContractError(
        `${where}: header ${name}: ${value} does not match: ${ajv.errorsText(validate.errors)}`,
      );
    }
    record(`${op.id} header ${name}`);
  }
}

/** Checks one response of the V2 API against the spec; returns the operation id. */
export async function checkResponse(
  request: Request,
  response: Response,
  options: { rateLimited: boolean },
): Promise<string> {
  const url = new URL(request.url);
  const path = url.pathname.replace(/^\/v2/, '');
  const op = findOperation(request.method, path);
  const where = `${request.method} ${url.pathname} → ${response.status}`;
  if (!op) throw new ContractError(`${where}: no operation in the spec`);
  const key = statusKey(op, response.status);
  if (!key) throw new ContractError(`${where}: status not documented for ${op.id}`);
  const responsesPointer = `${op.pointer}/responses/${key}`;
  const [res, resPointer] = resolve((op.op.responses as Json)[key] as Json, responsesPointer);

  checkHeaders(op, res, resPointer, response, where, options);
  if (response.status === 429 || response.status === 202) {
    const ra = response.headers.get('retry-after');
    if (ra === null || !/^\d+$/.test(ra))
      throw new ContractError(`${where}: Retry-After must be whole seconds`);
  }
  if (response.status !== 401 && options.rateLimited) {
    for (const name of ['X-RateLimit-Policy', 'X-RateLimit']) {
      const value = response.headers.get(name);
      if (value === null) throw new ContractError(`${where}: ${name} missing on an authenticated response`);
      if (!SF_LIST.test(value))
        throw new ContractError(`${where}: ${name} is not a structured-field list: ${value}`);
    }
  }

  const content = res.content as Json | undefined;
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const body = new Uint8Array(await response.clone().arrayBuffer());
  if (!content) {
    if (body.length > 0)
      throw new ContractError(`${where}: expected an empty body, got ${body.length} bytes`);
  } else if ('application/json' in content) {
    if (type !== 'application/json') throw new ContractError(`${where}: content type ${type}, expected JSON`);
    const data: unknown = JSON.parse(new TextDecoder().decode(body));
    const validate = validator(`${resPointer}/content/application~1json/schema`);
    if (!validate(data)) {
      throw new ContractError(
        `${where}: body does not match the ${op.id} ${key} schema: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(data).slice(0, 500)}`,
      );
    }
  } else if ('application/octet-stream' in content) {
    // Binary downloads: the sandbox sends the file's own type, which the spec must declare; a spec that declares
    // only application/octet-stream leaves the type open.
    const declared = Object.keys(content);
    const open = declared.length === 1;
    if (!type || type === 'application/json' || (!open && !declared.includes(type))) {
      throw new ContractError(`${where}: content type ${type}, the spec declares ${declared.join(', ')}`);
    }
    if (body.length === 0) throw new ContractError(`${where}: empty file`);
  }
  record(`${op.id} ${key}`);
  return op.id;
}

/** Checks a legacy callback URL's query against the spec's `webhooks.orderUpdated` parameters. */
export function checkCallbackUrl(url: URL): void {
  const hook = (spec.webhooks.orderUpdated as Json).get as Json;
  for (const [i, param] of (hook.parameters as Json[]).entries()) {
    const [p, pointer] = resolve(param, `#/webhooks/orderUpdated/get/parameters/${i}`);
    if (p.in !== 'query') continue;
    const name = p.name as string;
    const values = url.searchParams.getAll(name);
    if (values.length === 0) {
      if (p.required === true)
        throw new ContractError(`callback: required parameter ${name} missing in ${url}`);
      continue;
    }
    if (values.length > 1) throw new ContractError(`callback: parameter ${name} repeated in ${url}`);
    const validate = validator(`${pointer}/schema`);
    if (!validate(values[0])) {
      throw new ContractError(
        `callback: ${name}=${values[0]} does not match: ${ajv.errorsText(validate.errors)}`,
      );
    }
  }
  record('orderUpdated (webhook) GET');
}

/** A fetch that validates every /v2 response it gets from the sandbox. */
export function contractFetch(sandbox: Sandbox) {
  return async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request =
      input instanceof Request
        ? new Request(input, init)
        : new Request(new URL(String(input), sandbox.baseUrl), init);
    const response = await sandbox.fetch(request.clone());
    if (new URL(request.url).pathname.startsWith('/v2/') && !response.headers.has('x-sandbox-fault')) {
      await checkResponse(request, response, { rateLimited: sandbox.control.rateLimits() !== false });
    }
    return response;
  };
}

type Key = 'primary' | 'secondary' | 'other' | null | string;

/** Small request helpers over the contract-checked fetch. */
export function api(sandbox: Sandbox, defaultKey: Key = 'primary') {
  const f = contractFetch(sandbox);
  const headersFor = (key: Key, extra?: HeadersInit) => {
    const h = new Headers(extra);
    const k = key === null ? null : (sandbox.keys[key as 'primary'] ?? key);
    if (k) h.set('X-Service-Secret-Key', k);
    return h;
  };
  const url = (path: string) => `${sandbox.baseUrl}${path}`;
  return {
    fetch: f,
    raw: (path: string, init: RequestInit = {}, key: Key = defaultKey) =>
      f(url(path), { ...init, headers: headersFor(key, init.headers) }),
    get: (path: string, key: Key = defaultKey) => f(url(path), { headers: headersFor(key) }),
    post: (path: string, body?: unknown, key: Key = defaultKey) =>
      f(url(path), {
        method: 'POST',
        headers: headersFor(key, body === undefined ? {} : { 'Content-Type': 'application/json' }),
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    upload: (path: '/images' | '/evidence', bytes: Uint8Array, key: Key = defaultKey) =>
      f(url(path), {
        method: 'POST',
        headers: headersFor(key, { 'Content-Type': 'application/octet-stream' }),
        body: bytes as Uint8Array<ArrayBuffer>,
      }),
  };
}

export async function json<T = Json>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** The reference's error body: `{ code, message }`, both strings (`what` names the case in a failure). */
export async function expectErrorBody(response: Response, what?: string): Promise<void> {
  const body = await json<{ code: unknown; message: unknown }>(response);
  expect(typeof body.code, what).toBe('string');
  expect(typeof body.message, what).toBe('string');
}
