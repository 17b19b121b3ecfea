// @partner-print/client/telemetry: what the SDK's other packages (render, callback, migrate) share with the
// client to emit their own spans and metrics under the same `telemetry` option.

export { telemetryOf } from './core.ts';
export { endSpan, type TelemetryOption, type TelemetryScope, telemetryScope } from './telemetry/index.ts';
