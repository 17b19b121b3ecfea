// The main entry's telemetry: what createCore is given to trace and measure its calls and helpers.
import type { OperationSpan } from '../core.ts';
import type { OperationTable } from '../operations.ts';
import type { RateLimitParser } from '../response.ts';
import type { Limiter } from '../transport.ts';
import { operationSpan } from './operation.ts';
import { type TelemetryOption, telemetryScope } from './option.ts';
import { stackTelemetry } from './stack.ts';
import type { StackTelemetry } from './types.ts';

export { endSpan } from './operation.ts';
export { type TelemetryOption, type TelemetryScope, telemetryScope } from './option.ts';

export const CLIENT_SCOPE = '@partner-print/client';

/** What createCore is given to trace and measure its calls and helpers. */
export interface ClientTelemetry {
  option: TelemetryOption | undefined;
  stack: StackTelemetry & { limited: boolean };
  operation: (name: string) => OperationSpan | undefined;
  /**
   * The rate-limit layer as telemetry sees it: a queue the client sends through (its waits are measured), or a
   * `Scheduler` instance that sends on its own (each attempt's span starts when the attempt enters it).
   */
  limiter: (limiter: Limiter) => Limiter;
}

/** The client's telemetry for `option`, or undefined when it is `false`. */
export function clientTelemetry(
  option: TelemetryOption | undefined,
  secret: string,
  version: string,
  operations: OperationTable,
  parseRateLimit: RateLimitParser,
): ClientTelemetry | undefined {
  const scope = telemetryScope(option, CLIENT_SCOPE, version);
  if (!scope) return undefined;
  const templateOf = (operation: string) => operations[operation]?.path;
  const stack = stackTelemetry({ scope, secret, templateOf, parseRateLimit });
  return {
    option,
    stack,
    operation: (name: string) => operationSpan(scope, secret, name),
    limiter(limiter) {
      if (!limiter.own) {
        stack.limited = true;
        return limiter;
      }
      const traced = stack.transport((request) => limiter.fetch(request));
      return { ...limiter, fetch: (request) => traced(request) };
    },
  };
}
