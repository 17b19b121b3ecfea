import type { DecisionInput } from '../domain/claims.ts';
import type { ShipInput } from '../domain/orders.ts';
import type { FaultSpec } from '../faults.ts';
import { FAULT_KINDS } from '../faults.ts';
import { MAX_CLAIMLINES, MAX_ORDERLINES, MAX_QUANTITY } from '../limits.ts';
import type { ClaimlineDecision, ShipmentlineRecord } from '../model.ts';
import type { Policy, PolicyName, RateLimitOption } from '../ratelimit.ts';
import { array, boolean, httpUrl, number, oneOf, onlyKeys, optional, record, string } from './check.ts';
import { invalidInput } from './error.ts';

/** Limits of control input (the control API refuses anything outside them with 400 `invalid_request`). */
export const CONTROL_LIMITS: {
  /** One clock advance: ten years. */
  readonly advanceMs: number;
  /** The virtual clock stays a valid date: up to the end of year 9999. */
  readonly latestTime: number;
  readonly renderProcessingMs: number;
  readonly rendertokenLimit: 1000000000;
  /** Injected latency, in real milliseconds: ten minutes. */
  readonly latencyMs: 600000;
  readonly faultCount: 1000000;
  /** Sandbox-time delays of faults (`commitDelayMs`, `lagMs`): 30 days. */
  readonly faultDelayMs: number;
  /** Rate-limit quota (tokens) and window (seconds). */
  readonly quota: 1000000000;
  readonly windowSeconds: 1000000000;
  readonly text: 1000;
  readonly reference: 200;
  readonly url: 2048;
} = {
  /** One clock advance: ten years. */
  advanceMs: 10 * 366 * 86_400_000,
  /** The virtual clock stays a valid date: up to the end of year 9999. */
  latestTime: Date.UTC(9999, 11, 31, 23, 59, 59),
  renderProcessingMs: 30 * 86_400_000,
  rendertokenLimit: 1_000_000_000,
  /** Injected latency, in real milliseconds: ten minutes. */
  latencyMs: 600_000,
  faultCount: 1_000_000,
  /** Sandbox-time delays of faults (`commitDelayMs`, `lagMs`): 30 days. */
  faultDelayMs: 30 * 86_400_000,
  /** Rate-limit quota (tokens) and window (seconds). */
  quota: 1_000_000_000,
  windowSeconds: 1_000_000_000,
  text: 1000,
  reference: 200,
  url: 2048,
} as const;

const TEXT = CONTROL_LIMITS.text;

export function parseAdvanceMs(ms: unknown, now: number): number {
  const value = number(ms, 'ms', { min: 0, max: CONTROL_LIMITS.advanceMs });
  if (now + value > CONTROL_LIMITS.latestTime) {
    throw invalidInput('advancing this far would move the clock past the year 9999');
  }
  return value;
}

export const parseReference = (value: unknown, name = 'reference'): string =>
  string(value, name, CONTROL_LIMITS.reference);

function parseShipLine(value: unknown, i: number): ShipmentlineRecord {
  const line = record(value, `lines[${i}]`);
  onlyKeys(line, `lines[${i}]`, ['orderlineIndex', 'quantity']);
  return {
    orderlineIndex: number(line.orderlineIndex, `lines[${i}].orderlineIndex`, {
      min: 0,
      max: MAX_ORDERLINES,
      integer: true,
    }),
    quantity: number(line.quantity, `lines[${i}].quantity`, { min: 1, max: MAX_QUANTITY, integer: true }),
  };
}

export function parseShipOptions(value: unknown): ShipInput {
  const options = record(value ?? {}, 'options');
  onlyKeys(options, 'options', ['lines', 'carrier', 'trackingCode', 'trackingUrl']);
  return {
    lines: optional(options.lines, (v) => array(v, 'lines', MAX_ORDERLINES).map(parseShipLine)),
    carrier: optional(options.carrier, (v) => string(v, 'carrier', 255)),
    trackingCode: optional(options.trackingCode, (v) => string(v, 'trackingCode', 255)),
    trackingUrl: optional(options.trackingUrl, (v) => httpUrl(v, 'trackingUrl', CONTROL_LIMITS.url)),
  };
}

const QUANTITY = { min: 0, max: MAX_QUANTITY, integer: true } as const;

function parseClaimlineDecision(value: unknown, i: number): Partial<ClaimlineDecision> {
  const name = `claimlines[${i}]`;
  const line = record(value, name);
  onlyKeys(line, name, ['replacementQuantity', 'refundQuantity', 'rejectionQuantity', 'comment']);
  return {
    replacementQuantity: optional(line.replacementQuantity, (v) =>
      number(v, `${name}.replacementQuantity`, QUANTITY),
    ),
    refundQuantity: optional(line.refundQuantity, (v) => number(v, `${name}.refundQuantity`, QUANTITY)),
    rejectionQuantity: optional(line.rejectionQuantity, (v) =>
      number(v, `${name}.rejectionQuantity`, QUANTITY),
    ),
    comment: optional(line.comment, (v) => string(v, `${name}.comment`, TEXT)),
  };
}

export function parseDecision(value: unknown): DecisionInput {
  const decision = record(value ?? {}, 'decision');
  onlyKeys(decision, 'decision', ['outcome', 'claimlines', 'refundShippingCosts', 'comment']);
  return {
    outcome: optional(decision.outcome, (v) =>
      oneOf(v, 'outcome', ['replacement', 'refund', 'rejection'] as const),
    ),
    claimlines: optional(decision.claimlines, (v) =>
      array(v, 'claimlines', MAX_CLAIMLINES).map(parseClaimlineDecision),
    ),
    refundShippingCosts: optional(decision.refundShippingCosts, (v) => boolean(v, 'refundShippingCosts')),
    comment: optional(decision.comment, (v) => string(v, 'comment', TEXT)),
  };
}

export const parseRenderProcessingMs = (ms: unknown): number =>
  number(ms, 'ms', { min: 0, max: CONTROL_LIMITS.renderProcessingMs });

export const parseRendertokenLimit = (limit: unknown): number =>
  number(limit, 'limit', { min: 0, max: CONTROL_LIMITS.rendertokenLimit, integer: true });

export const parseOrganization = (value: unknown): 'A' | 'B' | undefined =>
  optional(value, (v) => oneOf(v, 'organization', ['A', 'B'] as const));

/** A store's callback URL: an http(s) URL, or '' to turn callbacks off. */
export function parseCallbackUrl(value: unknown): string {
  if (value === '') return '';
  return httpUrl(value, 'url', CONTROL_LIMITS.url);
}

const POLICY_NAMES: readonly PolicyName[] = ['default', 'uploads', 'downloads'];

function parsePolicy(value: unknown, policyName: PolicyName): Partial<Policy> {
  const name = `invalid rate-limit policy ${policyName}:`;
  const policy = record(value, name);
  onlyKeys(policy, name, ['q', 'w']);
  return {
    q: optional(policy.q, (v) =>
      number(v, `${name} q`, { min: 1, max: CONTROL_LIMITS.quota, integer: true }),
    ),
    w: optional(policy.w, (v) => number(v, `${name} w`, { min: 0.001, max: CONTROL_LIMITS.windowSeconds })),
  };
}

/** `false` (limiting off) or partial policies `{ default?, uploads?, downloads? }` of `{ q?, w? }`. */
export function parseRateLimits(value: unknown): RateLimitOption {
  if (value === false) return false;
  const policies = record(value, 'rateLimits');
  onlyKeys(policies, 'rateLimits', POLICY_NAMES);
  const out: Partial<Record<PolicyName, Partial<Policy>>> = {};
  for (const name of POLICY_NAMES) {
    const policy = optional(policies[name], (v) => parsePolicy(v, name));
    if (policy) out[name] = policy;
  }
  return out;
}

const METHOD = /^[A-Za-z]{1,16}$/;

export function parseFaultSpec(value: unknown): FaultSpec {
  const spec = record(value, 'fault');
  onlyKeys(spec, 'fault', [
    'path',
    'method',
    'kind',
    'status',
    'latencyMs',
    'commitDelayMs',
    'answer',
    'lagMs',
    'count',
  ]);
  const kind = oneOf(spec.kind, 'kind', FAULT_KINDS);
  const oneRoute = kind === 'late-commit' || kind === 'lookup-lag';
  const path = oneRoute ? optional(spec.path, parsePath) : parsePath(spec.path);
  const method = optional(spec.method, (v) => string(v, 'method', 16));
  if (method !== undefined && !METHOD.test(method)) throw invalidInput('method must be an HTTP method name');
  const sandboxMs = { min: 0, max: CONTROL_LIMITS.faultDelayMs };
  return {
    path,
    method,
    kind,
    status:
      kind === 'status' ? optional(spec.status, (v) => oneOf(v, 'status', [500, 503] as const)) : undefined,
    latencyMs: optional(spec.latencyMs, (v) =>
      number(v, 'latencyMs', { min: 0, max: CONTROL_LIMITS.latencyMs }),
    ),
    commitDelayMs: optional(spec.commitDelayMs, (v) => number(v, 'commitDelayMs', sandboxMs)),
    answer: optional(spec.answer, (v) => oneOf(v, 'answer', ['drop', 'hang'] as const)),
    lagMs: optional(spec.lagMs, (v) => number(v, 'lagMs', sandboxMs)),
    count: optional(spec.count, (v) =>
      number(v, 'count', { min: 1, max: CONTROL_LIMITS.faultCount, integer: true }),
    ),
  };
}

function parsePath(value: unknown): string {
  const path = string(value, 'path', 512);
  if (!path.startsWith('/')) throw invalidInput('path must start with /');
  return path;
}
