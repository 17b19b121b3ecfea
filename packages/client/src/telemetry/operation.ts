// The INTERNAL span of a helper that makes several calls (createOrder, paginate, uploadImage…): the calls'
// own spans nest under it through the active context.
import { type Attributes, context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { OperationSpan } from '../core.ts';
import { PartnerPrintError } from '../errors.ts';
import { isError, redactText } from '../redact.ts';
import type { TelemetryScope } from './option.ts';

/**
 * An INTERNAL span named `name`, child of the active span; its `run` makes it the active one. Undefined when
 * the span records nothing (no SDK, or sampled out): the calls then see the caller's context, which decides
 * the same for them, and the helper pays for no context switch.
 */
export function operationSpan(
  scope: TelemetryScope,
  secret: string,
  name: string,
): OperationSpan | undefined {
  const parent = context.active();
  const span = scope.tracer.startSpan(name, { kind: SpanKind.INTERNAL }, parent);
  if (!span.isRecording()) return undefined;
  const ctx = trace.setSpan(parent, span);
  return {
    run: (fn) => context.with(ctx, fn),
    event: (event: string, attributes?: Attributes) => span.addEvent(event, attributes),
    end: (error?: unknown) => endSpan(span, secret, error),
  };
}

/** Ends `span`, with error status, `error.type` (the SDK error's code) and the redacted message on a failure. */
export function endSpan(span: Span, secret: string, error?: unknown): void {
  if (error !== undefined && span.isRecording()) {
    const code = error instanceof PartnerPrintError && error.code ? error.code : undefined;
    const name = isError(error) ? error.name : '_OTHER';
    span.setAttribute('error.type', redactText(code ?? name, secret));
    const message = isError(error) ? redactText(error.message, secret) : undefined;
    span.setStatus({ code: SpanStatusCode.ERROR, ...(message && { message }) });
  }
  span.end();
}
