import { AmbiguousOutcomeError, PartnerPrintError, type PartnerPrintErrorInit } from '../errors.ts';

/** One thing createOrder did for one order, with what it learned. `at` is ms since the call started. */
export type OrderStep =
  | {
      kind: 'post';
      attempt: number;
      at: number;
      /** created: answered with a reference; refused: a definite error; unknown: the order may exist. */
      outcome: 'created' | 'refused' | 'unknown';
      detail: string;
    }
  | {
      kind: 'lookup';
      at: number;
      /** absent: no order has the identifier; same/other: an order with this/other content has it. */
      answer: 'absent' | 'same' | 'other' | 'failed';
      orderReference?: string;
      detail?: string;
    };

const describeError = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);
const seconds = (ms: number) => `+${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

/** The steps of one createOrder call, told in its errors. */
export class OrderHistory {
  readonly steps: OrderStep[] = [];
  // Declared, not defined: a class field declaration would be emitted beside each assignment.
  declare readonly customIdentifier: string | undefined;
  declare private readonly start: number;
  /** POSTs sent so far, counted when each is sent (a step is added once its outcome is known). */
  declare sent: number;
  constructor(customIdentifier: string | undefined, start: number) {
    this.customIdentifier = customIdentifier;
    this.start = start;
    this.sent = 0;
  }

  post(attempt: number, now: number, outcome: 'created' | 'refused' | 'unknown', detail: unknown): void {
    const text = typeof detail === 'string' ? detail : describeError(detail);
    this.steps.push({ kind: 'post', attempt, at: now - this.start, outcome, detail: text });
  }

  lookup(now: number, answer: 'absent' | 'same' | 'other' | 'failed', detail?: string | Error): void {
    const step: OrderStep = { kind: 'lookup', at: now - this.start, answer };
    if (typeof detail === 'string') step.orderReference = detail;
    else if (detail) step.detail = describeError(detail);
    this.steps.push(step);
  }

  /** A copy of the steps so far, for an error while the call goes on. */
  snapshot(): OrderHistory {
    const copy = new OrderHistory(this.customIdentifier, this.start);
    copy.steps.push(...this.steps);
    return copy;
  }

  /** "POST 1 (+0.00 s): unknown (TimeoutError: …); 11 lookups (+0.00 s … +30.0 s): absent; …" */
  describe(): string {
    const parts: string[] = [];
    for (let i = 0; i < this.steps.length; i++) {
      const s = this.steps[i]!;
      if (s.kind === 'post') {
        parts.push(`POST ${s.attempt} (${seconds(s.at)}): ${s.outcome} (${s.detail})`);
        continue;
      }
      let j = i;
      const same = (t: OrderStep | undefined) =>
        t?.kind === 'lookup' && t.answer === s.answer && t.orderReference === s.orderReference;
      while (same(this.steps[j + 1])) j++;
      const last = this.steps[j]!;
      const answer = `${s.answer}${s.orderReference ? ` ${s.orderReference}` : ''}${s.detail ? ` (${s.detail})` : ''}`;
      parts.push(
        j === i
          ? `lookup (${seconds(s.at)}): ${answer}`
          : `${j - i + 1} lookups (${seconds(s.at)} … ${seconds(last.at)}): ${answer}`,
      );
      i = j;
    }
    return parts.join('; ');
  }
}

const subject = (h: OrderHistory) =>
  `createOrder${h.customIdentifier === undefined ? '' : ` (customIdentifier ${JSON.stringify(h.customIdentifier)})`}`;

const fieldsOf = (cause: unknown): PartnerPrintErrorInit => {
  if (!(cause instanceof PartnerPrintError)) return { cause };
  const { status, operation, method, path, requestId } = cause;
  return { status, operation, method, path, requestId, cause };
};

/** The order may or may not exist: what is known is in the message and in `history`. */
export class AmbiguousOrderError extends AmbiguousOutcomeError {
  declare readonly history: readonly OrderStep[];
  constructor(history: OrderHistory, reason: string, cause: unknown) {
    super(
      `${subject(history)}: the outcome is unknown, ${reason}. What is known: ${history.describe()}. Last cause: ${describeError(cause)}`,
      fieldsOf(cause),
    );
    this.history = history.steps;
  }
}

/**
 * Every attempt failed and none created the order (each was refused, or the lookup found nothing after
 * the settle window): safe to try again. The class and code are the last failure's.
 */
export function notCreated(history: OrderHistory, cause: unknown, reason: string): PartnerPrintError {
  const message = `${subject(history)}: nothing was created (${reason}). What is known: ${history.describe()}`;
  const Class =
    cause instanceof PartnerPrintError
      ? (cause.constructor as new (
          m: string,
          i: PartnerPrintErrorInit,
        ) => PartnerPrintError)
      : PartnerPrintError;
  const code = cause instanceof PartnerPrintError ? cause.code : undefined;
  const error = new Class(message, { ...fieldsOf(cause), ...(code ? { code } : {}) });
  return error;
}
